//! Cumulative operations along a dimension: cumsum, cumprod, cummin, cummax.

use super::arith::{NumElement, max_nan, min_nan};
use super::creation::cast;
use super::map::PAR_THRESHOLD;
use crate::parallel;
use crate::simd::vectorized;
use crate::tensor::{FlexTensor, Storable, pool};
use burn_std::DType;

/// Rows scanned side by side when the scanned dimension is the last: one running value per
/// row, so the additions of different rows overlap instead of waiting on each other.
const LOCKSTEP_ROWS: usize = 8;

/// Every line along `dim` of `tensor` replaced by its running `f`-fold, into a new row-major
/// buffer (the input is read once, in place of a copy then a pass over the copy).
fn scan<E: Storable>(
    op: &str,
    tensor: FlexTensor,
    dim: usize,
    f: impl Fn(E, E) -> E + Sync,
) -> FlexTensor {
    let shape = tensor.shape().clone();
    assert!(
        dim < shape.num_dims(),
        "{op}: dim {dim} out of range for a tensor of rank {} (shape {shape:?})",
        shape.num_dims()
    );
    let size = shape[dim];
    let inner: usize = shape.dims[dim + 1..].iter().product();
    let block = size * inner;
    let src = tensor.values::<E>();
    let mut out = pool::for_overwrite::<E>(src.len());
    if block == 0 || src.is_empty() {
        return FlexTensor::from_vec(out, shape);
    }
    // Blocks scanned by one task: several rows side by side when `dim` is the last.
    let per_task = if inner == 1 { LOCKSTEP_ROWS } else { 1 };
    let scan_blocks = |first: usize, dst: &mut [E]| {
        let src = &src[first * block..first * block + dst.len()];
        vectorized(
            #[inline(always)]
            || {
                if inner == 1 {
                    scan_rows(src, dst, size, &f)
                } else {
                    scan_lines(src, dst, [size, inner], &f)
                }
            },
        )
    };
    let blocks = src.len() / block;
    if src.len() >= PAR_THRESHOLD && blocks > per_task && parallel::threads() > 1 {
        let tasks = blocks.div_ceil(per_task);
        let per = tasks.div_ceil(parallel::threads() * 4) * per_task;
        parallel::for_each_chunk_mut(&mut out, per * block, |t, dst| scan_blocks(t * per, dst));
    } else {
        scan_blocks(0, &mut out);
    }
    FlexTensor::from_vec(out, shape)
}

/// Running folds of the rows of `size` values in `src` into `dst`, [`LOCKSTEP_ROWS`] at a time.
fn scan_rows<E: Copy>(src: &[E], dst: &mut [E], size: usize, f: &impl Fn(E, E) -> E) {
    let group = LOCKSTEP_ROWS * size;
    let whole = src.len() / group * group;
    let (dst, dst_rest) = dst.split_at_mut(whole);
    for (dst, src) in dst
        .chunks_exact_mut(group)
        .zip(src[..whole].chunks_exact(group))
    {
        let dst: [&mut [E]; LOCKSTEP_ROWS] = split_rows(dst, size);
        let src: [&[E]; LOCKSTEP_ROWS] = core::array::from_fn(|r| &src[r * size..][..size]);
        let mut acc: [E; LOCKSTEP_ROWS] = core::array::from_fn(|r| src[r][0]);
        for r in 0..LOCKSTEP_ROWS {
            dst[r][0] = acc[r];
        }
        for k in 1..size {
            for r in 0..LOCKSTEP_ROWS {
                acc[r] = f(acc[r], src[r][k]);
                dst[r][k] = acc[r];
            }
        }
    }
    let src = &src[whole..];
    for (dst, src) in dst_rest.chunks_exact_mut(size).zip(src.chunks_exact(size)) {
        let mut acc = src[0];
        dst[0] = acc;
        for (d, &x) in dst[1..].iter_mut().zip(&src[1..]) {
            acc = f(acc, x);
            *d = acc;
        }
    }
}

/// `dst` cut into [`LOCKSTEP_ROWS`] rows of `size`.
fn split_rows<E>(dst: &mut [E], size: usize) -> [&mut [E]; LOCKSTEP_ROWS] {
    let mut rest = dst;
    core::array::from_fn(|_| {
        let (row, tail) = core::mem::take(&mut rest).split_at_mut(size);
        rest = tail;
        row
    })
}

/// Running folds along the lines of the blocks `[size, inner]` in `src` into `dst`: each output
/// row of `inner` values is the previous output row folded with the source row (vectorized
/// across the row).
fn scan_lines<E: Copy>(
    src: &[E],
    dst: &mut [E],
    [size, inner]: [usize; 2],
    f: &impl Fn(E, E) -> E,
) {
    let block = size * inner;
    for (dst, src) in dst.chunks_exact_mut(block).zip(src.chunks_exact(block)) {
        dst[..inner].copy_from_slice(&src[..inner]);
        for k in 1..size {
            let (done, rest) = dst.split_at_mut(k * inner);
            let prev = &done[(k - 1) * inner..];
            let row = &src[k * inner..(k + 1) * inner];
            for ((d, &p), &x) in rest[..inner].iter_mut().zip(prev).zip(row) {
                *d = f(p, x);
            }
        }
    }
}

/// Runs `f` in `f32` for half-precision tensors, so running sums and products accumulate in
/// single precision (as PyTorch does) and each output is rounded once.
fn widen_half(tensor: FlexTensor, f: impl FnOnce(FlexTensor) -> FlexTensor) -> FlexTensor {
    let dtype = tensor.dtype();
    if matches!(dtype, DType::F16 | DType::BF16) {
        cast(f(cast(tensor, DType::F32)), dtype)
    } else {
        f(tensor)
    }
}

/// Running sum along `dim`.
pub fn cumsum(tensor: FlexTensor, dim: usize) -> FlexTensor {
    widen_half(
        tensor,
        |tensor| with_num!(tensor.dtype(), "cumsum", E => scan("cumsum", tensor, dim, |a: E, b: E| a.add(b))),
    )
}

/// Running product along `dim`.
pub fn cumprod(tensor: FlexTensor, dim: usize) -> FlexTensor {
    widen_half(
        tensor,
        |tensor| with_num!(tensor.dtype(), "cumprod", E => scan("cumprod", tensor, dim, |a: E, b: E| a.mul(b))),
    )
}

/// Running minimum along `dim` (NaN propagates).
pub fn cummin(tensor: FlexTensor, dim: usize) -> FlexTensor {
    with_num!(tensor.dtype(), "cummin", E => scan("cummin", tensor, dim, min_nan::<E>))
}

/// Running maximum along `dim` (NaN propagates).
pub fn cummax(tensor: FlexTensor, dim: usize) -> FlexTensor {
    with_num!(tensor.dtype(), "cummax", E => scan("cummax", tensor, dim, max_nan::<E>))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Running sums along `dim` of a row-major `[d0, d1, d2]` tensor, in `f64`.
    fn running_sums(values: &[f32], dims: [usize; 3], dim: usize) -> Vec<f64> {
        let mut out: Vec<f64> = values.iter().map(|&v| v as f64).collect();
        let stride: usize = dims[dim + 1..].iter().product();
        for p in 0..out.len() {
            if !(p / stride).is_multiple_of(dims[dim]) {
                out[p] += out[p - stride];
            }
        }
        out
    }

    #[test]
    fn cumsum_matches_running_sums_on_every_dim_and_split() {
        // Row counts around the lockstep group (8), one task and several, a scanned length of 1.
        for dims in [
            [1, 3, 5],
            [2, 7, 9],
            [3, 5, 17],
            [40, 37, 50],
            [7, 1500, 1],
            [2, 9, 1],
        ] {
            let n = dims.iter().product::<usize>();
            let values: Vec<f32> = (0..n)
                .map(|i| ((i * 37) % 101) as f32 / 8.0 - 6.0)
                .collect();
            let t = FlexTensor::from_vec(values.clone(), dims);
            for dim in 0..3 {
                let got = cumsum(t.clone(), dim).to_vec::<f32>();
                let expected = running_sums(&values, dims, dim);
                for (p, (g, e)) in got.iter().zip(&expected).enumerate() {
                    assert!(
                        (*g as f64 - e).abs() <= 1e-5 * e.abs().max(1.0),
                        "dims {dims:?} dim {dim} at {p}: {g} vs {e}"
                    );
                }
            }
        }
        let rows = FlexTensor::from_vec((0..9 * 4).map(|i| i % 5).collect::<Vec<i32>>(), [9, 4]);
        assert_eq!(
            cummax(rows, 1).to_vec::<i32>()[..12],
            [0, 1, 2, 3, 4, 4, 4, 4, 3, 4, 4, 4]
        );
    }

    #[test]
    fn scans_match_reference_on_views() {
        // [[1, 2, 3], [4, 5, 6]] transposed: [[1, 4], [2, 5], [3, 6]].
        let t = FlexTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]).transpose();
        assert_eq!(
            cumsum(t.clone(), 0).to_vec::<f64>(),
            vec![1.0, 4.0, 3.0, 9.0, 6.0, 15.0]
        );
        assert_eq!(
            cumsum(t.clone(), 1).to_vec::<f64>(),
            vec![1.0, 5.0, 2.0, 7.0, 3.0, 9.0]
        );
        assert_eq!(
            cumprod(t.clone(), 0).to_vec::<f64>(),
            vec![1.0, 4.0, 2.0, 20.0, 6.0, 120.0]
        );
        assert_eq!(t.to_vec::<f64>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        let i = FlexTensor::from_vec(vec![3i32, 1, 4, 1, 5], [5]).flip(&[0]);
        assert_eq!(cummin(i.clone(), 0).to_vec::<i32>(), vec![5, 1, 1, 1, 1]);
        assert_eq!(cummax(i, 0).to_vec::<i32>(), vec![5, 5, 5, 5, 5]);
        let n = FlexTensor::from_vec(vec![1.0f32, f32::NAN, 3.0], [3]);
        let m = cummax(n, 0).to_vec::<f32>();
        assert_eq!(m[0], 1.0);
        assert!(m[1].is_nan() && m[2].is_nan());
    }
}
