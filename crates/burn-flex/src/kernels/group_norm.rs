//! Group normalization, forward and backward, over `x [n, c, s]` (`s` the product of the spatial
//! dims) in `groups` groups of `c / groups` consecutive channels.
//!
//! A (sample, group) is one contiguous row of `c / groups · s` values. Per row, its statistics
//! are taken in one read (blocks merged as in layer normalization), then each channel's segment
//! is written with per-channel constants, `y = x·(r·γ) + (β - mean·r·γ)`, while the row is still
//! in the L2 cache. The backward sums `grad` and `grad·x̂` per channel segment in one more read,
//! from which both the row's two means and the partial `∂γ`, `∂β` follow, then writes
//! `∂x = grad·(r·γ) + x·b + k` with per-row `b`, `k` and per-channel `r·γ`.

use super::norm_stats::{lane_sum, rows_per_task, statistics, sum_partials};
use crate::element::FloatElement;
use crate::parallel;
use crate::simd::vectorized;
use crate::tensor::{Aligned, pool};

fn check<E>(op: &str, x: &[E], [n, c, s]: [usize; 3], groups: usize, params: &[&[E]]) {
    assert!(
        x.len() == n * c * s
            && params.iter().all(|p| p.len() == c)
            && groups > 0
            && c.is_multiple_of(groups)
            && s > 0,
        "{op}: {} values for [n, c, s] = {:?} in {groups} groups, parameters of {:?}",
        x.len(),
        [n, c, s],
        params.iter().map(|p| p.len()).collect::<Vec<_>>()
    );
}

/// The group normalization of `x [n, c, s]`: per (sample, group) the mean and biased variance,
/// then `(x - mean)·r·γ + β` per channel with `r = 1 / √(var + ε)`.
pub fn group_norm<E: FloatElement>(
    x: &[E],
    dims: [usize; 3],
    groups: usize,
    gamma: &[E],
    beta: &[E],
    epsilon: f64,
) -> Aligned<E> {
    check("group_norm", x, dims, groups, &[gamma, beta]);
    let [_, c, s] = dims;
    let epsilon = E::from(epsilon).expect("epsilon is a float");
    let per_group = c / groups;
    let d = per_group * s;
    let mut out = pool::aligned_for_overwrite::<E>(x.len());
    if x.is_empty() {
        return out;
    }
    let per_task = rows_per_task(x.len() / d, d);
    parallel::for_each_chunk_mut(&mut out, per_task * d, |task, rows| {
        vectorized(
            #[inline(always)]
            || {
                let first = task * per_task;
                for (k, o) in rows.chunks_exact_mut(d).enumerate() {
                    let row_index = first + k;
                    let row = &x[row_index * d..][..d];
                    let (mean, r) = statistics(row, epsilon);
                    let channels = (row_index % groups) * per_group;
                    let segments = o.chunks_exact_mut(s).zip(row.chunks_exact(s));
                    for ((o, xs), ch) in segments.zip(channels..) {
                        let scale = r * gamma[ch];
                        let shift = beta[ch] - mean * scale;
                        let (o, xs) = (&mut o[..s], &xs[..s]);
                        for j in 0..s {
                            o[j] = xs[j] * scale + shift;
                        }
                    }
                }
            },
        )
    });
    out
}

/// The gradients `(∂x, ∂γ, ∂β)` of [`group_norm`] for the output gradient `grad`: per row, with
/// `x̂ = (x - mean)·r` and `h = grad·γ`, `∂x = (h - mean(h) - x̂·mean(h·x̂))·r`; `∂γ = Σ grad·x̂`
/// and `∂β = Σ grad` per channel.
pub fn group_norm_backward<E: FloatElement>(
    x: &[E],
    dims: [usize; 3],
    groups: usize,
    gamma: &[E],
    grad: &[E],
    epsilon: f64,
) -> (Vec<E>, Vec<E>, Vec<E>) {
    check("group_norm_backward", x, dims, groups, &[gamma]);
    assert!(
        grad.len() == x.len(),
        "group_norm_backward: a gradient of {} values for an input of {}",
        grad.len(),
        x.len()
    );
    let [_, c, s] = dims;
    let epsilon = E::from(epsilon).expect("epsilon is a float");
    let per_group = c / groups;
    let d = per_group * s;
    let count = E::from(d).expect("a row length is a float");
    let rows = x.len() / d;
    let per_task = rows_per_task(rows, d);
    let tasks = rows.div_ceil(per_task).max(1);
    let mut x_grad = pool::for_overwrite::<E>(x.len());
    if x.is_empty() {
        return (x_grad, vec![E::zero(); c], vec![E::zero(); c]);
    }
    // Per task: the partial ∂γ, then the partial ∂β, per channel.
    let mut partials = vec![E::zero(); tasks * 2 * c];
    parallel::for_each_chunk_pair_mut(
        &mut x_grad,
        per_task * d,
        &mut partials,
        2 * c,
        |task, dx_rows, partial| {
            vectorized(
                #[inline(always)]
                || {
                    let (gamma_sum, beta_sum) = partial.split_at_mut(c);
                    let first = task * per_task;
                    for (k, dx) in dx_rows.chunks_exact_mut(d).enumerate() {
                        let row_index = first + k;
                        let row = &x[row_index * d..][..d];
                        let g = &grad[row_index * d..][..d];
                        let (mean, r) = statistics(row, epsilon);
                        let channels = (row_index % groups) * per_group..;
                        // Σ h and Σ h·x̂ over the row, from the per-channel sums.
                        let (mut sum_h, mut sum_hx) = (E::zero(), E::zero());
                        let segments = g.chunks_exact(s).zip(row.chunks_exact(s));
                        for ((gs, xs), ch) in segments.zip(channels.clone()) {
                            let sum_g = lane_sum(gs, gs, |g, _| g);
                            let sum_gx = lane_sum(gs, xs, |g, v| g * ((v - mean) * r));
                            gamma_sum[ch] = gamma_sum[ch] + sum_gx;
                            beta_sum[ch] = beta_sum[ch] + sum_g;
                            sum_h = sum_h + gamma[ch] * sum_g;
                            sum_hx = sum_hx + gamma[ch] * sum_gx;
                        }
                        let (mean_h, mean_hx) = (sum_h / count, sum_hx / count);
                        // ∂x = g·(r·γ) + x·b + k, b = -r²·mean(h·x̂), k = r·(mean·r·mean(h·x̂) - mean(h)).
                        let b = -(r * r * mean_hx);
                        let k = r * (mean * r * mean_hx - mean_h);
                        let segments = dx.chunks_exact_mut(s).zip(g.chunks_exact(s));
                        for (((dx, gs), xs), ch) in
                            segments.zip(row.chunks_exact(s)).zip(channels.clone())
                        {
                            let a = r * gamma[ch];
                            let (dx, gs, xs) = (&mut dx[..s], &gs[..s], &xs[..s]);
                            for j in 0..s {
                                dx[j] = gs[j] * a + xs[j] * b + k;
                            }
                        }
                    }
                },
            )
        },
    );
    let (gamma_grad, beta_grad) = sum_partials(&partials, c);
    (x_grad, gamma_grad, beta_grad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_close, back, data};

    /// The f64 reference forward and backward of `x [n, c, s]` in `groups` groups.
    fn reference(
        x: &[f64],
        [n, c, s]: [usize; 3],
        groups: usize,
        gamma: &[f64],
        beta: &[f64],
        grad: &[f64],
        eps: f64,
    ) -> [Vec<f64>; 4] {
        let (mut out, mut dx) = (vec![0.0; x.len()], vec![0.0; x.len()]);
        let (mut dg, mut db) = (vec![0.0; c], vec![0.0; c]);
        let d = c / groups * s;
        for row in 0..n * groups {
            let range = row * d..(row + 1) * d;
            let channel = |i: usize| (row % groups) * (c / groups) + (i - row * d) / s;
            let mean = x[range.clone()].iter().sum::<f64>() / d as f64;
            let var = x[range.clone()]
                .iter()
                .map(|v| (v - mean).powi(2))
                .sum::<f64>()
                / d as f64;
            let r = 1.0 / (var + eps).sqrt();
            let xh = |i: usize| (x[i] - mean) * r;
            let h = |i: usize| grad[i] * gamma[channel(i)];
            let mh = range.clone().map(h).sum::<f64>() / d as f64;
            let mhx = range.clone().map(|i| h(i) * xh(i)).sum::<f64>() / d as f64;
            for i in range {
                out[i] = xh(i) * gamma[channel(i)] + beta[channel(i)];
                dx[i] = (h(i) - mh - xh(i) * mhx) * r;
                dg[channel(i)] += grad[i] * xh(i);
                db[channel(i)] += grad[i];
            }
        }
        [out, dx, dg, db]
    }

    #[test]
    fn forward_and_backward_match_the_f64_reference() {
        // One group (layer norm over channels and space), one channel per group (instance
        // norm), single values, ragged segments, rows of several blocks, and enough rows to split
        // between threads.
        for (dims, groups) in [
            ([2, 6, 5], 3),
            ([3, 4, 7], 1),
            ([2, 4, 9], 4),
            ([4, 8, 1], 2),
            ([2, 2, 5000], 1),
            ([8, 32, 300], 8),
        ] {
            let len = dims.iter().product();
            let c = dims[1];
            let x: Vec<f64> = data(len, 1.0).iter().map(|v| v * 2.0 + 0.7).collect();
            let grad = data(len, 2.0);
            let gamma: Vec<f64> = data(c, 3.0).iter().map(|v| v + 1.2).collect();
            let beta = data(c, 4.0);
            let [out, dx, dg, db] = reference(&x, dims, groups, &gamma, &beta, &grad, 1e-5);
            let f = |v: &[f64]| v.iter().map(|&v| v as f32).collect::<Vec<f32>>();
            let got = group_norm::<f32>(&f(&x), dims, groups, &f(&gamma), &f(&beta), 1e-5);
            assert_close(&back(&got), &out, 1e-4, "out");
            let (gx, gg, gb) =
                group_norm_backward::<f32>(&f(&x), dims, groups, &f(&gamma), &f(&grad), 1e-5);
            assert_close(&back(&gx), &dx, 1e-3, "x grad");
            assert_close(&back(&gg), &dg, 1e-3, "gamma grad");
            assert_close(&back(&gb), &db, 1e-4, "beta grad");
            let got = group_norm::<f64>(&x, dims, groups, &gamma, &beta, 1e-5);
            assert_close(&got, &out, 1e-12, "f64 out");
            let (gx, gg, gb) = group_norm_backward::<f64>(&x, dims, groups, &gamma, &grad, 1e-5);
            assert_close(&gx, &dx, 1e-11, "f64 x grad");
            assert_close(&gg, &dg, 1e-11, "f64 gamma grad");
            assert_close(&gb, &db, 1e-12, "f64 beta grad");
        }
    }

    #[test]
    #[should_panic(expected = "group_norm: 24 values for [n, c, s] = [2, 6, 2] in 4 groups")]
    fn groups_must_divide_the_channels() {
        group_norm::<f32>(&[0.0; 24], [2, 6, 2], 4, &[1.0; 6], &[0.0; 6], 1e-5);
    }
}
