//! `PositionWiseFeedForward`: the two-layer MLP of a transformer block.

use crate::{Dropout, DropoutConfig, Gelu, Initializer, Linear, LinearConfig};
use burn::config::Config;
use burn::module::Module;
use burn::tensor::{Device, Tensor};

/// Configuration of a [`PositionWiseFeedForward`] block.
#[derive(Config, Debug)]
pub struct PositionWiseFeedForwardConfig {
    /// The model size.
    pub d_model: usize,
    /// The hidden size.
    pub d_ff: usize,
    /// The dropout probability after the activation. Default: 0.1.
    #[config(default = 0.1)]
    pub dropout: f64,
    /// How the two linear layers are initialized. Default:
    /// `KaimingUniform { gain: 1/√3, fan_out_only: false }`.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// `y = dropout(gelu(x·W₁ + b₁))·W₂ + b₂`, applied at every position.
#[derive(Module, Debug)]
pub struct PositionWiseFeedForward {
    /// `d_model → d_ff`.
    pub linear_inner: Linear,
    /// `d_ff → d_model`.
    pub linear_outer: Linear,
    /// Dropout after the activation.
    pub dropout: Dropout,
    /// The activation.
    pub gelu: Gelu,
}

impl PositionWiseFeedForwardConfig {
    /// The block, with lazily initialized parameters on `device`.
    pub fn init(&self, device: &Device) -> PositionWiseFeedForward {
        let linear = |d_in, d_out| {
            LinearConfig::new(d_in, d_out)
                .with_initializer(self.initializer.clone())
                .init(device)
        };
        PositionWiseFeedForward {
            linear_inner: linear(self.d_model, self.d_ff),
            linear_outer: linear(self.d_ff, self.d_model),
            dropout: DropoutConfig::new(self.dropout).init(),
            gelu: Gelu::new(),
        }
    }
}

impl PositionWiseFeedForward {
    /// Applies the block to `input [..., d_model]`.
    pub fn forward<const D: usize>(&self, input: Tensor<D>) -> Tensor<D> {
        let hidden = self.gelu.forward(self.linear_inner.forward(input));
        self.linear_outer.forward(self.dropout.forward(hidden))
    }
}
