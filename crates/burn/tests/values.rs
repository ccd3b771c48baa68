//! Tensors, configs and plain module fields as values, the way a Burn 0.23 user handles them:
//! `Tensor::from(data)`, `extract` and `inplace`, configs saved to and loaded from files,
//! `empty!` for a custom constant field, parameter ids printed and parsed, and the activation
//! functions of `burn::tensor::activation` by their Burn names.

use burn::config::{Config, ConfigError};
use burn::empty;
use burn::module::{Module, ParamId};
use burn::prelude::*;
use burn::tensor::activation;
use std::str::FromStr;

fn values<const D: usize>(t: Tensor<D>) -> Vec<f32> {
    t.into_data().to_vec::<f32>().unwrap()
}

#[test]
fn tensors_convert_from_data_and_move_out_of_references() {
    let mut x: Tensor<2> = Tensor::from([[1.0f32, 2.0], [3.0, 4.0]]);
    assert_eq!(x.dims(), [2, 2]);
    x.inplace(|t| t.mul_scalar(2.0));
    assert_eq!(values(x.clone()), [2.0, 4.0, 6.0, 8.0]);
    let taken = x.extract();
    assert_eq!(x.dims(), [0, 0]);
    assert_eq!(values(taken), [2.0, 4.0, 6.0, 8.0]);
}

#[derive(Config, Debug)]
struct TrainingConfig {
    batch_size: usize,
    #[config(default = 1.0e-3)]
    learning_rate: f64,
}

#[test]
fn configs_save_and_load_with_burns_errors() {
    let dir = std::env::temp_dir().join(format!("burn-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.json");
    let config = TrainingConfig::new(32).with_learning_rate(0.1);
    let saved: std::io::Result<()> = config.save(&path);
    saved.unwrap();
    let loaded = TrainingConfig::load(&path).unwrap();
    assert_eq!((loaded.batch_size, loaded.learning_rate), (32, 0.1));

    std::fs::write(&path, "{ \"batch_size\": ").unwrap();
    match TrainingConfig::load(&path) {
        Err(ConfigError::InvalidFormat(message)) => assert!(!message.is_empty()),
        other => panic!("expected InvalidFormat, got {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
    match TrainingConfig::load(&path) {
        Err(ConfigError::FileNotFound(_)) => {}
        other => panic!("expected FileNotFound, got {other:?}"),
    }
}

/// A field type of the user's own that the module tree carries as a constant.
#[derive(Clone, Debug)]
struct Scale(f32);

impl core::fmt::Display for Scale {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "scale {}", self.0)
    }
}

empty!(Scale);

#[derive(Module, Debug)]
struct Scaled {
    weight: burn::module::Param<Tensor<1>>,
    scale: Scale,
}

#[test]
fn empty_makes_a_constant_field() {
    let device = Device::default();
    let module = Scaled {
        weight: burn::module::Param::from_tensor(Tensor::ones([3], &device)),
        scale: Scale(0.5),
    };
    assert_eq!(module.num_params(), 3);
    let moved = module.to_device(&device);
    assert_eq!(moved.scale.0, 0.5);
}

#[test]
fn param_ids_round_trip_through_their_text() {
    let id = ParamId::new();
    let text = id.to_string();
    assert_eq!(ParamId::from_str(&text).unwrap(), id);
    assert!(ParamId::from_str("not an id!").is_err());
}

#[test]
fn activations_by_their_burn_names() {
    let x = || Tensor::<1>::from_data([-2.0, -0.25, 0.0, 0.25, 2.0], &Device::default());
    let close = |got: Tensor<1>, expected: [f32; 5]| {
        let got = values(got);
        for (g, e) in got.iter().zip(expected) {
            assert!((g - e).abs() < 1e-4, "{got:?} vs {expected:?}");
        }
    };
    close(
        activation::hard_shrink(x(), 0.5),
        [-2.0, 0.0, 0.0, 0.0, 2.0],
    );
    close(
        activation::soft_shrink(x(), 0.5),
        [-1.5, 0.0, 0.0, 0.0, 1.5],
    );
    close(
        activation::shrink(x(), 0.1, 0.2),
        [-1.8, -0.05, 0.0, 0.05, 1.8],
    );
    close(
        activation::hardtanh(x(), -1.0, 1.0),
        [-1.0, -0.25, 0.0, 0.25, 1.0],
    );
    close(
        activation::threshold(x(), 0.0, -9.0),
        [-9.0, -9.0, -9.0, 0.25, 2.0],
    );
    close(
        activation::thresholded_relu(x(), 1.0),
        [0.0, 0.0, 0.0, 0.0, 2.0],
    );
    close(
        activation::softsign(x()),
        [-2.0 / 3.0, -0.2, 0.0, 0.2, 2.0 / 3.0],
    );
    // torch.nn.functional.selu / celu(alpha=1) / tanhshrink at the same points.
    close(
        activation::selu(x()),
        [-1.5201665, -0.3888902, 0.0, 0.2626752, 2.101402],
    );
    close(
        activation::celu(x(), 1.0),
        [-0.8646647, -0.2211992, 0.0, 0.25, 2.0],
    );
    close(
        activation::tanhshrink(x()),
        [-1.0359724, -0.0050813, 0.0, 0.0050813, 1.0359724],
    );
    let logits = Tensor::<2>::from_data([[0.0, 0.0]], &Device::default());
    // Two zero logits and the implicit third: a third each.
    let quiet = values(activation::quiet_softmax(logits, -1));
    assert!(
        quiet.iter().all(|v| (v - 1.0 / 3.0).abs() < 1e-6),
        "{quiet:?}"
    );
    assert_eq!(activation::DEFAULT_SOFTPLUS_THRESHOLD, 20.0);
}
