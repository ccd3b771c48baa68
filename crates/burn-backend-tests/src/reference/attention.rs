//! Scaled dot-product attention by definition.

use super::RefArray;

/// How scores are formed and masked.
#[derive(Clone, Copy, Debug, Default)]
pub struct AttentionParams {
    /// Factor on `q·kᵀ`; `1/√d` when `None`.
    pub scale: Option<f64>,
    /// Scores become `cap · tanh(score / cap)`.
    pub softcap: Option<f64>,
    /// Query `i` may attend only to keys `j <= i + offset`, with `offset = lk - lq`
    /// (bottom-right) or 0 with `top_left`.
    pub causal: bool,
    /// Whether the causal diagonal starts at the top-left corner.
    pub top_left: bool,
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
    attention_with_bias(q, k, v, mask, None, p)
}

/// [`attention`] with an additive `bias` (broadcast to the scores, added after masking) and
/// key/value heads `h_kv` dividing the query heads: query head `i` reads head `i / (h / h_kv)`.
/// Written as loops over the definition.
pub fn attention_with_bias(
    q: &RefArray,
    k: &RefArray,
    v: &RefArray,
    mask: Option<&RefArray>,
    bias: Option<&RefArray>,
    p: AttentionParams,
) -> RefArray {
    let [b, h, lq, d]: [usize; 4] = q.shape.clone().try_into().expect("rank 4");
    let (h_kv, lk, dv) = (k.shape[1], k.shape[2], v.shape[3]);
    let group = h / h_kv;
    let scores_shape = [b, h, lq, lk];
    let mask = mask.map(|m| m.broadcast_to(&scores_shape));
    let bias = bias.map(|m| m.broadcast_to(&scores_shape));
    let scale = p.scale.unwrap_or(1.0 / (d as f64).sqrt());
    let offset = match p.top_left {
        true => 0,
        false => lk as i64 - lq as i64,
    };
    let mut out = RefArray::full(&[b, h, lq, dv], 0.0);
    for (n, head, i) in
        (0..b).flat_map(|n| (0..h).flat_map(move |hd| (0..lq).map(move |i| (n, hd, i))))
    {
        let kv = head / group;
        let scores: Vec<f64> = (0..lk)
            .map(|j| {
                let at = [n, head, i, j];
                let hidden = mask.as_ref().is_some_and(|m| m.at(&at) != 0.0)
                    || (p.causal && j as i64 > i as i64 + offset);
                if hidden {
                    return f64::NEG_INFINITY;
                }
                let dot: f64 = (0..d)
                    .map(|e| q.at(&[n, head, i, e]) * k.at(&[n, kv, j, e]))
                    .sum();
                let mut s = dot * scale;
                if let Some(cap) = p.softcap {
                    s = cap * (s / cap).tanh();
                }
                s + bias.as_ref().map_or(0.0, |bias| bias.at(&at))
            })
            .collect();
        let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
        let sum: f64 = exp.iter().sum();
        for e in 0..dv {
            let value: f64 = (0..lk).map(|j| exp[j] / sum * v.at(&[n, kv, j, e])).sum();
            out.set(&[n, head, i, e], value);
        }
    }
    out
}
