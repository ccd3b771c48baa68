//! Training state the way a Burn 0.23 user drives it: `valid()` / `train()`, `freeze()` and
//! `unfreeze()`, parameter groups (`freeze_group`, `set_require_grad_group`,
//! `into_record_group`), and the dropout flag they switch.

use burn::module::{Module, ParamGroup};
use burn::nn::{Dropout, DropoutConfig, Linear, LinearConfig};
use burn::prelude::*;

#[derive(Module, Debug)]
struct Net {
    encoder: Linear,
    dropout: Dropout,
    head: Linear,
}

impl Net {
    fn new(device: &Device) -> Self {
        Self {
            encoder: LinearConfig::new(8, 8).init(device),
            dropout: DropoutConfig::new(0.5).init(),
            head: LinearConfig::new(8, 2).init(device),
        }
    }
}

fn training_device() -> Device {
    Device::default().autodiff()
}

/// Whether dropout zeroed anything in a large input on `device`.
fn drops(dropout: &Dropout, device: &Device) -> bool {
    let x = Tensor::<2>::ones([64, 64], device);
    let y = dropout.forward(x).into_data().to_vec::<f32>().unwrap();
    y.contains(&0.0)
}

#[test]
fn valid_turns_training_off_and_train_turns_it_back_on() {
    let device = training_device();
    let net = Net::new(&device);
    assert!(drops(&net.dropout, &device));

    let inference = net.valid();
    assert!(!inference.dropout.training.is_enabled());
    assert!(!inference.encoder.weight.val().is_autodiff());

    let again = inference.train();
    assert!(again.dropout.training.is_enabled());
    assert!(again.encoder.weight.val().is_autodiff());
    assert!(again.encoder.weight.val().is_require_grad());
    assert!(drops(&again.dropout, &device));
}

#[test]
fn freeze_stops_gradients_and_dropout_even_on_the_training_device() {
    let device = training_device();
    let frozen = Net::new(&device).freeze();
    assert!(!frozen.encoder.weight.is_require_grad());
    assert!(!frozen.dropout.training.is_enabled());
    assert!(!drops(&frozen.dropout, &device));
    let thawed = frozen.train();
    assert!(
        !thawed.dropout.training.is_enabled(),
        "train does not undo freeze"
    );

    let unfrozen = thawed.unfreeze();
    assert!(unfrozen.encoder.weight.is_require_grad());
    assert!(drops(&unfrozen.dropout, &device));
}

#[test]
fn groups_select_parameters_by_path() {
    let device = training_device();
    let net = Net::new(&device).freeze_group(ParamGroup::from_predicate("encoder"));
    assert!(!net.encoder.weight.is_require_grad());
    assert!(!net.encoder.bias.as_ref().unwrap().is_require_grad());
    assert!(net.head.weight.is_require_grad());
    assert!(net.dropout.training.is_enabled(), "the group holds no flag");

    let net = net.set_require_grad_group(ParamGroup::from_path("encoder.weight"), true);
    assert!(net.encoder.weight.is_require_grad());
    assert!(!net.encoder.bias.as_ref().unwrap().is_require_grad());
}

#[test]
fn a_record_of_a_group_holds_only_its_parameters() {
    let device = Device::default();
    let net = Net::new(&device);
    let head = net.head.weight.val().into_data();
    let record = net.into_record_group(ParamGroup::from_regex(r"^head\.").unwrap());
    assert_eq!(record.len(), 2);
    let fresh = Net::new(&device).load_record(record.allow_partial(true));
    assert_eq!(fresh.head.weight.val().into_data(), head);
}

#[test]
fn the_display_shows_the_flag() {
    let net = Net::new(&Device::default()).freeze();
    let text = net.to_string();
    assert!(text.contains("training: disabled"), "{text}");
}
