//! `RmsNorm`: scaling by the root mean square over the last dim.

use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

/// Configuration of an [`RmsNorm`] layer.
#[derive(Config, Debug)]
pub struct RmsNormConfig {
    /// The size of the last dim.
    pub d_model: usize,
    /// Added to the mean square for stability. Default: 1e-5.
    #[config(default = 1e-5)]
    pub epsilon: f64,
}

/// Root-mean-square normalization over the last dim (`d_model`):
///
/// `y = x / √(mean(x²) + ε) · γ`
///
/// as `torch.nn.RMSNorm`.
#[derive(Module, Debug)]
pub struct RmsNorm {
    /// The scale `γ`, `[d_model]`, initially ones.
    pub gamma: Param<Tensor<1>>,
    /// Added to the mean square for stability.
    pub epsilon: f64,
}

impl RmsNormConfig {
    /// The layer, with a lazily initialized scale on `device`. Panics unless `epsilon > 0`.
    pub fn init(&self, device: &Device) -> RmsNorm {
        if self.epsilon <= 0.0 || self.epsilon.is_nan() {
            panic!(
                "RmsNormConfig: epsilon must be positive, got {}",
                self.epsilon
            );
        }
        RmsNorm {
            gamma: Initializer::Ones.init([self.d_model], device),
            epsilon: self.epsilon,
        }
    }
}

impl RmsNorm {
    /// Normalizes `input [..., d_model]` over its last dim.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let [d_model] = self.gamma.lazy_shape().dims::<1>();
        let dims = input.dims();
        if dims[D - 1] != d_model {
            panic!("RmsNorm: expected an input [..., {d_model}], got shape {dims:?}");
        }
        let rms = input
            .clone()
            .square()
            .mean_dim(D - 1)
            .add_scalar(self.epsilon)
            .sqrt();
        input.div(rms).mul(self.gamma.val().unsqueeze())
    }
}
