//! Attention masks.

use burn::tensor::{Bool, Device, Tensor};

/// The causal mask `[batch, seq, seq]`: true (may not attend) where the key position is after
/// the query position, so that position `i` sees only positions `≤ i`.
pub fn generate_autoregressive_mask(
    batch_size: usize,
    seq_length: usize,
    device: &Device,
) -> Tensor<3, Bool> {
    let mask = Tensor::<2, Bool>::tril_mask([seq_length, seq_length], 0, device);
    mask.unsqueeze::<3>()
        .expand([batch_size, seq_length, seq_length])
}
