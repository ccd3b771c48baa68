//! `HuberLoss`: squared error near zero, absolute error beyond `delta`.

use super::{Reduction, check_same_dims};
use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

/// Configuration of a [`HuberLoss`].
#[derive(Config, Debug)]
pub struct HuberLossConfig {
    /// Where the loss turns from quadratic to linear.
    pub delta: f32,
}

/// Huber loss (`torch.nn.HuberLoss`), with `r = prediction - target`:
///
/// `ℓ = r² / 2` for `|r| ≤ δ`, `δ · (|r| - δ/2)` otherwise.
#[derive(Module, Debug)]
pub struct HuberLoss {
    /// `δ`.
    pub delta: f32,
    /// `δ² / 2`, the offset of the linear part.
    pub lin_bias: f32,
}

impl HuberLossConfig {
    /// The loss. Panics unless `delta ≥ 0`.
    pub fn init(&self) -> HuberLoss {
        if self.delta.is_nan() || self.delta < 0.0 {
            panic!(
                "HuberLossConfig: delta must be non-negative, got {}",
                self.delta
            );
        }
        HuberLoss {
            delta: self.delta,
            lin_bias: self.delta * self.delta / 2.0,
        }
    }
}

impl HuberLoss {
    /// The reduced loss, shape `[1]`.
    pub fn forward<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
        reduction: Reduction,
    ) -> Tensor<1> {
        reduction.apply(self.forward_no_reduction(predictions, targets))
    }

    /// The element-wise losses.
    pub fn forward_no_reduction<const D: usize>(
        &self,
        predictions: Tensor<D>,
        targets: Tensor<D>,
    ) -> Tensor<D> {
        check_same_dims("HuberLoss", predictions.dims(), targets.dims());
        self.forward_residuals(predictions.sub(targets))
    }

    /// The losses of the residuals `r`.
    pub fn forward_residuals<const D: usize>(&self, residuals: Tensor<D>) -> Tensor<D> {
        let abs = residuals.clone().abs();
        let linear = abs
            .clone()
            .mul_scalar(self.delta as f64)
            .sub_scalar(self.lin_bias as f64);
        let quadratic = residuals.square().mul_scalar(0.5);
        quadratic.mask_where(abs.greater_elem(self.delta as f64), linear)
    }
}
