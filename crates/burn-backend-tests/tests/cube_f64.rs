//! The float part of the conformance suite on the CubeCL backend over WGPU (Mesa's lavapipe
//! on machines without a GPU), default float f64.
#![cfg(feature = "wgpu")]

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::cube_device(FloatDType::F64)
}

#[path = "suite/float/mod.rs"]
mod float;
