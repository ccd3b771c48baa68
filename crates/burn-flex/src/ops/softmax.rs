//! Softmax and log-softmax, and their gradients, one row at a time.
//!
//! The composition of tensor ops (`max_dim`, `exp(x - max)`, `sum_dim`, divide) reads the input
//! from memory three times. Here each row along `dim` is read from memory once: its maximum,
//! then `e^(x - max)` written to the output while summing, then the scaling, all while the row
//! is still in the L1 cache. Rows are shared out across threads; the loops run in
//! [`vectorized`] (the `f32` exponential is [`crate::simd::exp_f32_nonpositive`] on rows with a
//! finite maximum, [`crate::simd::exp_f32`] on the others). `f16`/`bf16` compute in `f32`.
//! On an AVX-512 or AVX2 CPU, `f32` softmax rows take `softmax_x86` (written with intrinsics).

use super::arith::NumElement;
use super::creation::cast;
use super::map::PAR_THRESHOLD;
use super::reduce::{LineReduce, reduce_line};
#[cfg(target_arch = "x86_64")]
use super::softmax_x86;
use crate::element::FloatElement;
#[cfg(target_arch = "x86_64")]
use crate::element::{as_f32, as_f32_mut};
use crate::parallel;
use crate::simd::vectorized;
use crate::tensor::{FlexTensor, pool};
use burn_backend::DType;

/// Lanes of the vectorized sums (independent accumulators, so the adds can run in parallel).
const LANES: usize = 16;

/// Bytes of softmax output from which its `f32` rows are written with streaming stores
/// ([`crate::stream`]): a plain store first reads each output line from memory, a third of the
/// bytes a softmax moves. On an Intel Ice Lake host (2 cores, triad 20–22 GB/s), W4's 16 MiB
/// output in five alternated pairs of runs: medians 2.34–2.64 ms streamed against 2.56–2.92
/// plain (each pair about 10 % faster). Half the fused chains' threshold
/// ([`crate::stream::STREAM_FROM_BYTES`]), so that W4's output takes it; no size between was
/// measured.
const STREAMED_OUTPUT_BYTES: usize = 16 << 20;

/// Which function of a row to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowOp {
    /// `e^(x - max) / Σ e^(x - max)` of the input.
    Softmax,
    /// `x - max - ln Σ e^(x - max)` of the input.
    LogSoftmax,
    /// The softmax gradient from the output `s` and the incoming gradient `g`:
    /// `s · (g - Σ g·s)`.
    SoftmaxBackward,
    /// The log-softmax gradient from the output `y` and the incoming gradient `g`:
    /// `g - e^y · Σ g`.
    LogSoftmaxBackward,
}

impl RowOp {
    /// The op's name in error messages.
    fn name(self) -> &'static str {
        match self {
            RowOp::Softmax => "softmax",
            RowOp::LogSoftmax => "log_softmax",
            RowOp::SoftmaxBackward => "softmax_backward",
            RowOp::LogSoftmaxBackward => "log_softmax_backward",
        }
    }

    /// How many tensors the op reads (the gradients read the forward output and the gradient).
    fn arity(self) -> usize {
        match self {
            RowOp::Softmax | RowOp::LogSoftmax => 1,
            RowOp::SoftmaxBackward | RowOp::LogSoftmaxBackward => 2,
        }
    }
}

/// `op` along `dim` of `inputs` (one tensor for the forward ops; output then gradient for the
/// backward ones, of the same shape and dtype). The result has the input's shape.
pub fn rowwise(op: RowOp, inputs: Vec<FlexTensor>, dim: usize) -> FlexTensor {
    let name = op.name();
    assert_eq!(
        inputs.len(),
        op.arity(),
        "{name}: expected {} tensors",
        op.arity()
    );
    let first = &inputs[0];
    let rank = first.rank();
    assert!(
        dim < rank,
        "{name}: dim {dim} is out of range for a tensor of rank {rank}"
    );
    for other in &inputs[1..] {
        assert!(
            other.shape() == first.shape() && other.dtype() == first.dtype(),
            "{name}: the output and the gradient must have the same shape and dtype, got \
             {:?} {} and {:?} {}",
            first.shape(),
            first.dtype(),
            other.shape(),
            other.dtype()
        );
    }
    let dtype = first.dtype();
    match dtype {
        DType::F32 => along_dim::<f32>(op, inputs, dim),
        DType::F64 => along_dim::<f64>(op, inputs, dim),
        DType::F16 | DType::BF16 => {
            let wide = inputs.into_iter().map(|t| cast(t, DType::F32)).collect();
            cast(along_dim::<f32>(op, wide, dim), dtype)
        }
        other => panic!("{name}: expected a float tensor, got {other}"),
    }
}

/// Moves `dim` last, makes the rows contiguous, runs the rows, and moves `dim` back (a view).
fn along_dim<E: FloatElement + NumElement>(
    op: RowOp,
    inputs: Vec<FlexTensor>,
    dim: usize,
) -> FlexTensor {
    let last = inputs[0].rank() - 1;
    let inputs: Vec<FlexTensor> = inputs
        .into_iter()
        .map(|t| {
            let t = if dim == last {
                t
            } else {
                t.swap_dims(dim, last)
            };
            t.to_contiguous()
        })
        .collect();
    let shape = inputs[0].shape().clone();
    let len = shape[last];
    let slices: Vec<&[E]> = inputs
        .iter()
        .map(|t| {
            let range = t
                .layout()
                .contiguous_range()
                .expect("to_contiguous gives a contiguous layout");
            &t.storage::<E>()[range]
        })
        .collect();
    let mut out = pool::aligned_for_overwrite::<E>(shape.num_elements());
    // No rows (a zero-sized other dim) or empty rows: nothing to compute.
    if !out.is_empty() {
        run_rows(op, &slices, &mut out, len);
    }
    let result = FlexTensor::from_aligned(out, shape);
    if dim == last {
        result
    } else {
        result.swap_dims(dim, last)
    }
}

/// Runs `op` on every row of length `len`, split across threads when the work is large.
fn run_rows<E: FloatElement + NumElement>(op: RowOp, inputs: &[&[E]], out: &mut [E], len: usize) {
    let rows = out.len() / len;
    let threads = parallel::threads();
    let rows_per_task = if out.len() >= PAR_THRESHOLD && threads > 1 {
        rows.div_ceil(threads * 4).max(1)
    } else {
        rows
    };
    let chunk = rows_per_task * len;
    let streamed = op == RowOp::Softmax && std::mem::size_of_val(out) >= STREAMED_OUTPUT_BYTES;
    parallel::for_each_chunk_mut(out, chunk, |task, out| {
        let start = task * chunk;
        let ins: Vec<&[E]> = inputs
            .iter()
            .map(|s| &s[start..start + out.len()])
            .collect();
        vectorized(
            #[inline(always)]
            || {
                for (r, o) in out.chunks_exact_mut(len).enumerate() {
                    let at = r * len..(r + 1) * len;
                    match op {
                        RowOp::Softmax => softmax_row(&ins[0][at], o, streamed),
                        RowOp::LogSoftmax => log_softmax_row(&ins[0][at], o),
                        RowOp::SoftmaxBackward => {
                            softmax_backward_row(&ins[0][at.clone()], &ins[1][at], o)
                        }
                        RowOp::LogSoftmaxBackward => {
                            log_softmax_backward_row(&ins[0][at.clone()], &ins[1][at], o)
                        }
                    }
                }
            },
        );
        if streamed {
            crate::stream::fence();
        }
    });
}

/// Partial sums in [`LANES`] independent accumulators (so the adds run side by side in one
/// vector register), folded at the end.
#[derive(Clone, Copy)]
struct Lanes<E>([E; LANES]);

impl<E: FloatElement> Lanes<E> {
    #[inline(always)]
    fn new() -> Self {
        Self([E::zero(); LANES])
    }

    #[inline(always)]
    fn add(&mut self, lane: usize, value: E) {
        self.0[lane] = self.0[lane] + value;
    }

    #[inline(always)]
    fn total(self, tail: E) -> E {
        self.0.iter().fold(tail, |s, &a| s + a)
    }
}

/// `out = e^(x - max)` and its sum. Written over fixed-size chunks so it vectorizes. A finite
/// `max` (the row has no NaN and no `+∞`) makes every `x - max` a number `≤ 0`, which takes the
/// cheaper exponential; any other row keeps the general one, so NaN and infinities come out as
/// they would from the composition of tensor ops.
#[inline(always)]
fn exp_shifted_sum<E: FloatElement>(x: &[E], max: E, out: &mut [E]) -> E {
    if max.is_finite() {
        exp_shifted_sum_with(x, max, out, E::exp_nonpositive)
    } else {
        exp_shifted_sum_with(x, max, out, E::exp_vectorizable)
    }
}

#[inline(always)]
fn exp_shifted_sum_with<E: FloatElement>(
    x: &[E],
    max: E,
    out: &mut [E],
    exp: impl Fn(E) -> E,
) -> E {
    let mut lanes = Lanes::new();
    let mut xs = x.chunks_exact(LANES);
    let mut os = out.chunks_exact_mut(LANES);
    for (x, o) in (&mut xs).zip(&mut os) {
        for j in 0..LANES {
            let e = exp(x[j] - max);
            o[j] = e;
            lanes.add(j, e);
        }
    }
    let mut tail = E::zero();
    for (&x, o) in xs.remainder().iter().zip(os.into_remainder()) {
        *o = exp(x - max);
        tail = tail + *o;
    }
    lanes.total(tail)
}

/// `Σ e^(x - max)` (the cheaper exponential when `max` is finite, as in [`exp_shifted_sum`]).
#[inline(always)]
fn exp_shifted_total<E: FloatElement>(x: &[E], max: E) -> E {
    if max.is_finite() {
        exp_shifted_total_with(x, max, E::exp_nonpositive)
    } else {
        exp_shifted_total_with(x, max, E::exp_vectorizable)
    }
}

#[inline(always)]
fn exp_shifted_total_with<E: FloatElement>(x: &[E], max: E, exp: impl Fn(E) -> E) -> E {
    let mut lanes = Lanes::new();
    let mut xs = x.chunks_exact(LANES);
    for x in &mut xs {
        for (j, &v) in x.iter().enumerate() {
            lanes.add(j, exp(v - max));
        }
    }
    let tail = xs
        .remainder()
        .iter()
        .fold(E::zero(), |s, &x| s + exp(x - max));
    lanes.total(tail)
}

/// `Σ a·b`.
#[inline(always)]
fn dot<E: FloatElement>(a: &[E], b: &[E]) -> E {
    let mut lanes = Lanes::new();
    let mut xs = a.chunks_exact(LANES);
    let mut ys = b.chunks_exact(LANES);
    for (x, y) in (&mut xs).zip(&mut ys) {
        for j in 0..LANES {
            lanes.add(j, x[j] * y[j]);
        }
    }
    let tail = xs
        .remainder()
        .iter()
        .zip(ys.remainder())
        .fold(E::zero(), |s, (&x, &y)| s + x * y);
    lanes.total(tail)
}

/// `Σ a`.
#[inline(always)]
fn total<E: FloatElement>(a: &[E]) -> E {
    let mut lanes = Lanes::new();
    let mut xs = a.chunks_exact(LANES);
    for x in &mut xs {
        for (j, &v) in x.iter().enumerate() {
            lanes.add(j, v);
        }
    }
    let tail = xs.remainder().iter().fold(E::zero(), |s, &x| s + x);
    lanes.total(tail)
}

/// `out = e^(x - max) / Σ e^(x - max)`; with `streamed`, `f32` rows may be written with
/// streaming stores (the task fences before it ends).
#[inline(always)]
fn softmax_row<E: FloatElement + NumElement>(x: &[E], out: &mut [E], streamed: bool) {
    #[cfg(target_arch = "x86_64")]
    if let (Some(x32), Some(out32)) = (as_f32(x), as_f32_mut(out))
        && softmax_x86::softmax_row(x32, out32, streamed)
    {
        return;
    }
    let _ = streamed;
    let max = reduce_line(LineReduce::Max, x);
    let out = &mut out[..x.len()];
    let sum = exp_shifted_sum(x, max, out);
    let scale = <E as num_traits::One>::one() / sum;
    for o in out.iter_mut() {
        *o = *o * scale;
    }
}

/// `out = (x - max) - ln Σ e^(x - max)` (not `x - (max + ln Σ)`: the shifted values are small,
/// `max` may not be).
#[inline(always)]
fn log_softmax_row<E: FloatElement + NumElement>(x: &[E], out: &mut [E]) {
    let max = reduce_line(LineReduce::Max, x);
    let log_sum = exp_shifted_total(x, max).ln();
    for (o, &v) in out.iter_mut().zip(x) {
        *o = (v - max) - log_sum;
    }
}

/// `out = s · (g - Σ g·s)`.
#[inline(always)]
fn softmax_backward_row<E: FloatElement>(s: &[E], g: &[E], out: &mut [E]) {
    let dot = dot(g, s);
    for ((o, &s), &g) in out.iter_mut().zip(s).zip(g) {
        *o = s * (g - dot);
    }
}

/// `out = g - e^y · Σ g`.
#[inline(always)]
fn log_softmax_backward_row<E: FloatElement>(y: &[E], g: &[E], out: &mut [E]) {
    let total = total(g);
    for ((o, &y), &g) in out.iter_mut().zip(y).zip(g) {
        *o = g - y.exp_vectorizable() * total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tensor(values: &[f64], shape: &[usize]) -> FlexTensor {
        FlexTensor::from_vec(values.to_vec(), shape.to_vec())
    }

    fn reference_softmax(row: &[f64]) -> Vec<f64> {
        let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = row.iter().map(|v| (v - max).exp()).sum();
        row.iter().map(|v| (v - max).exp() / sum).collect()
    }

    #[test]
    fn softmax_rows_match_the_reference_along_each_dim() {
        let values: Vec<f64> = (0..60)
            .map(|i| ((i * 37) % 23) as f64 * 0.7 - 8.0)
            .collect();
        let shape = [3, 4, 5];
        for dim in 0..3 {
            let got = rowwise(RowOp::Softmax, vec![tensor(&values, &shape)], dim).to_vec::<f64>();
            // Gather each line along `dim` and compare.
            let strides = [20, 5, 1];
            for start in 0..60usize {
                if (start / strides[dim]) % shape[dim] != 0 {
                    continue;
                }
                let line: Vec<f64> = (0..shape[dim])
                    .map(|k| values[start + k * strides[dim]])
                    .collect();
                for (k, want) in reference_softmax(&line).into_iter().enumerate() {
                    let at = start + k * strides[dim];
                    assert!((got[at] - want).abs() < 1e-14, "dim {dim} at {at}");
                }
            }
        }
    }

    #[test]
    fn a_softmax_large_enough_to_stream_matches_the_reference_on_every_row() {
        // 1031 rows of 4090 f32 (over 16 MiB): rows start off the 64-byte lines, and the rows
        // are shared between the threads' tasks.
        let (rows, len) = (1031, 4090);
        assert!(rows * len * 4 >= STREAMED_OUTPUT_BYTES);
        #[cfg(target_arch = "x86_64")]
        assert!(len <= softmax_x86::STREAM_ROW);
        let values: Vec<f32> = (0..rows * len)
            .map(|i| ((i * 37 % 1009) as f32 - 504.0) * 0.03)
            .collect();
        let x = FlexTensor::from_vec(values.clone(), vec![rows, len]);
        let got = rowwise(RowOp::Softmax, vec![x], 1).to_vec::<f32>();
        for r in 0..rows {
            let line: Vec<f64> = values[r * len..(r + 1) * len]
                .iter()
                .map(|&v| v as f64)
                .collect();
            for (k, want) in reference_softmax(&line).into_iter().enumerate() {
                let value = got[r * len + k] as f64;
                assert!(
                    (value - want).abs() <= 1e-5 * want + 1e-30,
                    "row {r}, index {k}: {value} vs {want}"
                );
            }
        }
    }

    #[test]
    fn log_softmax_and_gradients_match_the_reference() {
        let x: Vec<f64> = (0..40).map(|i| (i as f64 * 0.91).sin() * 30.0).collect();
        let g: Vec<f64> = (0..40).map(|i| (i as f64 * 0.37).cos()).collect();
        let shape = [2, 20];
        let log = rowwise(RowOp::LogSoftmax, vec![tensor(&x, &shape)], 1).to_vec::<f64>();
        let soft = rowwise(RowOp::Softmax, vec![tensor(&x, &shape)], 1).to_vec::<f64>();
        let ds = rowwise(
            RowOp::SoftmaxBackward,
            vec![tensor(&soft, &shape), tensor(&g, &shape)],
            1,
        )
        .to_vec::<f64>();
        let dl = rowwise(
            RowOp::LogSoftmaxBackward,
            vec![tensor(&log, &shape), tensor(&g, &shape)],
            1,
        )
        .to_vec::<f64>();
        for r in 0..2 {
            let at = r * 20..(r + 1) * 20;
            let s = reference_softmax(&x[at.clone()]);
            let dot: f64 = s.iter().zip(&g[at.clone()]).map(|(s, g)| s * g).sum();
            let total: f64 = g[at.clone()].iter().sum();
            for (k, i) in at.enumerate() {
                assert!((log[i] - s[k].ln()).abs() < 1e-12);
                assert!((ds[i] - s[k] * (g[i] - dot)).abs() < 1e-12);
                assert!((dl[i] - (g[i] - s[k] * total)).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn large_f32_rows_are_split_across_threads_and_sum_to_one() {
        let (rows, len) = (300, 1000);
        let values: Vec<f32> = (0..rows * len)
            .map(|i| ((i * 7919) % 1000) as f32 * 0.05 - 25.0)
            .collect();
        let t = FlexTensor::from_vec(values, [rows, len]);
        let out = rowwise(RowOp::Softmax, vec![t], 1).to_vec::<f32>();
        for row in out.chunks(len) {
            let sum: f64 = row.iter().map(|&v| v as f64).sum();
            assert!((sum - 1.0).abs() < 1e-5, "row sums to {sum}");
        }
    }

    #[test]
    fn f32_rows_keep_masked_and_special_values() {
        let inf = f32::INFINITY;
        let rows: [[f32; 4]; 5] = [
            [1.0, -inf, 2.0, -inf],     // masked: exact zeros, the rest sums to 1
            [-100.0, 0.0, -95.0, -inf], // far below the maximum: (near) zeros
            [1.0, f32::NAN, 2.0, 3.0],  // NaN anywhere: the whole row NaN
            [1.0, inf, 2.0, 3.0],       // +inf: NaN (inf - inf), as the composition gives
            [-inf, -inf, -inf, -inf],   // all masked: NaN (0 / 0), as the composition gives
        ];
        let values: Vec<f32> = rows.iter().flatten().copied().collect();
        let t = || FlexTensor::from_vec(values.clone(), [5, 4]);
        let soft = rowwise(RowOp::Softmax, vec![t()], 1).to_vec::<f32>();
        let log = rowwise(RowOp::LogSoftmax, vec![t()], 1).to_vec::<f32>();
        let e = (1.0f64).exp();
        let want0 = [1.0 / (1.0 + e), 0.0, e / (1.0 + e), 0.0];
        for (k, &w) in want0.iter().enumerate() {
            assert!(
                (soft[k] as f64 - w).abs() < 1e-7,
                "row 0 [{k}]: {}",
                soft[k]
            );
        }
        assert_eq!((soft[1], soft[3]), (0.0, 0.0));
        assert_eq!((log[1], log[3]), (-inf, -inf));
        // e^-100 and e^-95 are below f32's normal range: 0 or a subnormal, never more.
        assert!(soft[4] < 1e-38 && soft[6] < 1e-38, "{:?}", &soft[4..8]);
        assert_eq!((soft[5], soft[7]), (1.0, 0.0));
        assert!(soft[8..].iter().all(|v| v.is_nan()), "{:?}", &soft[8..]);
        assert!(log[8..].iter().all(|v| v.is_nan()), "{:?}", &log[8..]);
    }

    #[test]
    fn half_floats_compute_in_f32_and_keep_their_dtype() {
        let t = cast(tensor(&[1.0, 2.0, 3.0, 4.0], &[1, 4]), DType::F16);
        let out = rowwise(RowOp::Softmax, vec![t], 1);
        assert_eq!(out.dtype(), DType::F16);
        let want = reference_softmax(&[1.0, 2.0, 3.0, 4.0]);
        for (got, want) in cast(out, DType::F64).to_vec::<f64>().iter().zip(want) {
            assert!((got - want).abs() < 1e-3);
        }
    }

    #[test]
    fn empty_tensors_along_any_dim_stay_empty() {
        for (shape, dim) in [
            (vec![0, 5], 1),
            (vec![2, 0, 3], 2),
            (vec![2, 0], 1),
            (vec![0], 0),
        ] {
            for op in [
                RowOp::Softmax,
                RowOp::LogSoftmax,
                RowOp::SoftmaxBackward,
                RowOp::LogSoftmaxBackward,
            ] {
                let inputs = (0..op.arity()).map(|_| tensor(&[], &shape)).collect();
                let out = rowwise(op, inputs, dim);
                assert_eq!(
                    out.shape().to_vec(),
                    shape,
                    "{op:?} of {shape:?} along {dim}"
                );
                assert_eq!(out.num_elements(), 0);
            }
        }
    }

    #[test]
    #[should_panic(expected = "softmax: dim 2 is out of range")]
    fn a_dim_out_of_range_names_the_op() {
        rowwise(RowOp::Softmax, vec![tensor(&[1.0, 2.0], &[1, 2])], 2);
    }
}
