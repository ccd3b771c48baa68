//! Saving a model and loading it back: files, buffers, metadata, dtypes, lazy parameters.
#![cfg(feature = "flex")]

mod common;

use burn_core::module::Module;
use burn_core::tensor::{DType, Device, FloatDType, TensorData};
use burn_store::{LoadOptions, ModuleSnapshot, SafetensorsStore, StoreDTypePolicy};
use common::*;
use safetensors::SafeTensors;
use safetensors::tensor::Dtype;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn a_file_round_trip_restores_every_value() {
    let device = Device::flex();
    let file = TempFile::new("round-trip");
    let trained = net(&device, 1.0);
    trained
        .save_into(&mut SafetensorsStore::from_file(file.path()))
        .unwrap();

    let mut fresh = net(&device, 2.0);
    let label_before = fresh.label.clone();
    let result = fresh
        .load_from(&mut SafetensorsStore::from_file(file.path()))
        .unwrap();
    assert_eq!(result.applied, keys());
    assert!(result.is_exact(), "{result}");
    assert_same(&dump(&fresh), &dump(&trained));
    assert_eq!(fresh.label, label_before, "constants are not stored");
}

#[test]
fn keys_are_module_paths_and_each_tensor_keeps_its_dtype() {
    let device = Device::flex();
    let mut store = SafetensorsStore::from_bytes(None);
    net(&device, 1.0).save_into(&mut store).unwrap();
    let mut expected = keys();
    expected.sort();
    assert_eq!(store.read_keys().unwrap(), expected);

    let bytes = store.to_bytes().unwrap();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    assert_eq!(file.tensor("embed").unwrap().dtype(), Dtype::F32);
    assert_eq!(file.tensor("embed").unwrap().shape(), [2, 3]);
    assert_eq!(file.tensor("steps").unwrap().dtype(), Dtype::I64);
    assert_eq!(file.tensor("mask").unwrap().dtype(), Dtype::BOOL);
    assert_eq!(file.tensor("mask").unwrap().data(), [0u8, 0, 1, 0]);
}

#[test]
fn buffers_round_trip_with_metadata() {
    let device = Device::flex();
    let mut store = SafetensorsStore::from_bytes(None)
        .metadata("epoch", "3")
        .metadata("producer", "tests");
    let trained = net(&device, 1.0);
    trained.save_into(&mut store).unwrap();

    let metadata = store.read_metadata().unwrap();
    assert_eq!(metadata["epoch"], "3");
    assert_eq!(
        metadata["producer"], "tests",
        "user entries override defaults"
    );
    assert_eq!(metadata["format"], "pt");

    // The same store loads what it saved; a new one loads the bytes.
    let mut fresh = net(&device, 2.0);
    fresh.load_from(&mut store).unwrap();
    assert_same(&dump(&fresh), &dump(&trained));
    let mut again = net(&device, 3.0);
    let mut copy = SafetensorsStore::from_bytes(Some(store.to_bytes().unwrap()));
    again.load_from(&mut copy).unwrap();
    assert_same(&dump(&again), &dump(&trained));
    assert_eq!(copy.read_metadata().unwrap()["epoch"], "3");
}

fn narrowed_round_trip(dtype: FloatDType, file_dtype: Dtype, tolerance: f32) {
    let device = Device::flex();
    let trained = net(&device, 1.0);
    let mut store =
        SafetensorsStore::from_bytes(None).with_dtype_policy(StoreDTypePolicy::Floats(dtype));
    trained.save_into(&mut store).unwrap();
    let bytes = store.to_bytes().unwrap();
    let file = SafeTensors::deserialize(&bytes).unwrap();
    assert_eq!(file.tensor("embed").unwrap().dtype(), file_dtype);
    assert_eq!(
        file.tensor("steps").unwrap().dtype(),
        Dtype::I64,
        "ints keep theirs"
    );

    let mut fresh = net(&device, 2.0);
    fresh.load_from(&mut store).unwrap();
    for ((key, loaded), (_, original)) in dump(&fresh).iter().zip(dump(&trained).iter()) {
        assert_eq!(
            loaded.dtype, original.dtype,
            "`{key}` is back in the model's dtype"
        );
        if !original.dtype.is_float() {
            assert_eq!(loaded, original);
            continue;
        }
        let (a, b) = (
            loaded.to_vec::<f32>().unwrap(),
            original.to_vec::<f32>().unwrap(),
        );
        for (x, y) in a.iter().zip(&b) {
            assert!(
                (x - y).abs() <= tolerance * y.abs().max(1.0),
                "`{key}`: {x} vs {y}"
            );
        }
        assert_ne!(a, b, "`{key}` went through {dtype}");
    }
}

#[test]
fn an_f16_policy_round_trips_within_f16_precision() {
    narrowed_round_trip(FloatDType::F16, Dtype::F16, 1e-3);
}

#[test]
fn a_bf16_policy_round_trips_within_bf16_precision() {
    narrowed_round_trip(FloatDType::BF16, Dtype::BF16, 8e-3);
}

#[test]
fn wider_and_other_int_dtypes_in_the_file_are_converted_on_load() {
    let device = Device::flex();
    let trained = net(&device, 1.0);
    let raw: Vec<Raw> = dump(&trained)
        .iter()
        .map(|(key, data)| match data.dtype {
            DType::F32 => Raw::of(key, &data.clone().convert_dtype(DType::F64)),
            DType::I64 => Raw::of(key, &data.clone().convert_dtype(DType::I32)),
            _ => Raw::of(key, data),
        })
        .collect();
    let mut fresh = net(&device, 2.0);
    fresh
        .load_from(&mut SafetensorsStore::from_bytes(Some(craft(&raw))))
        .unwrap();
    assert_same(&dump(&fresh), &dump(&trained));
}

#[test]
fn lazy_parameters_are_replaced_without_running_their_initializer() {
    let device = Device::flex();
    let mut store = SafetensorsStore::from_bytes(None);
    let trained = net(&device, 1.0);
    trained.save_into(&mut store).unwrap();

    let runs = Arc::new(AtomicUsize::new(0));
    let mut model = lazy_net(&device, &runs);
    assert_eq!(Initialized::of(&model).lazy, 10);
    model.load_from(&mut store).unwrap();
    let counts = Initialized::of(&model);
    assert_eq!((counts.initialized, counts.lazy), (10, 0));
    assert_same(&dump(&model), &dump(&trained));
    assert_eq!(runs.load(Ordering::SeqCst), 0, "no initializer ran");
}

#[test]
fn snapshots_collect_and_apply_without_a_store() {
    let device = Device::flex();
    let trained = net(&device, 1.0);
    let snapshots = trained.collect().unwrap();
    assert_eq!(
        snapshots.iter().map(|s| s.key.clone()).collect::<Vec<_>>(),
        keys()
    );
    assert_eq!(snapshots[0].shape(), [2, 3]);
    assert_eq!(snapshots[0].dtype(), DType::F32);
    let mut fresh = net(&device, 2.0);
    let result = fresh.apply(&snapshots, &LoadOptions::new()).unwrap();
    assert_eq!(result.applied.len(), 10);
    assert_same(&dump(&fresh), &dump(&trained));
}

#[test]
fn params_keep_their_ids_and_the_module_keeps_its_structure() {
    let device = Device::flex();
    let mut store = SafetensorsStore::from_bytes(None);
    net(&device, 1.0).save_into(&mut store).unwrap();
    let mut fresh = net(&device, 2.0);
    let ids = (fresh.embed.id, fresh.steps.id, fresh.blocks[1].norm.id);
    fresh.load_from(&mut store).unwrap();
    assert_eq!(
        ids,
        (fresh.embed.id, fresh.steps.id, fresh.blocks[1].norm.id)
    );
    assert_eq!(fresh.num_params(), 6 + 9 + 3 + 3 + 9 + 3 + 6 + 2);
    assert_eq!(
        fresh.steps.val().into_data(),
        TensorData::from([1i64, 2, -3])
    );
}
