//! `Dropout` (identity off autodiff, scaled masks on it) and the activation layers against
//! their formulas.

mod common;

use burn_core as burn;

use burn_core::module::Module;
use burn_core::tensor::{Device, Tensor};
use burn_nn::*;
use common::*;

#[test]
fn dropout_is_the_identity_on_a_plain_device() {
    let device = Device::flex();
    let x = sample(1000, 1);
    let y = DropoutConfig::new(0.5)
        .init()
        .forward(tensor(&x, [10, 100], &device));
    assert_eq!(values(y), x);
}

#[test]
fn dropout_zeroes_and_rescales_on_an_autodiff_device() {
    let device = Device::flex().autodiff();
    device.seed(42);
    let n = 20_000;
    let dropout = DropoutConfig::new(0.25).init();
    let y = values(dropout.forward(Tensor::<2>::ones([100, n / 100], &device)));
    // Kept values are 1 / (1 - p).
    assert!(y.iter().all(|&v| v == 0.0 || (v - 1.0 / 0.75).abs() < 1e-6));
    let dropped = y.iter().filter(|&&v| v == 0.0).count() as f64 / n as f64;
    assert!((dropped - 0.25).abs() < 0.02, "dropped fraction {dropped}");
    let mean = y.iter().sum::<f64>() / n as f64;
    assert!((mean - 1.0).abs() < 0.03, "mean {mean}");
}

#[test]
fn dropout_edge_probabilities() {
    let device = Device::flex().autodiff();
    let x = sample(50, 2);
    let none = DropoutConfig::new(0.0)
        .init()
        .forward(tensor(&x, [50], &device));
    assert_eq!(values(none), x);
    let all = DropoutConfig::new(1.0)
        .init()
        .forward(tensor(&x, [50], &device));
    assert_eq!(values(all), vec![0.0; 50]);
}

#[test]
fn dropout_gradient_is_the_scaled_mask() {
    let device = Device::flex().autodiff();
    let x = Tensor::<1>::ones([1000], &device).require_grad();
    let y = DropoutConfig::new(0.5).init().forward(x.clone());
    let kept = values(y.clone());
    let dx = values(x.grad(&y.sum().backward()).unwrap());
    assert_eq!(dx, kept);
}

#[test]
fn valid_modules_do_not_drop() {
    // `valid()` moves a model to the inner device, where dropout is the identity.
    #[derive(Module, Debug)]
    struct Net {
        dropout: Dropout,
        linear: Linear,
    }
    let device = Device::flex().autodiff();
    let net = Net {
        dropout: DropoutConfig::new(0.9).init(),
        linear: LinearConfig::new(4, 4).init(&device),
    };
    let inference = net.valid();
    let x = inference.linear.weight.val();
    assert_eq!(values(inference.dropout.forward(x.clone())), values(x));
}

#[test]
#[should_panic(expected = "DropoutConfig: the probability must be in [0, 1], got 1.5")]
fn dropout_rejects_probabilities_outside_unit_interval() {
    DropoutConfig::new(1.5).init();
}

/// Checks an activation layer against `f` on values in `[-3, 3)`.
#[track_caller]
fn check(forward: impl Fn(Tensor<2>) -> Tensor<2>, f: impl Fn(f64) -> f64, tol: f64) {
    let x: Vec<f64> = sample(60, 3).iter().map(|v| v * 3.0).collect();
    for device in devices() {
        let y = values(forward(tensor(&x, [6, 10], &device)));
        let expected: Vec<f64> = x.iter().map(|&v| f(v)).collect();
        assert_close(&y, &expected, tol);
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `Φ(x)`, the standard normal CDF, by a series of `erf` good to ~1e-12 on `[-3, 3]`.
fn normal_cdf(x: f64) -> f64 {
    let z = x / 2f64.sqrt();
    let (mut term, mut sum, mut n) = (z, z, 0.0);
    while term.abs() > 1e-16 {
        n += 1.0;
        term *= -z * z / n;
        sum += term / (2.0 * n + 1.0);
    }
    0.5 * (1.0 + 2.0 / core::f64::consts::PI.sqrt() * sum)
}

#[test]
fn activations_match_their_formulas() {
    check(|x| Relu::new().forward(x), |x| x.max(0.0), 1e-6);
    check(|x| Relu6::new().forward(x), |x| x.clamp(0.0, 6.0), 1e-6);
    check(|x| Sigmoid::new().forward(x), sigmoid, 1e-6);
    check(|x| LogSigmoid::new().forward(x), |x| sigmoid(x).ln(), 1e-5);
    check(|x| Tanh::new().forward(x), f64::tanh, 1e-6);
    check(|x| Silu::new().forward(x), |x| x * sigmoid(x), 1e-6);
    check(|x| Gelu::new().forward(x), |x| x * normal_cdf(x), 1e-5);
    let tanh_gelu = |x: f64| {
        0.5 * x * (1.0 + ((2.0 / core::f64::consts::PI).sqrt() * (x + 0.044715 * x.powi(3))).tanh())
    };
    check(|x| GeluApproximate::new().forward(x), tanh_gelu, 1e-5);
    let softplus = |x: f64| (1.0 + x.exp()).ln();
    check(|x| Mish::new().forward(x), |x| x * softplus(x).tanh(), 1e-5);
    check(
        |x| HardSwish::new().forward(x),
        |x| x * (x + 3.0).clamp(0.0, 6.0) / 6.0,
        1e-6,
    );
    let leaky = LeakyReluConfig::new().init();
    assert_eq!(leaky.negative_slope, 0.01);
    check(
        |x| leaky.forward(x),
        |x| if x >= 0.0 { x } else { 0.01 * x },
        1e-6,
    );
    let leaky = LeakyReluConfig::new().with_negative_slope(0.2).init();
    check(
        |x| leaky.forward(x),
        |x| if x >= 0.0 { x } else { 0.2 * x },
        1e-6,
    );
    let sp = SoftplusConfig::new().with_beta(2.0).init();
    check(
        |x| sp.forward(x),
        |x| (1.0 + (2.0 * x).exp()).ln() / 2.0,
        1e-5,
    );
    let hs = HardSigmoidConfig::new().init();
    check(|x| hs.forward(x), |x| (0.2 * x + 0.5).clamp(0.0, 1.0), 1e-6);
}

#[test]
fn prelu_learns_one_slope_per_channel() {
    let device = Device::flex();
    let prelu = PReluConfig::new()
        .with_num_parameters(3)
        .with_alpha(0.1)
        .init(&device);
    let x = sample(2 * 3 * 4, 4);
    let y = values(prelu.forward(tensor(&x, [2, 3, 4], &device)));
    let expected: Vec<f64> = x
        .iter()
        .map(|&v| if v >= 0.0 { v } else { 0.1 * v })
        .collect();
    assert_close(&y, &expected, 1e-6);
    assert_eq!(prelu.num_params(), 3);
}
