//! Batch, layer, group and RMS normalization against float64 loops; batch norm's running
//! statistics, modes and visiting.

mod common;

use burn_core::module::{Module, ModuleMapper, ModuleVisitor, Param};
use burn_core::tensor::{Device, Tensor};
use burn_nn::*;
use common::*;

/// Mean and biased variance of `values`.
fn moments(values: &[f64]) -> (f64, f64) {
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    (mean, var)
}

/// The values of channel `c` of a `[n, c, rest]` array.
fn channel(x: &[f64], [n, channels, rest]: [usize; 3], c: usize) -> Vec<f64> {
    (0..n)
        .flat_map(|b| (0..rest).map(move |r| (b, r)))
        .map(|(b, r)| x[(b * channels + c) * rest + r])
        .collect()
}

/// `(x - mean_c) / √(var_c + ε)` per channel of a `[n, c, rest]` array.
fn normalize_channels(x: &[f64], dims: [usize; 3], stats: &[(f64, f64)], eps: f64) -> Vec<f64> {
    let [_, channels, rest] = dims;
    x.iter()
        .enumerate()
        .map(|(i, v)| {
            let (mean, var) = stats[(i / rest) % channels];
            (v - mean) / (var + eps).sqrt()
        })
        .collect()
}

#[test]
fn batch_norm_trains_on_batch_statistics_and_updates_running_ones() {
    let eps = 1e-5;
    // Both a 1-d input [N, C, L] and a 2-d input [N, C, H, W] (flattened to [N, C, H·W]).
    for (shape, seed) in [(vec![3, 4, 5], 1u64), (vec![2, 4, 3, 2], 2)] {
        let device = Device::flex().autodiff();
        let module = BatchNormConfig::new(4).init(&device);
        let dims = [shape[0], 4, shape[2..].iter().product()];
        let x = sample(shape.iter().product(), seed);
        let stats: Vec<(f64, f64)> = (0..4).map(|c| moments(&channel(&x, dims, c))).collect();
        let y = match shape.len() {
            3 => values(module.forward(tensor(&x, [shape[0], 4, shape[2]], &device))),
            _ => values(module.forward(tensor(&x, [shape[0], 4, shape[2], shape[3]], &device))),
        };
        assert_close(&y, &normalize_channels(&x, dims, &stats, eps), 1e-4);

        // running = 0.9 · initial + 0.1 · stat, with the unbiased variance (PyTorch).
        let count = (dims[0] * dims[2]) as f64;
        let mean: Vec<f64> = stats.iter().map(|s| 0.1 * s.0).collect();
        let var: Vec<f64> = stats
            .iter()
            .map(|s| 0.9 + 0.1 * s.1 * count / (count - 1.0))
            .collect();
        assert_close(&values(module.running_mean.value()), &mean, 1e-5);
        assert_close(&values(module.running_var.value()), &var, 1e-5);
        assert!(!module.running_mean.value().is_require_grad());
    }
}

#[test]
fn batch_norm_infers_with_running_statistics() {
    let eps = 1e-5;
    let x = sample(2 * 3 * 4, 3);
    let dims = [2, 3, 4];
    // A fresh layer on a plain device: running mean 0, variance 1.
    let module = BatchNormConfig::new(3).init(&Device::flex());
    let y = values(module.forward(tensor(&x, dims, &Device::flex())));
    assert_close(
        &y,
        &normalize_channels(&x, dims, &[(0.0, 1.0); 3], eps),
        1e-6,
    );

    // Two training steps with momentum 0.3, then inference on the inner device.
    let device = Device::flex().autodiff();
    let module = BatchNormConfig::new(3).with_momentum(0.3).init(&device);
    let x2 = sample(2 * 3 * 4, 4);
    let (mut mean, mut var) = (vec![0.0; 3], vec![1.0; 3]);
    for batch in [&x, &x2] {
        let _ = module.forward(tensor(batch, dims, &device));
        for c in 0..3 {
            let (m, v) = moments(&channel(batch, dims, c));
            mean[c] = 0.7 * mean[c] + 0.3 * m;
            var[c] = 0.7 * var[c] + 0.3 * v * 8.0 / 7.0;
        }
    }
    let inference = module.valid();
    let y = values(inference.forward(tensor(&x, dims, &Device::flex())));
    let stats: Vec<(f64, f64)> = mean.into_iter().zip(var).collect();
    assert_close(&y, &normalize_channels(&x, dims, &stats, eps), 1e-5);
}

#[derive(Default)]
struct Names {
    stack: Vec<String>,
    found: Vec<(String, bool)>,
}

impl ModuleVisitor for Names {
    fn enter_module(&mut self, name: &str, _: &str) {
        self.stack.push(name.into());
    }
    fn exit_module(&mut self, _: &str, _: &str) {
        self.stack.pop();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.found
            .push((self.stack.join("."), param.is_require_grad()));
    }
}

#[test]
fn batch_norm_running_statistics_are_visited_untrainable_parameters() {
    let device = Device::flex().autodiff();
    let module = BatchNormConfig::new(3).init(&device);
    let mut names = Names::default();
    module.visit(&mut names);
    let expected = [
        ("gamma", true),
        ("beta", true),
        ("running_mean", false),
        ("running_var", false),
    ];
    let expected: Vec<(String, bool)> = expected.iter().map(|(n, g)| (n.to_string(), *g)).collect();
    assert_eq!(names.found, expected);
    assert_eq!(module.num_params(), 12);
    let moved = module.clone().to_device(&device);
    assert_eq!(moved.running_mean.id(), module.running_mean.id());

    // Gradients reach γ and β, not the running statistics.
    let x = tensor(&sample(12, 5), [4, 3], &device);
    let grads = module.forward(x).mul_scalar(2.0).sum().backward();
    assert_close(&values(module.beta.grad(&grads).unwrap()), &[8.0; 3], 1e-6);
    assert!(module.gamma.grad(&grads).is_some());
    assert!(module.running_mean.value().grad(&grads).is_none());
}

#[test]
#[should_panic(expected = "BatchNorm: expected an input [batch, 3, ...], got shape [2, 4]")]
fn batch_norm_checks_channels() {
    let device = Device::flex();
    let _ = BatchNormConfig::new(3)
        .init(&device)
        .forward(Tensor::<2>::zeros([2, 4], &device));
}

/// `[rows, d]` normalized per row: `(x - mean) / √(var + ε)` (biased variance).
fn normalize_rows(x: &[f64], d: usize, eps: f64, rms: bool) -> Vec<f64> {
    x.chunks(d)
        .flat_map(|row| {
            let (mean, var) = moments(row);
            let ms = row.iter().map(|v| v * v).sum::<f64>() / d as f64;
            row.iter()
                .map(move |v| {
                    if rms {
                        v / (ms + eps).sqrt()
                    } else {
                        (v - mean) / (var + eps).sqrt()
                    }
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn layer_norm_normalizes_the_last_dim() {
    let d = 5;
    let (gamma, beta) = (sample(d, 6), sample(d, 7));
    let x = sample(2 * 3 * d, 8);
    for device in devices() {
        let mut module = LayerNormConfig::new(d).init(&device);
        module.gamma = Param::from_tensor(tensor(&gamma, [d], &device));
        module.beta = Some(Param::from_tensor(tensor(&beta, [d], &device)));
        let y = values(module.forward(tensor(&x, [2, 3, d], &device)));
        let expected: Vec<f64> = normalize_rows(&x, d, 1e-5, false)
            .iter()
            .enumerate()
            .map(|(i, v)| v * gamma[i % d] + beta[i % d])
            .collect();
        assert_close(&y, &expected, 1e-4);
    }
    let device = Device::flex();
    let plain = LayerNormConfig::new(d)
        .with_bias(false)
        .with_epsilon(0.1)
        .init(&device);
    assert!(plain.beta.is_none());
    let y = values(plain.forward(tensor(&x, [6, d], &device)));
    assert_close(&y, &normalize_rows(&x, d, 0.1, false), 1e-5);
}

#[test]
fn rms_norm_scales_by_the_root_mean_square() {
    let d = 6;
    let gamma = sample(d, 9);
    let x = sample(4 * d, 10);
    for device in devices() {
        let mut module = RmsNormConfig::new(d).init(&device);
        module.gamma = Param::from_tensor(tensor(&gamma, [d], &device));
        let y = values(module.forward(tensor(&x, [2, 2, d], &device)));
        let expected: Vec<f64> = normalize_rows(&x, d, 1e-5, true)
            .iter()
            .enumerate()
            .map(|(i, v)| v * gamma[i % d])
            .collect();
        assert_close(&y, &expected, 1e-4);
    }
}

#[test]
fn group_norm_normalizes_each_group_of_channels() {
    // [n = 2, c = 6, l = 3] in 3 groups of 2 channels: each (sample, group) holds 6 values.
    let (n, c, l, groups) = (2, 6, 3, 3);
    let x = sample(n * c * l, 11);
    let (gamma, beta) = (sample(c, 12), sample(c, 13));
    let group_size = c / groups * l;
    // Channels of a group are contiguous, so each group is a contiguous run of 6 values.
    let normalized = normalize_rows(&x, group_size, 1e-5, false);
    for device in devices() {
        let mut module = GroupNormConfig::new(groups, c).init(&device);
        module.gamma = Some(Param::from_tensor(tensor(&gamma, [c], &device)));
        module.beta = Some(Param::from_tensor(tensor(&beta, [c], &device)));
        let y = values(module.forward(tensor(&x, [n, c, l], &device)));
        let expected: Vec<f64> = normalized
            .iter()
            .enumerate()
            .map(|(i, v)| v * gamma[(i / l) % c] + beta[(i / l) % c])
            .collect();
        assert_close(&y, &expected, 1e-4);
    }
    let device = Device::flex();
    let plain = GroupNormConfig::new(groups, c)
        .with_affine(false)
        .init(&device);
    assert_eq!(plain.num_params(), 0);
    let y = values(plain.forward(tensor(&x, [n, c, 1, l], &device)));
    assert_close(&y, &normalized, 1e-4);
}

#[test]
#[should_panic(expected = "num_channels (6) must be a multiple of num_groups (4)")]
fn group_norm_checks_groups() {
    GroupNormConfig::new(4, 6).init(&Device::flex());
}

#[test]
#[should_panic(expected = "expected beta of shape [6] for an input [2, 6, 3], got [4]")]
fn the_normalization_functions_check_their_parameters() {
    let device = Device::flex();
    let x = Tensor::<3>::ones([2, 6, 3], &device);
    let (gamma, beta) = (Tensor::ones([6], &device), Tensor::zeros([4], &device));
    burn_core::tensor::module::group_norm(x, gamma, beta, 3, 1e-5);
}

#[test]
#[should_panic(expected = "expected a number of groups dividing the 6 channels")]
fn group_norm_checks_its_groups() {
    let device = Device::flex();
    let x = Tensor::<3>::ones([2, 6, 3], &device);
    let (gamma, beta) = (Tensor::ones([6], &device), Tensor::zeros([6], &device));
    burn_core::tensor::module::group_norm(x, gamma, beta, 4, 1e-5);
}

/// Replaces every float parameter by a tensor of sevens, as a weight loader would.
struct LoadSevens;

impl ModuleMapper for LoadSevens {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let value = param.val().full_like(7.0).require_grad();
        Param::initialized(param.id, value)
    }
}

#[test]
fn loaded_running_statistics_stay_untracked_and_are_used() {
    let device = Device::flex().autodiff();
    let module = BatchNormConfig::new(2).init(&device);
    let id = module.running_var.id();
    let loaded = module.map(&mut LoadSevens);
    assert_eq!(loaded.running_var.id(), id);
    let running_var = loaded.running_var.value();
    assert!(!running_var.is_require_grad());
    assert_eq!(values(running_var), vec![7.0; 2]);
    // Inference: (x - 7) / √(7 + ε) · 7 + 7.
    let x = sample(6, 14);
    let y = values(loaded.valid().forward(tensor(&x, [3, 2], &Device::flex())));
    let expected: Vec<f64> = x
        .iter()
        .map(|v| (v - 7.0) / (7.0f64 + 1e-5).sqrt() * 7.0 + 7.0)
        .collect();
    assert_close(&y, &expected, 1e-5);
}

#[test]
fn running_state_prints_its_id() {
    let state = RunningState::new(Tensor::<1>::zeros([3], &Device::default()));
    assert_eq!(
        state.to_string(),
        format!("RunningState(id={})", state.id())
    );
}
