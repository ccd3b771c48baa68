//! A contiguous tensor reduced over a dimension with a block of adjacent values after it: seen
//! as `[outer, size, inner]` with `inner > 1`, each output row of `inner` accumulators folds the
//! `size` rows of `inner` values in order (the sum over the batch of a `[batch, features]`
//! matrix: a bias gradient, a mean over the batch).
//!
//! The rows are read whole and in order, the accumulators stay in L1 (a block of the row at a
//! time), and the loop vectorizes across the accumulators. Splitting the outputs between
//! threads instead would cut every input row into narrow strips read a page apart: on a Zen 4
//! host the sum over the batch of `[256, 1024]` took 85 µs that way against 7 µs for the sum
//! along its rows. When the outer dimension is too short to share out, the threads fold
//! consecutive ranges of the reduced dimension and their partial results merge in order.

use super::super::map::PAR_THRESHOLD;
use super::Reducer;
use crate::parallel;
use crate::simd::vectorized;
use core::ops::Range;

/// Accumulators folded per pass over the rows: 8 KiB of `f32`, kept in L1 beside the rows.
const BLOCK: usize = 2048;

/// Folds `data` (row-major `[outer, size, inner]`) over its middle dimension into `out`
/// (`[outer, inner]`, every accumulator at the reducer's initial value).
pub(super) fn fold_columns<E: Copy + Sync, R: Reducer<E>>(
    out: &mut [R::Acc],
    data: &[E],
    [outer, size, inner]: [usize; 3],
    r: &R,
) {
    debug_assert_eq!(out.len(), outer * inner);
    let rows = |o: usize, ks: Range<usize>, acc: &mut [R::Acc]| {
        fold_rows(&data[o * size * inner..(o + 1) * size * inner], ks, acc, r)
    };
    let threads = parallel::threads();
    if outer * size * inner < PAR_THRESHOLD || threads <= 1 {
        for (o, acc) in out.chunks_exact_mut(inner).enumerate() {
            rows(o, 0..size, acc);
        }
    } else if outer >= threads {
        parallel::for_each_chunk_mut(out, inner, |o, acc| rows(o, 0..size, acc));
    } else {
        let per = size.div_ceil(threads.div_ceil(outer).min(size));
        let parts = size.div_ceil(per);
        let mut partials = vec![r.init(); outer * parts * inner];
        parallel::for_each_chunk_mut(&mut partials, inner, |i, acc| {
            let (o, part) = (i / parts, i % parts);
            rows(o, part * per..((part + 1) * per).min(size), acc);
        });
        for (acc, group) in out
            .chunks_exact_mut(inner)
            .zip(partials.chunks_exact(parts * inner))
        {
            acc.copy_from_slice(&group[..inner]);
            for partial in group[inner..].chunks_exact(inner) {
                for (a, &b) in acc.iter_mut().zip(partial) {
                    *a = r.merge(*a, b);
                }
            }
        }
    }
}

/// Folds rows `ks` of `rows` (`size` rows of `acc.len()` values) into `acc` (every
/// accumulator at the reducer's initial value), one block of accumulators at a time.
///
/// The first row is folded into the initial value and written without reading `acc`: fresh
/// accumulators (`vec!` of zeros, handed out by the allocator as untouched pages) then fault in
/// as written pages. Read first, each page was mapped to the shared zero page and then copied on
/// the write, a fault that flushes the other cores' TLBs: on a Zen 4 host that flush took 8 % of
/// a multi-head attention's forward and backward, all of it in the bias gradients' sums.
fn fold_rows<E: Copy, R: Reducer<E>>(rows: &[E], ks: Range<usize>, acc: &mut [R::Acc], r: &R) {
    let inner = acc.len();
    vectorized(
        #[inline(always)]
        || {
            for (b, block) in acc.chunks_mut(BLOCK).enumerate() {
                let first = b * BLOCK;
                let len = block.len();
                let mut ks = ks.clone();
                if let Some(k) = ks.next() {
                    let start = k * inner + first;
                    for (a, &x) in block.iter_mut().zip(&rows[start..start + len]) {
                        *a = r.step(r.init(), x, k);
                    }
                }
                for k in ks {
                    let start = k * inner + first;
                    for (a, &x) in block.iter_mut().zip(&rows[start..start + len]) {
                        *a = r.step(*a, x, k);
                    }
                }
            }
        },
    );
}
