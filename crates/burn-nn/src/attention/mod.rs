//! Attention: multi-head attention and mask builders.

mod mask;
mod mha;

pub use mask::generate_autoregressive_mask;
pub use mha::{MhaInput, MhaOutput, MultiHeadAttention, MultiHeadAttentionConfig};
