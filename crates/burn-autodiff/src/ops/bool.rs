//! `BoolTensorOps` for `Autodiff<B, C>`: bool tensors are `B`'s own, so every op runs on `B`.

use crate::Autodiff;
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::ops::BoolTensorOps;
use burn_backend::tensor::{BoolTensor, Device};
use burn_backend::{
    Backend, DType, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice, TensorData,
};

impl<B: Backend, C: CheckpointStrategy> BoolTensorOps<Self> for Autodiff<B, C> {
    async fn bool_into_data(tensor: BoolTensor<B>) -> Result<TensorData, ExecutionError> {
        B::bool_into_data(tensor).await
    }

    // Every operation of the table (`bool_into_float` gives an untracked constant).
    burn_ir::bool_operations!(delegated_methods);

    delegate! {
        to B;

        // ---- data and transfer ----
        fn bool_from_data(data: TensorData, device: &Device<B>) -> BoolTensor<B>;
        fn bool_device(tensor: &BoolTensor<B>) -> Device<B>;
        fn bool_to_device(tensor: BoolTensor<B>, device: &Device<B>) -> BoolTensor<B>;

        // ---- composites the table leaves to their parts, forwarded so `B`'s own run ----
        fn bool_equal_elem(lhs: BoolTensor<B>, rhs: Scalar) -> BoolTensor<B>;
        fn bool_any(tensor: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_any_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B>;
        fn bool_all(tensor: BoolTensor<B>) -> BoolTensor<B>;
        fn bool_all_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B>;
    }
}
