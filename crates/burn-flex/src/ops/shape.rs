//! Shape operations that copy: slice assignment (copy-on-write), concatenation and repetition.
//! The copy-free views (permute, slice, flip, expand, reshape…) are methods of
//! [`FlexTensor`].

use crate::tensor::iter::copy_into;
use crate::tensor::{FlexTensor, Layout};
use burn_std::Slice;

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
    let out_layout = Layout::contiguous(shape.clone());
    let outer_trivial = shape.dims[..dim].iter().all(|&d| d == 1);
    with_elem!(dtype, E => {
        if outer_trivial {
            // Each input fills one consecutive block of the output.
            let mut out = Vec::with_capacity(shape.num_elements());
            for t in &tensors {
                out.extend(t.to_vec::<E>());
            }
            return FlexTensor::from_vec(out, shape);
        }
        let mut out = vec![E::default(); shape.num_elements()];
        let mut start = 0;
        for t in &tensors {
            let size = t.shape()[dim];
            copy_into(&mut out, &out_layout.narrow(dim, start, size), t.storage::<E>(), t.layout());
            start += size;
        }
        FlexTensor::from_vec(out, shape)
    })
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
        assert_eq!(r.shape().dims, vec![4, 2]);
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
}
