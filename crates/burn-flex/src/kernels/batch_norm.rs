//! Batch normalization with the batch statistics (training mode), forward and backward, over
//! `x [n, c, s]` (`s` the product of the spatial dims).
//!
//! Two parallel passes each way. The first goes by channel: a channel's `n` segments of `s`
//! values are each summed about their own mean while in the L1 cache, and the segments' means
//! and squared deviations merged (Chan et al.), so the statistics take one read of the input;
//! the backward's sums of `grad` and `grad·(x - mean)` follow from the channel, now in the L2
//! cache. The second pass goes along the output in order and applies per-channel constants:
//! `y = (x - mean)·(r·γ) + β` forward, `∂x = r·γ·(grad - Σgrad/N) - r³·γ·(Σgrad·(x - mean)/N)·
//! (x - mean)` backward, with `r = 1/√(var + ε)` and `N = n·s`.

use super::norm_stats::{Moments, lane_sum};
use crate::element::FloatElement;
use crate::ops::map::PAR_THRESHOLD;
use crate::parallel;
use crate::simd::vectorized;
use crate::tensor::pool;

/// The mean and biased variance of channel `channel` of `x [n, c, s]`, each of its `n` segments
/// summed while in L1 and merged (see [`Moments`]).
#[inline(always)]
fn channel_statistics<E: FloatElement>(x: &[E], [n, c, s]: [usize; 3], channel: usize) -> (E, E) {
    let mut moments = Moments::new();
    for i in 0..n {
        moments.add(&x[(i * c + channel) * s..][..s]);
    }
    moments.mean_var()
}

/// Runs `f(channel)` for every channel in parallel (when the tensor is large), collecting the
/// results in channel order.
fn per_channel<R: Copy + Default + Send>(
    [n, c, s]: [usize; 3],
    f: impl Fn(usize) -> R + Sync,
) -> Vec<R> {
    let mut out = vec![R::default(); c];
    let per_task = if n * c * s >= PAR_THRESHOLD && parallel::threads() > 1 {
        c.div_ceil(parallel::threads() * 4).max(1)
    } else {
        c.max(1)
    };
    parallel::for_each_chunk_mut(&mut out, per_task, |task, slots| {
        vectorized(
            #[inline(always)]
            || {
                for (k, slot) in slots.iter_mut().enumerate() {
                    *slot = f(task * per_task + k);
                }
            },
        )
    });
    out
}

/// `out[(i, ch, j)] = f(x[(i, ch, j)], other[(i, ch, j)], constants[ch])` along the output in
/// parallel pieces of whole segments.
fn apply<E: FloatElement, K: Copy + Sync>(
    x: &[E],
    other: &[E],
    [_, c, s]: [usize; 3],
    constants: &[K],
    f: impl Fn(E, E, K) -> E + Sync,
) -> Vec<E> {
    let mut out = pool::for_overwrite::<E>(x.len());
    let segments = x.len() / s.max(1);
    let per_task = if x.len() >= PAR_THRESHOLD && parallel::threads() > 1 {
        segments.div_ceil(parallel::threads() * 4).max(1)
    } else {
        segments.max(1)
    };
    parallel::for_each_chunk_mut(&mut out, per_task * s, |task, piece| {
        vectorized(
            #[inline(always)]
            || {
                let first = task * per_task;
                for (k, o) in piece.chunks_exact_mut(s).enumerate() {
                    let segment = first + k;
                    let constant = constants[segment % c];
                    let (xs, ys) = (&x[segment * s..][..s], &other[segment * s..][..s]);
                    let o = &mut o[..s];
                    for j in 0..s {
                        o[j] = f(xs[j], ys[j], constant);
                    }
                }
            },
        )
    });
    out
}

fn check<E>(op: &str, x: &[E], dims: [usize; 3], params: &[&[E]]) {
    let [n, c, s] = dims;
    assert!(
        x.len() == n * c * s && params.iter().all(|p| p.len() == c) && n * s > 0,
        "{op}: {} values for [n, c, s] = {dims:?}, parameters of {:?}",
        x.len(),
        params.iter().map(|p| p.len()).collect::<Vec<_>>()
    );
}

/// The normalized output of `x [n, c, s]` with its batch statistics, and the per-channel mean
/// and biased variance.
pub fn batch_norm<E: FloatElement>(
    x: &[E],
    dims: [usize; 3],
    gamma: &[E],
    beta: &[E],
    epsilon: f64,
) -> (Vec<E>, Vec<E>, Vec<E>) {
    check("batch_norm", x, dims, &[gamma, beta]);
    let epsilon = E::from(epsilon).expect("epsilon is a float");
    let stats = per_channel::<(E, E)>(dims, |ch| channel_statistics(x, dims, ch));
    // (mean, r·γ, β) per channel.
    let constants: Vec<(E, E, E)> = stats
        .iter()
        .zip(gamma.iter().zip(beta))
        .map(|(&(mean, var), (&g, &b))| (mean, (var + epsilon).sqrt().recip() * g, b))
        .collect();
    let out = apply(x, x, dims, &constants, |v, _, (mean, scale, shift)| {
        (v - mean) * scale + shift
    });
    let (mean, var) = stats.into_iter().unzip();
    (out, mean, var)
}

/// The gradients `(∂x, ∂γ, ∂β)` of [`batch_norm`]'s output for the output gradient `grad`,
/// through the batch statistics.
pub fn batch_norm_backward<E: FloatElement>(
    x: &[E],
    dims: [usize; 3],
    gamma: &[E],
    grad: &[E],
    epsilon: f64,
) -> (Vec<E>, Vec<E>, Vec<E>) {
    check("batch_norm_backward", x, dims, &[gamma]);
    assert_eq!(
        grad.len(),
        x.len(),
        "batch_norm_backward: a gradient of {} values for an input of {}",
        grad.len(),
        x.len()
    );
    let [n, c, s] = dims;
    let epsilon = E::from(epsilon).expect("epsilon is a float");
    let count = E::from(n * s).expect("a count is a float");
    // (mean, r, Σ grad, Σ grad·(x - mean)) per channel.
    let sums = per_channel::<(E, E, E, E)>(dims, |ch| {
        let (mean, var) = channel_statistics(x, dims, ch);
        let (mut sum_g, mut sum_gx) = (E::zero(), E::zero());
        for i in 0..n {
            let at = (i * c + ch) * s;
            let (xs, gs) = (&x[at..][..s], &grad[at..][..s]);
            sum_g = sum_g + lane_sum(gs, gs, |g, _| g);
            sum_gx = sum_gx + lane_sum(gs, xs, |g, v| g * (v - mean));
        }
        (mean, (var + epsilon).sqrt().recip(), sum_g, sum_gx)
    });
    // ∂x = a·(grad - b) - k·(x - mean), with a = r·γ, b = Σgrad/N, k = r³·γ·Σgrad·(x - mean)/N.
    let constants: Vec<(E, E, E, E)> = sums
        .iter()
        .zip(gamma)
        .map(|(&(mean, r, sum_g, sum_gx), &w)| {
            (mean, r * w, sum_g / count, r * r * r * w * sum_gx / count)
        })
        .collect();
    let x_grad = apply(x, grad, dims, &constants, |v, g, (mean, a, b, k)| {
        a * (g - b) - k * (v - mean)
    });
    let gamma_grad = sums.iter().map(|&(_, r, _, sum_gx)| r * sum_gx).collect();
    let beta_grad = sums.iter().map(|&(_, _, sum_g, _)| sum_g).collect();
    (x_grad, gamma_grad, beta_grad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_close, back};

    /// The f64 reference: output, mean, var, ∂x, ∂γ, ∂β.
    #[allow(clippy::type_complexity)]
    fn reference(
        x: &[f64],
        [n, c, s]: [usize; 3],
        gamma: &[f64],
        beta: &[f64],
        grad: &[f64],
        eps: f64,
    ) -> [Vec<f64>; 6] {
        let at = |i: usize, ch: usize, j: usize| (i * c + ch) * s + j;
        let count = (n * s) as f64;
        let (mut out, mut dx) = (vec![0.0; x.len()], vec![0.0; x.len()]);
        let (mut means, mut vars, mut dg, mut db) = (vec![], vec![], vec![], vec![]);
        for ch in 0..c {
            let idx: Vec<usize> = (0..n)
                .flat_map(|i| (0..s).map(move |j| at(i, ch, j)))
                .collect();
            let mean = idx.iter().map(|&k| x[k]).sum::<f64>() / count;
            let var = idx.iter().map(|&k| (x[k] - mean).powi(2)).sum::<f64>() / count;
            let r = 1.0 / (var + eps).sqrt();
            let h: Vec<f64> = idx.iter().map(|&k| grad[k] * gamma[ch]).collect();
            let xh: Vec<f64> = idx.iter().map(|&k| (x[k] - mean) * r).collect();
            let mh = h.iter().sum::<f64>() / count;
            let mhx = h.iter().zip(&xh).map(|(a, b)| a * b).sum::<f64>() / count;
            for (p, &k) in idx.iter().enumerate() {
                out[k] = xh[p] * gamma[ch] + beta[ch];
                dx[k] = (h[p] - mh - xh[p] * mhx) * r;
            }
            means.push(mean);
            vars.push(var);
            dg.push(idx.iter().zip(&xh).map(|(&k, xh)| grad[k] * xh).sum());
            db.push(idx.iter().map(|&k| grad[k]).sum());
        }
        [out, means, vars, dx, dg, db]
    }

    #[test]
    fn forward_and_backward_match_the_f64_reference() {
        // One value per segment, ragged segments, and a tensor large enough to split.
        for dims in [[4, 3, 1], [2, 5, 19], [8, 16, 700], [1, 2, 33]] {
            let [n, c, s] = dims;
            let len = n * c * s;
            let x: Vec<f64> = (0..len)
                .map(|i| ((i * 37 % 101) as f64 - 50.0) * 0.03 + 5.0)
                .collect();
            let grad: Vec<f64> = (0..len)
                .map(|i| ((i * 53 % 89) as f64 - 44.0) * 0.02)
                .collect();
            let gamma: Vec<f64> = (0..c).map(|j| 0.5 + j as f64 * 0.1).collect();
            let beta: Vec<f64> = (0..c).map(|j| j as f64 * -0.2).collect();
            let [out, mean, var, dx, dg, db] = reference(&x, dims, &gamma, &beta, &grad, 1e-5);
            let f = |v: &[f64]| v.iter().map(|&v| v as f32).collect::<Vec<f32>>();
            let (got, got_mean, got_var) =
                batch_norm::<f32>(&f(&x), dims, &f(&gamma), &f(&beta), 1e-5);
            assert_close(&back(&got), &out, 1e-4, "out");
            assert_close(&back(&got_mean), &mean, 1e-5, "mean");
            assert_close(&back(&got_var), &var, 1e-4, "var");
            let (gx, gg, gb) =
                batch_norm_backward::<f32>(&f(&x), dims, &f(&gamma), &f(&grad), 1e-5);
            assert_close(&back(&gx), &dx, 1e-3, "x grad");
            assert_close(&back(&gg), &dg, 1e-3, "gamma grad");
            assert_close(&back(&gb), &db, 1e-4, "beta grad");
            let (got, _, _) = batch_norm::<f64>(&x, dims, &gamma, &beta, 1e-5);
            for (g, w) in got.iter().zip(&out) {
                assert!(
                    (g - w).abs() <= 1e-12 * (1.0 + w.abs()),
                    "f64 out: {g} against {w}"
                );
            }
        }
    }
}
