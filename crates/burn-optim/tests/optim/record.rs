//! Saving and loading optimizer state: a record written after some steps, serialized and
//! loaded into a fresh optimizer, makes the next step identical.

use super::common::{Tiny, device, grads, tiny, values};
use burn_optim::decay::WeightDecayConfig;
use burn_optim::momentum::MomentumConfig;
use burn_optim::{
    AdaGradConfig, AdamConfig, AdamWConfig, Optimizer, OptimizerRecord, RmsPropConfig, SgdConfig,
};

/// Two steps with `make()`, then a third both with it and with a fresh `make()` loaded from
/// its record after a JSON round trip: the results must be bit-identical. Returns the record.
fn check_round_trip<O: Optimizer<Tiny>>(make: impl Fn() -> O) -> OptimizerRecord {
    let mut optim = make();
    assert!(optim.to_record().is_empty());
    let mut model = tiny(&device());
    for lr in [0.1, 0.05] {
        let grads = grads(&model);
        model = optim.step(lr, model, grads);
    }
    let record = optim.to_record();
    let json = serde_json::to_string(&record).unwrap();
    let loaded: OptimizerRecord = serde_json::from_str(&json).unwrap();
    assert_eq!(loaded, record);
    let mut fresh = make().load_record(loaded);

    let next = optim.step(0.2, model.clone(), grads(&model));
    let resumed = fresh.step(0.2, model.clone(), grads(&model));
    assert_eq!(values(&next), values(&resumed));
    // Without the state, the step differs.
    let mut forgetful = make();
    let restarted = forgetful.step(0.2, model.clone(), grads(&model));
    assert_ne!(values(&next), values(&restarted));
    // The resumed optimizer's record continues the saved one.
    let after = fresh.to_record();
    assert!(after.params.values().all(|state| state.step == 3));
    record
}

#[test]
fn sgd_state_round_trips() {
    let record = check_round_trip(|| {
        SgdConfig::new()
            .with_momentum(Some(MomentumConfig::new().with_nesterov(true)))
            .with_weight_decay(Some(WeightDecayConfig::new(0.01)))
            .init::<Tiny>()
    });
    assert_eq!(record.optimizer, "Sgd");
    assert_eq!(record.len(), 2);
    let state = record.params.values().next().unwrap();
    assert_eq!(state.step, 2);
    assert!(state.tensor("momentum_buffer").is_some());
}

#[test]
fn adam_state_round_trips() {
    let record = check_round_trip(|| AdamConfig::new().with_amsgrad(true).init::<Tiny>());
    let state = record.params.values().next().unwrap();
    let names: Vec<&str> = state.tensors.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["max_moment_2", "moment_1", "moment_2"]);
}

#[test]
fn adamw_state_round_trips() {
    check_round_trip(|| AdamWConfig::new().with_weight_decay(0.1).init::<Tiny>());
}

#[test]
fn rmsprop_state_round_trips() {
    let record = check_round_trip(|| {
        RmsPropConfig::new()
            .with_centered(true)
            .with_momentum(0.9)
            .init::<Tiny>()
    });
    let state = record.params.values().next().unwrap();
    assert_eq!(state.tensors.len(), 3);
}

#[test]
fn adagrad_state_round_trips() {
    check_round_trip(|| AdaGradConfig::new().with_lr_decay(0.1).init::<Tiny>());
}

#[test]
fn records_hold_the_state_tensors_with_shapes() {
    let mut optim = AdamConfig::new().init::<Tiny>();
    let model = tiny(&device());
    let (bias_id, weight_id) = (model.bias.id, model.weight.id);
    let grads = grads(&model);
    let _ = optim.step(0.1, model, grads);
    let record = optim.to_record();
    let weight = record.get(weight_id).unwrap().tensor("moment_1").unwrap();
    assert_eq!(weight.shape.dims.to_vec(), vec![2, 2]);
    let bias = record.get(bias_id).unwrap().tensor("moment_2").unwrap();
    assert_eq!(bias.shape.dims.to_vec(), vec![3]);
    // The JSON form holds the bytes as hex.
    let json = serde_json::to_value(&record).unwrap();
    let first = &json["params"][bias_id.val().to_string()]["tensors"][0];
    assert_eq!(first["name"], "moment_1");
    assert_eq!(first["bytes"].as_str().unwrap().len(), 3 * 4 * 2);
}

#[test]
#[should_panic(expected = "a record written by `Adam` cannot be loaded into `Sgd`")]
fn records_of_another_optimizer_are_refused() {
    let mut adam = AdamConfig::new().init::<Tiny>();
    let model = tiny(&device());
    let grads = grads(&model);
    let _ = adam.step(0.1, model, grads);
    let _ = SgdConfig::new()
        .init::<Tiny>()
        .load_record(adam.to_record());
}

#[test]
fn corrupt_records_are_refused_when_read() {
    let json = r#"{"optimizer":"Adam","params":{"7":{"step":1,"tensors":[
        {"name":"moment_1","dtype":"F32","shape":[2],"bytes":"0000803f"}]}}}"#;
    let err = serde_json::from_str::<OptimizerRecord>(json).unwrap_err();
    assert!(
        err.to_string().contains("4 bytes do not hold shape [2]"),
        "{err}"
    );
}
