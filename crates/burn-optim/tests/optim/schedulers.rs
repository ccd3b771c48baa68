//! Every learning-rate scheduler's sequence against its formula, argument checks, and
//! resuming from a record.

use burn_optim::LearningRate;
use burn_optim::lr_scheduler::LrScheduler;
use burn_optim::lr_scheduler::constant::ConstantLr;
use burn_optim::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
use burn_optim::lr_scheduler::exponential::ExponentialLrSchedulerConfig;
use burn_optim::lr_scheduler::linear::LinearLrSchedulerConfig;
use burn_optim::lr_scheduler::noam::NoamLrSchedulerConfig;
use burn_optim::lr_scheduler::step::StepLrSchedulerConfig;
use std::f64::consts::PI;

/// Asserts the first `expected.len()` rates of `scheduler`.
fn assert_sequence(mut scheduler: impl LrScheduler, expected: impl IntoIterator<Item = f64>) {
    for (t, want) in expected.into_iter().enumerate() {
        let got = scheduler.step();
        assert!(
            (got - want).abs() <= 1e-12 * want.abs().max(1.0),
            "step {t}: {got} vs {want}"
        );
    }
}

/// Steps `n` times, saves, and checks that a fresh scheduler loaded from the record (after a
/// JSON round trip) continues identically.
fn assert_resumes<S: LrScheduler + Clone>(fresh: S, n: usize) {
    let mut scheduler = fresh.clone();
    for _ in 0..n {
        scheduler.step();
    }
    let json = serde_json::to_string(&scheduler.to_record()).unwrap();
    let mut resumed = fresh.load_record(serde_json::from_str(&json).unwrap());
    for _ in 0..2 * n + 3 {
        assert_eq!(scheduler.step(), resumed.step());
    }
}

#[test]
fn constant() {
    assert_sequence(ConstantLr::new(0.3), [0.3; 4]);
    assert_sequence(0.01 as LearningRate, [0.01; 3]);
    assert_resumes(ConstantLr::from(0.5), 2);
}

#[test]
#[should_panic(expected = "ConstantLr: the learning rate must be a finite number at least 0")]
fn constant_refuses_negative_rates() {
    let _ = ConstantLr::new(-1.0);
}

#[test]
fn step_decays_every_step_size_steps() {
    let scheduler = StepLrSchedulerConfig::new(0.5, 3)
        .with_gamma(0.2)
        .init()
        .unwrap();
    let expected = (0..10).map(|t| 0.5 * 0.2f64.powi(t / 3));
    assert_sequence(scheduler.clone(), expected);
    assert_eq!(StepLrSchedulerConfig::new(1.0, 1).gamma, 0.1);
    assert_resumes(scheduler, 4);
}

#[test]
fn exponential_decays_every_step() {
    let scheduler = ExponentialLrSchedulerConfig::new(0.8, 0.9).init().unwrap();
    assert_sequence(scheduler.clone(), (0..8).map(|t| 0.8 * 0.9f64.powi(t)));
    assert_resumes(scheduler, 5);
}

#[test]
fn cosine_anneals_to_the_minimum_then_restarts() {
    let (initial, min, n) = (0.5, 0.1, 4);
    let scheduler = CosineAnnealingLrSchedulerConfig::new(initial, n)
        .with_min_lr(min)
        .init()
        .unwrap();
    let formula = |t: usize| {
        let t = t % (n + 1);
        min + 0.5 * (initial - min) * (1.0 + (PI * t as f64 / n as f64).cos())
    };
    assert_sequence(scheduler.clone(), (0..12).map(formula));
    // The landmarks: the initial rate, the midpoint, the minimum, the restart.
    assert_sequence(
        scheduler.clone(),
        [
            initial,
            formula(1),
            (initial + min) / 2.0,
            formula(3),
            min,
            initial,
        ],
    );
    assert_resumes(scheduler, 6);
}

#[test]
fn linear_interpolates_then_holds() {
    let scheduler = LinearLrSchedulerConfig::new(0.9, 0.5, 4).init().unwrap();
    assert_sequence(scheduler.clone(), [0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.5]);
    let rising = LinearLrSchedulerConfig::new(0.01, 0.04, 3).init().unwrap();
    assert_sequence(rising, [0.01, 0.02, 0.03, 0.04, 0.04]);
    assert_resumes(scheduler, 2);
}

#[test]
fn noam_warms_up_then_decays() {
    let (factor, warmup, d_model) = (2.0, 10usize, 64usize);
    let scheduler = NoamLrSchedulerConfig::new(factor)
        .with_warmup_steps(warmup)
        .with_model_size(d_model)
        .init()
        .unwrap();
    let formula = |t: usize| {
        let s = (t + 1) as f64;
        factor * (d_model as f64).powf(-0.5) * s.powf(-0.5).min(s * (warmup as f64).powf(-1.5))
    };
    assert_sequence(scheduler.clone(), (0..30).map(formula));
    // Rising during the warm-up, peaking at step `warmup`, falling after.
    let mut s = scheduler.clone();
    let lrs: Vec<f64> = (0..2 * warmup).map(|_| s.step()).collect();
    assert!(lrs[..warmup].windows(2).all(|w| w[0] < w[1]));
    assert!(lrs[warmup - 1..].windows(2).all(|w| w[0] > w[1]));
    let defaults = NoamLrSchedulerConfig::new(1.0);
    assert_eq!((defaults.warmup_steps, defaults.model_size), (4000, 512));
    assert_resumes(scheduler, 7);
}

#[test]
fn invalid_arguments_are_refused_with_a_reason() {
    let errors = [
        StepLrSchedulerConfig::new(-0.1, 2).init().map(|_| ()),
        StepLrSchedulerConfig::new(0.1, 0).init().map(|_| ()),
        StepLrSchedulerConfig::new(0.1, 2)
            .with_gamma(0.0)
            .init()
            .map(|_| ()),
        ExponentialLrSchedulerConfig::new(0.1, 1.5)
            .init()
            .map(|_| ()),
        ExponentialLrSchedulerConfig::new(f64::NAN, 0.5)
            .init()
            .map(|_| ()),
        CosineAnnealingLrSchedulerConfig::new(0.1, 0)
            .init()
            .map(|_| ()),
        CosineAnnealingLrSchedulerConfig::new(0.1, 5)
            .with_min_lr(0.2)
            .init()
            .map(|_| ()),
        LinearLrSchedulerConfig::new(0.1, -0.5, 3)
            .init()
            .map(|_| ()),
        LinearLrSchedulerConfig::new(0.0, 0.5, 3).init().map(|_| ()),
        NoamLrSchedulerConfig::new(1.0)
            .with_warmup_steps(0)
            .init()
            .map(|_| ()),
        NoamLrSchedulerConfig::new(-1.0).init().map(|_| ()),
    ];
    let messages: Vec<String> = errors.into_iter().map(|e| e.unwrap_err()).collect();
    assert_eq!(
        messages[0],
        "StepLrSchedulerConfig: initial_lr must be a positive finite number, got -0.1"
    );
    assert_eq!(
        messages[1],
        "StepLrSchedulerConfig: step_size must be at least 1, got 0"
    );
    assert!(messages[6].contains("min_lr must be in [0, initial_lr = 0.1], got 0.2"));
    assert!(messages[9].contains("warmup_steps must be at least 1"));
}
