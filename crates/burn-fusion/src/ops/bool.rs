//! `BoolTensorOps` for `Fusion<B>`.

use super::prelude::*;
use super::read::{read, to_device, upload};
use burn_backend::{ExecutionError, TensorData};
use burn_ir::Handle;

impl<B: FusionBackend> BoolTensorOps<Self> for Fusion<B> {
    burn_ir::bool_operations!(fusion_methods, decomposed);

    fn bool_from_data(data: TensorData, device: &B::Device) -> FusionTensor<B> {
        upload(Handle::Bool(B::bool_from_data(data, device)), device)
    }

    async fn bool_into_data(tensor: FusionTensor<B>) -> Result<TensorData, ExecutionError> {
        read(tensor).await
    }

    fn bool_device(tensor: &FusionTensor<B>) -> B::Device {
        tensor.client.device.clone()
    }

    fn bool_to_device(tensor: FusionTensor<B>, device: &B::Device) -> FusionTensor<B> {
        to_device(tensor, device)
    }
}
