//! `FloatTensorOps` for `Fusion<B>`.

use super::prelude::*;
use super::read::{read, to_device, upload};
use burn_backend::{ExecutionError, TensorData};
use burn_ir::Handle;

impl<B: FusionBackend> FloatTensorOps<Self> for Fusion<B> {
    burn_ir::float_operations!(fusion_methods, decomposed);

    fn float_from_data(data: TensorData, device: &B::Device) -> FusionTensor<B> {
        upload(Handle::Float(B::float_from_data(data, device)), device)
    }

    async fn float_into_data(tensor: FusionTensor<B>) -> Result<TensorData, ExecutionError> {
        read(tensor).await
    }

    fn float_device(tensor: &FusionTensor<B>) -> B::Device {
        tensor.client.device.clone()
    }

    fn float_to_device(tensor: FusionTensor<B>, device: &B::Device) -> FusionTensor<B> {
        to_device(tensor, device)
    }
}
