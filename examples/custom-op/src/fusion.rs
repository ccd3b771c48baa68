//! `Cube` = `Fusion<CubeBackend>` (feature `fusion`): the lazy decorator knows nothing of this
//! operation, so the inputs leave the queue (every operation they depend on runs), the kernel
//! runs on `CubeBackend`, and its result comes back as a `Fusion` tensor.

use crate::ops::FusedOps;
use burn::backend::Fusion;
use burn::backend::cube::CubeBackend;
use burn::backend::fusion::{FusionTensor, Handle};
use burn::backend::tensor::FloatTensor;

/// The float tensor of `CubeBackend` behind a `Fusion` float tensor.
fn ready(tensor: FusionTensor<CubeBackend>) -> FloatTensor<CubeBackend> {
    match tensor.into_handle() {
        Handle::Float(tensor) => tensor,
        other => panic!("linear_relu: expected float tensors, got {other:?}"),
    }
}

impl FusedOps for Fusion<CubeBackend> {
    fn linear_relu(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        let x = ready(x);
        let device = x.device().clone();
        let out = CubeBackend::linear_relu(x, ready(weight), ready(bias));
        FusionTensor::from_handle(Handle::Float(out), &device)
    }
}
