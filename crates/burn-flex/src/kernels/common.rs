//! Helpers the slice kernels share: `f64` conversions, optional sharing between cores, shape
//! checks and window-range arithmetic.

use crate::parallel;
use burn_std::{Element, ToElement};

/// Work (multiply-adds or visited values) below which a kernel stays on one thread.
pub(crate) const PARALLEL_WORK: usize = 1 << 16;

/// `value` as an `f64` (the `Element` conversion, spelled out to avoid `ToPrimitive`'s).
#[inline]
pub(crate) fn to_f64<T: Element>(value: T) -> f64 {
    ToElement::to_f64(&value)
}

/// The element nearest to `value`.
#[inline]
pub(crate) fn from_f64<T: Element>(value: f64) -> T {
    T::from_f64(value)
}

/// Whether `T` is a 16-bit float, which kernels widen to `f32` to compute (gemm already goes
/// through `f32` for them, and sums accumulated in 16 bits lose too much).
#[inline]
pub(crate) fn is_half<T: Element>() -> bool {
    core::mem::size_of::<T>() == 2
}

/// The values as `f32`.
pub(crate) fn widen<T: Element>(values: &[T]) -> Vec<f32> {
    values
        .iter()
        .map(|&v| ToElement::to_f64(&v) as f32)
        .collect()
}

/// The `f32` values rounded to `T`.
pub(crate) fn narrow<T: Element>(values: &[f32]) -> Vec<T> {
    values.iter().map(|&v| T::from_f64(v as f64)).collect()
}

/// Calls `f(i, chunk)` for each `chunk`-sized piece of `data`, shared between cores
/// ([`parallel`]) when `parallel`.
pub(crate) fn for_each_chunk<T: Send>(
    data: &mut [T],
    chunk: usize,
    parallel: bool,
    f: impl Fn(usize, &mut [T]) + Sync + Send,
) {
    if chunk == 0 {
        return;
    }
    if parallel {
        parallel::for_each_chunk_mut(data, chunk, f);
    } else {
        data.chunks_mut(chunk)
            .enumerate()
            .for_each(|(i, c)| f(i, c));
    }
}

/// Panics unless `len` (the values a slice holds) matches the element count of `shape`.
pub(crate) fn check_len(kernel: &str, what: &str, len: usize, shape: &[usize]) {
    let expected: usize = shape.iter().product();
    assert_eq!(
        len, expected,
        "{kernel}: expected {what} of shape {shape:?} ({expected} values), got {len} values"
    );
}

/// Panics unless every entry of `values` (one per spatial dimension) is positive.
pub(crate) fn check_positive(kernel: &str, what: &str, values: &[usize]) {
    assert!(
        values.iter().all(|&v| v > 0),
        "{kernel}: expected every {what} to be positive, got {values:?}"
    );
}

/// The output positions `o` in `0..n_out` for which `o * stride + offset` lies in
/// `0..in_len`, as a half-open range `lo..hi` (empty when none does).
#[inline]
pub(crate) fn valid_range(
    n_out: usize,
    stride: usize,
    offset: isize,
    in_len: usize,
) -> (usize, usize) {
    let s = stride as isize;
    let lo = if offset >= 0 {
        0
    } else {
        ((-offset) + s - 1) / s
    };
    let hi = if offset >= in_len as isize {
        0
    } else {
        (in_len as isize - offset + s - 1) / s
    };
    let lo = (lo as usize).min(n_out);
    let hi = (hi as usize).min(n_out);
    (lo, hi.max(lo))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_range_matches_brute_force() {
        for n_out in 0..6 {
            for stride in 1..4 {
                for offset in -7isize..7 {
                    for in_len in 0..6 {
                        let valid: Vec<usize> = (0..n_out)
                            .filter(|&o| {
                                let i = (o * stride) as isize + offset;
                                i >= 0 && i < in_len as isize
                            })
                            .collect();
                        let (lo, hi) = valid_range(n_out, stride, offset, in_len);
                        assert_eq!((lo..hi).collect::<Vec<_>>(), valid);
                    }
                }
            }
        }
    }
}
