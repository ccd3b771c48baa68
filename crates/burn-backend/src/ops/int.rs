//! Operations on int tensors.

use super::defaults;
use crate::tensor::{BoolTensor, Device, FloatTensor, IntTensor};
use crate::{Backend, TensorMetadata};
use burn_std::{
    Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape, Slice,
    TensorData,
};
use core::future::Future;
use core::ops::Range;

/// Operations on int tensors. Semantics follow the public `Tensor` methods of the same name;
/// arithmetic wraps on overflow, division truncates toward zero.
pub trait IntTensorOps<B: Backend> {
    // ---- creation and transfer --------------------------------------------------------------

    /// A tensor holding `data`.
    fn int_from_data(data: TensorData, device: &Device<B>) -> IntTensor<B>;
    /// A tensor of values sampled from `distribution` (truncated toward zero).
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<B>,
        dtype: IntDType,
    ) -> IntTensor<B>;
    /// A tensor with unspecified values.
    fn int_empty(shape: Shape, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
    /// Reads the values back to the host.
    fn int_into_data(
        tensor: IntTensor<B>,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send;
    /// The device the tensor lives on.
    fn int_device(tensor: &IntTensor<B>) -> Device<B>;
    /// The tensor moved to `device`.
    fn int_to_device(tensor: IntTensor<B>, device: &Device<B>) -> IntTensor<B>;
    /// The values as floats of `out_dtype`.
    fn int_into_float(tensor: IntTensor<B>, out_dtype: FloatDType) -> FloatTensor<B>;
    /// The values converted to another int dtype (`as` semantics).
    fn int_cast(tensor: IntTensor<B>, dtype: IntDType) -> IntTensor<B>;

    // ---- arithmetic (broadcasting) ----------------------------------------------------------

    /// `lhs + rhs`.
    fn int_add(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs + rhs` for a scalar.
    fn int_add_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs - rhs`.
    fn int_sub(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs - rhs` for a scalar.
    fn int_sub_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs * rhs`.
    fn int_mul(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs * rhs` for a scalar.
    fn int_mul_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs / rhs`, truncating toward zero.
    fn int_div(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs / rhs` for a scalar, truncating toward zero.
    fn int_div_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// The remainder with the sign of the divisor.
    fn int_remainder(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// The remainder by a scalar, with the sign of the divisor.
    fn int_remainder_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs ^ rhs` element-wise (negative exponents give 0 unless the base is ±1).
    fn int_powi(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Batched matrix product over the last two dims.
    fn int_matmul(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// Absolute value.
    fn int_abs(tensor: IntTensor<B>) -> IntTensor<B>;

    // ---- bitwise ----------------------------------------------------------------------------

    /// `lhs & rhs`.
    fn bitwise_and(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs & rhs` for a scalar.
    fn bitwise_and_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs | rhs`.
    fn bitwise_or(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs | rhs` for a scalar.
    fn bitwise_or_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs ^ rhs`.
    fn bitwise_xor(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs ^ rhs` for a scalar.
    fn bitwise_xor_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `!x`.
    fn bitwise_not(tensor: IntTensor<B>) -> IntTensor<B>;
    /// `lhs << rhs`.
    fn bitwise_left_shift(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs << rhs` for a scalar.
    fn bitwise_left_shift_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
    /// `lhs >> rhs`.
    fn bitwise_right_shift(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
    /// `lhs >> rhs` for a scalar.
    fn bitwise_right_shift_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;

    // ---- layout -----------------------------------------------------------------------------

    /// Exchanges two dims.
    fn int_swap_dims(tensor: IntTensor<B>, dim1: usize, dim2: usize) -> IntTensor<B>;
    /// Reorders the dims.
    fn int_permute(tensor: IntTensor<B>, axes: &[usize]) -> IntTensor<B>;
    /// Reverses the order along each of `axes`.
    fn int_flip(tensor: IntTensor<B>, axes: &[usize]) -> IntTensor<B>;
    /// Another shape of as many elements.
    fn int_reshape(tensor: IntTensor<B>, shape: Shape) -> IntTensor<B>;
    /// Broadcasts to `shape`.
    fn int_expand(tensor: IntTensor<B>, shape: Shape) -> IntTensor<B>;
    /// The sub-tensor selected by `slices`.
    fn int_slice(tensor: IntTensor<B>, slices: &[Slice]) -> IntTensor<B>;
    /// The tensor with the sub-tensor at `slices` replaced by `value`.
    fn int_slice_assign(
        tensor: IntTensor<B>,
        slices: &[Slice],
        value: IntTensor<B>,
    ) -> IntTensor<B>;

    // ---- indexing ---------------------------------------------------------------------------

    /// Gathers along `dim` (see `float_gather`).
    fn int_gather(dim: usize, tensor: IntTensor<B>, indices: IntTensor<B>) -> IntTensor<B>;
    /// Scatters along `dim` with `update`.
    fn int_scatter(
        dim: usize,
        tensor: IntTensor<B>,
        indices: IntTensor<B>,
        value: IntTensor<B>,
        update: IndexingUpdateOp,
    ) -> IntTensor<B>;
    /// The slices at `indices` along `dim`.
    fn int_select(tensor: IntTensor<B>, dim: usize, indices: IntTensor<B>) -> IntTensor<B>;
    /// Adds the slices of `value` at `indices` along `dim`.
    fn int_select_add(
        tensor: IntTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
        value: IntTensor<B>,
    ) -> IntTensor<B>;
    /// `value` where `mask` is true, else `tensor`.
    fn int_mask_where(
        tensor: IntTensor<B>,
        mask: BoolTensor<B>,
        value: IntTensor<B>,
    ) -> IntTensor<B>;
    /// `value` where `mask` is true, else `tensor`.
    fn int_mask_fill(tensor: IntTensor<B>, mask: BoolTensor<B>, value: Scalar) -> IntTensor<B>;

    // ---- comparison -------------------------------------------------------------------------

    /// `lhs == rhs`.
    fn int_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs == rhs` for a scalar.
    fn int_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs > rhs`.
    fn int_greater(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs > rhs` for a scalar.
    fn int_greater_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs >= rhs`.
    fn int_greater_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs >= rhs` for a scalar.
    fn int_greater_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs < rhs`.
    fn int_lower(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs < rhs` for a scalar.
    fn int_lower_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs <= rhs`.
    fn int_lower_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
    /// `lhs <= rhs` for a scalar.
    fn int_lower_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;

    // ---- reductions and scans ---------------------------------------------------------------

    /// The sum of all elements, shape `[1]`.
    fn int_sum(tensor: IntTensor<B>) -> IntTensor<B>;
    /// The sum along `dim`, kept with size 1.
    fn int_sum_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// The product along `dim`, kept with size 1.
    fn int_prod_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// The mean along `dim` (truncated), kept with size 1.
    fn int_mean_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// The index of the largest value along `dim`, kept with size 1.
    fn int_argmax(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// The index of the smallest value along `dim`, kept with size 1.
    fn int_argmin(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running sum along `dim`.
    fn int_cumsum(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running product along `dim`.
    fn int_cumprod(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running minimum along `dim`.
    fn int_cummin(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running maximum along `dim`.
    fn int_cummax(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;

    // ---- defaults ---------------------------------------------------------------------------

    /// Zeros.
    fn int_zeros(shape: Shape, device: &Device<B>, dtype: IntDType) -> IntTensor<B> {
        B::int_full(shape, 0.into(), device, dtype)
    }
    /// Ones.
    fn int_ones(shape: Shape, device: &Device<B>, dtype: IntDType) -> IntTensor<B> {
        B::int_full(shape, 1.into(), device, dtype)
    }
    /// Every element `value`.
    fn int_full(shape: Shape, value: Scalar, device: &Device<B>, dtype: IntDType) -> IntTensor<B> {
        B::int_from_data(TensorData::full_dtype(shape, value, dtype.into()), device)
    }
    /// `start, start + step, …` below `range.end` (1-D).
    fn int_arange_step(
        range: Range<i64>,
        step: usize,
        device: &Device<B>,
        dtype: IntDType,
    ) -> IntTensor<B> {
        let values: Vec<i64> = range.step_by(step).collect();
        let data = TensorData::from(values).convert_dtype(dtype.into());
        B::int_from_data(data, device)
    }
    /// `start, start + 1, …` below `range.end` (1-D).
    fn int_arange(range: Range<i64>, device: &Device<B>, dtype: IntDType) -> IntTensor<B> {
        B::int_arange_step(range, 1, device, dtype)
    }
    /// `-x`.
    fn int_neg(tensor: IntTensor<B>) -> IntTensor<B> {
        B::int_mul_scalar(tensor, (-1).into())
    }
    /// `x ^ n` for a scalar exponent.
    fn int_powi_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B> {
        let device = B::int_device(&lhs);
        let dtype = IntDType::from_dtype(lhs.dtype());
        let exponent = B::int_full(Shape::new([1]), rhs, &device, dtype);
        B::int_powi(lhs, exponent)
    }
    /// -1, 0 or 1 by the sign.
    fn int_sign(tensor: IntTensor<B>) -> IntTensor<B> {
        let dtype = IntDType::from_dtype(tensor.dtype());
        let positive = B::bool_into_int(B::int_greater_elem(tensor.clone(), 0.into()), dtype);
        let negative = B::bool_into_int(B::int_lower_elem(tensor, 0.into()), dtype);
        B::int_sub(positive, negative)
    }
    /// Values below `min` raised to `min`.
    fn int_clamp_min(tensor: IntTensor<B>, min: Scalar) -> IntTensor<B> {
        let mask = B::int_lower_elem(tensor.clone(), min);
        B::int_mask_fill(tensor, mask, min)
    }
    /// Values above `max` lowered to `max`.
    fn int_clamp_max(tensor: IntTensor<B>, max: Scalar) -> IntTensor<B> {
        let mask = B::int_greater_elem(tensor.clone(), max);
        B::int_mask_fill(tensor, mask, max)
    }
    /// Values clamped to `[min, max]`.
    fn int_clamp(tensor: IntTensor<B>, min: Scalar, max: Scalar) -> IntTensor<B> {
        B::int_clamp_max(B::int_clamp_min(tensor, min), max)
    }
    /// `lhs != rhs`.
    fn int_not_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::int_equal(lhs, rhs))
    }
    /// `lhs != rhs` for a scalar.
    fn int_not_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B> {
        B::bool_not(B::int_equal_elem(lhs, rhs))
    }
    /// Swaps the last two dims.
    fn int_transpose(tensor: IntTensor<B>) -> IntTensor<B> {
        let rank = tensor.rank();
        if rank < 2 {
            return tensor;
        }
        B::int_swap_dims(tensor, rank - 2, rank - 1)
    }
    /// Concatenates along `dim`.
    fn int_cat(tensors: Vec<IntTensor<B>>, dim: usize) -> IntTensor<B> {
        let first = &tensors[0];
        let (device, dtype) = (B::int_device(first), IntDType::from_dtype(first.dtype()));
        defaults::cat_with_slice_assign(
            tensors,
            dim,
            |shape| B::int_empty(shape, &device, dtype),
            B::int_slice_assign,
        )
    }
    /// Repeats the tensor `times` times along `dim`.
    fn int_repeat_dim(tensor: IntTensor<B>, dim: usize, times: usize) -> IntTensor<B> {
        B::int_cat(vec![tensor; times], dim)
    }
    /// The mean of all elements (truncated), shape `[1]`.
    fn int_mean(tensor: IntTensor<B>) -> IntTensor<B> {
        // Sum in i64 so that narrow types neither wrap nor divide by a wrapped count.
        let count = tensor.shape().num_elements();
        let dtype = IntDType::from_dtype(tensor.dtype());
        let wide = B::int_cast(tensor, IntDType::I64);
        let mean = B::int_div_scalar(B::int_sum(wide), (count as i64).into());
        B::int_cast(mean, dtype)
    }
    /// The product of all elements, shape `[1]`.
    fn int_prod(tensor: IntTensor<B>) -> IntTensor<B> {
        let count = tensor.shape().num_elements();
        B::int_prod_dim(B::int_reshape(tensor, Shape::new([count])), 0)
    }
    /// The largest value along `dim`, kept with size 1.
    fn int_max_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B> {
        B::int_max_dim_with_indices(tensor, dim).0
    }
    /// The smallest value along `dim`, kept with size 1.
    fn int_min_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B> {
        B::int_min_dim_with_indices(tensor, dim).0
    }
    /// The largest value along `dim` and its index.
    fn int_max_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>) {
        let indices = B::int_argmax(tensor.clone(), dim);
        (B::int_gather(dim, tensor, indices.clone()), indices)
    }
    /// The smallest value along `dim` and its index.
    fn int_min_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>) {
        let indices = B::int_argmin(tensor.clone(), dim);
        (B::int_gather(dim, tensor, indices.clone()), indices)
    }
    /// The largest value, shape `[1]`.
    fn int_max(tensor: IntTensor<B>) -> IntTensor<B> {
        let count = tensor.shape().num_elements();
        B::int_max_dim(B::int_reshape(tensor, Shape::new([count])), 0)
    }
    /// The smallest value, shape `[1]`.
    fn int_min(tensor: IntTensor<B>) -> IntTensor<B> {
        let count = tensor.shape().num_elements();
        B::int_min_dim(B::int_reshape(tensor, Shape::new([count])), 0)
    }
    /// The largest absolute value, shape `[1]`.
    fn int_max_abs(tensor: IntTensor<B>) -> IntTensor<B> {
        B::int_max(B::int_abs(tensor))
    }
    /// The largest absolute value along `dim`, kept with size 1.
    fn int_max_abs_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B> {
        B::int_max_dim(B::int_abs(tensor), dim)
    }
    /// Whether any element is non-zero, shape `[1]`.
    fn int_any(tensor: IntTensor<B>) -> BoolTensor<B> {
        B::bool_any(B::int_not_equal_elem(tensor, 0.into()))
    }
    /// Whether any element along `dim` is non-zero, kept with size 1.
    fn int_any_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_any_dim(B::int_not_equal_elem(tensor, 0.into()), dim)
    }
    /// Whether every element is non-zero, shape `[1]`.
    fn int_all(tensor: IntTensor<B>) -> BoolTensor<B> {
        B::bool_all(B::int_not_equal_elem(tensor, 0.into()))
    }
    /// Whether every element along `dim` is non-zero, kept with size 1.
    fn int_all_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_all_dim(B::int_not_equal_elem(tensor, 0.into()), dim)
    }
    /// Sorted along `dim` (stable).
    fn int_sort(tensor: IntTensor<B>, dim: usize, descending: bool) -> IntTensor<B> {
        B::int_sort_with_indices(tensor, dim, descending).0
    }
    /// Sorted along `dim` and the indices that sort it.
    fn int_sort_with_indices(
        tensor: IntTensor<B>,
        dim: usize,
        descending: bool,
    ) -> (IntTensor<B>, IntTensor<B>) {
        let indices = B::int_argsort(tensor.clone(), dim, descending);
        (B::int_gather(dim, tensor, indices.clone()), indices)
    }
    /// The `k` largest values along `dim`, largest first (ties in index order), and their
    /// indices: the first `k` of a descending stable sort.
    fn int_topk_with_indices(
        tensor: IntTensor<B>,
        k: usize,
        dim: usize,
    ) -> (IntTensor<B>, IntTensor<B>) {
        let (values, indices) = B::int_sort_with_indices(tensor, dim, true);
        let slices = defaults::first_along(dim, k, &values.shape());
        (
            B::int_slice(values, &slices),
            B::int_slice(indices, &slices),
        )
    }
    /// The indices that sort the tensor along `dim`.
    fn int_argsort(tensor: IntTensor<B>, dim: usize, descending: bool) -> IntTensor<B> {
        let device = B::int_device(&tensor);
        let dtype = crate::get_device_settings::<B>(&device).int_dtype;
        let data = crate::read_sync(B::int_into_data(tensor))
            .unwrap_or_else(|e| panic!("int_argsort: reading the tensor failed: {e}"));
        let indices = defaults::argsort_host(&data, dim, descending).convert_dtype(dtype.into());
        B::int_from_data(indices, &device)
    }
}
