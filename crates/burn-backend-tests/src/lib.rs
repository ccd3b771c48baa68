//! The conformance suite of the public tensor API, written once and compiled per backend and
//! default float dtype (see the crate README).
//!
//! This library holds what the test binaries share: a float64 [`reference`] evaluator, the
//! [`harness`] that builds inputs and compares results with per-dtype tolerances, and
//! [`configured_device`], which each binary uses to pick its device and default dtype.

pub mod gradcheck;
pub mod harness;
pub mod reference;

pub use gradcheck::{GradInput, check_gradients};
pub use harness::{Env, Layout, compare, round_to, seed};
pub use reference::RefArray;

use burn::backend::{Backend, Dispatch};
use burn::tensor::{Device, DeviceConfig, DeviceSettings, FloatDType, SettingsError};

/// A process-wide lock for tests that seed the device's random generator and then draw from
/// it: tests run on parallel threads, and a draw from another test in between would break
/// reproducibility. Every test that draws device random numbers holds it.
pub fn device_rng_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// `device`, configured with the default float dtype `float_dtype` (and the backend's other
/// defaults). The first call in a process configures it; later calls accept the settings
/// already in force only when they equal the request, and panic otherwise.
pub fn configured_device(device: Device, float_dtype: FloatDType) -> Device {
    let mut wanted: DeviceSettings = Dispatch::default_settings(device.dispatch());
    wanted.float_dtype = float_dtype;
    match device.configure(DeviceConfig::new().with_float_dtype(float_dtype)) {
        Ok(()) => {}
        Err(SettingsError::AlreadyInitialized { current }) if current == wanted => {}
        Err(e) => panic!("configured_device: cannot configure {device:?} with {wanted:?}: {e}"),
    }
    device
}

/// The WGPU device of the `cube_*` binaries (the best adapter: a GPU, else a software one such
/// as Mesa's lavapipe), configured with `float_dtype`.
///
/// On a machine without a WGPU adapter the whole binary is skipped: a message naming the driver
/// to install goes to stderr and the process exits successfully, unless `BURN_REQUIRE_WGPU=1`
/// (set by CI), which makes it a failure.
#[cfg(feature = "wgpu")]
pub fn cube_device(float_dtype: FloatDType) -> Device {
    use burn::tensor::DeviceKind;
    use std::io::Write;
    let kinds = [
        DeviceKind::DiscreteGpu,
        DeviceKind::IntegratedGpu,
        DeviceKind::VirtualGpu,
        DeviceKind::Cpu,
    ];
    let mut reason = String::new();
    for kind in kinds {
        match Device::try_wgpu(kind) {
            Ok(device) => return configured_device(device, float_dtype),
            Err(err) => reason = err.to_string(),
        }
    }
    let message = format!(
        "WGPU skipped: no adapter on this machine ({reason}); install a Vulkan driver, e.g. \
         `apt-get install mesa-vulkan-drivers libvulkan1`"
    );
    if std::env::var("BURN_REQUIRE_WGPU").is_ok_and(|v| v == "1") {
        panic!("{message} (BURN_REQUIRE_WGPU=1 makes this a failure)");
    }
    // Straight to stderr (not through the test harness's capture), then end the binary.
    let _ = writeln!(std::io::stderr(), "{message}");
    std::process::exit(0)
}
