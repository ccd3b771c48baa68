//! The methods that do not record: uploads, reads, device moves.

use super::prelude::*;
use burn_backend::{ExecutionError, TensorData, TensorMetadata};
use burn_ir::Handle;

/// Uploads `tensor` (a backend tensor just made from data) as a new `Fusion<B>` tensor.
pub(crate) fn upload<B: FusionBackend>(handle: Handle<B>, device: &B::Device) -> FusionTensor<B> {
    let client = FusionClient::<B>::get(device);
    let (shape, dtype) = match &handle {
        Handle::Float(t) => (t.shape(), t.dtype()),
        Handle::Int(t) => (t.shape(), t.dtype()),
        Handle::Bool(t) => (t.shape(), t.dtype()),
    };
    let id = client.insert(handle);
    FusionTensor::new(id, shape, dtype, client)
}

/// The backend tensor of `tensor`, after running what it depends on.
pub(crate) fn ready<B: FusionBackend>(tensor: FusionTensor<B>) -> Handle<B> {
    let client = tensor.client.clone();
    let ir = tensor.into_ir();
    client.with_ready(&ir, |handle| handle)
}

/// Reads `tensor` back to the host.
pub(crate) async fn read<B: FusionBackend>(
    tensor: FusionTensor<B>,
) -> Result<TensorData, ExecutionError> {
    match ready(tensor) {
        Handle::Float(t) => B::float_into_data(t).await,
        Handle::Int(t) => B::int_into_data(t).await,
        Handle::Bool(t) => B::bool_into_data(t).await,
    }
}

/// `tensor` on `device`: itself when already there, else moved by the executing backend.
pub(crate) fn to_device<B: FusionBackend>(
    tensor: FusionTensor<B>,
    device: &B::Device,
) -> FusionTensor<B> {
    if tensor.client.device == *device {
        return tensor;
    }
    let moved = match ready(tensor) {
        Handle::Float(t) => Handle::Float(B::float_to_device(t, device)),
        Handle::Int(t) => Handle::Int(B::int_to_device(t, device)),
        Handle::Bool(t) => Handle::Bool(B::bool_to_device(t, device)),
    };
    upload(moved, device)
}
