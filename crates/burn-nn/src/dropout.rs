//! `Dropout`: zeroes random elements while training.

use burn::config::Config;
use burn::module::{Flag, Module, Param};
use burn::tensor::{Distribution, Tensor};

/// Configuration of a [`Dropout`] layer.
#[derive(Config, Debug)]
pub struct DropoutConfig {
    /// The probability `p` of zeroing an element, in `[0, 1]`.
    pub prob: f64,
}

/// Dropout: while training, each element is zeroed with probability `p` and the others are
/// scaled by `1 / (1 - p)` (so the expectation is unchanged); otherwise the identity.
///
/// Training means the input lives on an autodiff device (`input.device().is_autodiff()`) and
/// the layer's `training` flag is on, as in Burn: a model made for inference with
/// `Module::valid()` runs on the inner device with its flags off, and a layer frozen with
/// `Module::freeze` (or `freeze_group`) drops nothing even on the training device.
#[derive(Module, Debug)]
pub struct Dropout {
    /// The probability `p` of zeroing an element.
    pub prob: f64,
    /// Whether the layer behaves as in training; cleared by `freeze` and `valid`.
    pub training: Param<Flag>,
}

impl DropoutConfig {
    /// The layer. Panics unless `0 ≤ prob ≤ 1`.
    pub fn init(&self) -> Dropout {
        if !(0.0..=1.0).contains(&self.prob) {
            panic!(
                "DropoutConfig: the probability must be in [0, 1], got {}",
                self.prob
            );
        }
        Dropout {
            prob: self.prob,
            training: Param::from_bool(true),
        }
    }
}

impl Dropout {
    /// `x · mask / (1 - p)` with `mask ~ Bernoulli(1 - p)` on an autodiff device, else `x`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        if !self.training.is_enabled() || !input.device().is_autodiff() || self.prob == 0.0 {
            return input;
        }
        if self.prob >= 1.0 {
            return input.mul_scalar(0.0);
        }
        let keep = 1.0 - self.prob;
        let mask = input.random_like(Distribution::Bernoulli(keep));
        input.mul(mask).div_scalar(keep)
    }
}
