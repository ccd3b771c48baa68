//! Walking strided layouts row by row: dimensions that are adjacent in every operand are merged,
//! the innermost merged dimension becomes a row, and the outer ones advance like an odometer
//! (no per-element index division).

use super::layout::Layout;
use super::rows::{PAR_THRESHOLD, for_each_out_row, map_row};
use super::{Storable, pool};
use crate::kernels::transpose::transpose;
use crate::parallel;

/// One merged dimension: its size and the stride of each operand.
#[derive(Clone, Copy)]
struct Dim<const K: usize> {
    size: usize,
    strides: [isize; K],
}

/// Calls `row(starts, len, strides)` for every row of a `shape` walked jointly by `K` operands
/// with the given strides and offsets, in row-major order. `starts` are buffer positions of the
/// row's first element; element `i` of the row of operand `k` is at `starts[k] + i * strides[k]`.
#[inline(always)]
pub fn for_each_row<const K: usize>(
    shape: &[usize],
    strides: [&[isize]; K],
    offsets: [usize; K],
    mut row: impl FnMut([usize; K], usize, [isize; K]),
) {
    if shape.contains(&0) {
        return;
    }
    // Merged dims, innermost first.
    let mut dims: Vec<Dim<K>> = Vec::with_capacity(shape.len());
    for d in (0..shape.len()).rev() {
        if shape[d] == 1 {
            continue;
        }
        let dim = Dim {
            size: shape[d],
            strides: core::array::from_fn(|k| strides[k][d]),
        };
        if let Some(inner) = dims.last_mut()
            && (0..K).all(|k| dim.strides[k] == inner.strides[k] * inner.size as isize)
        {
            inner.size *= dim.size;
            continue;
        }
        dims.push(dim);
    }
    let Some((inner, outer)) = dims.split_first() else {
        row(offsets, 1, [0; K]);
        return;
    };
    let mut pos: [isize; K] = core::array::from_fn(|k| offsets[k] as isize);
    let mut counters = vec![0usize; outer.len()];
    loop {
        row(pos.map(|p| p as usize), inner.size, inner.strides);
        let mut d = 0;
        loop {
            if d == outer.len() {
                return;
            }
            counters[d] += 1;
            for (p, s) in pos.iter_mut().zip(outer[d].strides) {
                *p += s;
            }
            if counters[d] < outer[d].size {
                break;
            }
            for (p, s) in pos.iter_mut().zip(outer[d].strides) {
                *p -= s * outer[d].size as isize;
            }
            counters[d] = 0;
            d += 1;
        }
    }
}

/// Calls `f(position)` for the buffer position of every element of `layout`, in row-major order.
pub fn for_each_position(layout: &Layout, mut f: impl FnMut(usize)) {
    for_each_row(
        &layout.shape().dims,
        [layout.strides()],
        [layout.offset()],
        |[start], len, [stride]| {
            let mut p = start as isize;
            for _ in 0..len {
                f(p as usize);
                p += stride;
            }
        },
    );
}

/// The elements of `layout` in `data`, in row-major order, in a pooled buffer: a contiguous
/// range is copied, other views are walked row by row ([`for_each_out_row`]: split between
/// threads when large, flipped rows read forwards).
pub fn collect_layout<T: Storable>(data: &[T], layout: &Layout) -> Vec<T> {
    if let Some(range) = layout.contiguous_range() {
        return copy_parallel(&data[range]);
    }
    let mut out = pool::for_overwrite::<T>(layout.num_elements());
    for_each_out_row(
        &mut out,
        layout.shape(),
        [layout],
        #[inline(always)]
        |o, [p], [s]| map_row(o, data, p, s, &|v| v),
    );
    out
}

/// A pooled copy of `values`, split between threads when large (one core does not reach the
/// memory's copy bandwidth).
fn copy_parallel<T: Storable>(values: &[T]) -> Vec<T> {
    if values.len() < PAR_THRESHOLD * 4 || parallel::threads() == 1 {
        return pool::copied(values);
    }
    let mut out = pool::for_overwrite::<T>(values.len());
    let chunk = values.len().div_ceil(parallel::threads() * 4);
    parallel::for_each_chunk_mut(&mut out, chunk, |i, piece| {
        piece.copy_from_slice(&values[i * chunk..i * chunk + piece.len()]);
    });
    out
}

/// Elements from which a transposed view is copied by the blocked transpose kernel.
const TRANSPOSED_MIN: usize = 1 << 12;

/// Whether [`collect_transposed`] copies `layout` (a transposed matrix or a batch of them, not
/// too small).
pub fn is_transposed(layout: &Layout) -> bool {
    let dims = &layout.shape().dims;
    let strides = layout.strides();
    let rank = dims.len();
    if rank < 2 {
        return false;
    }
    let (rows, cols) = (dims[rank - 2], dims[rank - 1]);
    let (row_stride, ld) = (strides[rank - 2], strides[rank - 1]);
    row_stride == 1
        && ld >= rows as isize
        && rows >= 2
        && cols >= 2
        && rows * cols >= TRANSPOSED_MIN
        && strides[..rank - 2].iter().all(|&s| s >= 0)
}

/// The elements of `layout` in row-major order when it is a transposed matrix, or a batch of
/// them: the last two dims with strides `(1, ld)`, `ld` at least the rows, as `swap_dims` of the
/// last two dims of a contiguous tensor gives. Copied by [`crate::kernels::transpose`] (square
/// tiles, in parallel for large matrices): walked row by row, such a view reads down the
/// source's columns, one cache line per element. `None` for other layouts and small matrices.
pub fn collect_transposed<E: Storable>(data: &[E], layout: &Layout) -> Option<Vec<E>> {
    if !is_transposed(layout) {
        return None;
    }
    let dims = &layout.shape().dims;
    let strides = layout.strides();
    let rank = dims.len();
    let (rows, cols) = (dims[rank - 2], dims[rank - 1]);
    let ld = strides[rank - 1];
    let (batch_dims, batch_strides) = (&dims[..rank - 2], &strides[..rank - 2]);
    let mut out = pool::for_overwrite::<E>(layout.num_elements());
    let mut index = vec![0; batch_dims.len()];
    for matrix in out.chunks_exact_mut(rows * cols) {
        let start = layout.offset()
            + index
                .iter()
                .zip(batch_strides)
                .map(|(&i, &s)| i * s as usize)
                .sum::<usize>();
        // The view's rows are the source's columns: the source is `cols × rows` at stride `ld`.
        transpose(&data[start..], cols, rows, ld as usize, matrix);
        // The next batch index, last dim fastest.
        for (i, &size) in index.iter_mut().zip(batch_dims).rev() {
            *i += 1;
            if *i < size {
                break;
            }
            *i = 0;
        }
    }
    Some(out)
}

/// Writes `f(dst_value, src_value)` into every element of the `dst_layout` view of `dst`, walking
/// the `src_layout` view of `src` (same shape) alongside.
pub fn zip_assign<T: Copy, U: Copy>(
    dst: &mut [T],
    dst_layout: &Layout,
    src: &[U],
    src_layout: &Layout,
    f: impl Fn(T, U) -> T,
) {
    assert_eq!(
        dst_layout.shape(),
        src_layout.shape(),
        "zip_assign: destination shape {:?} differs from source shape {:?}",
        dst_layout.shape(),
        src_layout.shape()
    );
    for_each_row(
        &dst_layout.shape().dims,
        [dst_layout.strides(), src_layout.strides()],
        [dst_layout.offset(), src_layout.offset()],
        |[d, s], len, [ds, ss]| {
            if ds == 1 && ss == 1 {
                for (o, &v) in dst[d..d + len].iter_mut().zip(&src[s..s + len]) {
                    *o = f(*o, v);
                }
            } else {
                let (mut d, mut s) = (d as isize, s as isize);
                for _ in 0..len {
                    let o = &mut dst[d as usize];
                    *o = f(*o, src[s as usize]);
                    d += ds;
                    s += ss;
                }
            }
        },
    );
}

/// Copies the `src_layout` view of `src` into the `dst_layout` view of `dst` (same shapes).
pub fn copy_into<T: Copy>(dst: &mut [T], dst_layout: &Layout, src: &[T], src_layout: &Layout) {
    zip_assign(dst, dst_layout, src, src_layout, |_, v| v);
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::Slice;

    #[test]
    fn walks_views_in_row_major_order() {
        let data: Vec<i32> = (0..24).collect();
        let l = Layout::contiguous([2, 3, 4]);
        assert_eq!(collect_layout(&data, &l), data);
        let t = l.permute(&[2, 0, 1]);
        let got = collect_layout(&data, &t);
        let mut expected = vec![];
        for k in 0..4 {
            for i in 0..2 {
                for j in 0..3 {
                    expected.push(i * 12 + j * 4 + k);
                }
            }
        }
        assert_eq!(got, expected);
        let f = l
            .flip(&[0, 2])
            .slice(&[Slice::full(), Slice::new(0, None, 2)]);
        let got = collect_layout(&data, &f);
        assert_eq!(
            got,
            vec![15, 14, 13, 12, 23, 22, 21, 20, 3, 2, 1, 0, 11, 10, 9, 8]
        );
        let e = Layout::contiguous([3]).expand(&burn_std::Shape::new([2, 3]));
        assert_eq!(collect_layout(&data, &e), vec![0, 1, 2, 0, 1, 2]);
        let scalar = Layout::contiguous([1, 1]);
        assert_eq!(collect_layout(&data, &scalar), vec![0]);
    }

    #[test]
    fn large_views_are_copied_in_order_when_split() {
        // Above the split threshold: flipped rows (read backwards), flipped rows of a strided
        // slice, a contiguous range.
        let (rows, cols) = (300, 400);
        let data: Vec<i32> = (0..(rows * cols) as i32).collect();
        let base = Layout::contiguous([rows, cols]);
        let flipped = collect_layout(&data, &base.flip(&[1]));
        let expected: Vec<i32> = (0..rows)
            .flat_map(|r| (0..cols).rev().map(move |c| (r * cols + c) as i32))
            .collect();
        assert_eq!(flipped, expected);
        let both = collect_layout(&data, &base.flip(&[0, 1]));
        assert_eq!(both, data.iter().rev().copied().collect::<Vec<_>>());
        let stepped = base
            .slice(&[Slice::full(), Slice::new(1, None, 2)])
            .flip(&[1]);
        let expected: Vec<i32> = (0..rows)
            .flat_map(|r| {
                (1..cols)
                    .step_by(2)
                    .rev()
                    .map(move |c| (r * cols + c) as i32)
            })
            .collect();
        assert_eq!(collect_layout(&data, &stepped), expected);
        let tail = base.slice(&[Slice::new(100, None, 1)]);
        assert_eq!(collect_layout(&data, &tail), data[100 * cols..]);
    }

    #[test]
    fn transposed_views_are_copied_by_the_blocked_transpose() {
        let data: Vec<f32> = (0..3 * 100 * 90).map(|i| i as f32 * 0.25 - 7.0).collect();
        let wide: Vec<i64> = (0..3 * 100 * 90).collect();
        let base = Layout::contiguous([3, 100, 90]);
        let views = [
            // A batch of transposed matrices, and one matrix of it (offset 9000).
            base.transpose(),
            base.slice(&[Slice::new(1, Some(2), 1)]).transpose(),
            // Columns sliced off first (the leading dimension exceeds the rows).
            base.slice(&[Slice::full(), Slice::full(), Slice::new(5, Some(75), 1)])
                .transpose(),
            // [100, 3, 90] as [3, 90, 100]: matrices 90 apart, each at stride (1, 270).
            Layout::contiguous([100, 3, 90]).permute(&[1, 2, 0]),
        ];
        for (i, view) in views.iter().enumerate() {
            let fast = collect_transposed(&data, view);
            let fast = fast.unwrap_or_else(|| panic!("view {i} is a transposed batch"));
            assert_eq!(fast, collect_layout(&data, view), "view {i}, f32");
            let fast = collect_transposed(&wide, view).expect("the same layout");
            assert_eq!(fast, collect_layout(&wide, view), "view {i}, i64");
        }
        // Not taken: contiguous, too small, a flipped batch, a column stride below the rows.
        assert!(collect_transposed(&data, &base).is_none());
        let small = Layout::contiguous([30, 40]).transpose();
        assert!(collect_transposed(&data, &small).is_none());
        assert!(collect_transposed(&data, &base.flip(&[0]).transpose()).is_none());
        let overlapping = Layout::new([100, 90], vec![1, 50], 0);
        assert!(collect_transposed(&data, &overlapping).is_none());
    }

    #[test]
    fn copies_into_a_strided_destination() {
        let mut dst = vec![0; 6];
        let dst_layout = Layout::contiguous([2, 3]).transpose(); // [3, 2]
        let src: Vec<i32> = (1..=6).collect();
        copy_into(&mut dst, &dst_layout, &src, &Layout::contiguous([3, 2]));
        assert_eq!(dst, vec![1, 3, 5, 2, 4, 6]);
    }
}
