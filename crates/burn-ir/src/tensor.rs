//! How the IR names a tensor and how an operation uses it.

use burn_backend::{DType, Shape};
use serde::{Deserialize, Serialize};

/// A tensor's identity within one fusion server (unique per device for the process's life).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TensorId(pub u64);

/// How an operation uses a tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TensorStatus {
    /// Read; the tensor stays alive for later operations.
    ReadOnly,
    /// Read for the last time: its buffer may be reused by this operation.
    ReadWrite,
    /// Written: an output, not yet existing.
    NotInit,
}

/// One use of a tensor by an operation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TensorIr {
    /// Which tensor.
    pub id: TensorId,
    /// Its shape.
    pub shape: Shape,
    /// Its element type.
    pub dtype: DType,
    /// How the operation uses it.
    pub status: TensorStatus,
}

impl TensorIr {
    /// An output tensor (status [`TensorStatus::NotInit`]).
    pub fn output(id: TensorId, shape: Shape, dtype: DType) -> Self {
        Self {
            id,
            shape,
            dtype,
            status: TensorStatus::NotInit,
        }
    }
}
