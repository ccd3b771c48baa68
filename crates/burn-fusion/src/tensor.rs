//! `FusionTensor`: the primitive of every kind of `Fusion<B>` tensor.

use crate::FusionBackend;
use crate::client::FusionClient;
use burn_backend::{DType, Shape, TensorMetadata};
use burn_ir::{TensorId, TensorIr, TensorStatus};
use std::sync::Arc;

/// A tensor of `Fusion<B>`: an id in its device's server, with the shape and dtype its
/// producing operation will give it. Its data may not be computed yet.
///
/// Clones share the id. Passing the last clone to an operation records it as the tensor's last
/// use ([`TensorStatus::ReadWrite`]), which lets the executing backend reuse its buffer;
/// dropping the last clone without using it frees the data once no queued operation needs it.
pub struct FusionTensor<B: FusionBackend> {
    pub(crate) id: TensorId,
    pub(crate) shape: Shape,
    pub(crate) dtype: DType,
    pub(crate) client: Arc<FusionClient<B>>,
    count: Arc<()>,
    consumed: bool,
}

impl<B: FusionBackend> FusionTensor<B> {
    pub(crate) fn new(
        id: TensorId,
        shape: Shape,
        dtype: DType,
        client: Arc<FusionClient<B>>,
    ) -> Self {
        Self {
            id,
            shape,
            dtype,
            client,
            count: Arc::new(()),
            consumed: false,
        }
    }

    /// The tensor as an operation input, consuming this handle: its last use when no clone is
    /// left.
    pub(crate) fn into_ir(mut self) -> TensorIr {
        let status = if Arc::strong_count(&self.count) == 1 {
            TensorStatus::ReadWrite
        } else {
            TensorStatus::ReadOnly
        };
        self.consumed = true;
        TensorIr {
            id: self.id,
            shape: core::mem::take(&mut self.shape),
            dtype: self.dtype,
            status,
        }
    }

    /// The tensor's id in its server.
    pub fn id(&self) -> TensorId {
        self.id
    }
}

impl<B: FusionBackend> Clone for FusionTensor<B> {
    fn clone(&self) -> Self {
        Self {
            id: self.id,
            shape: self.shape.clone(),
            dtype: self.dtype,
            client: self.client.clone(),
            count: self.count.clone(),
            consumed: false,
        }
    }
}

impl<B: FusionBackend> Drop for FusionTensor<B> {
    fn drop(&mut self) {
        if !self.consumed && Arc::strong_count(&self.count) == 1 {
            self.client.drop_tensor(self.id);
        }
    }
}

impl<B: FusionBackend> core::fmt::Debug for FusionTensor<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FusionTensor")
            .field("id", &self.id)
            .field("shape", &self.shape.dims)
            .field("dtype", &self.dtype)
            .field("device", &self.client.device)
            .finish()
    }
}

impl<B: FusionBackend> TensorMetadata for FusionTensor<B> {
    fn dtype(&self) -> DType {
        self.dtype
    }

    fn shape(&self) -> Shape {
        self.shape.clone()
    }
}
