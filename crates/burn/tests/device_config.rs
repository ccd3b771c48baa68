//! Configuring a device's default dtypes the way a Burn 0.23 user writes it: the builder
//! (`DeviceConfig::default().float_dtype(..).int_dtype(..)`), or a dtype or a pair converted
//! into a config, once, before the first tensor.

use burn::prelude::*;
use burn::tensor::{DeviceConfig, DeviceError, FloatDType, IntDType};

#[test]
fn the_builder_sets_the_defaults_of_new_tensors() {
    // Each test binary is one process; this test owns the default device's first use.
    let mut device = Device::default();
    device
        .configure(
            DeviceConfig::default()
                .float_dtype(FloatDType::F64)
                .int_dtype(IntDType::I32),
        )
        .expect("the device has no tensor yet");
    assert_eq!(
        Tensor::<1>::ones([2], &device).dtype(),
        FloatDType::F64.into()
    );
    assert_eq!(
        Tensor::<1, Int>::ones([2], &device).dtype(),
        IntDType::I32.into()
    );
    let again = device.configure(FloatDType::F32);
    assert!(matches!(again, Err(DeviceError::AlreadyInitialized { .. })));
}

#[test]
fn dtypes_and_pairs_convert_into_a_config() {
    let config: DeviceConfig = (FloatDType::F16, IntDType::I32).into();
    assert_eq!(config.float_dtype, Some(FloatDType::F16));
    assert_eq!(config.int_dtype, Some(IntDType::I32));
    assert_eq!(DeviceConfig::from(IntDType::I64).float_dtype, None);
    // Burn's DeviceConfig has no `PartialEq`: compare the fields.
    let explicit = DeviceConfig::new(Some(FloatDType::BF16), None, None);
    let built = DeviceConfig::default().float_dtype(FloatDType::BF16);
    assert_eq!(explicit.float_dtype, built.float_dtype);
    assert_eq!(explicit.int_dtype, built.int_dtype);
    assert_eq!(explicit.bool_dtype, built.bool_dtype);
}
