//! The conformance suite of the public tensor API, written once, compiled once, and run per
//! backend and default float dtype (see the crate README).
//!
//! This library holds what the test binaries share: a float64 [`reference`] evaluator, the
//! [`harness`] that builds inputs and compares results with per-dtype tolerances, and
//! [`device_under_test`], which picks the device and default dtype of a run from
//! `BURN_TEST_DEVICE`.

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

/// The device a run of the `conformance` binary tests, named by the environment variable
/// `BURN_TEST_DEVICE` as `<backend>-<dtype>`: backend `flex`, or `cube` (the WGPU device of
/// [`cube_device`], feature `wgpu`); dtype `f32`, `f64`, `f16` or `bf16`. Unset, it is
/// `flex-f32`. The device is configured with that default float dtype (see
/// [`configured_device`]); one process tests one device.
///
/// # Panics
/// When the name is not of that form, or names `cube` in a build without the `wgpu` feature.
pub fn device_under_test() -> Device {
    let name = std::env::var("BURN_TEST_DEVICE").unwrap_or_default();
    let name = name.trim();
    let name = if name.is_empty() { "flex-f32" } else { name };
    let expected = "expected `<flex|cube>-<f32|f64|f16|bf16>`, e.g. `flex-f32`";
    let (backend, dtype) = name
        .split_once('-')
        .unwrap_or_else(|| panic!("BURN_TEST_DEVICE={name:?}: {expected}"));
    let dtype = match dtype.to_ascii_lowercase().as_str() {
        "f32" => FloatDType::F32,
        "f64" => FloatDType::F64,
        "f16" => FloatDType::F16,
        "bf16" => FloatDType::BF16,
        _ => panic!("BURN_TEST_DEVICE={name:?}: unknown dtype {dtype:?}; {expected}"),
    };
    match backend.to_ascii_lowercase().as_str() {
        "flex" => configured_device(Device::flex(), dtype),
        #[cfg(feature = "wgpu")]
        "cube" => cube_device(dtype),
        #[cfg(not(feature = "wgpu"))]
        "cube" => panic!(
            "BURN_TEST_DEVICE={name:?}: this build has no Cube device; build the tests with \
             `--features wgpu`"
        ),
        _ => panic!("BURN_TEST_DEVICE={name:?}: unknown backend {backend:?}; {expected}"),
    }
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

/// The WGPU device of the Cube runs (the best adapter: a GPU, else a software one such
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
