//! Quantization parameters as backend primitives, and min-max calibration.

use super::BlockGeometry;
use crate::tensor::{FloatTensor, QuantizedTensor};
use crate::{Backend, TensorMetadata, get_device_settings};
use burn_std::quantization::{
    Calibration, QuantAcc, QuantPropagation, QuantScheme, QuantValue, ScaleDtype,
};
use burn_std::{FloatDType, Scalar, Shape};

/// What a backend's quantized primitive tells about itself.
pub trait QTensorPrimitive {
    /// The scheme the values are quantized with.
    fn scheme(&self) -> &QuantScheme;
    /// The precision products of these values accumulate in.
    fn acc_precision(&self) -> QuantAcc {
        QuantAcc::F32
    }
    /// Whether float operations on this tensor requantize their result.
    fn propagation(&self) -> QuantPropagation {
        QuantPropagation::Inhibit
    }
    /// The scheme a backend uses when none is asked for.
    fn default_scheme() -> QuantScheme {
        QuantScheme::default()
    }
}

/// The scales of a quantization, as a float primitive: shape `[1]` for a per-tensor scheme,
/// the block grid (one entry per dim of the tensor) for a per-block one.
#[derive(Debug, Clone)]
pub struct QuantizationParametersPrimitive<B: Backend> {
    /// The scale of each block (or of the tensor), `f32`.
    pub scales: FloatTensor<B>,
}

/// A float result that may be quantized (what `q_matmul` returns: quantized only when the
/// device's propagation setting asks for it).
#[derive(Debug, Clone)]
pub enum TensorPrimitive<B: Backend> {
    /// A float tensor.
    Float(FloatTensor<B>),
    /// A quantized tensor.
    QFloat(QuantizedTensor<B>),
}

impl<B: Backend> TensorPrimitive<B> {
    /// The float tensor, dequantized to the device's default float dtype when quantized.
    pub fn tensor(self) -> FloatTensor<B> {
        match self {
            TensorPrimitive::Float(tensor) => tensor,
            TensorPrimitive::QFloat(tensor) => {
                let dtype = get_device_settings::<B>(&B::q_device(&tensor)).float_dtype;
                B::dequantize(tensor, dtype)
            }
        }
    }
}

/// The range of `tensor`'s values for `scheme`: `(min, max)` per tensor (shape `[1]`) or per
/// block (the block grid), in `f32`.
///
/// # Panics
///
/// When the scheme's blocks do not divide the tensor's shape.
pub fn compute_range<B: Backend>(
    scheme: &QuantScheme,
    tensor: FloatTensor<B>,
    calibration: &Calibration,
) -> (FloatTensor<B>, FloatTensor<B>) {
    match calibration {
        Calibration::MinMax => {}
    }
    let geometry = BlockGeometry::new("compute_range", &tensor.shape(), scheme);
    let tensor = as_f32::<B>(tensor);
    let min = block_reduce::<B>(&geometry, tensor.clone(), B::float_min_dim);
    let max = block_reduce::<B>(&geometry, tensor, B::float_max_dim);
    (min, max)
}

/// The symmetric scales that map `[min, max]` onto `scheme`'s value range:
/// `max(|min|, |max|) · 2 / (b − a)` for the range `[a, b]`, at least the smallest positive
/// `f32` (a block of zeros gets a tiny scale, not zero).
///
/// # Panics
///
/// When the scheme is not one this framework implements (see `QuantScheme::is_supported`).
pub fn compute_q_params<B: Backend>(
    scheme: &QuantScheme,
    min: FloatTensor<B>,
    max: FloatTensor<B>,
) -> QuantizationParametersPrimitive<B> {
    check_supported("compute_q_params", scheme);
    let shape = min.shape();
    let n = shape.num_elements();
    let column = |t: FloatTensor<B>| B::float_reshape(B::float_abs(t), Shape::from([n, 1]));
    let pair = B::float_cat(vec![column(min), column(max)], 1);
    let alpha = B::float_reshape(B::float_max_dim(pair, 1), shape);
    QuantizationParametersPrimitive {
        scales: scales_from_max_abs::<B>(scheme, alpha),
    }
}

/// Scales from the largest magnitude of each block (see [`compute_q_params`]).
pub(crate) fn scales_from_max_abs<B: Backend>(
    scheme: &QuantScheme,
    alpha: FloatTensor<B>,
) -> FloatTensor<B> {
    let (a, b) = scheme.value.range();
    let scales = B::float_mul_scalar(alpha, Scalar::from(2.0 / (b as f64 - a as f64)));
    let scales = match scheme.scale_dtype() {
        ScaleDtype::F16 => round_trip::<B>(scales, FloatDType::F16),
        ScaleDtype::BF16 => round_trip::<B>(scales, FloatDType::BF16),
        _ => scales,
    };
    B::float_clamp_min(scales, Scalar::from(f32::MIN_POSITIVE as f64))
}

/// The largest magnitude of each block of `tensor` (the block grid, `f32`).
pub(crate) fn block_max_abs<B: Backend>(
    geometry: &BlockGeometry,
    tensor: FloatTensor<B>,
) -> FloatTensor<B> {
    block_reduce::<B>(
        geometry,
        B::float_abs(as_f32::<B>(tensor)),
        B::float_max_dim,
    )
}

/// Panics naming `op` when this framework does not implement `scheme`.
pub(crate) fn check_supported(op: &str, scheme: &QuantScheme) {
    assert!(
        scheme.is_supported(),
        "{op}: the quantization scheme {scheme} is not supported (supported: symmetric Q8S, \
         Q8F, Q4S, Q4F, Q2S, Q2F values, one level of f32/f16/bf16 scales, per tensor or per \
         block)"
    );
}

/// The value range of `scheme` as scalars.
pub(crate) fn value_range(scheme: &QuantScheme) -> (Scalar, Scalar) {
    let (a, b) = scheme.value.range();
    debug_assert!(!matches!(
        scheme.value,
        QuantValue::E4M3 | QuantValue::E5M2 | QuantValue::E2M1
    ));
    (Scalar::from(a as f64), Scalar::from(b as f64))
}

/// `tensor` in `f32`.
pub(crate) fn as_f32<B: Backend>(tensor: FloatTensor<B>) -> FloatTensor<B> {
    if tensor.dtype() == burn_std::DType::F32 {
        tensor
    } else {
        B::float_cast(tensor, FloatDType::F32)
    }
}

fn round_trip<B: Backend>(tensor: FloatTensor<B>, dtype: FloatDType) -> FloatTensor<B> {
    B::float_cast(B::float_cast(tensor, dtype), FloatDType::F32)
}

/// Reduces every in-block axis of `tensor` with `reduce` (keeping it with size 1) and returns
/// the block grid.
fn block_reduce<B: Backend>(
    geometry: &BlockGeometry,
    tensor: FloatTensor<B>,
    reduce: fn(FloatTensor<B>, usize) -> FloatTensor<B>,
) -> FloatTensor<B> {
    if geometry.inner_axes.len() == geometry.split.len() {
        let n = tensor.shape().num_elements();
        let flat = B::float_reshape(tensor, Shape::from([n]));
        return reduce(flat, 0);
    }
    let mut tensor = B::float_reshape(tensor, Shape::from(geometry.split.clone()));
    for &axis in &geometry.inner_axes {
        tensor = reduce(tensor, axis);
    }
    B::float_reshape(tensor, Shape::from(geometry.grid.clone()))
}
