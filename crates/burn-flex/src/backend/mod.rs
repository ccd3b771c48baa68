//! `Flex`: the backend contract implemented over [`FlexTensor`]. Float, int, bool and quantized
//! primitives are all `FlexTensor`s; each ops trait lives in its own file and forwards to
//! `crate::ops` (and `crate::kernels` for the module operations).

/// Writes trait methods that hand their arguments unchanged to a function of `crate::ops`
/// (the common case; methods that adapt arguments are written out).
macro_rules! delegate {
    ($(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty => $target:path;)*) => {$(
        fn $name($($arg: $ty),*) -> $ret {
            $target($($arg),*)
        }
    )*};
}

mod activation;
mod bool;
mod float;
mod int;
mod module;

use crate::FlexTensor;
use crate::ops::{creation, random};
use burn_backend::ops::{QTensorOps, TransactionOps};
use burn_backend::quantization::ComposedQTensor;
use burn_backend::{
    Backend, BackendTypes, BoolStore, DType, DTypeUsage, DeviceId, DeviceOps, FloatDType,
    GraphUnsupported, Shape, TensorMetadata, get_device_settings,
};

/// The kind id Flex devices report in their [`DeviceId`].
pub const FLEX_DEVICE_TYPE_ID: u16 = 0;

/// The one Flex device: the host CPU (a rayon thread pool).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FlexDevice;

impl DeviceOps for FlexDevice {
    fn id(&self) -> DeviceId {
        DeviceId::new(FLEX_DEVICE_TYPE_ID, 0)
    }
}

/// The native CPU backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flex;

impl BackendTypes for Flex {
    type Device = FlexDevice;
    type FloatTensorPrimitive = FlexTensor;
    type IntTensorPrimitive = FlexTensor;
    type BoolTensorPrimitive = FlexTensor;
    type QuantizedTensorPrimitive = ComposedQTensor<Flex>;
    type GraphPrimitive = GraphUnsupported;
}

impl Backend for Flex {
    fn name(_device: &FlexDevice) -> String {
        "flex".into()
    }

    fn sync(_device: &FlexDevice) -> Result<(), burn_backend::ExecutionError> {
        crate::fuse::compute_pending();
        Ok(())
    }

    fn flush(_device: &FlexDevice) {
        crate::fuse::compute_pending();
    }

    fn seed(_device: &FlexDevice, seed: u64) {
        random::seed(seed);
    }

    fn dtype_usage(_device: &FlexDevice, dtype: DType) -> DTypeUsage {
        match dtype {
            DType::Bool(BoolStore::Native) => DTypeUsage::general(),
            DType::QFloat(scheme) if scheme.is_supported() => DTypeUsage::general(),
            DType::Bool(_) | DType::QFloat(_) => DTypeUsage::none(),
            _ => DTypeUsage::general(),
        }
    }
}

/// Quantized tensors are `i8` values and `f32` scales composed from Flex's own operations;
/// products of two quantized tensors run in integers (`kernels::int8_gemm`).
impl QTensorOps<Flex> for Flex {
    burn_backend::composed_qtensor_ops!(Self, layout);

    fn quantize(
        tensor: FlexTensor,
        scheme: &burn_backend::quantization::QuantScheme,
        qparams: burn_backend::quantization::QuantizationParametersPrimitive<Self>,
    ) -> ComposedQTensor<Flex> {
        crate::ops::quantize::quantize(tensor, scheme, qparams.scales)
    }

    fn quantize_dynamic(
        tensor: FlexTensor,
        scheme: &burn_backend::quantization::QuantScheme,
    ) -> ComposedQTensor<Flex> {
        crate::ops::quantize::quantize_dynamic(tensor, scheme)
    }

    fn dequantize(tensor: ComposedQTensor<Flex>, dtype: FloatDType) -> FlexTensor {
        crate::ops::quantize::dequantize(tensor, dtype)
    }

    /// Integer products where both operands are quantized with scales constant along `k`.
    fn q_matmul(
        lhs: burn_backend::quantization::TensorPrimitive<Self>,
        rhs: burn_backend::quantization::TensorPrimitive<Self>,
    ) -> burn_backend::quantization::TensorPrimitive<Self> {
        crate::ops::qmatmul::q_matmul(lhs, rhs)
    }
}

impl TransactionOps<Flex> for Flex {}

impl TensorMetadata for FlexTensor {
    #[inline]
    fn dtype(&self) -> DType {
        FlexTensor::dtype(self)
    }

    #[inline]
    fn shape(&self) -> Shape {
        FlexTensor::shape(self).clone()
    }

    #[inline]
    fn rank(&self) -> usize {
        FlexTensor::rank(self)
    }

    #[inline]
    fn dims_into(&self, out: &mut [usize]) {
        out.copy_from_slice(&FlexTensor::shape(self).dims);
    }
}

/// The device's default int dtype (for indices).
pub(crate) fn int_dtype() -> DType {
    get_device_settings::<Flex>(&FlexDevice).int_dtype.into()
}

/// The device's default float dtype.
pub(crate) fn float_dtype() -> DType {
    get_device_settings::<Flex>(&FlexDevice).float_dtype.into()
}

/// The bool dtype Flex stores.
pub(crate) const BOOL: DType = DType::Bool(BoolStore::Native);

/// `tensor` converted to the float dtype `dtype` when it holds another one.
pub(crate) fn float_like(tensor: FlexTensor, dtype: DType) -> FlexTensor {
    if tensor.dtype() == dtype {
        tensor
    } else {
        creation::cast(tensor, dtype)
    }
}

/// Both float operands in the wider of their dtypes (no conversion when they agree).
pub(crate) fn promote(lhs: FlexTensor, rhs: FlexTensor) -> (FlexTensor, FlexTensor) {
    let (a, b) = (lhs.dtype(), rhs.dtype());
    if a == b || !a.is_float() || !b.is_float() {
        return (lhs, rhs);
    }
    let wide: DType = FloatDType::from_dtype(a)
        .widest(FloatDType::from_dtype(b))
        .into();
    (float_like(lhs, wide), float_like(rhs, wide))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::ops::{BoolTensorOps, FloatTensorOps, IntTensorOps};
    use burn_backend::{IntDType, TensorData, read_sync};

    #[test]
    fn device_and_dtypes() {
        assert_eq!(Flex::name(&FlexDevice), "flex");
        assert!(Flex::supports_dtype(&FlexDevice, DType::BF16));
        assert!(!Flex::supports_dtype(
            &FlexDevice,
            DType::Bool(BoolStore::U32)
        ));
        let t = Flex::float_from_data(TensorData::from([1i32, 2]), &FlexDevice);
        assert!(t.dtype().is_float());
        let i = Flex::int_from_data(TensorData::from([1i32, 2]), &FlexDevice);
        assert_eq!(i.dtype(), DType::I32);
        let b = Flex::bool_from_data(TensorData::from([true, false]), &FlexDevice);
        let n = Flex::bool_into_int(b, IntDType::U8);
        let data = read_sync(Flex::int_into_data(n)).unwrap();
        assert_eq!(data.to_vec::<u8>().unwrap(), vec![1, 0]);
    }
}
