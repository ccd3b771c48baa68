//! Shape operations that copy: slice assignment (copy-on-write), concatenation and repetition.
//! The copy-free views (permute, slice, flip, expand, reshape…) are methods of
//! [`FlexTensor`].

use super::map::PAR_THRESHOLD;
use crate::parallel;
use crate::tensor::iter::copy_into;
use crate::tensor::{FlexTensor, Layout, Storable, pool};
use burn_std::{Shape, Slice};
use std::borrow::Cow;

/// `tensor` with the region selected by `slices` (one per leading dim, steps allowed)
/// replaced by `values`, whose shape must be the region's.
pub fn slice_assign(tensor: FlexTensor, slices: &[Slice], values: FlexTensor) -> FlexTensor {
    assert_eq!(
        tensor.dtype(),
        values.dtype(),
        "slice_assign: values dtype {} differs from tensor dtype {}",
        values.dtype(),
        tensor.dtype()
    );
    let mut out = tensor.into_mut();
    let region = Layout::contiguous(out.shape().clone()).slice(slices);
    assert_eq!(
        region.shape(),
        values.shape(),
        "slice_assign: values of shape {:?} do not match the sliced region of shape {:?}",
        values.shape(),
        region.shape()
    );
    with_elem!(out.dtype(), E => {
        let src = values.storage::<E>();
        let dst = out.data_mut::<E>().expect("a unique contiguous tensor");
        copy_into(dst, &region, src, values.layout());
    });
    out
}

/// The tensors joined along `dim`; all must share dtype, rank and the sizes of other dims.
pub fn cat(tensors: Vec<FlexTensor>, dim: usize) -> FlexTensor {
    let first = tensors
        .first()
        .expect("cat: expected at least one tensor, got none");
    let rank = first.rank();
    assert!(
        dim < rank,
        "cat: dim {dim} out of range for tensors of rank {rank}"
    );
    let dtype = first.dtype();
    let mut shape = first.shape().clone();
    shape[dim] = 0;
    for t in &tensors {
        let compatible =
            t.rank() == rank && (0..rank).all(|d| d == dim || t.shape()[d] == first.shape()[d]);
        assert!(
            compatible,
            "cat: shape {:?} does not match {:?} outside dim {dim}",
            t.shape(),
            first.shape()
        );
        assert_eq!(
            t.dtype(),
            dtype,
            "cat: dtypes differ ({} and {dtype})",
            t.dtype()
        );
        shape[dim] += t.shape()[dim];
    }
    with_elem!(dtype, E => FlexTensor::from_vec(join::<E>(&tensors, dim, &shape), shape))
}

/// The values of [`cat`]'s output: seen as `[outer, row]` rows, output row `o` is the inputs'
/// rows `o` one after the other (each input's row is `size · inner` values of its row-major
/// values). The output is cut into equal pieces filled in parallel, each piece copying the runs
/// of the input rows it overlaps.
fn join<E: Storable>(tensors: &[FlexTensor], dim: usize, shape: &Shape) -> Vec<E> {
    let n = shape.num_elements();
    let mut out = pool::for_overwrite::<E>(n);
    if n == 0 {
        return out;
    }
    let parts: Vec<Cow<'_, [E]>> = tensors.iter().map(|t| t.values::<E>()).collect();
    let inner: usize = shape.dims[dim + 1..].iter().product();
    let runs: Vec<usize> = tensors.iter().map(|t| t.shape()[dim] * inner).collect();
    let row: usize = runs.iter().sum();
    let fill = |first: usize, dst: &mut [E]| {
        // The output position `first` is run `t` of row `o`, `r` values in.
        let (mut o, mut r, mut t) = (first / row, first % row, 0);
        while r >= runs[t] {
            r -= runs[t];
            t += 1;
        }
        let mut done = 0;
        while done < dst.len() {
            let take = (runs[t] - r).min(dst.len() - done);
            dst[done..done + take].copy_from_slice(&parts[t][o * runs[t] + r..][..take]);
            done += take;
            r += take;
            while r == runs[t] && done < dst.len() {
                r = 0;
                t += 1;
                if t == runs.len() {
                    t = 0;
                    o += 1;
                }
            }
        }
    };
    if n >= PAR_THRESHOLD && parallel::threads() > 1 {
        let chunk = n.div_ceil(parallel::threads() * 4);
        parallel::for_each_chunk_mut(&mut out, chunk, |i, dst| fill(i * chunk, dst));
    } else {
        fill(0, &mut out);
    }
    out
}

/// The tensor repeated `times` times along `dim` (`[a, b]` → `[a, b, a, b, …]`).
pub fn repeat_dim(tensor: FlexTensor, dim: usize, times: usize) -> FlexTensor {
    assert!(
        dim < tensor.rank(),
        "repeat_dim: dim {dim} out of range for a tensor of rank {}",
        tensor.rank()
    );
    let mut out_shape = tensor.shape().clone();
    out_shape[dim] *= times;
    let mut expanded = tensor.shape().clone();
    expanded.dims.insert(dim, times);
    tensor
        .unsqueeze(dim)
        .expand(expanded)
        .to_contiguous()
        .reshape(out_shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slice_assign_with_steps_is_copy_on_write() {
        let t = FlexTensor::from_vec((0..12).collect::<Vec<i64>>(), [3, 4]);
        let kept = t.clone();
        let values = FlexTensor::from_vec(vec![-1i64, -2, -3, -4], [2, 2]);
        let out = slice_assign(
            t,
            &[Slice::new(0, None, 2), Slice::new(0, None, -2)],
            values,
        );
        // Rows 0 and 2; columns 3 then 1.
        assert_eq!(
            out.to_vec::<i64>(),
            vec![0, -2, 2, -1, 4, 5, 6, 7, 8, -4, 10, -3]
        );
        assert_eq!(kept.to_vec::<i64>(), (0..12).collect::<Vec<i64>>());
    }

    #[test]
    fn cat_and_repeat() {
        let a = FlexTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]);
        let b = FlexTensor::from_vec(vec![5.0f32, 6.0], [2, 1]);
        let c = cat(vec![a.clone(), b.clone()], 1);
        assert_eq!(c.to_vec::<f32>(), vec![1.0, 2.0, 5.0, 3.0, 4.0, 6.0]);
        let c = cat(vec![a.clone().transpose(), b.transpose()], 0);
        assert_eq!(c.to_vec::<f32>(), vec![1.0, 3.0, 2.0, 4.0, 5.0, 6.0]);
        let r = repeat_dim(a.clone(), 0, 2);
        assert_eq!(r.shape().dims.to_vec(), vec![4, 2]);
        assert_eq!(
            r.to_vec::<f32>(),
            vec![1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]
        );
        let r = repeat_dim(a, 1, 2);
        assert_eq!(
            r.to_vec::<f32>(),
            vec![1.0, 2.0, 1.0, 2.0, 3.0, 4.0, 3.0, 4.0]
        );
    }

    #[test]
    fn large_cat_of_mixed_inputs_matches_the_index_formula() {
        // Three inputs along each dim of [8, s, 97]: one empty, one a transposed view; large
        // enough to be split between threads with pieces starting mid-run.
        let sizes = [40, 0, 57];
        for dim in 0..3 {
            let shape_of = |s: usize| {
                let mut d = [8, 30, 97];
                d[dim] = s;
                d
            };
            let inputs: Vec<FlexTensor> = sizes
                .iter()
                .enumerate()
                .map(|(k, &s)| {
                    let d = shape_of(s);
                    let n: usize = d.iter().product();
                    let values: Vec<i64> = (0..n as i64).map(|v| v * 10 + k as i64).collect();
                    if k == 2 {
                        // The same values, stored transposed and seen back through a transpose.
                        let t = FlexTensor::from_vec(values, d).swap_dims(0, 2);
                        t.to_contiguous().swap_dims(0, 2)
                    } else {
                        FlexTensor::from_vec(values, d)
                    }
                })
                .collect();
            assert!(!inputs[2].layout().is_contiguous());
            let out = cat(inputs, dim);
            let total: usize = sizes.iter().sum();
            let od = shape_of(total);
            assert_eq!(out.shape().to_vec(), od.to_vec());
            let got = out.to_vec::<i64>();
            for (pos, &v) in got.iter().enumerate() {
                let idx = [pos / (od[1] * od[2]), pos / od[2] % od[1], pos % od[2]];
                // Which input and where in it.
                let (mut i, mut k) = (idx[dim], 0);
                while i >= sizes[k] {
                    i -= sizes[k];
                    k += 1;
                }
                let mut local = idx;
                local[dim] = i;
                let d = shape_of(sizes[k]);
                let flat = (local[0] * d[1] + local[1]) * d[2] + local[2];
                assert_eq!(v, flat as i64 * 10 + k as i64, "dim {dim}, position {pos}");
            }
        }
    }
}
