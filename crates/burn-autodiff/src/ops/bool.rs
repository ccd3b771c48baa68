//! `BoolTensorOps` for `Autodiff<B, C>`: bool tensors are `B`'s own, so every op runs on `B`.

use crate::checkpoint::strategy::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};
use burn_backend::ops::BoolTensorOps;
use burn_backend::tensor::{BoolTensor, Device, FloatTensor, IntTensor};
use burn_backend::{
    Backend, DType, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice, TensorData,
};

impl<B: Backend, C: CheckpointStrategy> BoolTensorOps<Self> for Autodiff<B, C> {
    async fn bool_into_data(tensor: BoolTensor<B>) -> Result<TensorData, ExecutionError> {
        B::bool_into_data(tensor).await
    }

    /// The result is an untracked constant: bools carry no gradient.
    fn bool_into_float(tensor: BoolTensor<B>, out_dtype: FloatDType) -> FloatTensor<Self> {
        AutodiffTensor::new(B::bool_into_float(tensor, out_dtype))
    }

    delegate! {
        to B;

        // ---- creation and transfer ----
        fn bool_from_data(data: TensorData, device: &Device<B>) -> BoolTensor<B>;
        fn bool_empty(shape: Shape, device: &Device<B>, dtype: DType) -> BoolTensor<B>;
        fn bool_device(tensor: &BoolTensor<B>) -> Device<B>;
        fn bool_to_device(tensor: BoolTensor<B>, device: &Device<B>) -> BoolTensor<B>;
        fn bool_into_int(tensor: BoolTensor<B>, out_dtype: IntDType) -> IntTensor<B>;

        // ---- layout ----
        fn bool_swap_dims(tensor: BoolTensor<B>, dim1: usize, dim2: usize) -> BoolTensor<B>;
        fn bool_permute(tensor: BoolTensor<B>, axes: &[usize]) -> BoolTensor<B>;
        fn bool_flip(tensor: BoolTensor<B>, axes: &[usize]) -> BoolTensor<B>;
        fn bool_reshape(tensor: BoolTensor<B>, shape: Shape) -> BoolTensor<B>;
        fn bool_expand(tensor: BoolTensor<B>, shape: Shape) -> BoolTensor<B>;
        fn bool_slice(tensor: BoolTensor<B>, slices: &[Slice]) -> BoolTensor<B>;
        fn bool_slice_assign(tensor: BoolTensor<B>, slices: &[Slice], value: BoolTensor<B>) -> BoolTensor<B>;

        // ---- indexing ----
        fn bool_gather(dim: usize, tensor: BoolTensor<B>, indices: IntTensor<B>) -> BoolTensor<B>;
        fn bool_select(tensor: BoolTensor<B>, dim: usize, indices: IntTensor<B>) -> BoolTensor<B>;
        fn bool_mask_where(tensor: BoolTensor<B>, mask: BoolTensor<B>, value: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_mask_fill(tensor: BoolTensor<B>, mask: BoolTensor<B>, value: Scalar) -> BoolTensor<B>;

        // ---- logic ----
        fn bool_equal(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_not(tensor: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_and(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_or(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;

        // ---- ops with default bodies, forwarded so that `B`'s own versions run ----
        fn bool_zeros(shape: Shape, device: &Device<B>, dtype: DType) -> BoolTensor<B>;
        fn bool_ones(shape: Shape, device: &Device<B>, dtype: DType) -> BoolTensor<B>;
        fn bool_xor(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_not_equal(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_equal_elem(lhs: BoolTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn bool_transpose(tensor: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_cat(tensors: Vec<BoolTensor<B>>, dim: usize) -> BoolTensor<B>;
        fn bool_repeat_dim(tensor: BoolTensor<B>, dim: usize, times: usize) -> BoolTensor<B>;
        fn bool_any(tensor: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_any_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B>;
        fn bool_all(tensor: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_all_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B>;
        fn bool_argwhere(tensor: BoolTensor<B>) -> IntTensor<B>;
    }
}
