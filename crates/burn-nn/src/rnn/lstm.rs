//! `Lstm`: a long short-term memory layer.

use super::{GateController, step};
use crate::Initializer;
use burn::config::Config;
use burn::module::Module;
use burn::tensor::activation::sigmoid;
use burn::tensor::{Device, Tensor};

/// Configuration of an [`Lstm`] layer.
#[derive(Config, Debug)]
pub struct LstmConfig {
    /// The input size.
    pub d_input: usize,
    /// The hidden (and cell) size.
    pub d_hidden: usize,
    /// Whether the gates have biases.
    pub bias: bool,
    /// How the gates are initialized. Default: `XavierNormal { gain: 1 }`.
    #[config(default = "Initializer::XavierNormal { gain: 1.0 }")]
    pub initializer: Initializer,
}

/// The state of an [`Lstm`]: cell `c` and hidden `h`, each `[batch, d_hidden]`.
#[derive(Debug, Clone)]
pub struct LstmState {
    /// The cell state `c`.
    pub cell: Tensor<2>,
    /// The hidden state `h`.
    pub hidden: Tensor<2>,
}

impl LstmState {
    /// A state from its cell and hidden tensors.
    pub fn new(cell: Tensor<2>, hidden: Tensor<2>) -> Self {
        Self { cell, hidden }
    }
}

/// An LSTM over `x [batch, seq, d_input]` (`torch.nn.LSTM` with `batch_first=True`), per step:
///
/// `i = σ(W_ii x + b_ii + W_hi h + b_hi)`, `f = σ(W_if x + … )`, `g = tanh(W_ig x + …)`,
/// `o = σ(W_io x + …)`, `c' = f ⊙ c + i ⊙ g`, `h' = o ⊙ tanh(c')`,
///
/// starting from zeros unless a state is given.
#[derive(Module, Debug)]
pub struct Lstm {
    /// The input gate `i`.
    pub input_gate: GateController,
    /// The forget gate `f`.
    pub forget_gate: GateController,
    /// The output gate `o`.
    pub output_gate: GateController,
    /// The cell candidate `g`.
    pub cell_gate: GateController,
    /// The hidden size.
    pub d_hidden: usize,
}

impl LstmConfig {
    /// The layer, with lazily initialized parameters on `device`.
    pub fn init(&self, device: &Device) -> Lstm {
        let gate = || {
            GateController::new(
                self.d_input,
                self.d_hidden,
                self.bias,
                self.initializer.clone(),
                device,
            )
        };
        Lstm {
            input_gate: gate(),
            forget_gate: gate(),
            output_gate: gate(),
            cell_gate: gate(),
            d_hidden: self.d_hidden,
        }
    }
}

impl Lstm {
    /// Runs over `batched_input [batch, seq, d_input]`: the hidden states `[batch, seq,
    /// d_hidden]` and the final state.
    pub fn forward(
        &self,
        batched_input: Tensor<3>,
        state: Option<LstmState>,
    ) -> (Tensor<3>, LstmState) {
        let [batch, seq, _] = batched_input.dims();
        let device = batched_input.device();
        let LstmState {
            mut cell,
            mut hidden,
        } = state.unwrap_or_else(|| {
            let zeros = Tensor::zeros([batch, self.d_hidden], &device);
            LstmState::new(zeros.clone(), zeros)
        });
        // The input halves of every gate, for all steps at once.
        let inputs = [
            &self.input_gate,
            &self.forget_gate,
            &self.output_gate,
            &self.cell_gate,
        ]
        .map(|gate| gate.input_transform.forward(batched_input.clone()));
        let mut outputs = Vec::with_capacity(seq);
        for t in 0..seq {
            let pre = |k: usize, gate: &GateController| {
                step(&inputs[k], t).add(gate.hidden_transform.forward(hidden.clone()))
            };
            let i = sigmoid(pre(0, &self.input_gate));
            let f = sigmoid(pre(1, &self.forget_gate));
            let o = sigmoid(pre(2, &self.output_gate));
            let g = pre(3, &self.cell_gate).tanh();
            cell = f.mul(cell).add(i.mul(g));
            hidden = o.mul(cell.clone().tanh());
            outputs.push(hidden.clone());
        }
        let hidden_states = if seq == 0 {
            Tensor::zeros([batch, 0, self.d_hidden], &device)
        } else {
            Tensor::stack(outputs, 1)
        };
        (hidden_states, LstmState::new(cell, hidden))
    }
}
