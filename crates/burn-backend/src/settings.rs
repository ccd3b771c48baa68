//! The device-settings registry: default dtypes per physical device, locked at first use.

use crate::{Backend, DeviceOps, device::DeviceId};
use burn_std::DeviceSettings;
use core::fmt;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// Burn's name for [`SettingsError`]: why configuring a device's defaults was refused.
pub type DeviceError = SettingsError;

/// Why settings could not be changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsError {
    /// The device already has settings in force: a tensor was created on it, or it was
    /// configured before. They stay as they were.
    AlreadyInitialized {
        /// The settings in force.
        current: DeviceSettings,
    },
    /// The device cannot hold the asked dtype.
    UnsupportedDType {
        /// The dtype that was asked for.
        dtype: burn_std::DType,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::AlreadyInitialized { current } => write!(
                f,
                "device settings are already initialized (float {}, int {}, bool {}); configure a \
                 device before its first tensor",
                current.float_dtype, current.int_dtype, current.bool_dtype
            ),
            SettingsError::UnsupportedDType { dtype } => {
                write!(f, "the device does not support dtype {dtype}")
            }
        }
    }
}

impl std::error::Error for SettingsError {}

fn registry() -> &'static Mutex<HashMap<DeviceId, DeviceSettings>> {
    static REGISTRY: OnceLock<Mutex<HashMap<DeviceId, DeviceSettings>>> = OnceLock::new();
    REGISTRY.get_or_init(Default::default)
}

/// The settings of `device`; the first call for a device locks them (to the defaults when the
/// device was never configured).
pub fn get_device_settings<B: Backend>(device: &B::Device) -> DeviceSettings {
    let mut registry = registry().lock().unwrap_or_else(|e| e.into_inner());
    *registry
        .entry(device.id())
        .or_insert_with(|| B::default_settings(device))
}

/// Sets the settings of `device` once, before its first tensor.
pub fn set_device_settings<B: Backend>(
    device: &B::Device,
    settings: DeviceSettings,
) -> Result<(), SettingsError> {
    for dtype in [
        settings.float_dtype.into(),
        settings.int_dtype.into(),
        settings.bool_dtype,
    ] {
        if !B::supports_dtype(device, dtype) {
            return Err(SettingsError::UnsupportedDType { dtype });
        }
    }
    let mut registry = registry().lock().unwrap_or_else(|e| e.into_inner());
    match registry.get(&device.id()) {
        Some(current) => Err(SettingsError::AlreadyInitialized { current: *current }),
        None => {
            registry.insert(device.id(), settings);
            Ok(())
        }
    }
}

/// Whether `device`'s settings are locked.
pub fn settings_locked<D: DeviceOps>(device: &D) -> bool {
    let registry = registry().lock().unwrap_or_else(|e| e.into_inner());
    registry.contains_key(&device.id())
}
