//! `BatchNorm`: normalization over the batch (and spatial dims) per channel, with running
//! statistics for inference.

use super::{channels_view, per_channel};
use crate::{Initializer, RunningState};
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::module::{BatchNormTrainOutput, batch_norm_train};
use burn::tensor::{Device, Tensor};

/// Configuration of a [`BatchNorm`] layer.
#[derive(Config, Debug)]
pub struct BatchNormConfig {
    /// The number of channels (dim 1 of the input).
    pub num_features: usize,
    /// Added to the variance for stability. Default: 1e-5.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// The weight of a new batch in the running statistics. Default: 0.1.
    #[config(default = 0.1)]
    pub momentum: f64,
}

/// Batch normalization of an input `[batch, channels, ...]` (1-d: `[N, C]` or `[N, C, L]`,
/// 2-d: `[N, C, H, W]`), per channel `c`:
///
/// `y = (x - μ_c) / √(σ²_c + ε) · γ_c + β_c`
///
/// - Training (the input is on an autodiff device): `μ`, `σ²` are the mean and biased
///   variance over every dim but 1, and the running statistics become
///   `running = (1 - momentum) · running + momentum · stat`, where the variance stat is the
///   unbiased one (`σ² · n / (n - 1)`), as in PyTorch.
/// - Inference (any other device): `μ`, `σ²` are the running mean and variance.
///
/// The running statistics are [`RunningState`]s: visited as parameters (saved with the
/// weights), never requiring a gradient.
#[derive(Module, Debug)]
pub struct BatchNorm {
    /// The scale `γ`, `[channels]`, initially ones.
    pub gamma: Param<Tensor<1>>,
    /// The shift `β`, `[channels]`, initially zeros.
    pub beta: Param<Tensor<1>>,
    /// The running mean, initially zeros.
    pub running_mean: RunningState<Tensor<1>>,
    /// The running variance, initially ones.
    pub running_var: RunningState<Tensor<1>>,
    /// The weight of a new batch in the running statistics.
    pub momentum: f64,
    /// Added to the variance for stability.
    pub epsilon: f64,
}

impl BatchNormConfig {
    /// The layer, with lazily initialized parameters and statistics on `device`.
    pub fn init(&self, device: &Device) -> BatchNorm {
        let c = self.num_features;
        BatchNorm {
            gamma: Initializer::Ones.init([c], device),
            beta: Initializer::Zeros.init([c], device),
            running_mean: RunningState::full([c], 0.0, device),
            running_var: RunningState::full([c], 1.0, device),
            momentum: self.momentum,
            epsilon: self.epsilon,
        }
    }
}

impl BatchNorm {
    /// Normalizes `input [batch, channels, ...]`: with batch statistics (and updating the
    /// running ones) on an autodiff device, with the running statistics otherwise.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let dims = input.dims();
        let [channels] = self.gamma.lazy_shape().dims::<1>();
        let x = channels_view("BatchNorm", input, channels);
        let out = if x.device().is_autodiff() {
            self.forward_training(x)
        } else {
            // y = x·s + t with s = γ / √(σ² + ε) and t = β - μ·s, per channel: two operations
            // per value instead of four (and no division), as PyTorch's inference kernel.
            let scale = self
                .running_var
                .value()
                .add_scalar(self.epsilon)
                .sqrt()
                .recip()
                .mul(self.gamma.val());
            let shift = self
                .beta
                .val()
                .sub(self.running_mean.value().mul(scale.clone()));
            x.mul(per_channel(scale)).add(per_channel(shift))
        };
        out.reshape(dims)
    }

    /// The output with the batch statistics (one backend operation, whose backward accounts for
    /// them); updates the running statistics.
    fn forward_training(&self, x: Tensor<3>) -> Tensor<3> {
        let [batch, channels, rest] = x.dims();
        let count = batch * rest;
        if count < 2 {
            panic!(
                "BatchNorm: training needs more than one value per channel, got an input of {batch} × {channels} × {rest}"
            );
        }
        let BatchNormTrainOutput {
            output: out,
            mean,
            variance: var,
        } = batch_norm_train(x, self.gamma.val(), self.beta.val(), self.epsilon);
        let unbiased = count as f64 / (count - 1) as f64;
        let momentum = self.momentum;
        let update = |state: &RunningState<Tensor<1>>, stat: Tensor<1>| {
            let old = state.value();
            let stat = stat.detach().to_device(&old.device());
            state.update(
                old.mul_scalar(1.0 - momentum)
                    .add(stat.mul_scalar(momentum)),
            );
        };
        update(&self.running_mean, mean);
        update(&self.running_var, var.mul_scalar(unbiased));
        out
    }
}
