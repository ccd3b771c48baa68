//! Backward rules of matmul, reductions, scans and sorting.

use super::backward::{binary, saved};
use super::float_layout::{record_gathered, scatter_into_zeros};
use super::record::{AT, FT, Layout, linear_op, record, unary_op};
use crate::checkpoint::Saved;
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::tensor::IntTensor;
use burn_backend::{Backend, FloatDType, Shape, Slice, TensorMetadata, get_device_settings};

/// `grad` (the gradient of a reduction keeping `dim`, or of a full reduction of shape `[1]`)
/// broadcast back to `shape`.
fn broadcast_back<B: Backend>(grad: FT<B>, shape: &Shape) -> FT<B> {
    let grad = if grad.rank() != shape.num_dims() {
        B::float_reshape(grad, Shape::from(vec![1; shape.num_dims()]))
    } else {
        grad
    };
    B::float_expand(grad, shape.clone())
}

pub(crate) fn matmul<B: Backend, C: CheckpointStrategy>(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
    let (lhs_layout, rhs_layout) = (Layout::of(&lhs), Layout::of(&rhs));
    let output = B::float_matmul(lhs.primitive().clone(), rhs.primitive().clone());
    // Each input's gradient needs the other input only: keep just what will be used.
    let (need_lhs, need_rhs) = (rhs.is_tracked(), lhs.is_tracked());
    record::<B, C, (Option<Saved<B>>, Option<Saved<B>>), 2>(
        [&lhs, &rhs],
        output,
        None,
        || {
            (
                need_lhs.then(|| saved::<B, C>(&lhs)),
                need_rhs.then(|| saved::<B, C>(&rhs)),
            )
        },
        move |ops, grads, checkpointer| {
            let (l, r) = ops.state;
            let l = l.map(|s| checkpointer.retrieve(s));
            let r = r.map(|s| checkpointer.retrieve(s));
            binary::<B>(
                ops.parents,
                ops.node,
                grads,
                |g| {
                    let r = r.expect("the rhs is kept when the lhs is tracked");
                    let grad = B::float_matmul(g, B::float_transpose(r));
                    lhs_layout.fit::<B>(grad)
                },
                |g| {
                    let l = l.expect("the lhs is kept when the rhs is tracked");
                    let grad = B::float_matmul(B::float_transpose(l), g);
                    rhs_layout.fit::<B>(grad)
                },
            )
        },
    )
}

pub(crate) fn sum<B: Backend, C: CheckpointStrategy>(tensor: AT<B>) -> AT<B> {
    let shape = tensor.shape();
    linear_op::<B, C>(tensor, B::float_sum, move |g| {
        broadcast_back::<B>(g, &shape)
    })
}

pub(crate) fn sum_dim<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, dim: usize) -> AT<B> {
    let shape = tensor.shape();
    linear_op::<B, C>(
        tensor,
        move |x| B::float_sum_dim(x, dim),
        move |g| broadcast_back::<B>(g, &shape),
    )
}

pub(crate) fn mean<B: Backend, C: CheckpointStrategy>(tensor: AT<B>) -> AT<B> {
    let shape = tensor.shape();
    let count = shape.num_elements() as f64;
    linear_op::<B, C>(tensor, B::float_mean, move |g| {
        broadcast_back::<B>(B::float_div_scalar(g, count.into()), &shape)
    })
}

pub(crate) fn mean_dim<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, dim: usize) -> AT<B> {
    let shape = tensor.shape();
    let count = shape[dim] as f64;
    linear_op::<B, C>(
        tensor,
        move |x| B::float_mean_dim(x, dim),
        move |g| broadcast_back::<B>(B::float_div_scalar(g, count.into()), &shape),
    )
}

/// `[1, x0, x0 x1, …]` along `dim`: the product of the elements before each position.
fn exclusive_cumprod<B: Backend>(x: FT<B>, dim: usize) -> FT<B> {
    let shape = x.shape();
    let size = shape[dim];
    let mut head_shape = shape.clone();
    head_shape[dim] = 1;
    let head = B::float_ones(
        head_shape,
        &B::float_device(&x),
        FloatDType::from_dtype(x.dtype()),
    );
    if size == 1 {
        return head;
    }
    let mut slices: Vec<Slice> = (0..shape.num_dims()).map(|_| Slice::full()).collect();
    slices[dim] = Slice::new(0, Some(size as isize - 1), 1);
    let body = B::float_slice(B::float_cumprod(x, dim), &slices);
    B::float_cat(vec![head, body], dim)
}

pub(crate) fn prod_dim<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, dim: usize) -> AT<B> {
    // d/dx_i prod_j x_j = prod_{j<i} x_j * prod_{j>i} x_j: exact with zeros too.
    let shape = tensor.shape();
    unary_op::<B, C>(
        tensor,
        move |x| B::float_prod_dim(x, dim),
        move |x, g| {
            let before = exclusive_cumprod::<B>(x.clone(), dim);
            let after = B::float_flip(
                exclusive_cumprod::<B>(B::float_flip(x, &[dim]), dim),
                &[dim],
            );
            let others = B::float_mul(before, after);
            B::float_mul(broadcast_back::<B>(g, &shape), others)
        },
    )
}

pub(crate) fn max_dim_with_indices<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    dim: usize,
    max: bool,
) -> (AT<B>, IntTensor<B>) {
    let (output, indices) = if max {
        B::float_max_dim_with_indices(tensor.primitive().clone(), dim)
    } else {
        B::float_min_dim_with_indices(tensor.primitive().clone(), dim)
    };
    let result = record_gathered::<B, C>(&tensor, output, dim, indices.clone());
    (result, indices)
}

pub(crate) fn cumsum<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, dim: usize) -> AT<B> {
    linear_op::<B, C>(
        tensor,
        move |x| B::float_cumsum(x, dim),
        move |g| B::float_flip(B::float_cumsum(B::float_flip(g, &[dim]), dim), &[dim]),
    )
}

pub(crate) fn cumprod<B: Backend, C: CheckpointStrategy>(tensor: AT<B>, dim: usize) -> AT<B> {
    unary_op::<B, C>(
        tensor,
        move |x| B::float_cumprod(x, dim),
        move |x, g| cumprod_backward::<B>(x, g, dim),
    )
}

/// `dx_i = sum_{k >= i} g_k * prod_{j <= k, j != i} x_j`, exact with zeros, in O(n): let `z`
/// be the first zero of the slice. Before it, `dx_i = (sum_{k >= i} g_k y_k) / x_i` (no
/// division by zero there); at it, the same sum over the products with `x_z` taken as 1;
/// after it, every product holds `x_z = 0`.
fn cumprod_backward<B: Backend>(x: FT<B>, g: FT<B>, dim: usize) -> FT<B> {
    let dtype = FloatDType::from_dtype(x.dtype());
    let suffix_sum =
        |t: FT<B>| B::float_flip(B::float_cumsum(B::float_flip(t, &[dim]), dim), &[dim]);
    let is_zero = B::float_equal_elem(x.clone(), 0.0.into());
    let zeros_so_far = B::float_cumsum(B::bool_into_float(is_zero.clone(), dtype), dim);
    let before_first_zero = B::float_equal_elem(zeros_so_far.clone(), 0.0.into());
    let at_first_zero = B::bool_and(is_zero, B::float_equal_elem(zeros_so_far, 1.0.into()));

    let y = B::float_cumprod(x.clone(), dim);
    let safe_x = B::float_mask_fill(
        x.clone(),
        B::bool_not(before_first_zero.clone()),
        1.0.into(),
    );
    let before = B::float_div(suffix_sum(B::float_mul(g.clone(), y)), safe_x);

    let x_without_zero = B::float_mask_fill(x, at_first_zero.clone(), 1.0.into());
    let y_without_zero = B::float_cumprod(x_without_zero, dim);
    let at = suffix_sum(B::float_mul(g, y_without_zero));

    let after = B::float_mask_fill(at, B::bool_not(at_first_zero), 0.0.into());
    B::float_mask_where(after, before_first_zero, before)
}

pub(crate) fn cumulative_extremum<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    dim: usize,
    max: bool,
) -> AT<B> {
    // Each output takes the gradient to the latest position that set the running extremum
    // (ties go to the later index, as in PyTorch).
    let shape = tensor.shape();
    let forward = move |x: FT<B>| {
        if max {
            B::float_cummax(x, dim)
        } else {
            B::float_cummin(x, dim)
        }
    };
    unary_op::<B, C>(tensor, forward, move |x, g| {
        let out = forward(x.clone());
        let device = B::float_device(&x);
        let int_dtype = get_device_settings::<B>(&device).int_dtype;
        let mut line = vec![1; shape.num_dims()];
        line[dim] = shape[dim];
        let positions = B::int_expand(
            B::int_reshape(
                B::int_arange(0..shape[dim] as i64, &device, int_dtype),
                Shape::from(line),
            ),
            shape.clone(),
        );
        // Positions (exact in the int dtype) where the running extremum was set.
        let is_record = B::float_equal(x, out);
        let none = B::int_zeros(shape.clone(), &device, int_dtype);
        let record_positions = B::int_mask_where(none, is_record, positions);
        let source = B::int_cummax(record_positions, dim);
        scatter_into_zeros::<B>(g, shape, dim, source)
    })
}

pub(crate) fn sort_with_indices<B: Backend, C: CheckpointStrategy>(
    tensor: AT<B>,
    dim: usize,
    descending: bool,
) -> (AT<B>, IntTensor<B>) {
    let (output, indices) = B::float_sort_with_indices(tensor.primitive().clone(), dim, descending);
    let result = record_gathered::<B, C>(&tensor, output, dim, indices.clone());
    (result, indices)
}
