//! A device configured for `f64`: files of `f32` load converted, and saving keeps `f64`
//! unless a policy narrows it. (Its own test binary: the configuration is per process.)
#![cfg(feature = "flex")]

mod common;

use burn_core::tensor::{DType, Device, DeviceConfig, FloatDType};
use burn_store::{ModuleSnapshot, SafetensorsStore, StoreDTypePolicy};
use common::*;
use safetensors::SafeTensors;
use safetensors::tensor::Dtype;

#[test]
fn f32_files_load_into_an_f64_model_and_f64_models_save_either_way() {
    let mut device = Device::flex();
    device
        .configure(DeviceConfig::default().float_dtype(FloatDType::F64))
        .unwrap();
    let trained = net(&device, 1.0);
    assert_eq!(trained.embed.val().dtype(), DType::F64);

    // Saved as is: f64 in the file.
    let mut wide = SafetensorsStore::from_bytes(None);
    trained.save_into(&mut wide).unwrap();
    let bytes = wide.to_bytes().unwrap();
    assert_eq!(
        SafeTensors::deserialize(&bytes)
            .unwrap()
            .tensor("embed")
            .unwrap()
            .dtype(),
        Dtype::F64
    );

    // Narrowed to f32, then loaded back into f64 parameters.
    let mut narrow = SafetensorsStore::from_bytes(None)
        .with_dtype_policy(StoreDTypePolicy::Floats(FloatDType::F32));
    trained.save_into(&mut narrow).unwrap();
    let bytes = narrow.to_bytes().unwrap();
    assert_eq!(
        SafeTensors::deserialize(&bytes)
            .unwrap()
            .tensor("embed")
            .unwrap()
            .dtype(),
        Dtype::F32
    );
    let mut fresh = net(&device, 2.0);
    fresh.load_from(&mut narrow).unwrap();
    assert_eq!(fresh.embed.val().dtype(), DType::F64);
    for ((key, loaded), (_, original)) in dump(&fresh).iter().zip(dump(&trained).iter()) {
        assert_eq!(loaded.dtype, original.dtype, "`{key}`");
        if original.dtype.is_float() {
            let (a, b) = (
                loaded.to_vec::<f64>().unwrap(),
                original.to_vec::<f64>().unwrap(),
            );
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() < 1e-6, "`{key}`: {x} vs {y}");
            }
        } else {
            assert_eq!(loaded, original);
        }
    }
}
