//! `IntTensorOps` for `Autodiff<B, C>`: int tensors are `B`'s own, so every op runs on `B`.

use crate::Autodiff;
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::ops::IntTensorOps;
use burn_backend::tensor::{BoolTensor, Device, IntTensor};
use burn_backend::{
    Backend, Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape,
    Slice, TensorData,
};
use core::ops::Range;

impl<B: Backend, C: CheckpointStrategy> IntTensorOps<Self> for Autodiff<B, C> {
    async fn int_into_data(tensor: IntTensor<B>) -> Result<TensorData, ExecutionError> {
        B::int_into_data(tensor).await
    }

    // Every operation of the table (`int_into_float` gives an untracked constant).
    burn_ir::int_operations!(delegated_methods);

    delegate! {
        to B;

        // ---- data and transfer ----
        fn int_from_data(data: TensorData, device: &Device<B>) -> IntTensor<B>;
        fn int_device(tensor: &IntTensor<B>) -> Device<B>;
        fn int_to_device(tensor: IntTensor<B>, device: &Device<B>) -> IntTensor<B>;

        // ---- composites the table leaves to their parts, forwarded so `B`'s own run ----
        fn int_arange(range: Range<i64>, device: &Device<B>, dtype: IntDType) -> IntTensor<B>;
        fn int_mean(tensor: IntTensor<B>) -> IntTensor<B>;
        fn int_max_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>);
        fn int_min_dim_with_indices(tensor: IntTensor<B>, dim: usize) -> (IntTensor<B>, IntTensor<B>);
        fn int_any(tensor: IntTensor<B>) -> BoolTensor<B>;
        fn int_any_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B>;
        fn int_all(tensor: IntTensor<B>) -> BoolTensor<B>;
        fn int_all_dim(tensor: IntTensor<B>, dim: usize) -> BoolTensor<B>;
        fn int_topk_with_indices(tensor: IntTensor<B>, k: usize, dim: usize) -> (IntTensor<B>, IntTensor<B>);
    }
}
