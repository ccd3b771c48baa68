//! `Linear`: `y = x·W + b` over the last dim.

use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};

/// Configuration of a [`Linear`] layer.
#[derive(Config, Debug)]
pub struct LinearConfig {
    /// The size of the input features.
    pub d_input: usize,
    /// The size of the output features.
    pub d_output: usize,
    /// Whether to add a bias.
    #[config(default = true)]
    pub bias: bool,
    /// How the weight and bias are initialized (`fan_in = d_input`, `fan_out = d_output`).
    /// Default: `KaimingUniform { gain: 1/√3, fan_out_only: false }`, i.e. both weight and
    /// bias drawn from `U(-1/√d_input, 1/√d_input)` as in PyTorch.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A linear (fully connected) layer: `y = x·W + b` with `W: [d_input, d_output]` (Burn's
/// layout, the transpose of PyTorch's `weight`) and `b: [d_output]`, applied over the last
/// dim of an input of any rank ≥ 1 (leading dims are batch dims).
#[derive(Module, Debug)]
pub struct Linear {
    /// The weight `W`, `[d_input, d_output]`.
    pub weight: Param<Tensor<2>>,
    /// The bias `b`, `[d_output]`.
    pub bias: Option<Param<Tensor<1>>>,
}

impl LinearConfig {
    /// The layer, with lazily initialized parameters on `device`.
    pub fn init(&self, device: &Device) -> Linear {
        let (weight, bias) = self.initializer.init_weight_and_bias(
            [self.d_input, self.d_output],
            self.bias.then_some(self.d_output),
            [self.d_input, self.d_output],
            device,
        );
        Linear { weight, bias }
    }
}

impl Linear {
    /// `x·W + b` for `input: [..., d_input]`, giving `[..., d_output]`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        burn::tensor::module::linear(
            input,
            self.weight.val(),
            self.bias.as_ref().map(|b| b.val()),
        )
    }
}
