//! `CaptureTensor`: the primitive of every kind of tensor of a capture in progress.

use super::recording::Recording;
use burn_backend::{DType, Shape, TensorMetadata};
use burn_ir::{TensorId, TensorIr, TensorStatus};
use std::sync::Arc;

/// A tensor of a capture in progress: an id in its recording, with the shape and dtype its
/// producing operation gives it. It has no values; the captured graph computes them on replay.
#[derive(Clone)]
pub struct CaptureTensor {
    pub(crate) id: TensorId,
    pub(crate) shape: Shape,
    pub(crate) dtype: DType,
    pub(crate) recording: Arc<Recording>,
}

impl CaptureTensor {
    pub(crate) fn new(id: TensorId, shape: Shape, dtype: DType, recording: Arc<Recording>) -> Self {
        Self {
            id,
            shape,
            dtype,
            recording,
        }
    }

    /// The tensor as an operation input. Every use is recorded read-only; the graph marks last
    /// uses when the capture ends, knowing all of them.
    pub(crate) fn into_ir(self) -> TensorIr {
        TensorIr {
            id: self.id,
            shape: self.shape,
            dtype: self.dtype,
            status: TensorStatus::ReadOnly,
        }
    }

    /// The tensor's id in its recording.
    pub fn id(&self) -> TensorId {
        self.id
    }
}

impl core::fmt::Debug for CaptureTensor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CaptureTensor")
            .field("id", &self.id)
            .field("shape", &self.shape.dims)
            .field("dtype", &self.dtype)
            .field("recording", &self.recording.id())
            .finish()
    }
}

impl TensorMetadata for CaptureTensor {
    fn dtype(&self) -> DType {
        self.dtype
    }

    fn shape(&self) -> Shape {
        self.shape.clone()
    }

    fn dims_into(&self, out: &mut [usize]) {
        out.copy_from_slice(&self.shape.dims);
    }
}
