//! Options of scaled dot-product attention.

use serde::{Deserialize, Serialize};

/// Options of scaled dot-product attention.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct AttentionModuleOptions {
    /// Scale applied to `q·kᵀ`; `None` means `1/sqrt(head_dim)`.
    pub scale: Option<f64>,
    /// Soft cap: scores become `softcap * tanh(score / softcap)`.
    pub softcap: Option<f64>,
    /// Whether a query may attend only to keys at or before its position, aligned as
    /// `causal_alignment` says when the query and key lengths differ.
    pub is_causal: bool,
    /// Where the causal diagonal starts when the query and key lengths differ.
    #[serde(default)]
    pub causal_alignment: CausalAlignment,
}

/// Where a causal mask's diagonal sits when there are fewer queries than keys.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CausalAlignment {
    /// The last query sees every key (decoding with a cache; PyTorch's `is_causal` with
    /// `attn_mask` built bottom-right, FlashAttention's convention).
    #[default]
    BottomRight,
    /// Query `i` sees keys `0..=i` (PyTorch's `scaled_dot_product_attention(is_causal=True)`).
    TopLeft,
}

impl CausalAlignment {
    /// How many keys beyond its own index query `i` may see: key `j` is visible when
    /// `j <= i + offset`.
    pub fn offset(self, seq_q: usize, seq_k: usize) -> i64 {
        match self {
            CausalAlignment::BottomRight => seq_k as i64 - seq_q as i64,
            CausalAlignment::TopLeft => 0,
        }
    }
}
