//! [`ComposedQTensor`]: quantization built from a backend's own int and float operations.

use super::BlockGeometry;
use super::params::{
    QTensorPrimitive, as_f32, block_max_abs, check_supported, scales_from_max_abs, value_range,
};
use crate::tensor::{Device, FloatTensor, IntTensor};
use crate::{Backend, TensorMetadata};
use burn_std::quantization::{QuantScheme, QuantizedBytes};
use burn_std::{DType, ExecutionError, FloatDType, IntDType, Shape, Slice, TensorData};
use core::any::Any;
use std::sync::{Arc, OnceLock};

/// A quantized tensor held as integer values (one per element, `i8` where the device computes
/// with it, else `i32`) and `f32` scales (shape `[1]`, or one per block over the block grid).
///
/// Every operation is composed from `B`'s int and float operations, so any backend gets
/// quantization by naming this type its `QuantizedTensorPrimitive` and expanding
/// [`composed_qtensor_ops!`](crate::composed_qtensor_ops). Packing (4-bit and 2-bit values
/// several to a word) happens only where data crosses the host boundary
/// (`q_from_data` / `q_into_data`).
///
/// Layout operations on per-tensor schemes move the integer values and keep the scale, as do
/// `permute`, `swap_dims` and `flip` on block schemes (blocks map onto blocks); the other
/// layout operations on block schemes dequantize, run the float operation and requantize with
/// the same scheme.
#[derive(Debug, Clone)]
pub struct ComposedQTensor<B: Backend> {
    /// The quantized values, one per element, in the tensor's shape.
    pub values: IntTensor<B>,
    /// The scales: `[1]`, or the block grid.
    pub scales: FloatTensor<B>,
    /// The scheme.
    pub scheme: QuantScheme,
    /// What the backend derived from these values (packed panels, …); clones share it.
    /// Private, so that a tensor with other values can only be made through
    /// [`new`](Self::new), which starts it empty.
    derived: Derived,
}

/// Data a backend derives from a quantized tensor's values and keeps with them (say, the
/// panels its integer matrix product packs a weight into, computed once however often the
/// weight is used). Clones share it; every operation that makes new values starts empty.
#[derive(Clone, Default)]
pub struct Derived(Arc<OnceLock<Arc<dyn Any + Send + Sync>>>);

impl Derived {
    /// The derived value, computed by `make` on first use. `None` when a value of another
    /// type was derived first (the caller then computes without keeping it).
    pub fn get_or_init<T: Any + Send + Sync>(&self, make: impl FnOnce() -> T) -> Option<Arc<T>> {
        let value = self.0.get_or_init(|| Arc::new(make()));
        value.clone().downcast::<T>().ok()
    }
}

// A panic while a value is derived leaves the cell empty (`OnceLock`), never half-set: a tensor
// observed after a caught panic is as valid as before it.
impl std::panic::UnwindSafe for Derived {}
impl std::panic::RefUnwindSafe for Derived {}

impl core::fmt::Debug for Derived {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Derived(set)"
        } else {
            "Derived(empty)"
        })
    }
}

impl<B: Backend> TensorMetadata for ComposedQTensor<B> {
    fn dtype(&self) -> DType {
        DType::QFloat(self.scheme)
    }
    fn shape(&self) -> Shape {
        self.values.shape()
    }
    fn rank(&self) -> usize {
        self.values.rank()
    }
}

impl<B: Backend> QTensorPrimitive for ComposedQTensor<B> {
    fn scheme(&self) -> &QuantScheme {
        &self.scheme
    }
}

impl<B: Backend> ComposedQTensor<B> {
    /// A quantized tensor of `values` (the tensor's shape, one integer each), `scales` (`[1]`
    /// or the block grid, `f32`) and `scheme`.
    pub fn new(values: IntTensor<B>, scales: FloatTensor<B>, scheme: QuantScheme) -> Self {
        Self {
            values,
            scales,
            scheme,
            derived: Derived::default(),
        }
    }

    /// What the backend derived from these values (see [`Derived`]).
    pub fn derived(&self) -> &Derived {
        &self.derived
    }

    /// `tensor` quantized with `scheme` and the given scales (`[1]` or the block grid):
    /// `clamp(round(x / scale), a, b)` for the scheme's value range `[a, b]`.
    ///
    /// # Panics
    ///
    /// When the scheme is not supported, its blocks do not divide the shape, or `scales` has
    /// the wrong shape.
    pub fn quantize(tensor: FloatTensor<B>, scheme: &QuantScheme, scales: FloatTensor<B>) -> Self {
        check_supported("quantize", scheme);
        let shape = tensor.shape();
        let geometry = BlockGeometry::new("quantize", &shape, scheme);
        let scales = as_f32::<B>(scales);
        assert_eq!(
            scales.shape().num_elements(),
            geometry.num_scales(),
            "quantize: expected {} scales (shape {:?}) for a tensor of shape {shape:?}, got shape \
             {:?}",
            geometry.num_scales(),
            geometry.grid,
            scales.shape()
        );
        let device = B::float_device(&tensor);
        let x = B::float_reshape(as_f32::<B>(tensor), Shape::from(geometry.split.clone()));
        let view = B::float_reshape(scales.clone(), Shape::from(geometry.scales_view.clone()));
        let (a, b) = value_range(scheme);
        let q = B::float_clamp(B::float_round(B::float_div(x, view)), a, b);
        let q = B::float_reshape(q, shape);
        Self {
            values: B::float_into_int(q, values_dtype::<B>(&device)),
            scales: B::float_reshape(scales, Shape::from(geometry.grid)),
            scheme: *scheme,
            derived: Derived::default(),
        }
    }

    /// `tensor` quantized with `scheme`, each scale from the largest magnitude of its block.
    pub fn quantize_dynamic(tensor: FloatTensor<B>, scheme: &QuantScheme) -> Self {
        check_supported("quantize_dynamic", scheme);
        let geometry = BlockGeometry::new("quantize_dynamic", &tensor.shape(), scheme);
        let alpha = block_max_abs::<B>(&geometry, tensor.clone());
        let scales = scales_from_max_abs::<B>(scheme, alpha);
        Self::quantize(tensor, scheme, scales)
    }

    /// The float values `q · scale`, in `dtype`.
    pub fn dequantize(self, dtype: FloatDType) -> FloatTensor<B> {
        let shape = self.values.shape();
        let geometry = BlockGeometry::new("dequantize", &shape, &self.scheme);
        let values = B::int_into_float(self.values, FloatDType::F32);
        let values = B::float_reshape(values, Shape::from(geometry.split));
        let view = B::float_reshape(self.scales, Shape::from(geometry.scales_view));
        let x = B::float_reshape(B::float_mul(values, view), shape);
        if dtype == FloatDType::F32 {
            x
        } else {
            B::float_cast(x, dtype)
        }
    }

    /// A quantized tensor from `QFloat` data on `device`.
    ///
    /// # Panics
    ///
    /// When the data is not quantized, its scheme is not supported, or its bytes do not match
    /// its shape and scheme.
    pub fn from_data(data: TensorData, device: &Device<B>) -> Self {
        let DType::QFloat(scheme) = data.dtype else {
            panic!(
                "q_from_data: expected quantized (QFloat) data, got {}",
                data.dtype
            )
        };
        check_supported("q_from_data", &scheme);
        let shape = data.shape.clone();
        let geometry = BlockGeometry::new("q_from_data", &shape, &scheme);
        let bytes = QuantizedBytes::from_bytes(data.as_bytes().to_vec(), shape.clone(), scheme)
            .unwrap_or_else(|e| panic!("q_from_data: {e}"));
        let (values, scales) = bytes.into_vec_i8();
        let dtype = values_dtype::<B>(device);
        let values = match dtype {
            IntDType::I8 => TensorData::new(values, shape),
            _ => TensorData::new(values.into_iter().map(i32::from).collect(), shape),
        };
        Self {
            values: B::int_from_data(values, device),
            scales: B::float_from_data(TensorData::new(scales, geometry.grid), device),
            scheme,
            derived: Derived::default(),
        }
    }

    /// The data, in the scheme's byte format.
    pub async fn into_data(self) -> Result<TensorData, ExecutionError> {
        let shape = self.values.shape();
        let values = B::int_into_data(self.values).await?;
        let scales = B::float_into_data(self.scales).await?;
        let values: Vec<i8> = values
            .to_vec::<i8>()
            .map_err(|e| ExecutionError::unsupported("q_into_data", e.to_string()))?;
        let scales: Vec<f32> = scales
            .to_vec::<f32>()
            .map_err(|e| ExecutionError::unsupported("q_into_data", e.to_string()))?;
        Ok(TensorData::quantized(values, shape, self.scheme, &scales))
    }

    /// The device.
    pub fn device(&self) -> Device<B> {
        B::int_device(&self.values)
    }

    /// The tensor on `device`.
    pub fn to_device(self, device: &Device<B>) -> Self {
        let values_dtype = values_dtype::<B>(device);
        let mut values = B::int_to_device(self.values, device);
        if values.dtype() != DType::from(values_dtype) {
            values = B::int_cast(values, values_dtype);
        }
        Self {
            values,
            scales: B::float_to_device(self.scales, device),
            scheme: self.scheme,
            derived: Derived::default(),
        }
    }

    /// The number of leading dims no block spans (a block's extent there is 1): ops along
    /// them move whole blocks, so the scale grid follows the values exactly. All dims for a
    /// per-tensor scheme.
    fn outer_dims(&self) -> usize {
        let rank = self.rank();
        match self.scheme.block_size() {
            None => rank,
            Some(block) => rank - block.as_slice().len(),
        }
    }

    /// Whether one scale covers the whole tensor.
    fn per_tensor(&self) -> bool {
        self.scheme.block_size().is_none()
    }

    /// New values, and for a block scheme the scale grid transformed by `on_scales`.
    fn moved(
        self,
        values: IntTensor<B>,
        on_scales: impl FnOnce(FloatTensor<B>) -> FloatTensor<B>,
    ) -> Self {
        let scales = if self.per_tensor() {
            self.scales
        } else {
            on_scales(self.scales)
        };
        let rank = values.rank();
        Self {
            values,
            scales,
            scheme: self.scheme.reshape_packing_dim(rank),
            derived: Derived::default(),
        }
    }

    /// Dequantizes, runs `op` on the float values, and requantizes with the same scheme (per
    /// tensor when its blocks do not fit the result's shape).
    fn requantized(self, op: impl FnOnce(FloatTensor<B>) -> FloatTensor<B>) -> Self {
        let scheme = self.scheme;
        let out = op(self.dequantize(FloatDType::F32));
        let scheme = BlockGeometry::fitted(&out.shape(), &scheme.reshape_packing_dim(out.rank()));
        Self::quantize_dynamic(out, &scheme)
    }

    /// The grid of scales for `shape` when its trailing dims (those a block spans) are the
    /// tensor's own: the new leading dims, then the current trailing grid.
    fn grid_with_leading(&self, shape: &Shape) -> Option<Vec<usize>> {
        if self.per_tensor() {
            return Some(vec![1]);
        }
        let (rank, outer) = (self.rank(), self.outer_dims());
        let tail = rank - outer;
        let old = self.values.shape();
        let new_rank = shape.num_dims();
        if new_rank < tail || old.dims[outer..] != shape.dims[new_rank - tail..] {
            return None;
        }
        let grid = self.scales.shape();
        let mut out = shape.dims[..new_rank - tail].to_vec();
        out.extend_from_slice(&grid.dims[outer..]);
        Some(out)
    }

    /// The tensor with a new shape of as many elements. Exact when the scheme is per tensor
    /// or the dims a block spans stay last and unchanged; else requantized.
    pub fn reshape(self, shape: Shape) -> Self {
        if let Some(grid) = self.grid_with_leading(&shape) {
            let values = B::int_reshape(self.values.clone(), shape);
            return self.moved(values, |s| B::float_reshape(s, Shape::from(grid)));
        }
        self.requantized(|x| B::float_reshape(x, shape))
    }

    /// The tensor broadcast to `shape`. Exact when the dims a block spans are not broadcast.
    pub fn expand(self, shape: Shape) -> Self {
        if let Some(grid) = self.grid_with_leading(&shape) {
            let values = B::int_expand(self.values.clone(), shape);
            return self.moved(values, |s| B::float_expand(s, Shape::from(grid)));
        }
        self.requantized(|x| B::float_expand(x, shape))
    }

    /// The tensor with two dims exchanged (blocks map onto blocks: exact).
    pub fn swap_dims(self, dim1: usize, dim2: usize) -> Self {
        let rank = self.rank();
        let scheme = self.scheme.swap_dims(rank, dim1, dim2);
        let values = B::int_swap_dims(self.values.clone(), dim1, dim2);
        Self {
            scheme,
            ..self.moved(values, |s| B::float_swap_dims(s, dim1, dim2))
        }
    }

    /// The tensor with its dims in the order `axes` (exact).
    pub fn permute(self, axes: &[usize]) -> Self {
        let scheme = self.scheme.permute_dims(axes);
        let values = B::int_permute(self.values.clone(), axes);
        Self {
            scheme,
            ..self.moved(values, |s| B::float_permute(s, axes))
        }
    }

    /// The tensor reversed along `axes` (blocks divide every dim: exact).
    pub fn flip(self, axes: &[usize]) -> Self {
        let values = B::int_flip(self.values.clone(), axes);
        self.moved(values, |s| B::float_flip(s, axes))
    }

    /// The entries at `indices` along `dim`. Exact along a dim no block spans.
    pub fn select(self, dim: usize, indices: IntTensor<B>) -> Self {
        if dim < self.outer_dims() {
            let values = B::int_select(self.values.clone(), dim, indices.clone());
            return self.moved(values, |s| B::float_select(s, dim, indices));
        }
        self.requantized(|x| B::float_select(x, dim, indices))
    }

    /// A slice. Exact when every dim a block spans is taken whole.
    pub fn slice(self, slices: &[Slice]) -> Self {
        let dims = self.values.shape().dims;
        let outer = self.outer_dims();
        let whole = |(d, s): (usize, &Slice)| {
            s.step == 1 && s.start == 0 && s.end.is_none_or(|e| e >= dims[d] as isize)
        };
        if slices.iter().enumerate().skip(outer).all(whole) {
            let values = B::int_slice(self.values.clone(), slices);
            let outer_slices: Vec<Slice> = slices.iter().take(outer).cloned().collect();
            return self.moved(values, |s| B::float_slice(s, &outer_slices));
        }
        self.requantized(|x| B::float_slice(x, slices))
    }

    /// Gathers along `dim` at `indices` (exact per tensor; requantized for block schemes).
    pub fn gather(self, dim: usize, indices: IntTensor<B>) -> Self {
        if self.per_tensor() {
            let values = B::int_gather(dim, self.values.clone(), indices);
            return self.moved(values, |s| s);
        }
        self.requantized(|x| B::float_gather(dim, x, indices))
    }

    /// The tensor repeated `times` along `dim`. Exact along a dim no block spans.
    pub fn repeat_dim(self, dim: usize, times: usize) -> Self {
        if dim < self.outer_dims() {
            let values = B::int_repeat_dim(self.values.clone(), dim, times);
            return self.moved(values, |s| B::float_repeat_dim(s, dim, times));
        }
        self.requantized(|x| B::float_repeat_dim(x, dim, times))
    }
}

/// The integer dtype quantized values take on `device`: `i8` where it computes with it, else
/// `i32`.
pub fn values_dtype<B: Backend>(device: &Device<B>) -> IntDType {
    if B::dtype_usage(device, DType::I8).arithmetic {
        IntDType::I8
    } else {
        IntDType::I32
    }
}

/// Writes the methods of `QTensorOps<B>` with [`ComposedQTensor`] (which must be the
/// backend's `QuantizedTensorPrimitive`), inside the backend's impl; methods written beside it
/// (a faster `q_matmul`, …) complete the impl.
///
/// ```ignore
/// impl QTensorOps<Self> for MyBackend {
///     burn_backend::composed_qtensor_ops!(Self);
/// }
/// ```
///
/// `composed_qtensor_ops!(Self, layout)` writes all but `quantize` and `dequantize`, for a
/// backend with its own (`quantize_dynamic` is the contract's default, built on `quantize`).
#[macro_export]
macro_rules! composed_qtensor_ops {
    ($backend:ty) => {
        $crate::composed_qtensor_ops!(@quantize $backend);
        $crate::composed_qtensor_ops!(@layout $backend);
    };
    ($backend:ty, layout) => {
        $crate::composed_qtensor_ops!(@layout $backend);
    };
    (@quantize $backend:ty) => {
        fn quantize(
            tensor: $crate::tensor::FloatTensor<$backend>,
            scheme: &$crate::quantization::QuantScheme,
            qparams: $crate::quantization::QuantizationParametersPrimitive<$backend>,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            $crate::quantization::ComposedQTensor::quantize(tensor, scheme, qparams.scales)
        }
        fn dequantize(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            dtype: $crate::FloatDType,
        ) -> $crate::tensor::FloatTensor<$backend> {
            tensor.dequantize(dtype)
        }
    };
    (@layout $backend:ty) => {
        fn q_from_data(
            data: $crate::TensorData,
            device: &$crate::tensor::Device<$backend>,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            $crate::quantization::ComposedQTensor::from_data(data, device)
        }
        fn q_device(
            tensor: &$crate::tensor::QuantizedTensor<$backend>,
        ) -> $crate::tensor::Device<$backend> {
            tensor.device()
        }
        fn q_to_device(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            device: &$crate::tensor::Device<$backend>,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.to_device(device)
        }
        fn q_into_data(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
        ) -> impl ::core::future::Future<
            Output = ::core::result::Result<$crate::TensorData, $crate::ExecutionError>,
        > + Send {
            tensor.into_data()
        }
        fn q_reshape(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            shape: $crate::Shape,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.reshape(shape)
        }
        fn q_expand(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            shape: $crate::Shape,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.expand(shape)
        }
        fn q_swap_dims(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            dim1: usize,
            dim2: usize,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.swap_dims(dim1, dim2)
        }
        fn q_permute(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            axes: &[usize],
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.permute(axes)
        }
        fn q_flip(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            axes: &[usize],
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.flip(axes)
        }
        fn q_select(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            dim: usize,
            indices: $crate::tensor::IntTensor<$backend>,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.select(dim, indices)
        }
        fn q_slice(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            slices: &[$crate::Slice],
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.slice(slices)
        }
        fn q_gather(
            dim: usize,
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            indices: $crate::tensor::IntTensor<$backend>,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.gather(dim, indices)
        }
        fn q_repeat_dim(
            tensor: $crate::tensor::QuantizedTensor<$backend>,
            dim: usize,
            times: usize,
        ) -> $crate::tensor::QuantizedTensor<$backend> {
            tensor.repeat_dim(dim, times)
        }
    };
}
