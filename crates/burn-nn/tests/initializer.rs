//! `Initializer` statistics (mean, spread, bounds) and the fans each layer passes.

mod common;

use burn_core::tensor::{Device, Tensor};
use burn_nn::conv::{Conv1dConfig, Conv2dConfig, ConvTranspose2dConfig};
use burn_nn::{Initializer, LinearConfig};
use common::*;

/// Draws `n` values of `init` with the given fans.
fn draw(init: Initializer, n: usize, fans: (Option<usize>, Option<usize>), seed: u64) -> Vec<f64> {
    let device = Device::flex();
    device.seed(seed);
    let param = init.init_with::<1, _>([n], fans.0, fans.1, &device);
    values(param.val())
}

fn mean_std(v: &[f64]) -> (f64, f64) {
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64;
    (mean, var.sqrt())
}

/// All values within `±bound`, the largest close to it, and the spread of `U(-bound, bound)`.
#[track_caller]
fn assert_symmetric_uniform(v: &[f64], bound: f64) {
    let max = v.iter().fold(0f64, |m, x| m.max(x.abs()));
    assert!(
        max <= bound * (1.0 + 1e-6) && max > 0.98 * bound,
        "max {max}, bound {bound}"
    );
    let (mean, std) = mean_std(v);
    assert!(mean.abs() < 0.03 * bound, "mean {mean}");
    assert!(
        (std - bound / 3f64.sqrt()).abs() < 0.03 * bound,
        "std {std}"
    );
}

#[track_caller]
fn assert_normal(v: &[f64], mean: f64, std: f64) {
    let (m, s) = mean_std(v);
    assert!((m - mean).abs() < 0.03 * std, "mean {m}, expected {mean}");
    assert!((s - std).abs() < 0.03 * std, "std {s}, expected {std}");
}

const N: usize = 20_000;

#[test]
fn constant_ones_and_zeros_are_exact() {
    assert_eq!(
        draw(Initializer::Constant { value: 2.5 }, 7, (None, None), 0),
        vec![2.5; 7]
    );
    assert_eq!(draw(Initializer::Ones, 3, (None, None), 0), vec![1.0; 3]);
    assert_eq!(draw(Initializer::Zeros, 3, (None, None), 0), vec![0.0; 3]);
}

#[test]
fn uniform_and_normal_have_their_parameters() {
    let v = draw(
        Initializer::Uniform {
            min: -2.0,
            max: 3.0,
        },
        N,
        (None, None),
        1,
    );
    assert!(v.iter().all(|x| (-2.0..3.0).contains(x)));
    let (mean, std) = mean_std(&v);
    assert!((mean - 0.5).abs() < 0.05 && (std - 5.0 / 12f64.sqrt()).abs() < 0.05);
    assert_normal(
        &draw(
            Initializer::Normal {
                mean: 1.0,
                std: 2.0,
            },
            N,
            (None, None),
            2,
        ),
        1.0,
        2.0,
    );
}

#[test]
fn kaiming_uses_fan_in_or_fan_out() {
    let gain = 2f64.sqrt();
    let fans = (Some(50), Some(200));
    // a = gain · √(3 / fan)
    let v = draw(
        Initializer::KaimingUniform {
            gain,
            fan_out_only: false,
        },
        N,
        fans,
        3,
    );
    assert_symmetric_uniform(&v, gain * (3.0 / 50.0f64).sqrt());
    let v = draw(
        Initializer::KaimingUniform {
            gain,
            fan_out_only: true,
        },
        N,
        fans,
        4,
    );
    assert_symmetric_uniform(&v, gain * (3.0 / 200.0f64).sqrt());
    // σ = gain / √fan
    let v = draw(
        Initializer::KaimingNormal {
            gain,
            fan_out_only: false,
        },
        N,
        fans,
        5,
    );
    assert_normal(&v, 0.0, gain / 50f64.sqrt());
    let v = draw(
        Initializer::KaimingNormal {
            gain,
            fan_out_only: true,
        },
        N,
        fans,
        6,
    );
    assert_normal(&v, 0.0, gain / 200f64.sqrt());
}

#[test]
fn xavier_uses_both_fans() {
    let fans = (Some(30), Some(70));
    // a = gain · √(6 / (fan_in + fan_out)), σ = gain · √(2 / (fan_in + fan_out))
    let v = draw(Initializer::XavierUniform { gain: 1.5 }, N, fans, 7);
    assert_symmetric_uniform(&v, 1.5 * (6.0 / 100.0f64).sqrt());
    let v = draw(Initializer::XavierNormal { gain: 1.5 }, N, fans, 8);
    assert_normal(&v, 0.0, 1.5 * (2.0 / 100.0f64).sqrt());
}

#[test]
#[should_panic(expected = "Kaiming initialization needs fan_in")]
fn kaiming_without_fans_panics_on_first_use() {
    let param = Initializer::KaimingUniform {
        gain: 1.0,
        fan_out_only: false,
    }
    .init::<2, _>([2, 2], &Device::flex());
    let _ = param.val();
}

#[test]
#[should_panic(expected = "Xavier initialization needs fan_in and fan_out")]
fn xavier_without_fan_out_panics_on_first_use() {
    let param = Initializer::XavierUniform { gain: 1.0 }.init_with::<1, _>(
        [4],
        Some(3),
        None,
        &Device::flex(),
    );
    let _ = param.val();
}

#[test]
fn initialization_is_lazy_and_follows_moves() {
    let param = Initializer::Ones.init::<2, _>([2, 3], &Device::flex());
    assert!(!param.is_initialized());
    let param = param.to_device(&Device::flex().autodiff());
    let value: Tensor<2> = param.val();
    assert!(param.is_initialized());
    assert!(value.device().is_autodiff() && value.is_require_grad());
}

/// The largest `|w|` of a layer initialized with `KaimingUniform { gain: 1 }`: `√(3 / fan)`.
fn max_abs(v: Vec<f64>) -> f64 {
    v.iter().fold(0f64, |m, x| m.max(x.abs()))
}

#[track_caller]
fn assert_bound(v: Vec<f64>, fan: usize) {
    let bound = (3.0 / fan as f64).sqrt();
    let max = max_abs(v);
    assert!(
        max <= bound * (1.0 + 1e-6) && max > 0.9 * bound,
        "max {max}, bound {bound} (fan {fan})"
    );
}

#[test]
fn layers_pass_pytorch_fans() {
    let device = Device::flex();
    device.seed(9);
    let kaiming = |fan_out_only| Initializer::KaimingUniform {
        gain: 1.0,
        fan_out_only,
    };
    // Linear: fan_in = d_input, fan_out = d_output.
    let linear = LinearConfig::new(20, 60)
        .with_initializer(kaiming(false))
        .init(&device);
    assert_bound(values(linear.weight.val()), 20);
    let linear = LinearConfig::new(20, 60)
        .with_initializer(kaiming(true))
        .init(&device);
    assert_bound(values(linear.weight.val()), 60);
    // Conv2d [6 → 8], 3×3, groups 2: fan_in = 6/2·9 = 27, fan_out = 8/2·9 = 36.
    let conv = Conv2dConfig::new([6, 8], [3, 3]).with_groups(2);
    let w = conv
        .clone()
        .with_initializer(kaiming(false))
        .init(&device)
        .weight
        .val();
    assert_eq!(w.dims(), [8, 3, 3, 3]);
    assert_bound(values(w), 27);
    assert_bound(
        values(
            conv.with_initializer(kaiming(true))
                .init(&device)
                .weight
                .val(),
        ),
        36,
    );
    // Conv1d [4 → 10], k = 5: fan_in = 20.
    let conv1 = Conv1dConfig::new(4, 10, 5)
        .with_initializer(kaiming(false))
        .init(&device);
    assert_bound(values(conv1.weight.val()), 20);
    // ConvTranspose2d [4 → 6], 2×2: weight [4, 6, 2, 2], fan_in = 6·4 = 24 (PyTorch's).
    let tconv = ConvTranspose2dConfig::new([4, 6], [2, 2]).with_initializer(kaiming(false));
    let w = tconv.init(&device).weight.val();
    assert_eq!(w.dims(), [4, 6, 2, 2]);
    assert_bound(values(w), 24);
    // PyTorch's default conv bias: U(-1/√fan_in, 1/√fan_in).
    let conv = Conv2dConfig::new([50, 400], [1, 1]).init(&device);
    let b = values(conv.bias.unwrap().val());
    let max = max_abs(b);
    assert!(max <= 1.0 / 50f64.sqrt() && max > 0.9 / 50f64.sqrt());
}

/// `a · bᵀ` of two row-major matrices with `k` columns.
fn gram(a: &[f64], rows: usize, k: usize) -> Vec<f64> {
    let mut out = vec![0.0; rows * rows];
    for i in 0..rows {
        for j in 0..rows {
            out[i * rows + j] = (0..k).map(|c| a[i * k + c] * a[j * k + c]).sum();
        }
    }
    out
}

#[test]
fn orthogonal_has_orthonormal_rows_or_columns_scaled_by_the_gain() {
    let device = Device::flex();
    device.seed(5);
    let gain = 1.5;
    // Tall (orthonormal columns), wide (orthonormal rows), square, and rank 3 flattened.
    for (shape, rows, cols) in [([12, 4], 12, 4), ([3, 10], 3, 10), ([6, 6], 6, 6)] {
        let w: Tensor<2> = Initializer::Orthogonal { gain }.init(shape, &device).val();
        assert_eq!(w.dims(), shape);
        let v = values(w);
        let (g, n) = if rows >= cols {
            (gram(&transpose(&v, rows, cols), cols, rows), cols)
        } else {
            (gram(&v, rows, cols), rows)
        };
        for i in 0..n {
            for j in 0..n {
                let expected = if i == j { gain * gain } else { 0.0 };
                assert!(
                    (g[i * n + j] - expected).abs() < 1e-4,
                    "{shape:?}: gram[{i}][{j}] = {}",
                    g[i * n + j]
                );
            }
        }
    }
    let w: Tensor<3> = Initializer::Orthogonal { gain: 1.0 }
        .init([4, 2, 5], &device)
        .val();
    let v = values(w);
    let g = gram(&v, 4, 10);
    for i in 0..4 {
        assert!(
            (g[i * 4 + i] - 1.0).abs() < 1e-4,
            "row {i} norm² {}",
            g[i * 4 + i]
        );
    }
}

/// The transpose of a row-major `rows × cols` matrix.
fn transpose(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    (0..cols)
        .flat_map(|c| (0..rows).map(move |r| (r, c)))
        .map(|(r, c)| a[r * cols + c])
        .collect()
}
