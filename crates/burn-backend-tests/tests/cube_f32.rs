//! The conformance suite on the CubeCL backend over WGPU (Mesa's lavapipe on machines without
//! a GPU), default float f32.
#![cfg(feature = "wgpu")]

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::cube_device(FloatDType::F32)
}

#[path = "suite/mod.rs"]
mod suite;
