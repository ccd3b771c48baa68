//! `Gru`: a gated recurrent unit layer.

use super::{GateController, step};
use crate::Initializer;
use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::sigmoid;
use burn::tensor::{Device, Tensor};

/// Configuration of a [`Gru`] layer.
#[derive(Config, Debug)]
pub struct GruConfig {
    /// The input size.
    pub d_input: usize,
    /// The hidden size.
    pub d_hidden: usize,
    /// Whether the gates have biases.
    pub bias: bool,
    /// Apply the reset gate after the hidden projection (PyTorch's and cuDNN's form) instead
    /// of before it. Default: true.
    #[config(default = true)]
    pub reset_after: bool,
    /// How the gates are initialized. Default: `XavierNormal { gain: 1 }`.
    #[config(default = "Initializer::XavierNormal { gain: 1.0 }")]
    pub initializer: Initializer,
}

/// A GRU over `x [batch, seq, d_input]` (`torch.nn.GRU` with `batch_first=True`), per step:
///
/// `r = σ(W_ir x + b_ir + W_hr h + b_hr)`, `z = σ(W_iz x + b_iz + W_hz h + b_hz)`,
/// `n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))` (reset after; before:
/// `tanh(W_in x + b_in + W_hn (r ⊙ h) + b_hn)`), `h' = (1 - z) ⊙ n + z ⊙ h`,
///
/// starting from zeros unless a state is given.
#[derive(Module, Debug)]
pub struct Gru {
    /// The update gate `z`.
    pub update_gate: GateController,
    /// The reset gate `r`.
    pub reset_gate: GateController,
    /// The candidate `n`.
    pub new_gate: GateController,
    /// The hidden size.
    pub d_hidden: usize,
    /// Whether the reset gate applies after the hidden projection.
    pub reset_after: bool,
}

impl GruConfig {
    /// The layer, with lazily initialized parameters on `device`.
    pub fn init(&self, device: &Device) -> Gru {
        let gate = || {
            GateController::new(
                self.d_input,
                self.d_hidden,
                self.bias,
                self.initializer.clone(),
                device,
            )
        };
        Gru {
            update_gate: gate(),
            reset_gate: gate(),
            new_gate: gate(),
            d_hidden: self.d_hidden,
            reset_after: self.reset_after,
        }
    }
}

impl Gru {
    /// Runs over `batched_input [batch, seq, d_input]` from `state [batch, d_hidden]` (zeros
    /// by default): the hidden states `[batch, seq, d_hidden]`.
    pub fn forward(&self, batched_input: Tensor<3>, state: Option<Tensor<2>>) -> Tensor<3> {
        let [batch, seq, _] = batched_input.dims();
        let device = batched_input.device();
        let mut hidden = state.unwrap_or_else(|| Tensor::zeros([batch, self.d_hidden], &device));
        let inputs = [&self.update_gate, &self.reset_gate, &self.new_gate]
            .map(|gate| gate.input_transform.forward(batched_input.clone()));
        let mut outputs = Vec::with_capacity(seq);
        for t in 0..seq {
            let hidden_part =
                |gate: &GateController, h: Tensor<2>| gate.hidden_transform.forward(h);
            let z =
                sigmoid(step(&inputs[0], t).add(hidden_part(&self.update_gate, hidden.clone())));
            let r = sigmoid(step(&inputs[1], t).add(hidden_part(&self.reset_gate, hidden.clone())));
            let candidate = if self.reset_after {
                r.mul(hidden_part(&self.new_gate, hidden.clone()))
            } else {
                hidden_part(&self.new_gate, r.mul(hidden.clone()))
            };
            let n = step(&inputs[2], t).add(candidate).tanh();
            // h' = (1 - z)·n + z·h = n + z·(h - n)
            hidden = n.clone().add(z.mul(hidden.sub(n)));
            outputs.push(hidden.clone());
        }
        if seq == 0 {
            return Tensor::zeros([batch, 0, self.d_hidden], &device);
        }
        Tensor::stack(outputs, 1)
    }
}
