//! Normalization layers: batch, layer, group and RMS normalization.

mod batch;
mod group;
mod layer;
mod rms;

pub use batch::{BatchNorm, BatchNormConfig};
pub use group::{GroupNorm, GroupNormConfig};
pub use layer::{LayerNorm, LayerNormConfig};
pub use rms::{RmsNorm, RmsNormConfig};

use burn::tensor::Tensor;

/// `input [batch, channels, ...]` as `[batch, channels, rest]`, after checking that it has
/// rank ≥ 2 and `channels` channels; `op` names the layer in the panic message.
pub(crate) fn channels_view<const D: usize>(
    op: &str,
    input: Tensor<D>,
    channels: usize,
) -> Tensor<3> {
    let dims = input.dims();
    if D < 2 || dims[1] != channels {
        panic!("{op}: expected an input [batch, {channels}, ...], got shape {dims:?}");
    }
    let rest = dims[2..].iter().product::<usize>();
    input.reshape([dims[0], channels, rest])
}

/// A per-channel vector `[c]` shaped `[1, c, 1]` to broadcast over `[batch, c, rest]`.
pub(crate) fn per_channel(vector: Tensor<1>) -> Tensor<3> {
    let [c] = vector.dims();
    vector.reshape([1, c, 1])
}
