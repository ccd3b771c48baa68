//! `#[derive(Module)]` and `#[derive(Config)]` from outside the crate.

use burn_core as burn;

use burn::config::{Config, ConfigError};
use burn::module::{Ignored, Module, ModuleVisitor, Param};
use burn::tensor::{Device, Tensor};

#[derive(Module, Debug)]
struct Leaf {
    weight: Param<Tensor<2>>,
    bias: Option<Param<Tensor<1>>>,
}

#[derive(Module, Debug)]
enum Block {
    Dense(Box<Leaf>),
    Identity,
}

#[derive(Module, Debug)]
struct Net {
    layers: Vec<Leaf>,
    head: Block,
    skip: Block,
    scale: f64,
    note: Ignored<String>,
}

fn leaf(device: &Device, rows: usize, bias: bool) -> Leaf {
    Leaf {
        weight: Param::from_tensor(Tensor::ones([rows, 2], device)),
        bias: bias.then(|| Param::from_tensor(Tensor::zeros([2], device))),
    }
}

fn net(device: &Device) -> Net {
    Net {
        layers: vec![leaf(device, 3, true), leaf(device, 2, false)],
        head: Block::Dense(Box::new(leaf(device, 2, true))),
        skip: Block::Identity,
        scale: 0.5,
        note: Ignored("kept".into()),
    }
}

/// Records the path of every float parameter.
#[derive(Default)]
struct Paths {
    stack: Vec<String>,
    found: Vec<(String, Vec<usize>)>,
}

impl ModuleVisitor for Paths {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.stack.push(name.to_string());
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.stack.pop();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.found
            .push((self.stack.join("."), param.lazy_shape().to_vec()));
    }
}

#[test]
fn derived_modules_visit_every_parameter_under_its_path() {
    let model = net(&Device::flex());
    let mut paths = Paths::default();
    model.visit(&mut paths);
    let names: Vec<&str> = paths.found.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "layers.0.weight",
            "layers.0.bias",
            "layers.1.weight",
            "head.Dense.weight",
            "head.Dense.bias"
        ]
    );
    assert_eq!(model.num_params(), 6 + 2 + 4 + 4 + 2);
}

#[test]
fn valid_and_to_device_move_between_autodiff_and_inner_devices() {
    let device = Device::flex().autodiff();
    let model = net(&device);
    assert!(model.layers[0].weight.val().is_require_grad());
    let inference = model.valid();
    let weight = inference.layers[0].weight.val();
    assert!(!weight.device().is_autodiff() && !weight.is_require_grad());
    assert_eq!(inference.devices(), vec![Device::flex()]);
    // Back on the autodiff device, parameters are trainable leaves again.
    let trainable = inference.to_device(&device);
    assert!(trainable.layers[0].weight.val().is_require_grad());
    let frozen = trainable.no_grad();
    assert!(!frozen.layers[0].weight.val().is_require_grad());
    assert_eq!(frozen.note.0, "kept");
    assert_eq!(frozen.scale, 0.5);
}

#[test]
fn lazy_parameters_initialize_on_first_use_on_their_current_device() {
    let param = Param::<Tensor<1>>::uninitialized(
        burn::module::ParamId::new(),
        |device, require_grad| {
            let t = Tensor::<1>::full([4], 2.0, device);
            if require_grad { t.require_grad() } else { t }
        },
        Device::flex(),
        true,
        [4].into(),
    );
    assert!(!param.is_initialized());
    assert_eq!(param.lazy_shape().dims.to_vec(), vec![4]);
    let param = param.to_device(&Device::flex().autodiff());
    assert!(!param.is_initialized());
    let value = param.val();
    assert!(value.device().is_autodiff() && value.is_require_grad());
    assert_eq!(value.sum().into_scalar::<f64>(), 8.0);
}

#[derive(Config, Debug, PartialEq)]
struct LayerConfig {
    /// Inputs.
    d_input: usize,
    #[config(default = 16)]
    d_hidden: usize,
    #[config(default = "Activation::Relu")]
    activation: Activation,
    dropout: Option<f64>,
}

#[derive(Config, Debug, PartialEq)]
enum Activation {
    Relu,
    LeakyRelu { slope: f64 },
}

#[test]
fn configs_have_builders_and_round_trip_through_json() {
    let config = LayerConfig::new(8)
        .with_d_hidden(32)
        .with_activation(Activation::LeakyRelu { slope: 0.1 })
        .with_dropout(Some(0.25));
    assert_eq!(LayerConfig::new(8).d_hidden, 16);
    assert_eq!(LayerConfig::new(8).dropout, None);
    let path = std::env::temp_dir().join(format!("burn-config-{}.json", std::process::id()));
    config.save(&path).unwrap();
    let loaded = LayerConfig::load(&path).unwrap();
    assert_eq!(loaded, config);
    assert!(config.to_string().contains("\"d_hidden\": 32"));

    std::fs::write(&path, "{ \"d_input\": ").unwrap();
    let err = LayerConfig::load(&path).unwrap_err();
    assert!(matches!(err, ConfigError::InvalidFormat(_)), "{err}");
    assert!(err.to_string().contains(&path.display().to_string()));
    std::fs::remove_file(&path).unwrap();
    let err = LayerConfig::load(&path).unwrap_err();
    assert!(matches!(err, ConfigError::FileNotFound(_)), "{err}");
}
