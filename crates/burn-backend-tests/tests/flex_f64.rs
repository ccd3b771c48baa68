//! The conformance suite on Flex, default float f64.

use burn::tensor::{Device, FloatDType};

fn device() -> Device {
    burn_backend_tests::configured_device(Device::flex(), FloatDType::F64)
}

#[path = "suite/mod.rs"]
mod suite;
