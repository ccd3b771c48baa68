//! Loading onto each parameter's device: a plain-device file into an autodiff model and
//! back, gradient requirements kept.
#![cfg(all(feature = "flex", feature = "autodiff"))]

mod common;

use burn_core::module::Module;
use burn_core::tensor::Device;
use burn_store::{ModuleSnapshot, SafetensorsStore};
use common::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

fn saved(device: &Device, seed: f32) -> (Net, SafetensorsStore) {
    let model = net(device, seed);
    let mut store = SafetensorsStore::from_bytes(None);
    model.save_into(&mut store).unwrap();
    (model, store)
}

#[test]
fn a_plain_device_file_loads_into_an_autodiff_model_that_still_trains() {
    let (trained, mut store) = saved(&Device::flex(), 1.0);
    let device = Device::flex().autodiff();
    let mut model = net(&device, 2.0);
    model.load_from(&mut store).unwrap();

    assert_eq!(model.devices(), vec![device.clone()]);
    let embed = model.embed.val();
    assert!(embed.device().is_autodiff() && embed.is_require_grad());
    assert!(model.embed.is_require_grad());
    assert_same(&dump(&model.valid()), &dump(&trained));

    // A training step reaches the loaded leaves.
    let weight = model.blocks[0].linear.weight.val();
    let loss = embed.clone().matmul(weight.clone()).sum();
    let grads = loss.backward();
    let d_embed = embed.grad(&grads).expect("embed is a trainable leaf");
    let d_weight = weight.grad(&grads).expect("the weight is a trainable leaf");
    assert_eq!(d_embed.dims(), [2, 3]);
    assert_eq!(d_weight.dims(), [3, 3]);
}

#[test]
fn frozen_parameters_stay_frozen() {
    let (_, mut store) = saved(&Device::flex(), 1.0);
    let device = Device::flex().autodiff();
    let mut model = net(&device, 2.0).no_grad();
    model.load_from(&mut store).unwrap();
    assert!(!model.embed.is_require_grad());
    assert!(!model.embed.val().is_require_grad());
    assert!(model.embed.val().device().is_autodiff());
}

#[test]
fn an_autodiff_file_loads_into_a_plain_model() {
    let (trained, mut store) = saved(&Device::flex().autodiff(), 1.0);
    let mut model = net(&Device::flex(), 2.0);
    model.load_from(&mut store).unwrap();
    assert_eq!(model.devices(), vec![Device::flex()]);
    assert!(!model.embed.val().device().is_autodiff());
    assert_same(&dump(&model), &dump(&trained.valid()));
}

#[test]
fn lazy_parameters_moved_to_an_autodiff_device_load_there_trainable() {
    let (trained, mut store) = saved(&Device::flex(), 1.0);
    let runs = Arc::new(AtomicUsize::new(0));
    let device = Device::flex().autodiff();
    let mut model = lazy_net(&Device::flex(), &runs).to_device(&device);
    assert_eq!(Initialized::of(&model).lazy, 10);
    model.load_from(&mut store).unwrap();
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let norm = model.blocks[1].norm.val();
    assert!(norm.device().is_autodiff() && norm.is_require_grad());
    assert_same(&dump(&model.valid()), &dump(&trained));
}
