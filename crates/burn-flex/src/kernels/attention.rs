//! Scaled dot-product attention over contiguous `[batch, heads, seq, dim]` slices:
//! `softmax(mask(softcap(q·kᵀ · scale)) + bias) · v`, with `q·kᵀ` and `p·v` through
//! `FloatElement::gemm` and a numerically stable softmax in `f64`.

use super::common::{
    PARALLEL_WORK, check_len, for_each_chunk, from_f64, is_half, narrow, to_f64, widen,
};
use crate::element::FloatElement;
use burn_std::AttentionModuleOptions;

/// Checked sizes of one attention problem.
#[derive(Clone, Copy)]
struct Dims {
    batch: usize,
    q_heads: usize,
    kv_heads: usize,
    lq: usize,
    lk: usize,
    d: usize,
    dv: usize,
}

#[allow(clippy::too_many_arguments)]
fn check(
    q: usize,
    q_shape: [usize; 4],
    k: usize,
    k_shape: [usize; 4],
    v: usize,
    v_shape: [usize; 4],
    mask: Option<usize>,
    bias: Option<usize>,
    options: &AttentionModuleOptions,
) -> Dims {
    let name = "attention";
    check_len(name, "query", q, &q_shape);
    check_len(name, "key", k, &k_shape);
    check_len(name, "value", v, &v_shape);
    let [batch, q_heads, lq, d] = q_shape;
    let [_, kv_heads, lk, _] = k_shape;
    assert!(
        k_shape[0] == batch && k_shape[3] == d,
        "attention: expected a key of shape [{batch}, heads, seq, {d}] (query {q_shape:?}), got \
         {k_shape:?}"
    );
    assert!(
        v_shape[..3] == k_shape[..3],
        "attention: expected a value of shape [{batch}, {kv_heads}, {lk}, dim] (key \
         {k_shape:?}), got {v_shape:?}"
    );
    assert!(
        kv_heads > 0 && q_heads.is_multiple_of(kv_heads),
        "attention: expected query heads ({q_heads}) to be a multiple of key/value heads \
         ({kv_heads})"
    );
    let scores = [batch, q_heads, lq, lk];
    if let Some(len) = mask {
        check_len(name, "mask (expanded)", len, &scores);
    }
    if let Some(len) = bias {
        check_len(name, "bias (expanded)", len, &scores);
    }
    if let Some(cap) = options.softcap {
        assert!(
            cap > 0.0,
            "attention: expected a positive softcap, got {cap}"
        );
    }
    Dims {
        batch,
        q_heads,
        kv_heads,
        lq,
        lk,
        d,
        dv: v_shape[3],
    }
}

/// Scaled dot-product attention of `q` `[b, hq, lq, d]`, `k` `[b, hk, lk, d]` and `v`
/// `[b, hk, lk, dv]` (`hq` a multiple of `hk`: query head `h` reads key/value head
/// `h / (hq / hk)`), with an optional `mask` and additive `bias`, both already expanded to
/// `[b, hq, lq, lk]` (`true` masks a position out). Follows Burn's order: scale (default
/// `1/sqrt(d)`), softcap, mask, causal mask (key `j` is hidden from query `i` when
/// `j > i + lk - lq`), bias, softmax. A fully masked row yields zeros. Returns the output and
/// its shape `[b, hq, lq, dv]`.
#[allow(clippy::too_many_arguments)]
pub fn attention<T: FloatElement>(
    q: &[T],
    q_shape: [usize; 4],
    k: &[T],
    k_shape: [usize; 4],
    v: &[T],
    v_shape: [usize; 4],
    mask: Option<&[bool]>,
    bias: Option<&[T]>,
    options: AttentionModuleOptions,
) -> (Vec<T>, [usize; 4]) {
    let dims = check(
        q.len(),
        q_shape,
        k.len(),
        k_shape,
        v.len(),
        v_shape,
        mask.map(<[bool]>::len),
        bias.map(<[T]>::len),
        &options,
    );
    let shape = [dims.batch, dims.q_heads, dims.lq, dims.dv];
    if is_half::<T>() {
        let bias = bias.map(widen);
        let out = compute(
            &widen(q),
            &widen(k),
            &widen(v),
            mask,
            bias.as_deref(),
            &options,
            dims,
        );
        return (narrow(&out), shape);
    }
    (compute(q, k, v, mask, bias, &options, dims), shape)
}

fn compute<T: FloatElement>(
    q: &[T],
    k: &[T],
    v: &[T],
    mask: Option<&[bool]>,
    bias: Option<&[T]>,
    options: &AttentionModuleOptions,
    dims: Dims,
) -> Vec<T> {
    let Dims {
        batch,
        q_heads,
        kv_heads,
        lq,
        lk,
        d,
        dv,
    } = dims;
    let scale = options
        .scale
        .unwrap_or_else(|| 1.0 / (d.max(1) as f64).sqrt());
    let group = q_heads / kv_heads;
    let offset = options.causal_alignment.offset(lq, lk) as isize;
    let mut out = vec![T::zero(); batch * q_heads * lq * dv];
    let work = batch * q_heads * lq * lk * (d + dv);
    for_each_chunk(&mut out, lq * dv, work >= PARALLEL_WORK, |head, dst| {
        let (b, h) = (head / q_heads, head % q_heads);
        let kv = b * kv_heads + h / group;
        let q_h = &q[head * lq * d..(head + 1) * lq * d];
        let k_h = &k[kv * lk * d..(kv + 1) * lk * d];
        let v_h = &v[kv * lk * dv..(kv + 1) * lk * dv];
        let mut scores = vec![T::zero(); lq * lk];
        T::gemm(
            lq,
            d,
            lk,
            q_h,
            [d as isize, 1],
            k_h,
            [1, d as isize],
            &mut scores,
        );
        let mut row = vec![0f64; lk];
        for i in 0..lq {
            let at = (head * lq + i) * lk;
            for (j, s) in row.iter_mut().enumerate() {
                let mut x = to_f64(scores[i * lk + j]) * scale;
                if let Some(cap) = options.softcap {
                    x = cap * (x / cap).tanh();
                }
                let hidden = mask.is_some_and(|m| m[at + j])
                    || (options.is_causal && j as isize > i as isize + offset);
                if hidden {
                    x = f64::NEG_INFINITY;
                }
                if let Some(bias) = bias {
                    x += to_f64(bias[at + j]);
                }
                *s = x;
            }
            // NaN propagates (f64::max would skip it and turn a NaN row into a masked one).
            let max = row.iter().copied().fold(f64::NEG_INFINITY, |m, x| {
                if x.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.max(x)
                }
            });
            let p = &mut scores[i * lk..(i + 1) * lk];
            if max == f64::NEG_INFINITY {
                p.fill(T::zero());
                continue;
            }
            let mut sum = 0.0;
            for s in row.iter_mut() {
                *s = (*s - max).exp();
                sum += *s;
            }
            for (p, s) in p.iter_mut().zip(&row) {
                *p = from_f64(s / sum);
            }
        }
        T::gemm(
            lq,
            lk,
            dv,
            &scores,
            [lk as isize, 1],
            v_h,
            [dv as isize, 1],
            dst,
        );
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_close, back, data, to};
    use burn_std::bf16;

    /// Direct attention by the definition, in f64: every score, exp, sum and weighted sum
    /// written out as loops.
    #[allow(clippy::too_many_arguments)]
    fn naive(
        q: &[f64],
        [b, hq, lq, d]: [usize; 4],
        k: &[f64],
        hk: usize,
        lk: usize,
        v: &[f64],
        dv: usize,
        mask: Option<&[bool]>,
        bias: Option<&[f64]>,
        o: AttentionModuleOptions,
    ) -> Vec<f64> {
        let scale = o.scale.unwrap_or(1.0 / (d as f64).sqrt());
        let mut out = vec![0.0; b * hq * lq * dv];
        for bi in 0..b {
            for h in 0..hq {
                let kvh = h / (hq / hk);
                for i in 0..lq {
                    let mut weights = vec![];
                    for j in 0..lk {
                        let mut s: f64 = (0..d)
                            .map(|e| {
                                q[((bi * hq + h) * lq + i) * d + e]
                                    * k[((bi * hk + kvh) * lk + j) * d + e]
                            })
                            .sum::<f64>()
                            * scale;
                        if let Some(c) = o.softcap {
                            s = c * (s / c).tanh();
                        }
                        let at = ((bi * hq + h) * lq + i) * lk + j;
                        let causal_hidden = o.is_causal && (j + lq > i + lk);
                        let visible = !(mask.is_some_and(|m| m[at]) || causal_hidden);
                        weights.push(visible.then(|| s + bias.map_or(0.0, |bb| bb[at])));
                    }
                    let total: f64 = weights.iter().flatten().map(|s| s.exp()).sum();
                    for j in 0..lk {
                        let Some(s) = weights[j] else { continue };
                        let p = s.exp() / total;
                        for e in 0..dv {
                            out[((bi * hq + h) * lq + i) * dv + e] +=
                                p * v[((bi * hk + kvh) * lk + j) * dv + e];
                        }
                    }
                }
            }
        }
        out
    }

    struct Case {
        q: [usize; 4],
        hk: usize,
        lk: usize,
        dv: usize,
        mask: bool,
        bias: bool,
        options: AttentionModuleOptions,
    }

    fn opts(scale: Option<f64>, softcap: Option<f64>, is_causal: bool) -> AttentionModuleOptions {
        AttentionModuleOptions {
            scale,
            softcap,
            is_causal,
            ..Default::default()
        }
    }

    #[test]
    fn attention_matches_direct_definition() {
        #[rustfmt::skip]
        let cases = [
            Case { q: [2, 3, 5, 4], hk: 3, lk: 6, dv: 3, mask: false, bias: false, options: opts(None, None, false) },
            Case { q: [1, 2, 4, 8], hk: 2, lk: 4, dv: 8, mask: false, bias: false, options: opts(None, None, true) },
            Case { q: [1, 2, 3, 4], hk: 2, lk: 7, dv: 5, mask: true, bias: false, options: opts(Some(0.9), None, true) },
            Case { q: [2, 1, 6, 3], hk: 1, lk: 4, dv: 2, mask: false, bias: true, options: opts(None, Some(0.5), true) },
            Case { q: [1, 4, 5, 6], hk: 2, lk: 5, dv: 7, mask: true, bias: true, options: opts(Some(2.0), Some(3.0), false) },
            // Large enough for the rayon path.
            Case { q: [2, 8, 32, 16], hk: 4, lk: 48, dv: 16, mask: true, bias: false, options: opts(None, None, true) },
        ];
        for (i, c) in cases.iter().enumerate() {
            let what = format!("case {i}");
            let [b, hq, lq, d] = c.q;
            let (k_shape, v_shape) = ([b, c.hk, c.lk, d], [b, c.hk, c.lk, c.dv]);
            let q = data(c.q.iter().product(), i as f64);
            let k = data(k_shape.iter().product(), 1.0 + i as f64);
            let v = data(v_shape.iter().product(), 2.0 + i as f64);
            let n_scores = b * hq * lq * c.lk;
            // Roughly every third position masked, plus one fully masked row (query 1 of the
            // first head).
            let mask: Vec<bool> = (0..n_scores)
                .map(|j| (j * 7 + i) % 3 == 0 || (c.lk..2 * c.lk).contains(&j))
                .collect();
            let mask = c.mask.then_some(mask.as_slice());
            let bias = data(n_scores, 3.0);
            let bias = c.bias.then_some(bias.as_slice());
            let expected = naive(&q, c.q, &k, c.hk, c.lk, &v, c.dv, mask, bias, c.options);
            let (out, shape) = attention(&q, c.q, &k, k_shape, &v, v_shape, mask, bias, c.options);
            assert_eq!(shape, [b, hq, lq, c.dv], "{what}");
            assert_close(&out, &expected, 1e-12, &what);
            assert!(
                out.iter().all(|x| x.is_finite()),
                "{what}: fully masked rows must give zeros"
            );
            let b32 = bias.map(to::<f32>);
            let (o32, _) = attention(
                &to::<f32>(&q),
                c.q,
                &to::<f32>(&k),
                k_shape,
                &to::<f32>(&v),
                v_shape,
                mask,
                b32.as_deref(),
                c.options,
            );
            assert_close(&back(&o32), &expected, 1e-5, &what);
            let bb = bias.map(to::<bf16>);
            let (ob, _) = attention(
                &to::<bf16>(&q),
                c.q,
                &to::<bf16>(&k),
                k_shape,
                &to::<bf16>(&v),
                v_shape,
                mask,
                bb.as_deref(),
                c.options,
            );
            assert_close(&back(&ob), &expected, 3e-2, &what);
        }
    }

    #[test]
    fn equal_scores_average_the_values_and_masked_rows_are_zero() {
        // Zero queries give equal scores: each output row is the mean of the value rows
        // (torch.nn.functional.scaled_dot_product_attention(zeros, k, v) == v.mean(-2)).
        let v = [1.0f64, 10.0, 2.0, 20.0, 6.0, 60.0];
        let k = data(3 * 2, 1.0);
        let mask = [false, false, false, true, true, true];
        let (out, _) = attention(
            &[0.0; 4],
            [1, 1, 2, 2],
            &k,
            [1, 1, 3, 2],
            &v,
            [1, 1, 3, 2],
            Some(&mask),
            None,
            AttentionModuleOptions::default(),
        );
        assert_eq!(out, vec![3.0, 30.0, 0.0, 0.0]);
    }

    #[test]
    #[should_panic(
        expected = "attention: expected query heads (3) to be a multiple of key/value heads (2)"
    )]
    fn rejects_incompatible_heads() {
        attention(
            &[0.0f64; 6],
            [1, 3, 1, 2],
            &[0.0; 4],
            [1, 2, 1, 2],
            &[0.0; 4],
            [1, 2, 1, 2],
            None,
            None,
            AttentionModuleOptions::default(),
        );
    }

    #[test]
    #[should_panic(
        expected = "attention: expected mask (expanded) of shape [1, 1, 2, 3] (6 values), got 3 values"
    )]
    fn rejects_unexpanded_mask() {
        attention(
            &[0.0f64; 4],
            [1, 1, 2, 2],
            &[0.0; 6],
            [1, 1, 3, 2],
            &[0.0; 6],
            [1, 1, 3, 2],
            Some(&[false; 3]),
            None,
            AttentionModuleOptions::default(),
        );
    }
}
