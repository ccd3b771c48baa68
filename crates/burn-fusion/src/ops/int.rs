//! `IntTensorOps` for `Fusion<B>`.

use super::prelude::*;
use super::read::{read, to_device, upload};
use burn_backend::{ExecutionError, TensorData};
use burn_ir::Handle;

impl<B: FusionBackend> IntTensorOps<Self> for Fusion<B> {
    burn_ir::int_operations!(fusion_methods, decomposed);

    fn int_from_data(data: TensorData, device: &B::Device) -> FusionTensor<B> {
        upload(Handle::Int(B::int_from_data(data, device)), device)
    }

    async fn int_into_data(tensor: FusionTensor<B>) -> Result<TensorData, ExecutionError> {
        read(tensor).await
    }

    fn int_device(tensor: &FusionTensor<B>) -> B::Device {
        tensor.client.device.clone()
    }

    fn int_to_device(tensor: FusionTensor<B>, device: &B::Device) -> FusionTensor<B> {
        to_device(tensor, device)
    }
}
