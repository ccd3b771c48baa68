//! Indexing by index tensors: gather, scatter, select and select-assign along a dimension.
//! Out-of-range indices panic naming the operation, the index and the valid range.

use super::arith::{NumElement, max_nan, min_nan};
use super::map::for_each_out_row;
use super::take::{self, Around};
use crate::tensor::iter::{for_each_row, zip_assign};
use crate::tensor::{FlexTensor, Layout, pool};
use burn_std::{DType, IndexingUpdateOp, Shape, ToElement};
use std::borrow::Cow;

/// The values of an int tensor as `i64`, row-major.
pub(crate) fn index_values(op: &str, indices: &FlexTensor) -> Vec<i64> {
    with_int!(indices.dtype(), op, I => {
        indices.to_vec::<I>().into_iter().map(|i| ToElement::to_i64(&i)).collect()
    })
}

/// The values of an int tensor as `i64`, row-major: borrowed from a contiguous `i64` tensor
/// (the usual index dtype), converted otherwise.
fn index_slice<'a>(op: &str, indices: &'a FlexTensor) -> Cow<'a, [i64]> {
    if indices.dtype() == DType::I64 {
        indices.values::<i64>()
    } else {
        Cow::Owned(index_values(op, indices))
    }
}

/// Panics unless `0 <= index < size`; returns it as `usize`.
#[inline]
fn check_index(op: &str, index: i64, size: usize, dim: usize) -> usize {
    if index < 0 || index as usize >= size {
        panic!("{op}: index {index} out of range 0..{size} for dim {dim}");
    }
    index as usize
}

fn check_dim(op: &str, shape: &Shape, dim: usize) {
    assert!(
        dim < shape.num_dims(),
        "{op}: dim {dim} out of range for a tensor of rank {} (shape {shape:?})",
        shape.num_dims()
    );
}

/// Panics unless `indices` has `tensor`'s rank and no larger size in any dim but `dim`.
fn check_index_shape(op: &str, tensor: &Shape, indices: &Shape, dim: usize) {
    let fits = tensor.num_dims() == indices.num_dims()
        && (0..tensor.num_dims()).all(|d| d == dim || indices[d] <= tensor[d]);
    assert!(
        fits,
        "{op}: indices of shape {indices:?} do not fit tensor of shape {tensor:?} outside dim {dim}"
    );
}

/// `out[i][j][k] = tensor[i][indices[i][j][k]][k]` (for `dim = 1`); the output has the
/// indices' shape. A contiguous tensor whose indices match its shape outside `dim` takes the
/// line-by-line path ([`take::gather_lines`]), other views the strided walk.
pub fn gather(dim: usize, tensor: FlexTensor, indices: FlexTensor) -> FlexTensor {
    check_dim("gather", tensor.shape(), dim);
    check_index_shape("gather", tensor.shape(), indices.shape(), dim);
    let shape = indices.shape().clone();
    let idx = index_slice("gather", &indices);
    let size = tensor.shape()[dim];
    let check = |i: i64| check_index("gather", i, size, dim);
    let same_outside = (0..shape.num_dims()).all(|d| d == dim || shape[d] == tensor.shape()[d]);
    if let (Some(range), true) = (tensor.layout().contiguous_range(), same_outside) {
        let around = Around::of(&tensor.shape().dims, dim);
        return with_elem!(tensor.dtype(), E => {
            let mut out = pool::for_overwrite::<E>(shape.num_elements());
            let src = &tensor.storage::<E>()[range];
            take::gather_lines(src, around, shape[dim], &idx, &mut out, check);
            FlexTensor::from_vec(out, shape)
        });
    }
    let idx_layout = Layout::contiguous(shape.clone());
    let stride = tensor.layout().strides()[dim];
    let mut base_strides = tensor.layout().strides().to_vec();
    base_strides[dim] = 0;
    let base = Layout::new(shape.clone(), base_strides, tensor.layout().offset());
    with_elem!(tensor.dtype(), E => {
        let data = tensor.storage::<E>();
        let mut out = pool::aligned_for_overwrite::<E>(shape.num_elements());
        for_each_out_row(&mut out, &shape, [&base, &idx_layout], #[inline(always)] |o, [p, q], [s, _]| {
            let mut p = p as isize;
            for (o, &i) in o.iter_mut().zip(&idx[q..]) {
                *o = data[(p + check(i) as isize * stride) as usize];
                p += s;
            }
        });
        FlexTensor::from_aligned(out, shape)
    })
}

/// Runs `$body` with `$f: fn(E, E) -> E` the update of `$op`, for numeric or bool `E`.
macro_rules! with_update {
    ($dtype:expr, $name:expr, $op:expr, $E:ident, $f:ident => $body:expr) => {{
        if $dtype.is_bool() {
            type $E = bool;
            let $f: fn(bool, bool) -> bool = match $op {
                IndexingUpdateOp::Assign => |_, b| b,
                IndexingUpdateOp::Add | IndexingUpdateOp::Max => |a, b| a | b,
                IndexingUpdateOp::Mul | IndexingUpdateOp::Min => |a, b| a & b,
            };
            $body
        } else {
            with_num!($dtype, $name, $E => {
                let $f: fn($E, $E) -> $E = match $op {
                    IndexingUpdateOp::Assign => |_, b| b,
                    IndexingUpdateOp::Add => |a, b| NumElement::add(a, b),
                    IndexingUpdateOp::Mul => |a, b| NumElement::mul(a, b),
                    IndexingUpdateOp::Max => max_nan,
                    IndexingUpdateOp::Min => min_nan,
                };
                $body
            })
        }
    }};
}

/// `tensor` with `out[i][indices[i][j][k]][k] = op(out[..], values[i][j][k])` (for `dim = 1`),
/// applied in row-major order of the indices (later writes win for `Assign`).
pub fn scatter(
    dim: usize,
    tensor: FlexTensor,
    indices: FlexTensor,
    values: FlexTensor,
    op: IndexingUpdateOp,
) -> FlexTensor {
    check_dim("scatter", tensor.shape(), dim);
    check_index_shape("scatter", tensor.shape(), indices.shape(), dim);
    assert_eq!(
        tensor.dtype(),
        values.dtype(),
        "scatter: values dtype {} differs from tensor dtype {}",
        values.dtype(),
        tensor.dtype()
    );
    let idx_shape = indices.shape().clone();
    let fits = values.rank() == idx_shape.num_dims()
        && (0..idx_shape.num_dims()).all(|d| idx_shape[d] <= values.shape()[d]);
    assert!(
        fits,
        "scatter: values of shape {:?} do not cover indices of shape {idx_shape:?}",
        values.shape()
    );
    let idx = index_values("scatter", &indices);
    let mut values_layout = values.layout().clone();
    for (d, &n) in idx_shape.dims.iter().enumerate() {
        values_layout = values_layout.narrow(d, 0, n);
    }
    let out_shape = tensor.shape().clone();
    let size = out_shape[dim];
    let mut out = tensor.into_mut();
    let out_strides = crate::tensor::contiguous_strides(&out_shape.dims);
    let stride = out_strides[dim];
    let mut base_strides = out_strides;
    base_strides[dim] = 0;
    let idx_strides = crate::tensor::contiguous_strides(&idx_shape.dims);
    with_update!(out.dtype(), "scatter", op, E, f => {
        let src = values.storage::<E>();
        let dst = out.data_mut::<E>().expect("a unique contiguous tensor");
        for_each_row(
            &idx_shape.dims,
            [&base_strides, &idx_strides, values_layout.strides()],
            [0, 0, values_layout.offset()],
            |[p, q, v], len, [s, _, vs]| {
                let (mut p, mut v) = (p as isize, v as isize);
                for &i in &idx[q..q + len] {
                    let i = check_index("scatter", i, size, dim);
                    let o = &mut dst[(p + i as isize * stride) as usize];
                    *o = f(*o, src[v as usize]);
                    p += s;
                    v += vs;
                }
            },
        );
    });
    out
}

/// The slices of `tensor` at the 1-D `indices` along `dim`, in that order. Copied line by line
/// ([`take::select_lines`]) from a contiguous tensor, or from a contiguous copy of a view when
/// the output is at least half its size; smaller selections walk the view.
pub fn select(tensor: FlexTensor, dim: usize, indices: FlexTensor) -> FlexTensor {
    check_dim("select", tensor.shape(), dim);
    assert_eq!(
        indices.rank(),
        1,
        "select: expected 1-D indices, got shape {:?}",
        indices.shape()
    );
    let size = tensor.shape()[dim];
    let idx: Vec<usize> = index_slice("select", &indices)
        .iter()
        .map(|&i| check_index("select", i, size, dim))
        .collect();
    let mut shape = tensor.shape().clone();
    shape[dim] = idx.len();
    let tensor = if !tensor.is_contiguous() && 2 * shape.num_elements() >= tensor.num_elements() {
        tensor.to_contiguous()
    } else {
        tensor
    };
    with_elem!(tensor.dtype(), E => {
        let data = tensor.storage::<E>();
        let mut out = pool::for_overwrite::<E>(shape.num_elements());
        if let Some(range) = tensor.layout().contiguous_range() {
            let around = Around::of(&tensor.shape().dims, dim);
            take::select_lines(&data[range], around, &idx, &mut out);
        } else {
            let out_layout = Layout::contiguous(shape.clone());
            for (j, &i) in idx.iter().enumerate() {
                let (dst, src) = (out_layout.select_index(dim, j), tensor.layout().select_index(dim, i));
                zip_assign(&mut out, &dst, data, &src, |_, v| v);
            }
        }
        FlexTensor::from_vec(out, shape)
    })
}

/// `tensor` with slice `indices[j]` along `dim` updated by `op` with slice `j` of `values`
/// (repeated indices accumulate, in order).
pub fn select_assign(
    tensor: FlexTensor,
    dim: usize,
    indices: FlexTensor,
    values: FlexTensor,
    op: IndexingUpdateOp,
) -> FlexTensor {
    check_dim("select_assign", tensor.shape(), dim);
    assert_eq!(
        indices.rank(),
        1,
        "select_assign: expected 1-D indices, got shape {:?}",
        indices.shape()
    );
    assert_eq!(
        tensor.dtype(),
        values.dtype(),
        "select_assign: values dtype {} differs from tensor dtype {}",
        values.dtype(),
        tensor.dtype()
    );
    let idx = index_values("select_assign", &indices);
    let mut expected = tensor.shape().clone();
    expected[dim] = idx.len();
    assert_eq!(
        *values.shape(),
        expected,
        "select_assign: values of shape {:?}, expected {expected:?}",
        values.shape()
    );
    let size = tensor.shape()[dim];
    let mut out = tensor.into_mut();
    let out_layout = Layout::contiguous(out.shape().clone());
    with_update!(out.dtype(), "select_assign", op, E, f => {
        let src = values.storage::<E>();
        let dst = out.data_mut::<E>().expect("a unique contiguous tensor");
        for (j, &i) in idx.iter().enumerate() {
            let i = check_index("select_assign", i, size, dim);
            zip_assign(
                dst,
                &out_layout.select_index(dim, i),
                src,
                &values.layout().select_index(dim, j),
                f,
            );
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t2(values: Vec<f32>, rows: usize) -> FlexTensor {
        let cols = values.len() / rows;
        FlexTensor::from_vec(values, [rows, cols])
    }

    #[test]
    fn gather_and_scatter_along_both_dims() {
        let t = t2(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 2); // [[1,2,3],[4,5,6]]
        let idx = FlexTensor::from_vec(vec![2i64, 0, 1, 1], [2, 2]);
        assert_eq!(
            gather(1, t.clone(), idx.clone()).to_vec::<f32>(),
            vec![3.0, 1.0, 5.0, 5.0]
        );
        let idx0 = FlexTensor::from_vec(vec![1i32, 0, 1], [1, 3]);
        assert_eq!(
            gather(0, t.clone(), idx0.clone()).to_vec::<f32>(),
            vec![4.0, 2.0, 6.0]
        );
        // Transposed source: [[1,4],[2,5],[3,6]].
        let tt = t.clone().transpose();
        let idx = FlexTensor::from_vec(vec![1i64, 1, 0], [3, 1]);
        assert_eq!(gather(1, tt, idx).to_vec::<f32>(), vec![4.0, 5.0, 3.0]);

        let vals = t2(vec![10.0, 20.0, 30.0, 40.0], 2);
        let idx = FlexTensor::from_vec(vec![0i64, 0, 2, 1], [2, 2]);
        let kept = t.clone();
        let s = scatter(
            1,
            t.clone(),
            idx.clone(),
            vals.clone(),
            IndexingUpdateOp::Add,
        );
        assert_eq!(s.to_vec::<f32>(), vec![31.0, 2.0, 3.0, 4.0, 45.0, 36.0]);
        let s = scatter(
            1,
            t.clone(),
            idx.clone(),
            vals.clone(),
            IndexingUpdateOp::Assign,
        );
        assert_eq!(s.to_vec::<f32>(), vec![20.0, 2.0, 3.0, 4.0, 40.0, 30.0]);
        let s = scatter(1, t.clone(), idx, vals, IndexingUpdateOp::Min);
        assert_eq!(s.to_vec::<f32>(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(kept.to_vec::<f32>(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    }

    #[test]
    fn select_and_select_assign() {
        let t = FlexTensor::from_vec((0..12).collect::<Vec<i32>>(), [3, 4]);
        let idx = FlexTensor::from_vec(vec![2i64, 0, 2], [3]);
        let s = select(t.clone(), 0, idx.clone());
        assert_eq!(
            s.to_vec::<i32>(),
            vec![8, 9, 10, 11, 0, 1, 2, 3, 8, 9, 10, 11]
        );
        let s = select(t.clone().flip(&[1]), 1, idx.clone());
        assert_eq!(s.to_vec::<i32>(), vec![1, 3, 1, 5, 7, 5, 9, 11, 9]);
        let v = FlexTensor::from_vec(vec![1i32; 12], [3, 4]);
        let a = select_assign(t.clone(), 0, idx, v, IndexingUpdateOp::Add);
        assert_eq!(
            a.to_vec::<i32>(),
            vec![1, 2, 3, 4, 4, 5, 6, 7, 10, 11, 12, 13]
        );
        assert_eq!(t.to_vec::<i32>()[0], 0);
    }

    #[test]
    #[should_panic(expected = "gather: index 3 out of range 0..3 for dim 1")]
    fn out_of_range_index_panics() {
        let t = t2(vec![1.0; 6], 2);
        gather(1, t, FlexTensor::from_vec(vec![3i64], [1, 1]));
    }
}

#[cfg(test)]
mod line_tests {
    use super::*;

    /// The values of a `[d0, d1, d2]` tensor numbered by position.
    fn numbered(dims: [usize; 3]) -> FlexTensor {
        let n = dims.iter().product::<usize>();
        FlexTensor::from_vec((0..n).map(|i| i as f32).collect::<Vec<_>>(), dims)
    }

    /// Row-major position of `[i, j, k]` in `dims`.
    fn at(dims: [usize; 3], [i, j, k]: [usize; 3]) -> usize {
        (i * dims[1] + j) * dims[2] + k
    }

    #[test]
    fn select_and_gather_match_a_reference_on_every_dim_and_split() {
        // Small (one task) and large enough to be split between threads by lines.
        for dims in [[3, 5, 4], [2, 300, 1], [40, 37, 50], [600, 130, 1]] {
            let t = numbered(dims);
            for dim in 0..3 {
                let size = dims[dim];
                let picks: Vec<usize> = (0..size + 3).map(|j| (j * 7 + 2) % size).collect();
                let idx = FlexTensor::from_vec(
                    picks.iter().map(|&i| i as i64).collect::<Vec<_>>(),
                    [picks.len()],
                );
                let got = select(t.clone(), dim, idx).to_vec::<f32>();
                let mut out_dims = dims;
                out_dims[dim] = picks.len();
                let mut expected = vec![];
                for i in 0..out_dims[0] {
                    for j in 0..out_dims[1] {
                        for k in 0..out_dims[2] {
                            let mut p = [i, j, k];
                            p[dim] = picks[p[dim]];
                            expected.push(at(dims, p) as f32);
                        }
                    }
                }
                assert_eq!(got, expected, "select dims {dims:?} dim {dim}");

                // Gather with indices of the tensor's shape but 2 along `dim`, as i32.
                let mut idx_dims = dims;
                idx_dims[dim] = 2;
                let count = idx_dims.iter().product::<usize>();
                let gi: Vec<i32> = (0..count)
                    .map(|q| ((q * 13 + q / 3) % size) as i32)
                    .collect();
                let got = gather(dim, t.clone(), FlexTensor::from_vec(gi.clone(), idx_dims));
                let mut expected = vec![];
                for i in 0..idx_dims[0] {
                    for j in 0..idx_dims[1] {
                        for k in 0..idx_dims[2] {
                            let mut p = [i, j, k];
                            p[dim] = gi[at(idx_dims, [i, j, k])] as usize;
                            expected.push(at(dims, p) as f32);
                        }
                    }
                }
                assert_eq!(
                    got.to_vec::<f32>(),
                    expected,
                    "gather dims {dims:?} dim {dim}"
                );
            }
        }
    }

    #[test]
    fn select_from_a_view_copies_or_walks_it() {
        // [[0..4], [4..8], [8..12]] transposed: [4, 3].
        let t = FlexTensor::from_vec((0..12).collect::<Vec<i64>>(), [3, 4]).transpose();
        // Most of it (copied first), and one row of it (walked).
        let many = FlexTensor::from_vec(vec![3i64, 0, 3, 1], [4]);
        assert_eq!(
            select(t.clone(), 0, many).to_vec::<i64>(),
            vec![3, 7, 11, 0, 4, 8, 3, 7, 11, 1, 5, 9]
        );
        let one = FlexTensor::from_vec(vec![2i64], [1]);
        assert_eq!(select(t, 0, one).to_vec::<i64>(), vec![2, 6, 10]);
    }

    #[test]
    #[should_panic(expected = "gather: index -1 out of range 0..300 for dim 1")]
    fn gather_checks_indices_inside_a_split() {
        let t = numbered([600, 300, 1]).reshape([600, 300]);
        let mut gi = vec![5i64; 600 * 300];
        gi[170_000] = -1;
        gather(1, t, FlexTensor::from_vec(gi, [600, 300]));
    }

    #[test]
    #[should_panic(expected = "select: index 7 out of range 0..5 for dim 1")]
    fn select_checks_indices() {
        select(
            numbered([3, 5, 4]),
            1,
            FlexTensor::from_vec(vec![1i64, 7], [2]),
        );
    }
}

#[cfg(test)]
mod view_tests {
    use super::*;

    #[test]
    fn scatter_into_a_shared_transposed_tensor() {
        // [[0, 1, 2], [3, 4, 5]] transposed: [[0, 3], [1, 4], [2, 5]].
        let base = FlexTensor::from_vec((0..6).collect::<Vec<i32>>(), [2, 3]);
        let t = base.clone().transpose();
        let idx = FlexTensor::from_vec(vec![1i64, 0, 1], [3, 1]);
        let vals = FlexTensor::from_vec(vec![10i32, 20, 30], [3, 1]);
        let out = scatter(1, t, idx, vals, IndexingUpdateOp::Add);
        assert_eq!(out.to_vec::<i32>(), vec![0, 13, 21, 4, 2, 35]);
        assert_eq!(base.to_vec::<i32>(), (0..6).collect::<Vec<i32>>());
    }
}
