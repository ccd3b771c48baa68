//! Every failed load returns a typed error naming the file (and the key) and leaves the
//! module exactly as it was: values unchanged, lazy parameters still lazy.
#![cfg(feature = "flex")]

mod common;

use burn_core::tensor::{DType, Device, TensorData};
use burn_store::{ModuleSnapshot, SafetensorsStore, StoreError};
use common::*;
use safetensors::tensor::Dtype;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Loads a fresh `store()` into a model and into a lazy model; both must fail alike and be
/// left untouched. Returns the error.
fn fails_cleanly(store: impl Fn() -> SafetensorsStore) -> StoreError {
    let device = Device::flex();
    let mut model = net(&device, 2.0);
    let before = dump(&model);
    let ids = (model.embed.id, model.mask.id);
    let error = model.load_from(&mut store()).unwrap_err();
    assert_same(&dump(&model), &before);
    assert_eq!(ids, (model.embed.id, model.mask.id));

    let runs = Arc::new(AtomicUsize::new(0));
    let mut lazy = lazy_net(&device, &runs);
    let lazy_error = lazy.load_from(&mut store()).unwrap_err();
    assert_eq!(lazy_error, error);
    assert_eq!(Initialized::of(&lazy).lazy, 10, "lazy parameters stay lazy");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    error
}

/// A file holding `bytes`, kept until the returned guard drops.
fn file_of(name: &str, bytes: &[u8]) -> TempFile {
    let file = TempFile::new(name);
    std::fs::write(file.path(), bytes).unwrap();
    file
}

fn valid_bytes() -> Vec<u8> {
    let mut store = SafetensorsStore::from_bytes(None);
    net(&Device::flex(), 1.0).save_into(&mut store).unwrap();
    store.to_bytes().unwrap()
}

#[test]
fn a_missing_file_is_an_io_error_naming_it() {
    let file = TempFile::new("never-written");
    let error = fails_cleanly(|| SafetensorsStore::from_file(file.path()));
    match &error {
        StoreError::Io { file: f, kind, .. } => {
            assert_eq!(f, &file.label());
            assert_eq!(*kind, std::io::ErrorKind::NotFound);
        }
        other => panic!("expected Io, got {other:?}"),
    }
    assert!(error.to_string().contains(&file.label()), "{error}");
}

#[test]
fn an_empty_memory_store_has_nothing_to_load() {
    let error = fails_cleanly(|| SafetensorsStore::from_bytes(None));
    assert_eq!(
        error,
        StoreError::NoData {
            file: "<memory>".into()
        }
    );
}

#[test]
fn truncated_files_are_corrupt() {
    let bytes = valid_bytes();
    let header_len = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    for cut in [0, 4, 8 + header_len / 2, 8 + header_len, bytes.len() - 1] {
        let file = file_of("truncated", &bytes[..cut]);
        let error = fails_cleanly(|| SafetensorsStore::from_file(file.path()));
        assert!(
            matches!(&error, StoreError::Corrupt { file: f, .. } if *f == file.label()),
            "cut at {cut}: {error:?}"
        );
        assert!(error.to_string().contains(&file.label()), "{error}");
    }
}

#[test]
fn corrupt_headers_are_corrupt() {
    let bytes = valid_bytes();
    let mut not_json = bytes.clone();
    not_json[8] = b'x';
    let mut huge_length = bytes.clone();
    huge_length[..8].copy_from_slice(&u64::MAX.to_le_bytes());
    let mut bad_offsets = bytes.clone();
    let header_end = 8 + u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header = String::from_utf8(bytes[8..header_end].to_vec()).unwrap();
    let shifted = header.replacen("\"data_offsets\":[0,", "\"data_offsets\":[1,", 1);
    assert_ne!(shifted, header);
    bad_offsets[8..header_end].copy_from_slice(shifted.as_bytes());
    for (what, bytes) in [
        ("json", not_json),
        ("length", huge_length),
        ("offsets", bad_offsets),
    ] {
        let error = fails_cleanly(|| SafetensorsStore::from_bytes(Some(bytes.clone())));
        assert!(
            matches!(&error, StoreError::Corrupt { file, .. } if file == "<memory>"),
            "{what}: {error:?}"
        );
    }
}

#[test]
fn a_wrong_shape_names_the_key_and_both_shapes() {
    let mut store = SafetensorsStore::from_bytes(None);
    net_with(&Device::flex(), 1.0, true, [3, 2])
        .save_into(&mut store)
        .unwrap();
    let bytes = store.to_bytes().unwrap();
    let file = file_of("wrong-shape", &bytes);
    let error = fails_cleanly(|| SafetensorsStore::from_file(file.path()));
    assert_eq!(
        error,
        StoreError::ShapeMismatch {
            file: file.label(),
            key: "embed".into(),
            expected: vec![2, 3],
            found: vec![3, 2],
        }
    );
    assert!(error.to_string().contains("`embed`"), "{error}");
}

#[test]
fn a_problem_with_the_last_parameter_applies_none_of_the_others() {
    let mut raw = raw_of(&net(&Device::flex(), 1.0));
    let mask = raw.iter_mut().find(|r| r.key == "mask").unwrap();
    mask.shape = vec![4];
    let bytes = craft(&raw);
    let error = fails_cleanly(|| SafetensorsStore::from_bytes(Some(bytes.clone())));
    assert_eq!(error.key(), Some("mask"));
    assert!(
        matches!(error, StoreError::ShapeMismatch { .. }),
        "{error:?}"
    );
}

#[test]
fn a_missing_key_names_the_first_missing_parameter() {
    let mut store = SafetensorsStore::from_bytes(None);
    net_with(&Device::flex(), 1.0, false, [2, 3])
        .save_into(&mut store)
        .unwrap();
    let bytes = store.to_bytes().unwrap();
    let error = fails_cleanly(|| SafetensorsStore::from_bytes(Some(bytes.clone())));
    assert_eq!(
        error,
        StoreError::MissingKey {
            file: "<memory>".into(),
            key: "head.weight".into(),
            total_missing: 2,
        }
    );
    assert!(error.to_string().contains("and 1 other"), "{error}");
}

#[test]
fn an_unreadable_dtype_is_unsupported() {
    let mut raw = raw_of(&net(&Device::flex(), 1.0));
    let norm = raw.iter_mut().find(|r| r.key == "blocks.0.norm").unwrap();
    norm.dtype = Dtype::F8_E4M3;
    norm.bytes = vec![0x38; 3];
    let bytes = craft(&raw);
    let error = fails_cleanly(|| SafetensorsStore::from_bytes(Some(bytes.clone())));
    assert_eq!(
        error,
        StoreError::UnsupportedDType {
            file: "<memory>".into(),
            key: "blocks.0.norm".into(),
            dtype: "F8_E4M3".into(),
        }
    );
}

#[test]
fn a_tensor_of_another_kind_is_refused() {
    let mut raw = raw_of(&net(&Device::flex(), 1.0));
    let steps = raw.iter_mut().find(|r| r.key == "steps").unwrap();
    *steps = Raw::of("steps", &TensorData::from([1.0f32, 2.0, 3.0]));
    let bytes = craft(&raw);
    let error = fails_cleanly(|| SafetensorsStore::from_bytes(Some(bytes.clone())));
    assert_eq!(
        error,
        StoreError::KindMismatch {
            file: "<memory>".into(),
            key: "steps".into(),
            expected: "Int",
            found: DType::F32,
        }
    );
}

#[test]
fn unused_tensors_fail_the_load_when_denied() {
    let mut raw = raw_of(&net(&Device::flex(), 1.0));
    raw.push(Raw::of(
        "extra.running_mean",
        &TensorData::from([0.0f32; 3]),
    ));
    let bytes = craft(&raw);
    let error =
        fails_cleanly(|| SafetensorsStore::from_bytes(Some(bytes.clone())).allow_unused(false));
    assert_eq!(
        error,
        StoreError::UnusedKeys {
            file: "<memory>".into(),
            keys: vec!["extra.running_mean".into()],
        }
    );
    // Allowed (the default), the same file loads.
    let mut model = net(&Device::flex(), 2.0);
    let result = model
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes)))
        .unwrap();
    assert_eq!(result.unused, ["extra.running_mean"]);
}

#[test]
fn saving_into_a_missing_directory_is_an_io_error_naming_the_file() {
    let file = TempFile::new("parent");
    let missing_dir = file.path().with_extension("d").join("model.safetensors");
    let error = net(&Device::flex(), 3.0)
        .save_into(&mut SafetensorsStore::from_file(&missing_dir))
        .unwrap_err();
    assert!(matches!(error, StoreError::Io { .. }), "{error:?}");
    assert_eq!(error.file(), missing_dir.display().to_string());
    assert!(!missing_dir.exists());
}
