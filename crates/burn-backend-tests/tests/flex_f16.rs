//! The float part of the conformance suite on Flex, default float f16.

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::configured_device(Device::flex(), FloatDType::F16)
}

#[path = "suite/float/mod.rs"]
mod float;

#[path = "suite/quantization/mod.rs"]
mod quantization;
