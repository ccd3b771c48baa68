//! The autodiff suite on Flex in float32: every differentiable op against a directional
//! finite difference (JAX `check_grads` style), with and without checkpointing.

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::configured_device(Device::flex(), FloatDType::F32)
}

#[path = "autodiff/mod.rs"]
mod autodiff;
