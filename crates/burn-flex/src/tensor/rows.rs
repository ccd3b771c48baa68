//! Filling a row-major output from strided inputs row by row: the walk `for_each_row` gives,
//! split between threads along the outermost non-trivial dimension when the work is large, each
//! row compiled for the CPU's widest vectors. The element-wise engine (`ops::map`), reductions,
//! indexing and the copies of strided views ([`super::iter::collect_layout`]) all fill their
//! outputs this way.

use super::Layout;
use super::iter::for_each_row;
use crate::parallel;
use crate::simd::vectorized;
use burn_std::Shape;

/// Number of elements of work from which element-wise work and reductions are split across
/// threads.
pub const PAR_THRESHOLD: usize = 1 << 16;

/// Fills the row-major `out` (of `shape`) row by row: `row(out_row, starts, strides)` gets the
/// output row and, for each input layout (already broadcast to `shape`), the buffer position of
/// the row's first element and its stride. Large outputs are split across threads along the
/// outermost non-trivial dimension.
pub fn for_each_out_row<O: Send, const K: usize>(
    out: &mut [O],
    shape: &Shape,
    inputs: [&Layout; K],
    row: impl Fn(&mut [O], [usize; K], [isize; K]) + Sync,
) {
    for_each_out_row_weighted(out, shape, inputs, 1, row)
}

/// [`for_each_out_row`] for outputs that each cost `work_per_output` input elements (a
/// reduction's line length): the split across threads follows the total work, so a few long
/// lines are shared out as well as many short ones.
pub fn for_each_out_row_weighted<O: Send, const K: usize>(
    out: &mut [O],
    shape: &Shape,
    inputs: [&Layout; K],
    work_per_output: usize,
    row: impl Fn(&mut [O], [usize; K], [isize; K]) + Sync,
) {
    let n = shape.num_elements();
    debug_assert_eq!(out.len(), n);
    let split = shape.dims.iter().position(|&d| d > 1);
    match split {
        Some(dim)
            if n.saturating_mul(work_per_output.max(1)) >= PAR_THRESHOLD
                && parallel::threads() > 1 =>
        {
            let size = shape[dim];
            let inner = n / size;
            let pieces = (parallel::threads() * 4).min(size);
            let rows_per = size.div_ceil(pieces);
            parallel::for_each_chunk_mut(out, rows_per * inner, |i, chunk| {
                let start = i * rows_per;
                let len = chunk.len() / inner;
                let mut sub_shape = shape.clone();
                sub_shape[dim] = len;
                let layouts: [Layout; K] = inputs.map(|l| l.narrow(dim, start, len));
                fill_rows(chunk, &sub_shape, layouts.each_ref(), &row);
            });
        }
        _ => fill_rows(out, shape, inputs, &row),
    }
}

#[inline(always)]
fn fill_rows<O, const K: usize>(
    out: &mut [O],
    shape: &Shape,
    inputs: [&Layout; K],
    row: &impl Fn(&mut [O], [usize; K], [isize; K]),
) {
    let mut pos = 0;
    for_each_row(
        &shape.dims,
        inputs.map(|l| l.strides()),
        inputs.map(|l| l.offset()),
        |starts, len, strides| {
            // Each row runs compiled for the CPU's widest vectors (rows of a contiguous view
            // are merged, so this is once per chunk there).
            let o = &mut out[pos..pos + len];
            vectorized(
                #[inline(always)]
                || row(o, starts, strides),
            );
            pos += len;
        },
    );
}

/// `out[i] = f(a[start + i * stride])` for a row.
#[inline(always)]
pub fn map_row<A: Copy, O: Copy>(
    out: &mut [O],
    a: &[A],
    start: usize,
    stride: isize,
    f: &impl Fn(A) -> O,
) {
    match stride {
        1 => {
            let len = out.len();
            for (o, &x) in out.iter_mut().zip(&a[start..start + len]) {
                *o = f(x);
            }
        }
        0 => out.fill(f(a[start])),
        // A flipped row: read forwards and written backwards, which vectorizes (a permute).
        -1 => {
            let len = out.len();
            let source = &a[start + 1 - len..=start];
            for (o, &x) in out.iter_mut().zip(source.iter().rev()) {
                *o = f(x);
            }
        }
        _ => {
            let mut p = start as isize;
            for o in out {
                *o = f(a[p as usize]);
                p += stride;
            }
        }
    }
}
