//! Burn's `save_file` / `load_file` API with the recorders: full and half precision round
//! trips, and typed errors for a missing or corrupt file.
#![cfg(feature = "flex")]

mod common;

use burn_core::module::Module;
use burn_core::record::RecorderError;
use burn_core::tensor::Device;
use burn_store::{CompactRecorder, DefaultRecorder};
use common::*;

#[test]
fn the_default_recorder_round_trips_exactly_and_appends_its_extension() {
    let device = Device::flex();
    let file = TempFile::new("recorder-default");
    let trained = net(&device, 1.0);
    trained
        .clone()
        .save_file(file.path(), &DefaultRecorder::new())
        .unwrap();
    let written = format!("{}.safetensors", file.path().display());
    assert!(std::path::Path::new(&written).is_file());
    let loaded = net(&device, 2.0)
        .load_file(file.path(), &DefaultRecorder::new(), &device)
        .unwrap();
    assert_same(&dump(&loaded), &dump(&trained));
    std::fs::remove_file(written).unwrap();
}

#[test]
fn the_compact_recorder_stores_half_precision_and_loads_into_an_autodiff_model() {
    let device = Device::flex();
    let file = TempFile::new("recorder-compact");
    let trained = net(&device, 1.0);
    trained
        .clone()
        .save_file(file.path(), &CompactRecorder::new())
        .unwrap();
    let written = format!("{}.safetensors", file.path().display());
    let full = std::fs::metadata(&written).unwrap().len();
    let autodiff = device.autodiff();
    let loaded = net(&autodiff, 2.0)
        .load_file(file.path(), &CompactRecorder::new(), &autodiff)
        .unwrap();
    for ((key, got), (_, want)) in dump(&loaded).iter().zip(dump(&trained).iter()) {
        if got.dtype.is_float() {
            // f16 keeps about 3 significant digits.
            got.assert_approx_eq::<f32>(want, burn_core::tensor::Tolerance::rel_abs(1e-3, 1e-3));
        } else {
            assert_eq!(got, want, "{key}");
        }
    }
    assert!(loaded.devices().iter().all(|d| d.is_autodiff()));
    assert!(full > 0);
    std::fs::remove_file(written).unwrap();
}

#[test]
fn missing_and_corrupt_files_give_typed_errors() {
    let device = Device::flex();
    let file = TempFile::new("recorder-missing");
    let err = net(&device, 1.0)
        .load_file(file.path(), &DefaultRecorder::new(), &device)
        .unwrap_err();
    assert!(matches!(err, RecorderError::FileNotFound(_)), "{err}");

    let written = format!("{}.safetensors", file.path().display());
    std::fs::write(&written, b"not a safetensors file").unwrap();
    let err = net(&device, 1.0)
        .load_file(file.path(), &DefaultRecorder::new(), &device)
        .unwrap_err();
    assert!(matches!(err, RecorderError::DeserializeError(_)), "{err}");
    assert!(err.to_string().contains(&written), "{err}");
    std::fs::remove_file(written).unwrap();
}
