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
pub mod skip;

pub use gradcheck::{GradInput, check_gradients};
pub use harness::{Env, Layout, compare, other_float_dtype, round_to, seed};
pub use reference::RefArray;
pub use skip::{skip, supports};

use burn::backend::{Backend, Dispatch};
use burn::tensor::{Device, DeviceSettings, FloatDType, SettingsError};

/// A process-wide lock for tests that seed the device's random generator and then draw from
/// it: tests run on parallel threads, and a draw from another test in between would break
/// reproducibility. Every test that draws device random numbers holds it.
pub fn device_rng_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The device a run of the `conformance` binary tests, named by the environment variable
/// `BURN_TEST_DEVICE` as `<backend>-<dtype>`: backend `flex`; or the CubeCL backend on a
/// runtime: `wgpu` (also `cube`: the Vulkan adapter of [`cube_device`], feature `wgpu`),
/// `cpu` (CubeCL's CPU runtime, feature `cpu`), `cuda` (GPU 0, feature `cuda`), `rocm` (GPU 0,
/// feature `rocm`); dtype `f32`, `f64`, `f16` or `bf16`. Unset, it is `flex-f32`. The device is
/// configured with that default float dtype (see [`configured_device`]); one process tests one
/// device.
///
/// A device that cannot hold that dtype (f64 or f16 on many GPUs) cannot run the suite in it,
/// and a machine without the runtime's hardware (a CUDA run without a GPU) cannot run it at
/// all: the run is skipped as a whole (see [`skip`]: a line on stderr and in the skip log) and
/// the process exits successfully, unless `BURN_REQUIRE_DEVICE=1` makes a missing device a
/// failure.
///
/// # Panics
/// When the name is not of that form, or names a runtime this build does not compile.
pub fn device_under_test() -> Device {
    device_named(&test_device_name("flex-f32"))
}

/// The device of a suite that tests the CubeCL backend alone (the fusion suite): the device
/// `BURN_TEST_DEVICE` names, as for [`device_under_test`], `cube-f32` (WGPU/Vulkan) when unset.
///
/// # Panics
/// As [`device_under_test`], and when the name is a `flex` one.
pub fn cube_device_under_test() -> Device {
    let name = test_device_name("cube-f32");
    assert!(
        !name.to_ascii_lowercase().starts_with("flex"),
        "BURN_TEST_DEVICE={name:?}: this suite tests the CubeCL backend; name a Cube device \
         (`cube-f32`, `cpu-f32`, …)"
    );
    device_named(&name)
}

/// `BURN_TEST_DEVICE`, or `default` when it is unset or empty.
fn test_device_name(default: &str) -> String {
    let name = std::env::var("BURN_TEST_DEVICE").unwrap_or_default();
    let name = name.trim();
    if name.is_empty() { default } else { name }.to_string()
}

/// The device `name` (`<backend>-<dtype>`) means, configured with that dtype.
fn device_named(name: &str) -> Device {
    let expected = "expected `<flex|wgpu|cpu|cuda|rocm>-<f32|f64|f16|bf16>`, e.g. `flex-f32`";
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
    let device = match backend.to_ascii_lowercase().as_str() {
        "flex" => Device::flex(),
        #[cfg(feature = "wgpu")]
        "wgpu" | "cube" => cube_device(),
        #[cfg(not(feature = "wgpu"))]
        "wgpu" | "cube" => not_built(name, "wgpu"),
        #[cfg(feature = "cpu")]
        "cpu" => present(Device::try_cpu(), "Cube on CubeCL's CPU runtime"),
        #[cfg(not(feature = "cpu"))]
        "cpu" => not_built(name, "cpu"),
        #[cfg(feature = "cuda")]
        "cuda" => present(Device::try_cuda(0), "Cube on CUDA GPU 0"),
        #[cfg(not(feature = "cuda"))]
        "cuda" => not_built(name, "cuda"),
        #[cfg(feature = "rocm")]
        "rocm" => present(Device::try_rocm(0), "Cube on ROCm GPU 0"),
        #[cfg(not(feature = "rocm"))]
        "rocm" => not_built(name, "rocm"),
        _ => panic!("BURN_TEST_DEVICE={name:?}: unknown backend {backend:?}; {expected}"),
    };
    if !device.supports_dtype(dtype) {
        skip_run(&format!(
            "the run BURN_TEST_DEVICE={name}: {device:?} does not support {dtype}"
        ));
    }
    configured_device(device, dtype)
}

/// A run of a runtime this build does not compile: a mistake in the command, not a skip.
#[allow(dead_code)] // unused in a build with every runtime
fn not_built(name: &str, feature: &str) -> ! {
    panic!(
        "BURN_TEST_DEVICE={name:?}: this build has no such device; build the tests with \
         `--features {feature}`"
    )
}

/// The device `opened` gave, or the run skipped (a failure with `BURN_REQUIRE_DEVICE=1`)
/// when the machine lacks it.
#[allow(dead_code)] // used only in builds with a runtime that may be missing (cpu, cuda, rocm)
fn present<E: std::fmt::Display>(opened: Result<Device, E>, what: &str) -> Device {
    match opened {
        Ok(device) => device,
        Err(err) if std::env::var("BURN_REQUIRE_DEVICE").is_ok_and(|v| v == "1") => {
            panic!("{what}: {err} (BURN_REQUIRE_DEVICE=1 makes this a failure)")
        }
        Err(err) => skip_run(&format!("{what}: not on this machine ({err})")),
    }
}

/// Reports the whole run skipped (`reason` on stderr and in the skip log) and ends the process
/// successfully: every test of a run needs what `reason` says is missing.
fn skip_run(reason: &str) -> ! {
    static ONCE: std::sync::Once = std::sync::Once::new();
    // Tests run on parallel threads; the first to get here reports, and every one exits.
    ONCE.call_once(|| skip::skip("every test", reason));
    std::process::exit(0)
}

/// `device`, configured with the default float dtype `float_dtype` (and the backend's other
/// defaults). The first call in a process configures it; later calls accept the settings
/// already in force only when they equal the request, and panic otherwise.
pub fn configured_device(mut device: Device, float_dtype: FloatDType) -> Device {
    let mut wanted: DeviceSettings = Dispatch::default_settings(device.dispatch());
    wanted.float_dtype = float_dtype;
    match device.configure(float_dtype) {
        Ok(()) => {}
        Err(SettingsError::AlreadyInitialized { current }) if current == wanted => {}
        Err(e) => panic!("configured_device: cannot configure {device:?} with {wanted:?}: {e}"),
    }
    device
}

/// The WGPU device of the Cube runs, on the Vulkan API (SPIR-V kernels), whatever adapter
/// WGPU would pick on its own: the suite tests the backend it means to, not a GL adapter that
/// happens to be installed. The adapter is the best Vulkan one: a GPU, else a software one such
/// as Mesa's lavapipe.
///
/// On a machine without a Vulkan adapter the whole run is skipped (see [`skip`]), unless
/// `BURN_REQUIRE_WGPU=1` (set by CI), which makes it a failure.
#[cfg(feature = "wgpu")]
pub fn cube_device() -> Device {
    use burn::tensor::DeviceKind;
    let kinds = [
        DeviceKind::DiscreteGpu(0),
        DeviceKind::IntegratedGpu(0),
        DeviceKind::VirtualGpu(0),
        DeviceKind::Cpu,
    ];
    let mut reason = String::new();
    for kind in kinds {
        match Device::try_vulkan(kind) {
            Ok(device) => return device,
            Err(err) => reason = err.to_string(),
        }
    }
    let message = format!(
        "no Vulkan adapter on this machine ({reason}); install a Vulkan driver, e.g. \
         `apt-get install mesa-vulkan-drivers libvulkan1`"
    );
    if std::env::var("BURN_REQUIRE_WGPU").is_ok_and(|v| v == "1") {
        panic!("Cube on WGPU: {message} (BURN_REQUIRE_WGPU=1 makes this a failure)");
    }
    skip_run(&format!("Cube on WGPU/Vulkan: {message}"))
}
