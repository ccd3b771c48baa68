//! Kernels over plain slices: matrix products, convolution, pooling, interpolation, attention,
//! layer, batch and group normalization.
//! They know shapes and strides but not tensors; `crate::ops` calls them.

pub mod adaptive_pool;
pub mod attention;
pub mod avg_pool;
pub mod batch_norm;
mod common;
pub mod conv;
pub mod conv_backward;
mod conv_direct;
#[cfg(test)]
mod conv_reference;
pub mod conv_transpose;
#[cfg(target_arch = "x86_64")]
mod conv_winograd;
pub mod embedding;
pub mod gemm;
#[cfg(target_arch = "x86_64")]
mod gemm_f32_avx512;
pub mod group_norm;
pub(crate) mod im2col;
pub mod int8_gemm;
pub mod interpolate;
mod isa;
pub mod layer_norm;
mod norm_stats;
pub mod pool;
#[cfg(target_arch = "x86_64")]
pub(crate) mod simd16;
#[cfg(test)]
mod test_util;
pub mod transpose;
