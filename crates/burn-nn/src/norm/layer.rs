//! `LayerNorm`: normalization over the last dim.

use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

/// Configuration of a [`LayerNorm`] layer.
#[derive(Config, Debug)]
pub struct LayerNormConfig {
    /// The size of the last dim.
    pub d_model: usize,
    /// Added to the variance for stability. Default: 1e-5.
    #[config(default = 1e-5)]
    pub epsilon: f64,
    /// Whether to add the shift `β`. Default: true.
    #[config(default = true)]
    pub bias: bool,
}

/// Layer normalization over the last dim (`d_model`):
///
/// `y = (x - mean(x)) / √(var(x) + ε) · γ + β`
///
/// with the biased variance, as `torch.nn.LayerNorm`.
#[derive(Module, Debug)]
pub struct LayerNorm {
    /// The scale `γ`, `[d_model]`, initially ones.
    pub gamma: Param<Tensor<1>>,
    /// The shift `β`, `[d_model]`, initially zeros.
    pub beta: Option<Param<Tensor<1>>>,
    /// Added to the variance for stability.
    pub epsilon: f64,
}

impl LayerNormConfig {
    /// The layer, with lazily initialized parameters on `device`.
    pub fn init(&self, device: &Device) -> LayerNorm {
        LayerNorm {
            gamma: Initializer::Ones.init([self.d_model], device),
            beta: self
                .bias
                .then(|| Initializer::Zeros.init([self.d_model], device)),
            epsilon: self.epsilon,
        }
    }
}

impl LayerNorm {
    /// Normalizes `input [..., d_model]` over its last dim.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let [d_model] = self.gamma.lazy_shape().dims::<1>();
        let dims = input.dims();
        if dims[D - 1] != d_model {
            panic!("LayerNorm: expected an input [..., {d_model}], got shape {dims:?}");
        }
        burn::tensor::module::layer_norm(
            input,
            self.gamma.val(),
            self.beta.as_ref().map(|beta| beta.val()),
            self.epsilon,
        )
    }
}
