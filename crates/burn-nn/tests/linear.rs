//! `Linear` and `Embedding` against loops over known weights; laziness, defaults, gradients.

mod common;

use burn_core::module::{Module, Param};
use burn_core::tensor::{Device, Tensor};
use burn_nn::{Embedding, EmbeddingConfig, Initializer, Linear, LinearConfig};
use common::*;

/// `y[r, o] = Σ_i x[r, i] · w[i, o] + b[o]` over the rows `r` of a flattened input.
fn linear_reference(x: &[f64], w: &[f64], b: &[f64], d_in: usize, d_out: usize) -> Vec<f64> {
    let rows = x.len() / d_in;
    let mut y = vec![0.0; rows * d_out];
    for r in 0..rows {
        for o in 0..d_out {
            y[r * d_out + o] = b[o]
                + (0..d_in)
                    .map(|i| x[r * d_in + i] * w[i * d_out + o])
                    .sum::<f64>();
        }
    }
    y
}

#[test]
fn linear_matches_a_loop_over_any_rank() {
    let (d_in, d_out) = (4, 3);
    let (w, b) = (sample(d_in * d_out, 1), sample(d_out, 2));
    for device in devices() {
        let layer = Linear {
            weight: Param::from_tensor(tensor(&w, [d_in, d_out], &device)),
            bias: Some(Param::from_tensor(tensor(&b, [d_out], &device))),
        };
        let x = sample(2 * 5 * d_in, 3);
        let y = layer.forward(tensor(&x, [2, 5, d_in], &device));
        assert_eq!(y.dims(), [2, 5, d_out]);
        assert_close(&values(y), &linear_reference(&x, &w, &b, d_in, d_out), 1e-5);

        let x1 = sample(d_in, 4);
        let y1 = layer.forward(tensor(&x1, [d_in], &device));
        assert_eq!(y1.dims(), [d_out]);
        assert_close(
            &values(y1),
            &linear_reference(&x1, &w, &b, d_in, d_out),
            1e-5,
        );
    }
}

#[test]
fn linear_with_constant_weights_and_no_bias() {
    // Every output is Σ_i 1 · 2 = 2 · d_input.
    let device = Device::flex();
    let layer = LinearConfig::new(2, 3)
        .with_initializer(Initializer::Constant { value: 2.0 })
        .with_bias(false)
        .init(&device);
    assert!(layer.bias.is_none());
    assert_eq!(
        values(layer.forward(Tensor::<2>::ones([1, 2], &device))),
        vec![4.0; 3]
    );
    let with_bias = LinearConfig::new(2, 3)
        .with_initializer(Initializer::Constant { value: 2.0 })
        .init(&device);
    assert_eq!(
        values(with_bias.forward(Tensor::<2>::ones([1, 2], &device))),
        vec![6.0; 3]
    );
}

#[test]
fn linear_parameters_are_lazy_and_built_where_the_module_was_moved() {
    let layer = LinearConfig::new(8, 16).init(&Device::flex());
    assert!(!layer.weight.is_initialized());
    assert_eq!(layer.weight.lazy_shape().dims.to_vec(), vec![8, 16]);
    assert_eq!(layer.num_params(), 8 * 16 + 16);
    let device = Device::flex().autodiff();
    let layer = layer.to_device(&device);
    assert!(!layer.weight.is_initialized());
    let weight = layer.weight.val();
    assert!(weight.device().is_autodiff() && weight.is_require_grad());
}

#[test]
fn linear_default_initialization_is_pytorch_uniform() {
    // PyTorch: weight and bias ~ U(-1/√d_input, 1/√d_input).
    let config = LinearConfig::new(64, 128);
    assert_eq!(
        config.initializer,
        Initializer::KaimingUniform {
            gain: 1.0 / 3.0f64.sqrt(),
            fan_out_only: false
        }
    );
    let device = Device::flex();
    device.seed(7);
    let layer = config.init(&device);
    let bound = 1.0 / 64f64.sqrt();
    for v in [
        values(layer.weight.val()),
        values(layer.bias.unwrap().val()),
    ] {
        let max = v.iter().fold(0f64, |m, x| m.max(x.abs()));
        assert!(
            max <= bound && max > 0.9 * bound,
            "max |w| = {max}, bound {bound}"
        );
    }
}

#[test]
fn linear_config_round_trips_through_json() {
    let config = LinearConfig::new(3, 4)
        .with_bias(false)
        .with_initializer(Initializer::XavierNormal { gain: 2.0 });
    let text = config.to_string();
    let loaded: LinearConfig =
        burn_core::config::Config::load_binary(text.as_bytes()).expect("valid config");
    assert_eq!(
        (loaded.d_input, loaded.d_output, loaded.bias),
        (3, 4, false)
    );
    assert_eq!(loaded.initializer, Initializer::XavierNormal { gain: 2.0 });
}

#[test]
fn embedding_picks_rows_of_the_table() {
    let (n, d) = (5, 3);
    let table = sample(n * d, 11);
    for device in devices() {
        let layer = Embedding {
            weight: Param::from_tensor(tensor(&table, [n, d], &device)),
        };
        let ids = [4i64, 0, 2, 2, 1, 3];
        let y = layer.forward(int_tensor(&ids, [2, 3], &device));
        assert_eq!(y.dims(), [2, 3, d]);
        let expected: Vec<f64> = ids
            .iter()
            .flat_map(|&i| table[i as usize * d..(i as usize + 1) * d].to_vec())
            .collect();
        assert_close(&values(y), &expected, 0.0);
    }
}

#[test]
fn embedding_default_table_is_standard_normal() {
    let device = Device::flex();
    device.seed(3);
    let layer = EmbeddingConfig::new(100, 100).init(&device);
    let v = values(layer.weight.val());
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64;
    assert!(
        mean.abs() < 0.05 && (var.sqrt() - 1.0).abs() < 0.05,
        "mean {mean}, var {var}"
    );
}

#[test]
fn gradients_flow_through_linear_on_an_autodiff_device() {
    // loss = Σ_{r,o} (x·W + b)[r, o]  ⇒  dW[i, o] = Σ_r x[r, i],  db[o] = rows.
    let device = Device::flex().autodiff();
    let (d_in, d_out, rows) = (3, 2, 4);
    let layer = LinearConfig::new(d_in, d_out).init(&device);
    let x = sample(rows * d_in, 5);
    let loss = layer.forward(tensor(&x, [rows, d_in], &device)).sum();
    let grads = loss.backward();
    let dw = values(layer.weight.grad(&grads).expect("weight gradient"));
    let db = values(
        layer
            .bias
            .as_ref()
            .unwrap()
            .grad(&grads)
            .expect("bias gradient"),
    );
    let expected: Vec<f64> = (0..d_in)
        .flat_map(|i| {
            let column: f64 = (0..rows).map(|r| x[r * d_in + i]).sum();
            vec![column; d_out]
        })
        .collect();
    assert_close(&dw, &expected, 1e-5);
    assert_close(&db, &[rows as f64; 2], 1e-6);
}
