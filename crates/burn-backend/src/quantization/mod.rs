//! Quantization at the backend level.
//!
//! - The scheme types and the byte format come from `burn-std` and are re-exported here.
//! - [`QTensorPrimitive`]: what a backend's quantized primitive tells about itself.
//! - [`QuantizationParametersPrimitive`], [`compute_range`], [`compute_q_params`]: min-max
//!   calibration over a backend's float primitives, the pieces of `quantize_dynamic`.
//! - [`TensorPrimitive`]: a float result that may be quantized (the output of `q_matmul`).
//! - [`ComposedQTensor`]: a quantized tensor held as integer values and float scales, every
//!   quantized operation composed from the backend's own int and float operations. Backends
//!   adopt it with [`composed_qtensor_ops!`](crate::composed_qtensor_ops) and override what they
//!   can do faster.

mod blocks;
mod composed;
pub(crate) mod params;

pub(crate) use blocks::BlockGeometry;
pub use burn_std::quantization::*;
pub use composed::{ComposedQTensor, Derived, values_dtype};
pub use params::{
    QTensorPrimitive, QuantizationParametersPrimitive, TensorPrimitive, compute_q_params,
    compute_range,
};
