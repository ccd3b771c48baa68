//! `IntTensorOps` for `Autodiff<B, C>`: int tensors are `B`'s own, so every op runs on `B`.

use crate::checkpoint::strategy::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};
use burn_backend::ops::IntTensorOps;
use burn_backend::tensor::{BoolTensor, Device, FloatTensor, IntTensor};
use burn_backend::{
    Backend, Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape,
    Slice, TensorData,
};
use core::ops::Range;

impl<B: Backend, C: CheckpointStrategy> IntTensorOps<Self> for Autodiff<B, C> {
    async fn int_into_data(tensor: IntTensor<B>) -> Result<TensorData, ExecutionError> {
        B::int_into_data(tensor).await
    }

    /// The result is an untracked constant: ints carry no gradient.
    fn int_into_float(tensor: IntTensor<B>, out_dtype: FloatDType) -> FloatTensor<Self> {
        AutodiffTensor::new(B::int_into_float(tensor, out_dtype))
    }

    delegate! {
        to B;

        // ---- creation and transfer ----
        fn int_from_data(data: TensorData, device: &Device<B>) -> IntTensor<B>;
        fn int_random(shape: Shape, distribution: Distribution, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_empty(shape: Shape, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_device(tensor: &IntTensor<B>) -> Device<B>;
        fn int_to_device(tensor: IntTensor<B>, device: &Device<B>) -> IntTensor<B>;
        fn int_cast(tensor: IntTensor<B>, dtype: IntDType) -> IntTensor<B>;

        // ---- arithmetic ----
        fn int_add(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_add_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn int_sub(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_sub_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn int_mul(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_mul_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn int_div(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_div_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn int_remainder(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_remainder_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn int_powi(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_matmul(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn int_abs(tensor: IntTensor<B>) -> IntTensor<B>;

        // ---- bitwise ----
        fn bitwise_and(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn bitwise_and_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn bitwise_or(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn bitwise_or_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn bitwise_xor(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn bitwise_xor_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn bitwise_not(tensor: IntTensor<B>) -> IntTensor<B>;
        fn bitwise_left_shift(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn bitwise_left_shift_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn bitwise_right_shift(lhs: IntTensor<B>, rhs: IntTensor<B>) -> IntTensor<B>;
        fn bitwise_right_shift_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;

        // ---- layout ----
        fn int_swap_dims(tensor: IntTensor<B>, dim1: usize, dim2: usize) -> IntTensor<B>;
        fn int_permute(tensor: IntTensor<B>, axes: &[usize]) -> IntTensor<B>;
        fn int_flip(tensor: IntTensor<B>, axes: &[usize]) -> IntTensor<B>;
        fn int_reshape(tensor: IntTensor<B>, shape: Shape) -> IntTensor<B>;
        fn int_expand(tensor: IntTensor<B>, shape: Shape) -> IntTensor<B>;
        fn int_slice(tensor: IntTensor<B>, slices: &[Slice]) -> IntTensor<B>;
        fn int_slice_assign(tensor: IntTensor<B>, slices: &[Slice], value: IntTensor<B>) -> IntTensor<B>;

        // ---- indexing ----
        fn int_gather(dim: usize, tensor: IntTensor<B>, indices: IntTensor<B>) -> IntTensor<B>;
        fn int_scatter(dim: usize, tensor: IntTensor<B>, indices: IntTensor<B>, value: IntTensor<B>, update: IndexingUpdateOp) -> IntTensor<B>;
        fn int_select(tensor: IntTensor<B>, dim: usize, indices: IntTensor<B>) -> IntTensor<B>;
        fn int_select_add(tensor: IntTensor<B>, dim: usize, indices: IntTensor<B>, value: IntTensor<B>) -> IntTensor<B>;
        fn int_mask_where(tensor: IntTensor<B>, mask: BoolTensor<B>, value: IntTensor<B>) -> IntTensor<B>;
        fn int_mask_fill(tensor: IntTensor<B>, mask: BoolTensor<B>, value: Scalar) -> IntTensor<B>;

        // ---- comparison ----
        fn int_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
        fn int_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn int_greater(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
        fn int_greater_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn int_greater_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
        fn int_greater_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn int_lower(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
        fn int_lower_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn int_lower_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
        fn int_lower_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;

        // ---- reductions and scans ----
        fn int_sum(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_sum_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_prod_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_mean_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_argmax(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_argmin(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_cumsum(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_cumprod(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_cummin(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_cummax(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;

        // ---- ops with default bodies, forwarded so that `B`'s own versions run ----
        fn int_zeros(shape: Shape, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_ones(shape: Shape, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_full(shape: Shape, value: Scalar, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_arange_step(range: Range<i64>, step: usize, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_arange(range: Range<i64>, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_neg(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_powi_scalar(lhs: IntTensor<B>, rhs: Scalar) -> IntTensor<B>;
        fn int_sign(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_clamp_min(tensor: IntTensor<B>, min: Scalar) -> IntTensor<B>;
        fn int_clamp_max(tensor: IntTensor<B>, max: Scalar) -> IntTensor<B>;
        fn int_clamp(tensor: IntTensor<B>, min: Scalar, max: Scalar) -> IntTensor<B>;
        fn int_not_equal(lhs: IntTensor<B>, rhs: IntTensor<B>) -> BoolTensor<B>;
        fn int_not_equal_elem(lhs: IntTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn int_transpose(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_cat(tensors: Vec<IntTensor<B>>, dim: usize) -> IntTensor<B>;
        fn int_repeat_dim(tensor: IntTensor<B>, dim: usize, times: usize) -> IntTensor<B>;
        fn int_mean(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_prod(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_max_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_min_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_max_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>);
        fn int_min_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>);
        fn int_max(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_min(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_max_abs(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_max_abs_dim(tensor: IntTensor<B>, dim: usize) -> IntTensor<B>;
        fn int_any(tensor: IntTensor<B>) -> BoolTensor<B>;
        fn int_any_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B>;
        fn int_all(tensor: IntTensor<B>) -> BoolTensor<B>;
        fn int_all_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B>;
        fn int_sort(tensor: IntTensor<B>, dim: usize, descending: bool) -> IntTensor<B>;
        fn int_sort_with_indices(tensor: IntTensor<B>, dim: usize, descending: bool) -> (IntTensor<B>, IntTensor<B>);
        fn int_argsort(tensor: IntTensor<B>, dim: usize, descending: bool) -> IntTensor<B>;
        fn int_topk_with_indices(tensor: IntTensor<B>, k: usize, dim: usize) -> (IntTensor<B>, IntTensor<B>);
    }
}
