//! `GroupNorm`: normalization over groups of channels.

use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::module::group_norm;
use burn::tensor::{Device, Tensor};

/// Configuration of a [`GroupNorm`] layer.
#[derive(Config, Debug)]
pub struct GroupNormConfig {
    /// The number of groups the channels are split into.
    pub num_groups: usize,
    /// The number of channels (dim 1 of the input); a multiple of `num_groups`.
    pub num_channels: usize,
    /// Added to the variance for stability. Default: 1e-5.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// Whether to learn a per-channel scale `γ` and shift `β`. Default: true.
    #[config(default = true)]
    pub affine: bool,
}

/// Group normalization of an input `[batch, channels, ...]`: the channels are split into
/// `num_groups` consecutive groups, and each (sample, group) is normalized over its channels
/// and spatial positions,
///
/// `y = (x - mean_g) / √(var_g + ε) · γ_c + β_c`
///
/// with the biased variance, as `torch.nn.GroupNorm`.
#[derive(Module, Debug)]
pub struct GroupNorm {
    /// The per-channel scale `γ`, initially ones (when affine).
    pub gamma: Option<Param<Tensor<1>>>,
    /// The per-channel shift `β`, initially zeros (when affine).
    pub beta: Option<Param<Tensor<1>>>,
    /// The number of groups.
    pub num_groups: usize,
    /// The number of channels.
    pub num_channels: usize,
    /// Added to the variance for stability.
    pub epsilon: f64,
    /// Whether `γ` and `β` are learned.
    pub affine: bool,
}

impl GroupNormConfig {
    /// The layer, with lazily initialized parameters on `device`. Panics unless
    /// `num_channels` is a positive multiple of `num_groups`.
    pub fn init(&self, device: &Device) -> GroupNorm {
        if self.num_groups == 0 || !self.num_channels.is_multiple_of(self.num_groups) {
            panic!(
                "GroupNormConfig: num_channels ({}) must be a multiple of num_groups ({})",
                self.num_channels, self.num_groups
            );
        }
        let c = self.num_channels;
        GroupNorm {
            gamma: self.affine.then(|| Initializer::Ones.init([c], device)),
            beta: self.affine.then(|| Initializer::Zeros.init([c], device)),
            num_groups: self.num_groups,
            num_channels: c,
            epsilon: self.epsilon,
            affine: self.affine,
        }
    }
}

impl GroupNorm {
    /// Normalizes `input [batch, channels, ...]` per sample and group (one backend operation,
    /// [`group_norm`]).
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let dims = input.dims();
        if D < 2 || dims[1] != self.num_channels {
            panic!(
                "GroupNorm: expected an input [batch, {}, ...], got shape {dims:?}",
                self.num_channels
            );
        }
        let (gamma, beta) = match (&self.gamma, &self.beta) {
            (Some(gamma), Some(beta)) => (gamma.val(), beta.val()),
            _ => {
                let device = input.device();
                (
                    Tensor::ones([self.num_channels], &device),
                    Tensor::zeros([self.num_channels], &device),
                )
            }
        };
        group_norm(input, gamma, beta, self.num_groups, self.epsilon)
    }
}
