//! What every WGPU test needs: the device (or a clear skip), guards against WGPU hangs, random
//! inputs and a float64 reference comparison.

use burn_backend::{BoolStore, DType, Shape, TensorData};
use burn_cubecl::{CubeDevice, CubeTensor, WgpuDeviceKind};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::sync::{Once, OnceLock};
use std::time::Duration;

/// How long the whole test process may run before it is considered hung.
const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// The WGPU device the tests run on, or `None` (with a printed reason) when this machine has
/// no adapter. With `BURN_REQUIRE_WGPU=1` (set by CI) a missing adapter fails the test.
/// `BURN_WGPU_TEST_API=vulkan|gl` pins the graphics API (default: WGPU's choice, Vulkan with
/// SPIR-V kernels where available); `gl` exercises the WGSL compiler path.
///
/// The first call installs the guards: a watchdog that aborts the process after
/// `BURN_TEST_TIMEOUT_SECS` (default 600) and a panic hook that aborts when a thread without a
/// name (WGPU's poll thread, CubeCL's device runner) panics, since WGPU would otherwise wait on
/// that dead thread forever.
pub fn device() -> Option<CubeDevice> {
    install_guards();
    static DEVICE: OnceLock<Result<CubeDevice, String>> = OnceLock::new();
    let device = DEVICE.get_or_init(|| {
        let api = std::env::var("BURN_WGPU_TEST_API").unwrap_or_default();
        let named = |kind: WgpuDeviceKind| -> Result<CubeDevice, String> {
            let device = match api.as_str() {
                "" | "auto" => return CubeDevice::wgpu(kind).map_err(|err| err.to_string()),
                "vulkan" => burn_cubecl::cubecl::Device::vulkan(kind),
                "gl" => burn_cubecl::cubecl::Device::gl(kind),
                other => {
                    return Err(format!(
                        "BURN_WGPU_TEST_API={other}: expected auto, vulkan or gl"
                    ));
                }
            };
            device
                .map(CubeDevice::from_cubecl)
                .map_err(|err| err.to_string())
        };
        named(WgpuDeviceKind::DiscreteGpu(0))
            .or_else(|_| named(WgpuDeviceKind::IntegratedGpu(0)))
            .or_else(|_| named(WgpuDeviceKind::Cpu))
    });
    match device {
        Ok(device) => Some(device.clone()),
        Err(reason) => {
            let message = format!(
                "WGPU skipped: no adapter on this machine ({reason}); install a Vulkan driver \
                 (e.g. `apt-get install mesa-vulkan-drivers libvulkan1`)"
            );
            if std::env::var("BURN_REQUIRE_WGPU").is_ok_and(|v| v == "1") {
                panic!("{message} (BURN_REQUIRE_WGPU=1 makes this a failure)");
            }
            eprintln!("{message}");
            None
        }
    }
}

/// Binds the test device or returns from the test (skip).
#[macro_export]
macro_rules! device_or_skip {
    () => {
        match $crate::harness::device() {
            Some(device) => device,
            None => return,
        }
    };
}

fn install_guards() {
    static GUARDS: Once = Once::new();
    GUARDS.call_once(|| {
        let secs = std::env::var("BURN_TEST_TIMEOUT_SECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(DEFAULT_TIMEOUT_SECS);
        std::thread::Builder::new()
            .name("burn-test-watchdog".into())
            .spawn(move || {
                std::thread::sleep(Duration::from_secs(secs));
                eprintln!(
                    "burn-cubecl tests: still running after {secs} s; aborting (a WGPU hang?). \
                     Set BURN_TEST_TIMEOUT_SECS to change the limit."
                );
                std::process::abort();
            })
            .expect("spawn the watchdog thread");

        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            default_hook(info);
            if std::thread::current().name().is_none() {
                eprintln!(
                    "burn-cubecl tests: a runtime-internal thread panicked (see above); aborting \
                     instead of waiting for results it will never deliver"
                );
                std::process::abort();
            }
        }));
    });
}

/// A deterministic generator per test.
pub fn rng(seed: u64) -> StdRng {
    StdRng::seed_from_u64(seed)
}

/// `shape`'s worth of values uniform in `[low, high)`, rounded to `dtype` (so the host
/// reference sees exactly what the device sees).
pub fn random_values(
    rng: &mut StdRng,
    shape: &[usize],
    dtype: DType,
    low: f64,
    high: f64,
) -> Vec<f64> {
    let count: usize = shape.iter().product();
    let values: Vec<f64> = (0..count)
        .map(|_| {
            let v = rng.random_range(low..high);
            if dtype.is_float() { v } else { v.floor() }
        })
        .collect();
    to_f64(&data(&values, shape, dtype))
}

/// Host data of `dtype` holding `values` (converted with `as` semantics).
pub fn data(values: &[f64], shape: &[usize], dtype: DType) -> TensorData {
    let data = TensorData::new(values.to_vec(), Shape::from(shape.to_vec()));
    match dtype {
        DType::Bool(store) => {
            let bytes: Vec<u8> = values.iter().map(|&v| u8::from(v != 0.0)).collect();
            match store {
                BoolStore::U32 => {
                    let words: Vec<u32> = bytes.iter().map(|&b| u32::from(b)).collect();
                    TensorData::from_bytes_slice(bytemuck::cast_slice(&words), data.shape, dtype)
                }
                _ => TensorData::from_bytes_slice(&bytes, data.shape, dtype),
            }
        }
        _ => data.convert_dtype(dtype),
    }
}

/// A device tensor of `dtype` holding `values`.
pub fn tensor(device: &CubeDevice, values: &[f64], shape: &[usize], dtype: DType) -> CubeTensor {
    CubeTensor::from_data(data(values, shape, dtype), device)
}

/// The values of host data as `f64` (booleans as 0/1, whatever their store).
pub fn to_f64(data: &TensorData) -> Vec<f64> {
    match data.dtype {
        DType::Bool(BoolStore::U32) => bytemuck::cast_slice::<u8, u32>(data.as_bytes())
            .iter()
            .map(|&w| f64::from(w))
            .collect(),
        DType::Bool(_) => data.as_bytes().iter().map(|&b| f64::from(b)).collect(),
        _ => data.iter::<f64>().collect(),
    }
}

/// Reads a tensor back, checks its shape and dtype, and returns its values as `f64`.
pub fn read(tensor: CubeTensor, shape: &[usize], dtype: DType) -> Vec<f64> {
    let data = tensor.into_data_sync().expect("read back");
    assert_eq!(&data.shape.dims[..], shape, "shape of the result");
    assert_eq!(data.dtype, dtype, "dtype of the result");
    to_f64(&data)
}

/// The comparison tolerance for results of `dtype`: `|a - e| <= abs + rel * |e|`.
pub fn tolerance(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::F64 => (1e-9, 1e-9),
        DType::F32 => (1e-5, 1e-5),
        DType::F16 => (2e-3, 2e-3),
        DType::BF16 => (1e-2, 1e-2),
        _ => (0.0, 0.0),
    }
}

/// Asserts `actual` matches `expected` within `(abs, rel)`, NaN matching NaN and infinities
/// matching exactly; the message names `what` and the first mismatches.
pub fn assert_close(what: &str, actual: &[f64], expected: &[f64], tolerance: (f64, f64)) {
    if let Err(message) = check_close(what, actual, expected, tolerance) {
        panic!("{message}");
    }
}

/// [`assert_close`] as a result, for tests that report every mismatching case at once.
pub fn check_close(
    what: &str,
    actual: &[f64],
    expected: &[f64],
    (abs, rel): (f64, f64),
) -> Result<(), String> {
    if actual.len() != expected.len() {
        return Err(format!("{what}: lengths differ"));
    }
    let errors: Vec<(usize, f64, f64)> = actual
        .iter()
        .zip(expected)
        .enumerate()
        .filter(|&(_, (&a, &e))| {
            let same_special = (a.is_nan() && e.is_nan()) || (a.is_infinite() && a == e);
            let within = (a - e).abs() <= abs + rel * e.abs();
            !same_special && !within
        })
        .map(|(i, (&a, &e))| (i, a, e))
        .collect();
    if errors.is_empty() {
        return Ok(());
    }
    let worst = errors
        .iter()
        .map(|&(_, a, e)| (a - e).abs() / e.abs().max(1e-30))
        .fold(0.0, f64::max);
    let first: Vec<String> = errors
        .iter()
        .take(3)
        .map(|(i, a, e)| format!("[{i}] got {a}, expected {e}"))
        .collect();
    Err(format!(
        "{what}: {} of {} values differ (worst relative error {worst:.2e}): {}",
        errors.len(),
        actual.len(),
        first.join("; ")
    ))
}

/// The value of `expected` rounded to `dtype` (what the device can represent at best).
pub fn round_to(values: &[f64], dtype: DType) -> Vec<f64> {
    if dtype.is_bool() {
        return values
            .iter()
            .map(|&v| f64::from(u8::from(v != 0.0)))
            .collect();
    }
    to_f64(&data(values, &[values.len()], dtype))
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[usize]) -> Vec<usize> {
    Shape::from(shape.to_vec()).contiguous_strides()
}

/// The row-major index into a tensor of `shape` that output coordinate `coords` reads under
/// NumPy broadcasting (shape right-aligned against the output's rank).
pub fn broadcast_index(coords: &[usize], shape: &[usize]) -> usize {
    let offset = coords.len() - shape.len();
    let strides = strides(shape);
    shape
        .iter()
        .enumerate()
        .map(|(d, &size)| {
            if size == 1 {
                0
            } else {
                coords[d + offset] * strides[d]
            }
        })
        .sum()
}

/// The coordinates of row-major index `index` in `shape`.
pub fn coords(mut index: usize, shape: &[usize]) -> Vec<usize> {
    let mut out = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        out[d] = index % shape[d];
        index /= shape[d];
    }
    out
}
