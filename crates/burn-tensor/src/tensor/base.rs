//! `Tensor`: the struct, its metadata, reading, moving and creating.

use super::args::TensorCreationOptions;
use super::check;
use crate::kind::Basic;
use crate::{BridgeTensor, Device, Float};
use burn_backend::{
    DType, Element, ExecutionError, Scalar, Shape, TensorData, TensorMetadata, TensorReadError,
    get_device_settings, read_sync,
};
use burn_dispatch::{Dispatch, DispatchTensor};
use core::future::Future;
use core::marker::PhantomData;

/// A tensor of rank `D` and kind `K` (`Float` by default, `Int`, `Bool`) on a [`Device`].
///
/// The type carries no backend: the device the tensor was created on picks it. Operations take
/// `self` by value (clone to keep a tensor; clones share storage until one is written).
///
/// ```
/// use burn_tensor::{Device, Tensor};
/// let device = Device::default();
/// let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &device);
/// let y = x.clone().matmul(x) + 1.0;
/// assert_eq!(y.into_data().to_vec::<f32>().unwrap(), vec![8.0, 11.0, 16.0, 23.0]);
/// ```
pub struct Tensor<const D: usize, K: Basic = Float> {
    // The primitive alone, at offset 0: its kind tag (a float stored quantized or not) follows
    // from its dtype, so it is rebuilt on demand (`into_bridge`) rather than stored. A stored
    // tag put the primitive 8 bytes in, and every operation then read it back in 16-byte loads
    // straddling the 16-byte stores that wrote it, which the CPU cannot forward (W7).
    primitive: DispatchTensor,
    kind: PhantomData<K>,
}

impl<const D: usize, K: Basic> Clone for Tensor<D, K> {
    fn clone(&self) -> Self {
        Self {
            primitive: self.primitive.clone(),
            kind: PhantomData,
        }
    }
}

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// A tensor from a dispatch primitive of kind `K` and rank `D`.
    #[inline]
    pub fn from_primitive(primitive: DispatchTensor) -> Self {
        let rank = primitive.rank();
        if rank != D {
            check::fail(
                "from_primitive",
                format_args!("expected a primitive of rank {D}, got rank {rank}"),
            );
        }
        Self {
            primitive,
            kind: PhantomData,
        }
    }

    /// The tensor of an element-wise operation on `Self`'s primitive, whose rank it keeps: the
    /// rank is checked in debug builds only, so the result moves straight into place (W7).
    #[inline(always)]
    pub(crate) fn from_elementwise(primitive: DispatchTensor) -> Self {
        debug_assert_eq!(
            primitive.rank(),
            D,
            "an element-wise operation changed the rank"
        );
        Self {
            primitive,
            kind: PhantomData,
        }
    }

    /// The dispatch primitive.
    pub fn into_primitive(self) -> DispatchTensor {
        self.primitive
    }

    /// A reference to the dispatch primitive.
    pub fn primitive(&self) -> &DispatchTensor {
        &self.primitive
    }

    /// The `Dispatch` primitive, to call a backend extension (`FloatTensor<Dispatch>`,
    /// `IntTensor<Dispatch>`, … are all `DispatchTensor`). The same as
    /// [`into_primitive`](Self::into_primitive).
    pub fn into_dispatch(self) -> DispatchTensor {
        self.into_primitive()
    }

    /// A tensor from the `Dispatch` primitive a backend extension returned.
    ///
    /// # Panics
    ///
    /// When the primitive's rank is not `D`.
    pub fn from_dispatch(primitive: DispatchTensor) -> Self {
        Self::from_primitive(primitive)
    }

    /// The tensor with its kind tag (for backend extensions).
    pub fn into_bridge(self) -> BridgeTensor {
        K::bridge(self.primitive)
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.primitive().shape()
    }

    /// The sizes of the `D` dims.
    pub fn dims(&self) -> [usize; D] {
        let rank = self.primitive.rank();
        if rank != D {
            check::fail(
                "dims",
                format_args!("the tensor has rank {rank}, its type says {D}"),
            );
        }
        let mut dims = [0; D];
        self.primitive.dims_into(&mut dims);
        dims
    }

    /// The rank (`D`).
    pub fn rank(&self) -> usize {
        D
    }

    /// The number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape().num_elements()
    }

    /// The element type.
    pub fn dtype(&self) -> DType {
        self.primitive().dtype()
    }

    /// The device the tensor lives on.
    pub fn device(&self) -> Device {
        Device::from_dispatch(K::device(self.primitive()))
    }

    /// The tensor on `device` (the same tensor when it is already there).
    pub fn to_device(self, device: &Device) -> Self {
        Self::from_primitive(K::to_device(self.into_primitive(), device.dispatch()))
    }

    /// Reads the values to the host, waiting for pending work; panics if execution failed
    /// (use [`try_into_data`](Self::try_into_data) to get the error).
    pub fn into_data(self) -> TensorData {
        self.try_into_data()
            .unwrap_or_else(|e| check::fail("into_data", format_args!("execution failed: {e}")))
    }

    /// Reads the values to the host, returning a deferred execution error.
    pub fn try_into_data(self) -> Result<TensorData, ExecutionError> {
        read_sync(K::into_data_async(self.into_primitive()))
    }

    /// Reads the values asynchronously.
    pub fn into_data_async(
        self,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        K::into_data_async(self.into_primitive())
    }

    /// Reads the values asynchronously, keeping the tensor.
    pub fn to_data_async(&self) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        K::into_data_async(self.clone().into_primitive())
    }

    /// Reads the values to the host, keeping the tensor.
    pub fn to_data(&self) -> TensorData {
        self.clone().into_data()
    }

    /// The single value of a one-element tensor, converted to `E`
    /// (`loss.into_scalar::<f32>()`). Panics naming the shape unless the tensor holds exactly
    /// one element, or when execution failed.
    #[track_caller]
    pub fn into_scalar<E: Element>(self) -> E {
        if self.num_elements() != 1 {
            check::fail(
                "into_scalar",
                format_args!(
                    "expected a tensor of one element, got shape {:?}",
                    self.shape()
                ),
            );
        }
        self.try_into_scalar::<E>()
            .unwrap_or_else(|e| check::fail("into_scalar", format_args!("{e}")))
    }

    /// The single value of a one-element tensor converted to `E`, or why it could not be
    /// read: a deferred execution error, or a tensor of more or fewer elements.
    pub fn try_into_scalar<E: Element>(self) -> Result<E, TensorReadError> {
        let count = self.num_elements();
        if count != 1 {
            return Err(TensorReadError::InvalidShape {
                expected: 1,
                actual: count,
            });
        }
        scalar_of(self.try_into_data()?)
    }

    /// [`into_scalar`](Self::into_scalar), read asynchronously.
    pub async fn into_scalar_async<E: Element>(self) -> Result<E, ExecutionError> {
        if self.num_elements() != 1 {
            check::fail(
                "into_scalar_async",
                format_args!(
                    "expected a tensor of one element, got shape {:?}",
                    self.shape()
                ),
            );
        }
        let data = self.into_data_async().await?;
        Ok(scalar_of(data)
            .unwrap_or_else(|e| check::fail("into_scalar_async", format_args!("{e}"))))
    }

    /// [`try_into_scalar`](Self::try_into_scalar), read asynchronously.
    pub async fn try_into_scalar_async<E: Element>(self) -> Result<E, TensorReadError> {
        let data = self.into_data_async().await?;
        scalar_of(data)
    }

    /// A tensor holding `data`, converted to the dtype of `options` (by default the device's
    /// default dtype for the kind). Panics unless `data` has rank `D`.
    pub fn from_data<T: Into<TensorData>>(
        data: T,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        let data = data.into();
        let options = options.into();
        if data.shape.num_dims() != D {
            check::fail(
                "from_data",
                format_args!(
                    "expected data of rank {D}, got shape {:?} of rank {}",
                    data.shape,
                    data.shape.num_dims()
                ),
            );
        }
        // Quantized data stays quantized unless a dtype is asked for.
        let options = match (data.dtype, options.dtype) {
            (DType::QFloat(_), None) => TensorCreationOptions {
                dtype: Some(data.dtype),
                ..options
            },
            _ => options,
        };
        let dtype = Self::creation_dtype("from_data", &options);
        let data = if data.dtype == dtype {
            data
        } else {
            data.convert_dtype(dtype)
        };
        Self::from_primitive(K::from_data(data, options.device.dispatch()))
    }

    /// Moves the tensor out of `self`, leaving an empty tensor of shape `[0; D]` on the same
    /// device in its place.
    pub fn extract(&mut self) -> Self {
        let empty = Self::empty([0; D], (&self.device(), self.dtype()));
        core::mem::replace(self, empty)
    }

    /// Replaces the tensor with `func` of it, for owned operations on a `&mut` tensor (the
    /// buffer is reused when nothing else holds it).
    pub fn inplace<F: FnOnce(Self) -> Self>(&mut self, func: F) {
        let value = func(self.extract());
        *self = value;
    }

    /// A tensor with unspecified values.
    pub fn empty<S: Into<Shape>>(shape: S, options: impl Into<TensorCreationOptions>) -> Self {
        let shape = Self::checked_shape("empty", shape.into());
        let options = options.into();
        let dtype = Self::creation_dtype("empty", &options);
        Self::from_primitive(K::empty(shape, options.device.dispatch(), dtype))
    }

    /// A tensor with every element `value`.
    pub fn full<S: Into<Shape>, V: Into<Scalar>>(
        shape: S,
        value: V,
        options: impl Into<TensorCreationOptions>,
    ) -> Self {
        Self::full_named("full", shape.into(), value.into(), options.into())
    }

    /// `full` reporting misuse under the name of the public op that called it.
    pub(crate) fn full_named(
        op: &str,
        shape: Shape,
        value: Scalar,
        options: TensorCreationOptions,
    ) -> Self {
        let shape = Self::checked_shape(op, shape);
        let dtype = Self::creation_dtype(op, &options);
        Self::from_primitive(K::full(shape, value, options.device.dispatch(), dtype))
    }

    /// A tensor of zeros (`false` for bools).
    pub fn zeros<S: Into<Shape>>(shape: S, options: impl Into<TensorCreationOptions>) -> Self {
        Self::full_named("zeros", shape.into(), 0.into(), options.into())
    }

    /// A tensor of ones (`true` for bools).
    pub fn ones<S: Into<Shape>>(shape: S, options: impl Into<TensorCreationOptions>) -> Self {
        Self::full_named("ones", shape.into(), 1.into(), options.into())
    }

    /// Zeros (`false`) of this tensor's shape, device and dtype.
    pub fn zeros_like(&self) -> Self {
        self.full_like(0)
    }

    /// Ones (`true`) of this tensor's shape, device and dtype.
    pub fn ones_like(&self) -> Self {
        self.full_like(1)
    }

    /// A tensor of this one's shape, device and dtype with every element `value`.
    pub fn full_like<V: Into<Scalar>>(&self, value: V) -> Self {
        Self::full(self.shape(), value, (&self.device(), self.dtype()))
    }

    /// The dtype a creation with `options` uses; panics when it is not of kind `K`.
    pub(crate) fn creation_dtype(op: &str, options: &TensorCreationOptions) -> DType {
        let dtype = options.dtype.unwrap_or_else(|| {
            K::default_dtype(&get_device_settings::<Dispatch>(options.device.dispatch()))
        });
        if !K::accepts(dtype) {
            check::fail(op, format_args!("dtype {dtype} is not of kind {}", K::NAME));
        }
        if !options.device.supports_dtype(dtype) {
            check::fail(
                op,
                format_args!("device {:?} does not support dtype {dtype}", options.device),
            );
        }
        dtype
    }

    /// `shape` if it has rank `D`, else a panic naming `op`.
    pub(crate) fn checked_shape(op: &str, shape: Shape) -> Shape {
        if shape.num_dims() != D {
            check::fail(
                op,
                format_args!("expected a shape of rank {D}, got {shape:?}"),
            );
        }
        shape
    }

    /// Wraps a result primitive of another rank or kind.
    pub(crate) fn new_tensor<const D2: usize, K2: Basic>(
        primitive: DispatchTensor,
    ) -> Tensor<D2, K2> {
        Tensor::from_primitive(primitive)
    }
}

impl<const D: usize, K: Basic> core::fmt::Debug for Tensor<D, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Tensor {{ kind: {}, shape: {:?}, dtype: {}, device: {:?} }}",
            K::NAME,
            self.shape(),
            self.dtype(),
            self.device()
        )
    }
}

/// The one value of `data` converted to `E`.
fn scalar_of<E: Element>(data: TensorData) -> Result<E, TensorReadError> {
    let actual = data.num_elements();
    if actual != 1 {
        return Err(TensorReadError::InvalidShape {
            expected: 1,
            actual,
        });
    }
    Ok(data.try_into_vec_as::<E>()?[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Int;

    /// A tensor is its primitive and nothing else, at offset 0 (see the field's comment).
    #[test]
    fn a_tensor_is_its_primitive_alone() {
        assert_eq!(
            size_of::<Tensor<2>>(),
            size_of::<DispatchTensor>(),
            "Tensor<2> holds more than its primitive"
        );
        assert_eq!(size_of::<Tensor<1, Int>>(), size_of::<DispatchTensor>());
    }

    /// The kind tag rebuilt from the primitive is the one a stored tag would have held.
    #[test]
    fn the_bridge_tag_follows_the_kind() {
        let device = Device::default();
        let float = Tensor::<1>::from_floats([1.0, 2.0], &device);
        let scheme = crate::quantization::QuantScheme::default()
            .with_value(crate::quantization::QuantValue::Q8S);
        let quantized = float.clone().quantize_dynamic(&scheme);
        assert!(matches!(float.into_bridge(), BridgeTensor::Float(_)));
        assert!(matches!(quantized.into_bridge(), BridgeTensor::QFloat(_)));
        let int = Tensor::<1, Int>::from_ints([1, 2], &device);
        assert!(matches!(int.into_bridge(), BridgeTensor::Int(_)));
        let bool = Tensor::<1>::from_floats([1.0, -1.0], &device).greater_elem(0.0);
        assert!(matches!(bool.into_bridge(), BridgeTensor::Bool(_)));
    }

    /// `dims` (read without building a `Shape`) agrees with `shape` for every kind, a quantized
    /// tensor and a tracked one; a reshape or unsqueeze to the same shape keeps the values.
    #[test]
    fn dims_agree_with_the_shape() {
        let device = Device::default();
        let float = Tensor::<3>::zeros([2, 3, 4], &device);
        assert_eq!(float.dims(), [2, 3, 4]);
        assert_eq!(float.dims().to_vec(), float.shape().to_vec());
        assert_eq!(Tensor::<1, Int>::arange(0..5, &device).dims(), [5]);
        assert_eq!(float.clone().greater_elem(0.0).dims(), [2, 3, 4]);
        let scheme = crate::quantization::QuantScheme::default()
            .with_value(crate::quantization::QuantValue::Q8S);
        assert_eq!(float.clone().quantize_dynamic(&scheme).dims(), [2, 3, 4]);
        let tracked = Tensor::<2>::ones([3, 1], &device.autodiff()).require_grad();
        assert_eq!(tracked.dims(), [3, 1]);
        let values = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &device);
        let same = values.clone().reshape([2, 2]).unsqueeze::<2>();
        assert_eq!(same.into_data(), values.into_data());
    }
}
