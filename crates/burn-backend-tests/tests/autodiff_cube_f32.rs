//! The autodiff suite on the CubeCL backend over WGPU in float32: every differentiable op
//! against a directional finite difference, with and without checkpointing.
#![cfg(feature = "wgpu")]

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::cube_device(FloatDType::F32)
}

#[path = "autodiff/mod.rs"]
mod autodiff;
