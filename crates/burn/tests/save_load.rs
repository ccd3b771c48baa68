//! Saving and loading a module the way a Burn 0.23 user does: `save_file(path)` writes a
//! burnpack file, `load_file` / `try_load_file` read it back into a freshly built module, and
//! `into_record` / `load_record` do the same in memory.

use burn::module::Module;
use burn::nn::{Linear, LinearConfig, Relu};
use burn::prelude::*;
use burn::store::{ModuleRecord, RecordError};

#[derive(Module, Debug)]
struct Mlp {
    hidden: Linear,
    activation: Relu,
    output: Linear,
    #[module(skip)]
    name: String,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            hidden: LinearConfig::new(4, 3).init(device),
            activation: Relu::new(),
            output: LinearConfig::new(3, 2).init(device),
            name: "mlp".into(),
        }
    }

    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        self.output
            .forward(self.activation.forward(self.hidden.forward(x)))
    }
}

/// A scratch folder removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(tag: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("burn-save-load-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn outputs(model: &Mlp, device: &Device) -> Vec<f32> {
    let x = Tensor::<2>::from_data([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]], device);
    model.forward(x).into_data().to_vec::<f32>().unwrap()
}

#[test]
fn a_saved_module_loads_into_a_fresh_one_and_computes_the_same() {
    let device = Device::default();
    let scratch = Scratch::new("roundtrip");
    let path = scratch.0.join("model.bpk");

    let trained = Mlp::new(&device);
    let expected = outputs(&trained, &device);
    trained.save_file(&path).expect("save");
    assert!(path.exists(), "save_file writes at the path given");

    let fresh = Mlp::new(&device);
    assert_ne!(
        outputs(&fresh, &device),
        expected,
        "a fresh model starts elsewhere"
    );
    let loaded = fresh.load_file(&path);
    assert_eq!(outputs(&loaded, &device), expected);
    assert_eq!(loaded.name, "mlp");
}

#[test]
fn a_path_without_extension_gets_bpk() {
    let device = Device::default();
    let scratch = Scratch::new("extension");
    let model = Mlp::new(&device);
    let expected = outputs(&model, &device);
    model.save_file(scratch.0.join("model")).unwrap();
    assert!(scratch.0.join("model.bpk").exists());
    let loaded = Mlp::new(&device)
        .try_load_file(scratch.0.join("model"))
        .unwrap();
    assert_eq!(outputs(&loaded, &device), expected);
}

#[test]
fn loading_keeps_the_parameter_ids_so_optimizer_state_follows() {
    let device = Device::default();
    let trained = Mlp::new(&device);
    let id = trained.hidden.weight.id;
    let record = trained.into_record();
    assert_eq!(record.len(), 4, "two weights and two biases");
    let loaded = Mlp::new(&device).load_record(record);
    assert_eq!(loaded.hidden.weight.id, id);
}

#[test]
fn a_record_survives_bytes() {
    let device = Device::default();
    let trained = Mlp::new(&device);
    let expected = outputs(&trained, &device);
    let bytes = trained.into_record().into_bytes().unwrap();
    let record = ModuleRecord::from_bytes(bytes).unwrap();
    let loaded = Mlp::new(&device).try_load_record(record).unwrap();
    assert_eq!(outputs(&loaded, &device), expected);
}

#[derive(Module, Debug)]
struct Wider {
    hidden: Linear,
    activation: Relu,
    output: Linear,
}

#[test]
fn a_record_of_another_shape_is_refused_with_the_parameter_named() {
    let device = Device::default();
    let record = Mlp::new(&device).into_record();
    let wider = Wider {
        hidden: LinearConfig::new(4, 5).init(&device),
        activation: Relu::new(),
        output: LinearConfig::new(5, 2).init(&device),
    };
    let error = wider.try_load_record(record).unwrap_err();
    let RecordError::Validation(message) = &error else {
        panic!("expected a validation error, got {error:?}");
    };
    assert!(message.contains("hidden.weight"), "{message}");
}

#[test]
fn a_missing_file_is_an_error_not_a_panic() {
    let device = Device::default();
    let scratch = Scratch::new("missing");
    let error = Mlp::new(&device)
        .try_load_file(scratch.0.join("absent.bpk"))
        .unwrap_err();
    assert!(matches!(error, RecordError::Io(_)), "{error:?}");
}

#[test]
fn a_file_that_is_not_burnpack_is_an_error() {
    let device = Device::default();
    let scratch = Scratch::new("garbage");
    let path = scratch.0.join("garbage.bpk");
    std::fs::write(&path, b"not a burnpack file at all").unwrap();
    assert!(Mlp::new(&device).try_load_file(&path).is_err());
}

#[test]
fn partial_records_load_when_allowed() {
    let device = Device::default();
    #[derive(Module, Debug)]
    struct Head {
        output: Linear,
    }
    let head = Head {
        output: LinearConfig::new(3, 2).init(&device),
    };
    let weight = head.output.weight.val().into_data();
    let record = head.into_record();
    let model = Mlp::new(&device);
    assert!(model.clone().try_load_record(record.clone()).is_err());
    let loaded = model.load_record(record.allow_partial(true));
    assert_eq!(loaded.output.weight.val().into_data(), weight);
}
