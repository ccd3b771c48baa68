//! Shared by the integration tests: a tiny module of two parameters, a quadratic loss whose
//! gradient is known in closed form, and a float64 reference runner for per-element rules.
#![allow(dead_code)]

use burn_core as burn;

use burn::module::{Module, Param};
use burn::tensor::{Device, Tensor};
use burn_optim::{GradientsParams, LearningRate, Optimizer};

/// A module with a rank-1 and a rank-2 parameter.
#[derive(Module, Debug)]
pub struct Tiny {
    pub bias: Param<Tensor<1>>,
    pub weight: Param<Tensor<2>>,
}

/// Initial values, bias then weight (row-major).
pub const INIT: [f64; 7] = [0.5, -1.0, 2.0, 1.0, -0.5, 0.25, 3.0];
/// The loss is `Σ ½·A·θ² + C·θ`, so the gradient is `A·θ + C`.
pub const A: [f64; 7] = [1.0, 2.0, 0.5, 1.5, 0.3, 2.0, 0.7];
/// See [`A`].
pub const C: [f64; 7] = [0.1, -0.2, 0.3, -0.4, 0.5, 0.05, -0.6];

pub fn device() -> Device {
    Device::flex().autodiff()
}

pub fn tiny(device: &Device) -> Tiny {
    Tiny {
        bias: Param::from_tensor(Tensor::from_floats(
            [INIT[0] as f32, INIT[1] as f32, INIT[2] as f32],
            device,
        )),
        weight: Param::from_tensor(Tensor::from_floats(
            [
                [INIT[3] as f32, INIT[4] as f32],
                [INIT[5] as f32, INIT[6] as f32],
            ],
            device,
        )),
    }
}

fn split(values: [f64; 7], device: &Device) -> (Tensor<1>, Tensor<2>) {
    let v = values.map(|x| x as f32);
    (
        Tensor::from_floats([v[0], v[1], v[2]], device),
        Tensor::from_floats([[v[3], v[4]], [v[5], v[6]]], device),
    )
}

/// `Σ ½·A·θ² + C·θ` over both parameters.
pub fn loss(model: &Tiny) -> Tensor<1> {
    let device = model.bias.val().device();
    let (a_bias, a_weight) = split(A, &device);
    let (c_bias, c_weight) = split(C, &device);
    let bias = model.bias.val();
    let weight = model.weight.val();
    let bias_term = (bias.clone() * bias.clone() * a_bias * 0.5 + bias * c_bias).sum();
    let weight_term = (weight.clone() * weight.clone() * a_weight * 0.5 + weight * c_weight).sum();
    bias_term + weight_term
}

/// The gradients of [`loss`].
pub fn grads(model: &Tiny) -> GradientsParams {
    GradientsParams::from_grads(loss(model).backward(), model)
}

/// The values of both parameters, bias then weight.
pub fn values(model: &Tiny) -> Vec<f64> {
    let mut out: Vec<f64> = model
        .bias
        .val()
        .into_data()
        .iter::<f32>()
        .map(f64::from)
        .collect();
    out.extend(model.weight.val().into_data().iter::<f32>().map(f64::from));
    out
}

/// Runs `steps` optimizer steps from [`tiny`], returning the values after each.
pub fn run<O: Optimizer<Tiny>>(mut optim: O, lrs: &[LearningRate]) -> Vec<Vec<f64>> {
    let mut model = tiny(&device());
    let mut out = Vec::new();
    for &lr in lrs {
        let grads = grads(&model);
        model = optim.step(lr, model, grads);
        out.push(values(&model));
    }
    out
}

/// The float64 reference: every element runs `rule(t, lr, θ, g, state) -> θ'` with
/// `g = A·θ + C` and its own `state`; returns the values after each step.
pub fn reference<S: Default>(
    lrs: &[LearningRate],
    mut rule: impl FnMut(u64, f64, f64, f64, &mut S) -> f64,
) -> Vec<Vec<f64>> {
    let mut theta = INIT.to_vec();
    let mut states: Vec<S> = (0..INIT.len()).map(|_| S::default()).collect();
    let mut out = Vec::new();
    for (i, &lr) in lrs.iter().enumerate() {
        let t = i as u64 + 1;
        for (k, value) in theta.iter_mut().enumerate() {
            let g = A[k] * *value + C[k];
            *value = rule(t, lr, *value, g, &mut states[k]);
        }
        out.push(theta.clone());
    }
    out
}

/// Asserts that the runs agree to float32 precision, step by step.
pub fn assert_close(actual: &[Vec<f64>], expected: &[Vec<f64>]) {
    assert_eq!(actual.len(), expected.len());
    for (step, (a, e)) in actual.iter().zip(expected).enumerate() {
        for (k, (x, y)) in a.iter().zip(e).enumerate() {
            assert!(
                (x - y).abs() <= 2e-6 + 2e-5 * y.abs(),
                "step {}, element {k}: {x} vs the reference {y}\n  actual   {a:?}\n  expected {e:?}",
                step + 1
            );
        }
    }
}

/// The learning rates of the rule tests: three steps, not all equal.
pub const LRS: [LearningRate; 3] = [0.1, 0.05, 0.2];
