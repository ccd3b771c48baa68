//! Walking strided layouts row by row: dimensions that are adjacent in every operand are merged,
//! the innermost merged dimension becomes a row, and the outer ones advance like an odometer
//! (no per-element index division).

use super::layout::Layout;

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

/// The elements of `layout` in `data`, mapped by `f`, in row-major order.
pub fn map_layout<T: Copy, U>(data: &[T], layout: &Layout, f: impl Fn(T) -> U) -> Vec<U> {
    if let Some(range) = layout.contiguous_range() {
        return data[range].iter().map(|&v| f(v)).collect();
    }
    let mut out = Vec::with_capacity(layout.num_elements());
    for_each_row(
        &layout.shape().dims,
        [layout.strides()],
        [layout.offset()],
        |[start], len, [stride]| {
            if stride == 1 {
                out.extend(data[start..start + len].iter().map(|&v| f(v)));
            } else {
                let mut p = start as isize;
                for _ in 0..len {
                    out.push(f(data[p as usize]));
                    p += stride;
                }
            }
        },
    );
    out
}

/// The elements of `layout` in `data`, in row-major order.
pub fn collect_layout<T: Copy>(data: &[T], layout: &Layout) -> Vec<T> {
    if let Some(range) = layout.contiguous_range() {
        return data[range].to_vec();
    }
    map_layout(data, layout, |v| v)
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
    fn copies_into_a_strided_destination() {
        let mut dst = vec![0; 6];
        let dst_layout = Layout::contiguous([2, 3]).transpose(); // [3, 2]
        let src: Vec<i32> = (1..=6).collect();
        copy_into(&mut dst, &dst_layout, &src, &Layout::contiguous([3, 2]));
        assert_eq!(dst, vec![1, 3, 5, 2, 4, 6]);
    }
}
