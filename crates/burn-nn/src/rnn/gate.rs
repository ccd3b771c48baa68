//! `GateController`: the two affine maps of one recurrent gate.

use crate::{Initializer, Linear, LinearConfig};
use burn::module::Module;
use burn::tensor::{Device, Tensor};

/// One gate of a recurrent cell: `W_i·x + b_i` and `W_h·h + b_h` (PyTorch keeps both biases).
#[derive(Module, Debug)]
pub struct GateController {
    /// `x ↦ W_i·x + b_i`, `d_input → d_output`.
    pub input_transform: Linear,
    /// `h ↦ W_h·h + b_h`, `d_output → d_output`.
    pub hidden_transform: Linear,
}

impl GateController {
    /// A gate with lazily initialized parameters on `device`.
    pub fn new(
        d_input: usize,
        d_output: usize,
        bias: bool,
        initializer: Initializer,
        device: &Device,
    ) -> Self {
        let linear = |d_in| {
            LinearConfig::new(d_in, d_output)
                .with_bias(bias)
                .with_initializer(initializer.clone())
                .init(device)
        };
        Self {
            input_transform: linear(d_input),
            hidden_transform: linear(d_output),
        }
    }

    /// `W_i·x + b_i + W_h·h + b_h`.
    pub fn gate_product(&self, input: Tensor<2>, hidden: Tensor<2>) -> Tensor<2> {
        self.input_transform
            .forward(input)
            .add(self.hidden_transform.forward(hidden))
    }
}
