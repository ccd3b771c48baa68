//! What the normalization kernels (layer, batch, group) share: vectorized sums, the mean and
//! variance of values read once, tasks of whole rows, and the per-task partial sums of the scale
//! and shift gradients.

use crate::element::FloatElement;
use crate::ops::map::PAR_THRESHOLD;
use crate::parallel;

/// Independent partial sums per reduction: enough vector registers to keep the adders busy.
const LANES: usize = 16;

/// `Σ f(a_i, b_i)` over two equally long rows, in [`LANES`] partial sums (vectorizes; the order
/// of additions depends only on the length).
#[inline(always)]
pub(crate) fn lane_sum<E: FloatElement>(a: &[E], b: &[E], f: impl Fn(E, E) -> E) -> E {
    let mut lanes = [E::zero(); LANES];
    let (ca, cb) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let (ta, tb) = (ca.remainder(), cb.remainder());
    for (xa, xb) in ca.zip(cb) {
        for ((lane, &x), &y) in lanes.iter_mut().zip(xa).zip(xb) {
            *lane = *lane + f(x, y);
        }
    }
    let mut total = E::zero();
    for lane in lanes {
        total = total + lane;
    }
    ta.iter().zip(tb).fold(total, |t, (&x, &y)| t + f(x, y))
}

/// Values summed about their mean while they stay in the L1 cache: 16 KiB of `f32`.
const BLOCK: usize = 4096;

/// The count, mean and sum of squared deviations of the values added so far. Each block of at
/// most [`BLOCK`] values is summed about its own mean (two reads, the second from L1) and merged
/// into the running ones (Chan et al.), so values too many for the caches are read from memory
/// once.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Moments<E> {
    count: usize,
    mean: E,
    m2: E,
}

impl<E: FloatElement> Moments<E> {
    /// No values yet.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Self {
            count: 0,
            mean: E::zero(),
            m2: E::zero(),
        }
    }

    /// Adds `values`.
    #[inline(always)]
    pub(crate) fn add(&mut self, values: &[E]) {
        let count = |k: usize| E::from(k).expect("a count is a float");
        for block in values.chunks(BLOCK) {
            let n = block.len();
            let block_mean = lane_sum(block, block, |x, _| x) / count(n);
            let block_m2 = lane_sum(block, block, |x, _| (x - block_mean) * (x - block_mean));
            if self.count == 0 {
                (self.mean, self.m2) = (block_mean, block_m2);
            } else {
                let merged = self.count + n;
                let delta = block_mean - self.mean;
                self.mean = self.mean + delta * count(n) / count(merged);
                self.m2 = self.m2
                    + block_m2
                    + delta * delta * count(self.count) * count(n) / count(merged);
            }
            self.count += n;
        }
    }

    /// The mean and the biased variance (0 and 0 for no values).
    #[inline(always)]
    pub(crate) fn mean_var(&self) -> (E, E) {
        let count = E::from(self.count.max(1)).expect("a count is a float");
        (self.mean, self.m2 / count)
    }
}

/// The mean of `row` and `1 / √(var + ε)` with the biased variance, `row` read once (see
/// [`Moments`]).
#[inline(always)]
pub(crate) fn statistics<E: FloatElement>(row: &[E], epsilon: E) -> (E, E) {
    let mut moments = Moments::new();
    moments.add(row);
    let (mean, var) = moments.mean_var();
    (mean, (var + epsilon).sqrt().recip())
}

/// Rows per parallel task for `rows` rows of `d` values (all of them below the threshold).
pub(crate) fn rows_per_task(rows: usize, d: usize) -> usize {
    let threads = parallel::threads();
    if rows * d >= PAR_THRESHOLD && threads > 1 {
        rows.div_ceil(threads * 4).max(1)
    } else {
        rows.max(1)
    }
}

/// The scale and shift gradients from per-task partials, each `2·width` values (the partial
/// `∂γ`, then the partial `∂β`), added in task order.
pub(crate) fn sum_partials<E: FloatElement>(partials: &[E], width: usize) -> (Vec<E>, Vec<E>) {
    let mut gamma_grad = vec![E::zero(); width];
    let mut beta_grad = vec![E::zero(); width];
    for partial in partials.chunks_exact(2 * width) {
        let (gs, bs) = partial.split_at(width);
        for (total, &p) in gamma_grad.iter_mut().zip(gs) {
            *total = *total + p;
        }
        for (total, &p) in beta_grad.iter_mut().zip(bs) {
            *total = *total + p;
        }
    }
    (gamma_grad, beta_grad)
}
