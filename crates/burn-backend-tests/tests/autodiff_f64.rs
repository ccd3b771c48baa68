//! The autodiff suite on Flex in float64: every differentiable op against central
//! differences on every input element, with and without checkpointing.

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::configured_device(Device::flex(), FloatDType::F64)
}

#[path = "autodiff/mod.rs"]
mod autodiff;
