//! Layer normalization over the last dim, forward and backward, one row at a time.
//!
//! A row (`d` values) is read from memory once: its mean and variance are summed from it, then
//! the row, now in the L1 cache, is normalized into the output. The composition of tensor
//! operations reads the input three times and the output's intermediate once more; its backward
//! through autodiff is a dozen passes. The backward here reads the input and the output gradient
//! once per row and writes the input gradient, summing the scale and shift gradients of its rows
//! in per-task partial sums that are added at the end.

use super::norm_stats::{lane_sum, rows_per_task, statistics, sum_partials};
use crate::element::FloatElement;
use crate::parallel;
use crate::simd::vectorized;
use crate::tensor::{Aligned, pool};

/// `(x - mean)·r·γ + β` for every row of `x` (`d` values each), with `r = 1 / √(var + ε)`.
pub fn layer_norm<E: FloatElement>(
    x: &[E],
    d: usize,
    gamma: &[E],
    beta: Option<&[E]>,
    epsilon: f64,
) -> Aligned<E> {
    assert!(
        d > 0 && x.len().is_multiple_of(d) && gamma.len() == d && beta.is_none_or(|b| b.len() == d),
        "layer_norm: {} values, rows of {d}, a scale of {} and a shift of {:?}",
        x.len(),
        gamma.len(),
        beta.map(<[E]>::len)
    );
    let epsilon = E::from(epsilon).expect("epsilon is a float");
    let mut out = pool::aligned_for_overwrite::<E>(x.len());
    let per_task = rows_per_task(x.len() / d, d);
    parallel::for_each_chunk_mut(&mut out, per_task * d, |task, rows| {
        vectorized(
            #[inline(always)]
            || {
                let first = task * per_task * d;
                for (o, row) in rows.chunks_exact_mut(d).zip(x[first..].chunks_exact(d)) {
                    let (mean, r) = statistics(row, epsilon);
                    for ((o, &v), &g) in o.iter_mut().zip(row).zip(gamma) {
                        *o = (v - mean) * r * g;
                    }
                    if let Some(beta) = beta {
                        for (o, &b) in o.iter_mut().zip(beta) {
                            *o = *o + b;
                        }
                    }
                }
            },
        )
    });
    out
}

/// The gradients `(∂x, ∂γ, ∂β)` of [`layer_norm`] for the output gradient `grad`: per row, with
/// `x̂ = (x - mean)·r` and `h = grad·γ`, `∂x = (h - mean(h) - x̂·mean(h·x̂))·r`; `∂γ = Σ grad·x̂`
/// and `∂β = Σ grad` over the rows.
pub fn layer_norm_backward<E: FloatElement>(
    x: &[E],
    d: usize,
    gamma: &[E],
    grad: &[E],
    epsilon: f64,
) -> (Vec<E>, Vec<E>, Vec<E>) {
    assert!(
        d > 0 && x.len().is_multiple_of(d) && gamma.len() == d && grad.len() == x.len(),
        "layer_norm_backward: {} values, rows of {d}, a scale of {} and a gradient of {}",
        x.len(),
        gamma.len(),
        grad.len()
    );
    let epsilon = E::from(epsilon).expect("epsilon is a float");
    let n = E::from(d).expect("a row length is a float");
    let rows = x.len() / d;
    let per_task = rows_per_task(rows, d);
    let tasks = rows.div_ceil(per_task).max(1);
    let mut x_grad = pool::for_overwrite::<E>(x.len());
    // Per task: the partial ∂γ, then the partial ∂β.
    let mut partials = vec![E::zero(); tasks * 2 * d];
    parallel::for_each_chunk_pair_mut(
        &mut x_grad,
        per_task * d,
        &mut partials,
        2 * d,
        |task, dx_rows, partial| {
            vectorized(
                #[inline(always)]
                || {
                    let (gamma_sum, beta_sum) = partial.split_at_mut(d);
                    let first = task * per_task * d;
                    let rows = dx_rows
                        .chunks_exact_mut(d)
                        .zip(x[first..].chunks_exact(d))
                        .zip(grad[first..].chunks_exact(d));
                    for ((dx, row), g) in rows {
                        let (mean, r) = statistics(row, epsilon);
                        // Every slice cut to `d` values, so the indexed loops below carry no
                        // bounds checks and vectorize.
                        let (gamma, gs, bs) =
                            (&gamma[..d], &mut gamma_sum[..d], &mut beta_sum[..d]);
                        let (row, g, dx) = (&row[..d], &g[..d], &mut dx[..d]);
                        // h = g·γ into dx first, then the two means over the row.
                        for j in 0..d {
                            dx[j] = g[j] * gamma[j];
                        }
                        let mean_h = lane_sum(dx, dx, |h, _| h) / n;
                        let mean_hx = lane_sum(dx, row, |h, v| h * ((v - mean) * r)) / n;
                        for j in 0..d {
                            let normalized = (row[j] - mean) * r;
                            dx[j] = (dx[j] - mean_h - normalized * mean_hx) * r;
                            gs[j] = gs[j] + g[j] * normalized;
                            bs[j] = bs[j] + g[j];
                        }
                    }
                },
            )
        },
    );
    let (gamma_grad, beta_grad) = sum_partials(&partials, d);
    (x_grad, gamma_grad, beta_grad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_close, back};

    /// The f64 reference of one row's forward and backward.
    fn reference(
        x: &[f64],
        d: usize,
        gamma: &[f64],
        beta: &[f64],
        grad: &[f64],
        eps: f64,
    ) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
        let (mut out, mut dx) = (vec![], vec![]);
        let (mut dg, mut db) = (vec![0.0; d], vec![0.0; d]);
        for (row, g) in x.chunks(d).zip(grad.chunks(d)) {
            let mean = row.iter().sum::<f64>() / d as f64;
            let var = row.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / d as f64;
            let r = 1.0 / (var + eps).sqrt();
            let xh: Vec<f64> = row.iter().map(|v| (v - mean) * r).collect();
            let h: Vec<f64> = g.iter().zip(gamma).map(|(g, w)| g * w).collect();
            let mh = h.iter().sum::<f64>() / d as f64;
            let mhx = h.iter().zip(&xh).map(|(h, x)| h * x).sum::<f64>() / d as f64;
            for j in 0..d {
                out.push(xh[j] * gamma[j] + beta[j]);
                dx.push((h[j] - mh - xh[j] * mhx) * r);
                dg[j] += g[j] * xh[j];
                db[j] += g[j];
            }
        }
        (out, dx, dg, db)
    }

    #[test]
    fn forward_and_backward_match_the_f64_reference() {
        // Rows shorter and longer than the lanes, a ragged tail, enough rows to split between
        // threads, and rows of several blocks (merged statistics).
        for (rows, d) in [(3, 5), (7, 33), (300, 257), (2, 1), (3, 9000)] {
            let n = rows * d;
            let x: Vec<f64> = (0..n)
                .map(|i| ((i * 37 % 101) as f64 - 50.0) * 0.03 + 2.0)
                .collect();
            let grad: Vec<f64> = (0..n)
                .map(|i| ((i * 53 % 89) as f64 - 44.0) * 0.02)
                .collect();
            let gamma: Vec<f64> = (0..d).map(|j| 0.5 + j as f64 * 0.01).collect();
            let beta: Vec<f64> = (0..d).map(|j| j as f64 * -0.02).collect();
            let (out, dx, dg, db) = reference(&x, d, &gamma, &beta, &grad, 1e-5);
            let f = |v: &[f64]| v.iter().map(|&v| v as f32).collect::<Vec<f32>>();
            let got = layer_norm::<f32>(&f(&x), d, &f(&gamma), Some(&f(&beta)), 1e-5);
            assert_close(&back(&got), &out, 1e-4, "out");
            let (gx, gg, gb) = layer_norm_backward::<f32>(&f(&x), d, &f(&gamma), &f(&grad), 1e-5);
            assert_close(&back(&gx), &dx, 1e-3, "x grad");
            assert_close(&back(&gg), &dg, 1e-3, "gamma grad");
            assert_close(&back(&gb), &db, 1e-4, "beta grad");
            let got = layer_norm::<f64>(&x, d, &gamma, None, 1e-5);
            let unshifted: Vec<f64> = out
                .iter()
                .enumerate()
                .map(|(i, o)| o - beta[i % d])
                .collect();
            for (g, w) in got.iter().zip(&unshifted) {
                assert!(
                    (g - w).abs() <= 1e-12 * (1.0 + w.abs()),
                    "f64 out: {g} against {w}"
                );
            }
        }
    }
}
