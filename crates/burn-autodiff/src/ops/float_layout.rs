//! Backward rules of layout and indexing ops: permute, slice, slice-assign, cat, gather,
//! scatter, select, select-add, mask-where.

use super::record::{
    AT, FT, binary_linear_op, linear_op, record_linear, record_linear2, record_many,
    reduce_to_shape, zeros,
};
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::IndexingUpdateOp;
use burn_backend::tensor::{BoolTensor, IntTensor};
use burn_backend::{Backend, Shape, Slice, TensorMetadata};

pub(crate) fn permute<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, axes: &[usize]) -> AT<B> {
    let forward = axes.to_vec();
    let mut inverse = vec![0; axes.len()];
    for (i, &axis) in axes.iter().enumerate() {
        inverse[axis] = i;
    }
    linear_op::<B, C>(
        tensor,
        move |x| B::float_permute(x, &forward),
        move |g| B::float_permute(g, &inverse),
    )
}

pub(crate) fn slice<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, slices: &[Slice]) -> AT<B> {
    let shape = tensor.shape();
    let (forward, backward) = (slices.to_vec(), slices.to_vec());
    linear_op::<B, C>(
        tensor,
        move |x| B::float_slice(x, &forward),
        move |g| B::float_slice_assign(zeros::<B>(shape, &g), &backward, g),
    )
}

pub(crate) fn slice_assign<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    slices: &[Slice],
    value: AT<B>,
) -> AT<B> {
    let value_shape = value.shape();
    let (forward, of_tensor, of_value) = (slices.to_vec(), slices.to_vec(), slices.to_vec());
    binary_linear_op::<B, C>(
        tensor,
        value,
        move |x, v| B::float_slice_assign(x, &forward, v),
        move |g| {
            let hole = zeros::<B>(value_shape, &g);
            B::float_slice_assign(g, &of_tensor, hole)
        },
        move |g| B::float_slice(g, &of_value),
    )
}

pub(crate) fn cat<B: Backend>(tensors: Vec<AT<B>>, dim: usize) -> AT<B> {
    let sizes: Vec<usize> = tensors.iter().map(|t| t.shape()[dim]).collect();
    let output = B::float_cat(tensors.iter().map(|t| t.primitive().clone()).collect(), dim);
    record_many::<B>(&tensors, output, move |parents, node, grads| {
        let Some(grad) = grads.remove::<B>(node) else {
            return;
        };
        let rank = grad.rank();
        let mut start = 0;
        for (parent, size) in parents.into_iter().zip(sizes) {
            if let Some(parent) = parent {
                let mut slices: Vec<Slice> = (0..rank).map(|_| Slice::full()).collect();
                slices[dim] = Slice::new(start as isize, Some((start + size) as isize), 1);
                grads.register::<B>(parent, B::float_slice(grad.clone(), &slices));
            }
            start += size;
        }
    })
}

/// `grad` scattered (added) into zeros of `shape` at `indices` along `dim`.
pub(super) fn scatter_into_zeros<B: Backend>(
    grad: FT<B>,
    shape: Shape,
    dim: usize,
    indices: IntTensor<B>,
) -> FT<B> {
    let base = zeros::<B>(shape, &grad);
    B::float_scatter(dim, base, indices, grad, IndexingUpdateOp::Add)
}

/// Records `output`, the values of `tensor` at `indices` along `dim` (a gather, or the values
/// picked by a max or a sort); compute-bound. The gradient is scattered back to where each
/// value came from.
pub(super) fn record_gathered<B: Backend, C: CheckpointStrategy>(
    tensor: &AT<B>,
    output: FT<B>,
    dim: usize,
    indices: IntTensor<B>,
) -> AT<B> {
    let shape = tensor.shape();
    record_linear::<B, C>(tensor, output, None, move |g| {
        scatter_into_zeros::<B>(g, shape, dim, indices)
    })
}

pub(crate) fn gather<B: Backend, C: CheckpointStrategy>(
    dim: usize,
    tensor: AT<B>,
    indices: IntTensor<B>,
) -> AT<B> {
    let output = B::float_gather(dim, tensor.primitive().clone(), indices.clone());
    record_gathered::<B, C>(&tensor, output, dim, indices)
}

pub(crate) fn scatter<B: Backend, C: CheckpointStrategy>(
    dim: usize,
    tensor: AT<B>,
    indices: IntTensor<B>,
    value: AT<B>,
    update: IndexingUpdateOp,
) -> AT<B> {
    let output = B::float_scatter(
        dim,
        tensor.primitive().clone(),
        indices.clone(),
        value.primitive().clone(),
        update,
    );
    if (tensor.is_tracked() || value.is_tracked())
        && !matches!(update, IndexingUpdateOp::Add | IndexingUpdateOp::Assign)
    {
        panic!(
            "scatter: the gradient of a scatter with {update:?} is not implemented; use Add or \
             Assign on tracked tensors, or detach them"
        );
    }
    let value_shape = value.shape();
    let indices_for_value = indices.clone();
    record_linear2::<B, C>(
        &tensor,
        &value,
        output,
        None,
        move |g| match update {
            // Overwritten positions take no gradient back to the tensor.
            IndexingUpdateOp::Assign => {
                let hole = zeros::<B>(value_shape, &g);
                B::float_scatter(dim, g, indices, hole, IndexingUpdateOp::Assign)
            }
            _ => g,
        },
        move |g| B::float_gather(dim, g, indices_for_value),
    )
}

pub(crate) fn select<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    dim: usize,
    indices: IntTensor<B>,
) -> AT<B> {
    let shape = tensor.shape();
    let output = B::float_select(tensor.primitive().clone(), dim, indices.clone());
    record_linear::<B, C>(&tensor, output, None, move |g| {
        B::float_select_add(zeros::<B>(shape, &g), dim, indices, g)
    })
}

pub(crate) fn select_add<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    dim: usize,
    indices: IntTensor<B>,
    value: AT<B>,
) -> AT<B> {
    let output = B::float_select_add(
        tensor.primitive().clone(),
        dim,
        indices.clone(),
        value.primitive().clone(),
    );
    record_linear2::<B, C>(
        &tensor,
        &value,
        output,
        None,
        |g| g,
        move |g| B::float_select(g, dim, indices),
    )
}

pub(crate) fn mask_where<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    mask: BoolTensor<B>,
    value: AT<B>,
) -> AT<B> {
    let (tensor_shape, value_shape) = (tensor.shape(), value.shape());
    let forward_mask = mask.clone();
    binary_linear_op::<B, C>(
        tensor,
        value,
        move |x, v| B::float_mask_where(x, forward_mask.clone(), v),
        {
            let mask = mask.clone();
            move |g| reduce_to_shape::<B>(B::float_mask_fill(g, mask, 0.0.into()), &tensor_shape)
        },
        move |g| {
            let kept = B::bool_not(mask);
            reduce_to_shape::<B>(B::float_mask_fill(g, kept, 0.0.into()), &value_shape)
        },
    )
}
