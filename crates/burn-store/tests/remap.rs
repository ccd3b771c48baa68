//! Loading files whose keys differ from the module paths: remapping, unused tensors,
//! partial loads.
#![cfg(feature = "flex")]

mod common;

use burn_core::tensor::{Device, TensorData};
use burn_store::{KeyRemapper, ModuleSnapshot, SafetensorsStore, StoreError};
use common::*;
use safetensors::tensor::Dtype;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The tensors of `net(1.0)` under PyTorch-style names: a `model.` prefix, `layer` for
/// `blocks`, `gamma` for `norm`.
fn pytorch_style() -> (Net, Vec<Raw>) {
    let trained = net(&Device::flex(), 1.0);
    let raw = raw_of(&trained)
        .into_iter()
        .map(|mut r| {
            let key = r
                .key
                .replace("blocks.", "layer.")
                .replace(".norm", ".gamma");
            r.key = format!("model.{key}");
            r
        })
        .collect();
    (trained, raw)
}

fn pytorch_remapper() -> KeyRemapper {
    KeyRemapper::new()
        .prefix("model.", "")
        .prefix("layer.", "blocks.")
        .segment("gamma", "norm")
}

#[test]
fn pytorch_style_names_load_through_a_remapper() {
    let (trained, raw) = pytorch_style();
    let bytes = craft(&raw);

    // Without remapping nothing matches.
    let mut model = net(&Device::flex(), 2.0);
    let error = model
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes.clone())))
        .unwrap_err();
    assert!(
        matches!(&error, StoreError::MissingKey { key, total_missing: 10, .. } if key == "embed"),
        "{error:?}"
    );

    let mut store = SafetensorsStore::from_bytes(Some(bytes)).with_key_remapper(pytorch_remapper());
    let result = model.load_from(&mut store).unwrap();
    assert_eq!(result.applied, keys());
    assert!(result.unused.is_empty());
    assert_same(&dump(&model), &dump(&trained));
}

#[test]
fn a_closure_remapper_can_rewrite_anything() {
    let trained = net(&Device::flex(), 1.0);
    let raw: Vec<Raw> = raw_of(&trained)
        .into_iter()
        .map(|mut r| {
            r.key = r.key.to_uppercase();
            r
        })
        .collect();
    let mut model = net(&Device::flex(), 2.0);
    let mut store = SafetensorsStore::from_bytes(Some(craft(&raw)))
        .with_key_remapper(KeyRemapper::new().with_fn(|key| key.to_lowercase()));
    model.load_from(&mut store).unwrap();
    assert_same(&dump(&model), &dump(&trained));
}

#[test]
fn unused_tensors_are_reported_under_their_stored_names() {
    let (trained, mut raw) = pytorch_style();
    raw.push(Raw::of(
        "model.layer.0.num_batches_tracked",
        &TensorData::from([7i64]),
    ));
    raw.push(Raw {
        key: "optimizer.scale".into(),
        dtype: Dtype::F8_E4M3, // unreadable, but unused: not an error
        shape: vec![2],
        bytes: vec![0x38, 0x38],
    });
    let mut model = net(&Device::flex(), 2.0);
    let mut store =
        SafetensorsStore::from_bytes(Some(craft(&raw))).with_key_remapper(pytorch_remapper());
    let result = model.load_from(&mut store).unwrap();
    assert_eq!(
        result.unused,
        ["model.layer.0.num_batches_tracked", "optimizer.scale"]
    );
    assert!(!result.is_exact());
    assert!(result.to_string().contains("2 unused"), "{result}");
    assert_same(&dump(&model), &dump(&trained));
}

#[test]
fn partial_loads_report_missing_parameters_and_keep_their_values() {
    let trained = net(&Device::flex(), 1.0);
    let raw: Vec<Raw> = raw_of(&trained)
        .into_iter()
        .filter(|r| !r.key.starts_with("head."))
        .collect();
    let bytes = craft(&raw);

    let mut model = net(&Device::flex(), 2.0);
    let head_before = dump(model.head.as_ref().unwrap());
    let result = model
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes.clone())).allow_partial(true))
        .unwrap();
    assert_eq!(result.missing, ["head.weight", "head.bias"]);
    assert_eq!(result.applied.len(), 8);
    assert_same(&dump(model.head.as_ref().unwrap()), &head_before);
    assert_eq!(dump(&model)[0], dump(&trained)[0]);

    // Lazy parameters without a tensor stay lazy.
    let runs = Arc::new(AtomicUsize::new(0));
    let mut lazy = lazy_net(&Device::flex(), &runs);
    lazy.load_from(&mut SafetensorsStore::from_bytes(Some(bytes)).allow_partial(true))
        .unwrap();
    let counts = Initialized::of(&lazy);
    assert_eq!((counts.initialized, counts.lazy), (8, 2));
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn keys_remapped_onto_one_path_are_an_error() {
    let mut raw = raw_of(&net(&Device::flex(), 1.0));
    raw.push(Raw::of(
        "old.embed",
        &TensorData::new(vec![0.0f32; 6], [2, 3]),
    ));
    let mut model = net(&Device::flex(), 2.0);
    let before = dump(&model);
    let mut store = SafetensorsStore::from_bytes(Some(craft(&raw)))
        .with_key_remapper(KeyRemapper::new().prefix("old.", ""));
    let error = model.load_from(&mut store).unwrap_err();
    assert_eq!(
        error,
        StoreError::DuplicateKey {
            file: "<memory>".into(),
            key: "embed".into(),
            sources: ["embed".into(), "old.embed".into()],
        }
    );
    assert_same(&dump(&model), &before);
}
