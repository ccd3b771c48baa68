//! Recurrent layers: LSTM and GRU.

mod gate;
mod gru;
mod lstm;

pub use gate::GateController;
pub use gru::{Gru, GruConfig};
pub use lstm::{Lstm, LstmConfig, LstmState};

use burn::tensor::Tensor;

/// The `t`-th step `[batch, d]` of a `[batch, seq, d]` sequence.
pub(crate) fn step(sequence: &Tensor<3>, t: usize) -> Tensor<2> {
    let [batch, _, d] = sequence.dims();
    sequence.clone().narrow(1, t, 1).reshape([batch, d])
}
