//! The contiguous paths of `select` and `gather`: the tensor seen as `[outer, size, inner]`
//! around the indexed dimension, the output as `[outer, n, inner]`, filled line by line (a line
//! is `inner` consecutive values) and split between threads by whole lines. A line of a
//! `select` is one copy; the lines of a `gather` along the last dimension are single values
//! read from one source row, which stays in cache.

use super::map::PAR_THRESHOLD;
use crate::parallel;
use crate::tensor::Storable;
use core::ops::Range;

/// How a contiguous tensor's dimensions fall around the indexed one.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    /// The product of the dimensions before it.
    pub outer: usize,
    /// Its own size.
    pub size: usize,
    /// The product of the dimensions after it.
    pub inner: usize,
}

impl Around {
    /// The split of `dims` around `dim`.
    pub fn of(dims: &[usize], dim: usize) -> Self {
        Self {
            outer: dims[..dim].iter().product(),
            size: dims[dim],
            inner: dims[dim + 1..].iter().product(),
        }
    }

    /// The source values of outer index `o`: `size` lines of `inner`.
    #[inline(always)]
    fn block<'a, E>(&self, src: &'a [E], o: usize) -> &'a [E] {
        let len = self.size * self.inner;
        &src[o * len..(o + 1) * len]
    }
}

/// Calls `fill(o, js, piece)` for runs of output lines `(o, j)`, `j` in `js`, in order:
/// `piece` holds those lines of the output (`outer·n` lines of `inner` values). Large outputs
/// are split between threads by whole lines.
fn for_each_line_run<E: Send>(
    out: &mut [E],
    n: usize,
    inner: usize,
    fill: impl Fn(usize, Range<usize>, &mut [E]) + Sync,
) {
    if out.is_empty() {
        return;
    }
    let run = |first_line: usize, piece: &mut [E]| {
        let end = first_line + piece.len() / inner;
        let (mut line, mut at) = (first_line, 0);
        while line < end {
            let (o, j0) = (line / n, line % n);
            let j1 = n.min(j0 + end - line);
            let len = (j1 - j0) * inner;
            fill(o, j0..j1, &mut piece[at..at + len]);
            at += len;
            line += j1 - j0;
        }
    };
    let lines = out.len() / inner;
    if out.len() >= PAR_THRESHOLD && parallel::threads() > 1 && lines > 1 {
        let lines_per = lines.div_ceil(parallel::threads() * 4);
        parallel::for_each_chunk_mut(out, lines_per * inner, |t, piece| run(t * lines_per, piece));
    } else {
        run(0, out);
    }
}

/// `out[o, j, :] = src[o, indices[j], :]`; every index is below `around.size` (checked by the
/// caller).
pub fn select_lines<E: Storable>(src: &[E], around: Around, indices: &[usize], out: &mut [E]) {
    let inner = around.inner;
    for_each_line_run(out, indices.len(), inner, |o, js, piece| {
        let block = around.block(src, o);
        if inner == 1 {
            for (v, &i) in piece.iter_mut().zip(&indices[js]) {
                *v = block[i];
            }
        } else {
            for (line, &i) in piece.chunks_exact_mut(inner).zip(&indices[js]) {
                line.copy_from_slice(&block[i * inner..(i + 1) * inner]);
            }
        }
    });
}

/// `out[o, j, k] = src[o, indices[o, j, k], k]` for `indices` of the output's shape `[outer, n,
/// inner]`; `check(index)` validates each index (panicking on one out of range) and returns it.
pub fn gather_lines<E: Storable>(
    src: &[E],
    around: Around,
    n: usize,
    indices: &[i64],
    out: &mut [E],
    check: impl Fn(i64) -> usize + Sync,
) {
    let inner = around.inner;
    for_each_line_run(out, n, inner, |o, js, piece| {
        let block = around.block(src, o);
        let first = (o * n + js.start) * inner;
        let indices = &indices[first..first + piece.len()];
        if inner == 1 {
            for (v, &i) in piece.iter_mut().zip(indices) {
                *v = block[check(i)];
            }
        } else {
            let lines = piece
                .chunks_exact_mut(inner)
                .zip(indices.chunks_exact(inner));
            for (line, ids) in lines {
                for (k, (v, &i)) in line.iter_mut().zip(ids).enumerate() {
                    *v = block[check(i) * inner + k];
                }
            }
        }
    });
}
