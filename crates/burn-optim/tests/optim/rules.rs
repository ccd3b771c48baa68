//! Each optimizer's steps against its published update rule, computed element by element in
//! float64 over three steps with varying learning rates.

use super::common::{LRS, Tiny, assert_close, reference, run};
use burn_optim::decay::WeightDecayConfig;
use burn_optim::momentum::MomentumConfig;
use burn_optim::{AdaGradConfig, AdamConfig, AdamWConfig, RmsPropConfig, SgdConfig};

/// A float32 hyper-parameter as the optimizer sees it.
fn f(x: f32) -> f64 {
    f64::from(x)
}

#[test]
fn sgd_plain() {
    let actual = run(SgdConfig::new().init::<Tiny>(), &LRS);
    let expected = reference(&LRS, |_, lr, theta, g, _: &mut ()| theta - lr * g);
    assert_close(&actual, &expected);
}

/// PyTorch's SGD: L2 decay into the gradient, then `b ← g` / `b ← μb + (1−τ)g`.
fn sgd_reference(momentum: f64, dampening: f64, nesterov: bool, decay: f64) -> Vec<Vec<f64>> {
    reference(&LRS, |t, lr, theta, g, buffer: &mut f64| {
        let g = g + decay * theta;
        *buffer = if t == 1 {
            g
        } else {
            momentum * *buffer + (1.0 - dampening) * g
        };
        let direction = if nesterov {
            g + momentum * *buffer
        } else {
            *buffer
        };
        theta - lr * direction
    })
}

#[test]
fn sgd_momentum_dampening_and_weight_decay() {
    let config = SgdConfig::new()
        .with_momentum(Some(
            MomentumConfig::new()
                .with_momentum(0.8)
                .with_dampening(0.25),
        ))
        .with_weight_decay(Some(WeightDecayConfig::new(0.1)));
    let actual = run(config.init::<Tiny>(), &LRS);
    assert_close(&actual, &sgd_reference(0.8, 0.25, false, f(0.1)));
}

#[test]
fn sgd_nesterov() {
    let momentum = MomentumConfig::new()
        .with_momentum(0.9)
        .with_dampening(0.0)
        .with_nesterov(true);
    let config = SgdConfig::new().with_momentum(Some(momentum));
    let actual = run(config.init::<Tiny>(), &LRS);
    assert_close(&actual, &sgd_reference(0.9, 0.0, true, 0.0));
}

#[test]
fn sgd_momentum_defaults_are_burns() {
    let momentum = MomentumConfig::new();
    assert_eq!(
        (momentum.momentum, momentum.dampening, momentum.nesterov),
        (0.9, 0.1, false)
    );
    let actual = run(
        SgdConfig::new()
            .with_momentum(Some(momentum))
            .init::<Tiny>(),
        &LRS,
    );
    assert_close(&actual, &sgd_reference(0.9, 0.1, false, 0.0));
}

/// Adam's moments for one element.
#[derive(Default)]
struct Moments {
    m: f64,
    v: f64,
    v_max: f64,
}

/// Adam / AdamW as in PyTorch: `decoupled` applies `θ ← θ(1 − lr·λ)`, otherwise λ is L2.
fn adam_reference(
    (beta_1, beta_2, epsilon): (f64, f64, f64),
    decay: f64,
    decoupled: bool,
    amsgrad: bool,
) -> Vec<Vec<f64>> {
    reference(&LRS, |t, lr, theta, g, s: &mut Moments| {
        let (theta, g) = if decoupled {
            (theta * (1.0 - lr * decay), g)
        } else {
            (theta, g + decay * theta)
        };
        s.m = beta_1 * s.m + (1.0 - beta_1) * g;
        s.v = beta_2 * s.v + (1.0 - beta_2) * g * g;
        s.v_max = s.v_max.max(s.v);
        let v = if amsgrad { s.v_max } else { s.v };
        let m_hat = s.m / (1.0 - beta_1.powi(t as i32));
        let v_hat = v / (1.0 - beta_2.powi(t as i32));
        theta - lr * m_hat / (v_hat.sqrt() + epsilon)
    })
}

#[test]
fn adam_defaults() {
    let actual = run(AdamConfig::new().init::<Tiny>(), &LRS);
    let expected = adam_reference((f(0.9), f(0.999), f(1e-5)), 0.0, false, false);
    assert_close(&actual, &expected);
}

#[test]
fn adam_with_l2_weight_decay_and_other_betas() {
    let config = AdamConfig::new()
        .with_beta_1(0.8)
        .with_beta_2(0.9)
        .with_epsilon(1e-3)
        .with_weight_decay(Some(WeightDecayConfig::new(0.2)));
    let actual = run(config.init::<Tiny>(), &LRS);
    let expected = adam_reference((f(0.8), f(0.9), f(1e-3)), f(0.2), false, false);
    assert_close(&actual, &expected);
}

#[test]
fn adam_amsgrad() {
    let config = AdamConfig::new().with_beta_2(0.5).with_amsgrad(true);
    let lrs = [0.3, 0.3, 0.3, 0.3];
    let actual = run(config.init::<Tiny>(), &lrs);
    let expected = {
        let (beta_1, beta_2, epsilon) = (f(0.9), f(0.5), f(1e-5));
        reference(&lrs, |t, lr, theta, g, s: &mut Moments| {
            s.m = beta_1 * s.m + (1.0 - beta_1) * g;
            s.v = beta_2 * s.v + (1.0 - beta_2) * g * g;
            s.v_max = s.v_max.max(s.v);
            let m_hat = s.m / (1.0 - beta_1.powi(t as i32));
            theta - lr * m_hat / ((s.v_max / (1.0 - beta_2.powi(t as i32))).sqrt() + epsilon)
        })
    };
    assert_close(&actual, &expected);
}

#[test]
fn adamw_decoupled_weight_decay() {
    let config = AdamWConfig::new().with_weight_decay(0.5).with_beta_1(0.7);
    let actual = run(config.init::<Tiny>(), &LRS);
    let expected = adam_reference((f(0.7), f(0.999), f(1e-5)), f(0.5), true, false);
    assert_close(&actual, &expected);
    // Decoupled decay is not L2 decay.
    let l2 = adam_reference((f(0.7), f(0.999), f(1e-5)), f(0.5), false, false);
    assert!((l2[2][0] - expected[2][0]).abs() > 1e-4);
}

#[test]
fn adamw_amsgrad() {
    let config = AdamWConfig::new().with_amsgrad(true).with_beta_2(0.6);
    let actual = run(config.init::<Tiny>(), &LRS);
    let expected = adam_reference((f(0.9), f(0.6), f(1e-5)), f(1e-4), true, true);
    assert_close(&actual, &expected);
}

/// RMSProp buffers for one element.
#[derive(Default)]
struct RmsState {
    square_avg: f64,
    grad_avg: f64,
    buffer: f64,
}

fn rmsprop_reference(
    alpha: f64,
    epsilon: f64,
    centered: bool,
    momentum: f64,
    decay: f64,
) -> Vec<Vec<f64>> {
    reference(&LRS, |_, lr, theta, g, s: &mut RmsState| {
        let g = g + decay * theta;
        s.square_avg = alpha * s.square_avg + (1.0 - alpha) * g * g;
        let mut variance = s.square_avg;
        if centered {
            s.grad_avg = alpha * s.grad_avg + (1.0 - alpha) * g;
            variance -= s.grad_avg * s.grad_avg;
        }
        let direction = g / (variance.sqrt() + epsilon);
        if momentum > 0.0 {
            s.buffer = momentum * s.buffer + direction;
            theta - lr * s.buffer
        } else {
            theta - lr * direction
        }
    })
}

#[test]
fn rmsprop_defaults() {
    let actual = run(RmsPropConfig::new().init::<Tiny>(), &LRS);
    let expected = rmsprop_reference(f(0.99), f(1e-5), false, 0.0, 0.0);
    assert_close(&actual, &expected);
}

#[test]
fn rmsprop_centered_with_momentum_and_weight_decay() {
    let config = RmsPropConfig::new()
        .with_alpha(0.9)
        .with_centered(true)
        .with_momentum(0.5)
        .with_epsilon(1e-4)
        .with_weight_decay(Some(WeightDecayConfig::new(0.05)));
    let actual = run(config.init::<Tiny>(), &LRS);
    let expected = rmsprop_reference(f(0.9), f(1e-4), true, f(0.5), f(0.05));
    assert_close(&actual, &expected);
}

fn adagrad_reference(lr_decay: f64, epsilon: f64, decay: f64) -> Vec<Vec<f64>> {
    reference(&LRS, |t, lr, theta, g, sum: &mut f64| {
        let g = g + decay * theta;
        *sum += g * g;
        let lr = lr / (1.0 + (t - 1) as f64 * lr_decay);
        theta - lr * g / (sum.sqrt() + epsilon)
    })
}

#[test]
fn adagrad_defaults() {
    let actual = run(AdaGradConfig::new().init::<Tiny>(), &LRS);
    assert_close(&actual, &adagrad_reference(0.0, f(1e-5), 0.0));
}

#[test]
fn adagrad_lr_decay_and_weight_decay() {
    let config = AdaGradConfig::new()
        .with_lr_decay(0.5)
        .with_epsilon(1e-2)
        .with_weight_decay(Some(WeightDecayConfig::new(0.3)));
    let actual = run(config.init::<Tiny>(), &LRS);
    assert_close(&actual, &adagrad_reference(0.5, f(1e-2), f(0.3)));
}

#[test]
#[should_panic(expected = "AdamConfig: `beta_1` must be in [0, 1)")]
fn invalid_betas_are_refused() {
    let _ = AdamConfig::new().with_beta_1(1.0).init::<Tiny>();
}

#[test]
#[should_panic(expected = "WeightDecayConfig: `penalty` must be a finite number at least 0")]
fn negative_weight_decay_is_refused() {
    let _ = SgdConfig::new()
        .with_weight_decay(Some(WeightDecayConfig::new(-0.1)))
        .init::<Tiny>();
}

#[test]
#[should_panic(expected = "RmsPropConfig: `alpha` must be in [0, 1]")]
fn invalid_alpha_is_refused() {
    let _ = RmsPropConfig::new().with_alpha(1.5).init::<Tiny>();
}
