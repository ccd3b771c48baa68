//! Scaled dot-product attention by definition.

use super::RefArray;

/// How scores are formed and masked.
#[derive(Clone, Copy, Debug, Default)]
pub struct AttentionParams {
    /// Factor on `q·kᵀ`; `1/√d` when `None`.
    pub scale: Option<f64>,
    /// Scores become `cap · tanh(score / cap)`.
    pub softcap: Option<f64>,
    /// Query `i` may attend only to keys `j <= i`.
    pub causal: bool,
}

/// `softmax(q·kᵀ·scale (softcapped), masked to -∞ where `mask` is non-zero or causal) · v` for
/// `q [b, h, lq, d]`, `k [b, h, lk, d]`, `v [b, h, lk, dv]`; `mask` broadcasts to
/// `[b, h, lq, lk]`.
pub fn attention(
    q: &RefArray,
    k: &RefArray,
    v: &RefArray,
    mask: Option<&RefArray>,
    p: AttentionParams,
) -> RefArray {
    let [b, h, lq, d]: [usize; 4] = q.shape.clone().try_into().expect("rank 4");
    let lk = k.shape[2];
    let dv = v.shape[3];
    let scale = p.scale.unwrap_or(1.0 / (d as f64).sqrt());
    let mask = mask.map(|m| m.broadcast_to(&[b, h, lq, lk]));
    let mut scores = q.matmul(&k.transpose()).map(|s| s * scale);
    if let Some(cap) = p.softcap {
        scores = scores.map(|s| cap * (s / cap).tanh());
    }
    let scores = RefArray::from_fn(&[b, h, lq, lk], |i| {
        let masked = mask.as_ref().is_some_and(|m| m.at(i) != 0.0) || (p.causal && i[3] > i[2]);
        if masked {
            f64::NEG_INFINITY
        } else {
            scores.at(i)
        }
    });
    let weights = scores.softmax(3);
    let out = weights.matmul(v);
    assert_eq!(out.shape, [b, h, lq, dv]);
    out
}
