//! The autodiff suite, written once over the public API; `device()` is the binary's plain
//! device (its autodiff views are made by the checks).

mod elementwise;
mod semantics;

use burn::tensor::{BasicOps, Tensor};

pub(crate) use super::device;
pub(crate) use burn_backend_tests::{GradInput, check_gradients, seed};

/// `tensor` flattened to 1-d.
pub(crate) fn flat<const D: usize, K: BasicOps>(tensor: Tensor<D, K>) -> Tensor<1, K> {
    let len = tensor.shape().num_elements();
    tensor.reshape([len])
}
