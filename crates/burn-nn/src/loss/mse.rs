//! `MseLoss`: mean squared error.

use super::{Reduction, check_same_dims};
use burn::module::Module;
use burn::tensor::Tensor;

/// Mean squared error: `ℓ_i = (prediction_i - target_i)²`, reduced by a [`Reduction`]
/// (`torch.nn.MSELoss`).
#[derive(Module, Debug, Default)]
pub struct MseLoss;

impl MseLoss {
    /// The loss.
    pub fn new() -> Self {
        Self
    }

    /// The reduced loss, shape `[1]`.
    pub fn forward<const D: usize>(
        &self,
        logits: Tensor<D>,
        targets: Tensor<D>,
        reduction: Reduction,
    ) -> Tensor<1> {
        reduction.apply(self.forward_no_reduction(logits, targets))
    }

    /// The element-wise losses `(prediction - target)²`.
    pub fn forward_no_reduction<const D: usize>(
        &self,
        logits: Tensor<D>,
        targets: Tensor<D>,
    ) -> Tensor<D> {
        check_same_dims("MseLoss", logits.dims(), targets.dims());
        logits.sub(targets).square()
    }
}
