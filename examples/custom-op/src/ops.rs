//! The extension: a trait of new primitive operations, and the routing `#[backend_extension]`
//! generates from `Dispatch` to the backends that implement it.

use burn::backend::tensor::FloatTensor;
use burn::backend::{Backend, TensorMetadata, backend_extension};
use burn::tensor::Shape;

/// Fused layers. `Flex` is always implemented; `Cube` only when this crate's `cube` feature
/// is on (the gate is evaluated here, in the crate that implements it); `Autodiff` routes
/// tracked inputs to `Autodiff<B, C>`'s implementation (`crate::autodiff`).
#[backend_extension(Flex, Cube: cfg(feature = "cube"), Autodiff)]
pub trait FusedOps: Backend {
    /// `relu(x · weight + bias)` for `x` `[m, k]`, `weight` `[k, n]`, `bias` `[n]`, in one
    /// pass over the output: no `[m, n]` intermediate is written and read back.
    fn linear_relu(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self>;

    /// `x · weight + bias`, composed of the backend's own operations (a default body: no
    /// backend overrides it, and `Autodiff` differentiates it through those operations).
    fn linear(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        let n = bias.shape().num_elements();
        let bias = Self::float_reshape(bias, Shape::new([1, n]));
        Self::float_add(Self::float_matmul(x, weight), bias)
    }
}

/// The unfused composition on any backend, shared by the implementations that fall back to
/// it (dtypes without a fused path).
pub(crate) fn composed<B: Backend>(
    x: FloatTensor<B>,
    weight: FloatTensor<B>,
    bias: FloatTensor<B>,
) -> FloatTensor<B> {
    let n = bias.shape().num_elements();
    let bias = B::float_reshape(bias, Shape::new([1, n]));
    B::relu(B::float_add(B::float_matmul(x, weight), bias))
}
