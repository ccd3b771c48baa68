//! Losses against hand computations of PyTorch's definitions in float64.

mod common;

use burn_core::tensor::{Device, activation::softmax};
use burn_nn::loss::*;
use common::*;

const B: usize = 5;
const C: usize = 4;

/// `log_softmax` of each row of a `[rows, C]` array.
fn log_softmax_rows(x: &[f64]) -> Vec<Vec<f64>> {
    x.chunks(C)
        .map(|row| {
            let max = row.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let lse = max + row.iter().map(|v| (v - max).exp()).sum::<f64>().ln();
            row.iter().map(|v| v - lse).collect()
        })
        .collect()
}

/// PyTorch's `cross_entropy(x, y, weight=w, ignore_index=pad, label_smoothing=α)`, mean:
/// `Σ_{i∉pad} Σ_c w_c · q_ic · (-log p_ic) / Σ_{i∉pad} w_{y_i}`, `q = (1-α)·one_hot + α/C`.
fn cross_entropy_reference(
    x: &[f64],
    y: &[i64],
    w: Option<&[f64]>,
    pad: &[i64],
    alpha: f64,
) -> f64 {
    let logp = log_softmax_rows(x);
    let weight = |c: usize| w.map_or(1.0, |w| w[c]);
    let (mut total, mut norm) = (0.0, 0.0);
    for (i, &t) in y.iter().enumerate() {
        if pad.contains(&t) {
            continue;
        }
        for (c, lp) in logp[i].iter().enumerate() {
            let q = (1.0 - alpha) * f64::from(c as i64 == t) + alpha / C as f64;
            total -= weight(c) * q * lp;
        }
        norm += weight(t as usize);
    }
    total / norm
}

fn setup() -> (Vec<f64>, Vec<i64>) {
    let x: Vec<f64> = sample(B * C, 1).iter().map(|v| v * 3.0).collect();
    (x, vec![2, 0, 3, 1, 2])
}

#[test]
fn cross_entropy_variants_match_pytorch() {
    let (x, y) = setup();
    let weights = [0.5f32, 2.0, 1.0, 3.0];
    let w64: Vec<f64> = weights.iter().map(|&v| v as f64).collect();
    let cases: Vec<(CrossEntropyLossConfig, f64)> = vec![
        (
            CrossEntropyLossConfig::new(),
            cross_entropy_reference(&x, &y, None, &[], 0.0),
        ),
        (
            CrossEntropyLossConfig::new().with_smoothing(Some(0.1)),
            cross_entropy_reference(&x, &y, None, &[], 0.1),
        ),
        (
            CrossEntropyLossConfig::new().with_weights(Some(weights.to_vec())),
            cross_entropy_reference(&x, &y, Some(&w64), &[], 0.0),
        ),
        (
            CrossEntropyLossConfig::new().with_pad_tokens(Some(vec![1])),
            cross_entropy_reference(&x, &y, None, &[1], 0.0),
        ),
        (
            CrossEntropyLossConfig::new()
                .with_smoothing(Some(0.2))
                .with_weights(Some(weights.to_vec()))
                .with_pad_tokens(Some(vec![0, 3])),
            cross_entropy_reference(&x, &y, Some(&w64), &[0, 3], 0.2),
        ),
    ];
    for device in devices() {
        for (config, expected) in &cases {
            let loss = config
                .init(&device)
                .forward(tensor(&x, [B, C], &device), int_tensor(&y, [B], &device));
            assert_close(&values(loss), &[*expected], 1e-5);
        }
    }
}

#[test]
fn cross_entropy_plain_value_by_hand() {
    // logits [[0, ln 3]] → p = [1/4, 3/4]; target 1 → loss = -ln(3/4).
    let device = Device::flex();
    let loss = CrossEntropyLoss::new(None, &device).forward(
        tensor(&[0.0, 3f64.ln()], [1, 2], &device),
        int_tensor(&[1], [1], &device),
    );
    assert_close(&values(loss), &[-(0.75f64.ln())], 1e-6);
}

#[test]
fn cross_entropy_on_probabilities() {
    let (x, y) = setup();
    let device = Device::flex();
    let probs = softmax(tensor(&x, [B, C], &device), 1);
    let loss = CrossEntropyLossConfig::new()
        .with_logits(false)
        .init(&device)
        .forward(probs, int_tensor(&y, [B], &device));
    assert_close(
        &values(loss),
        &[cross_entropy_reference(&x, &y, None, &[], 0.0)],
        1e-5,
    );
}

#[test]
fn cross_entropy_gradient_is_softmax_minus_one_hot() {
    // d/dx mean_i(-log p_{i,y_i}) = (softmax(x) - one_hot(y)) / B.
    let (x, y) = setup();
    let device = Device::flex().autodiff();
    let logits = tensor(&x, [B, C], &device).require_grad();
    let loss = CrossEntropyLossConfig::new()
        .init(&device)
        .forward(logits.clone(), int_tensor(&y, [B], &device));
    let grad = values(logits.grad(&loss.backward()).unwrap());
    let expected: Vec<f64> = log_softmax_rows(&x)
        .iter()
        .zip(&y)
        .flat_map(|(row, &t)| {
            (0..C).map(move |c| (row[c].exp() - f64::from(c as i64 == t)) / B as f64)
        })
        .collect();
    assert_close(&grad, &expected, 1e-5);
}

#[test]
#[should_panic(expected = "label smoothing factor must be in [0, 1], got 1.5")]
fn cross_entropy_rejects_bad_smoothing() {
    CrossEntropyLossConfig::new()
        .with_smoothing(Some(1.5))
        .init(&Device::flex());
}

#[test]
#[should_panic(expected = "class weights must be positive")]
fn cross_entropy_rejects_non_positive_weights() {
    CrossEntropyLossConfig::new()
        .with_weights(Some(vec![1.0, 0.0]))
        .init(&Device::flex());
}

#[test]
fn mse_reductions() {
    let (a, b) = (sample(12, 2), sample(12, 3));
    let squares: Vec<f64> = a.iter().zip(&b).map(|(x, y)| (x - y).powi(2)).collect();
    let sum: f64 = squares.iter().sum();
    for device in devices() {
        let mse = MseLoss::new();
        let run = |r: Reduction| {
            values(mse.forward(tensor(&a, [3, 4], &device), tensor(&b, [3, 4], &device), r))
        };
        assert_close(&run(Reduction::Mean), &[sum / 12.0], 1e-6);
        assert_close(&run(Reduction::Auto), &[sum / 12.0], 1e-6);
        assert_close(&run(Reduction::Sum), &[sum], 1e-6);
        let each =
            mse.forward_no_reduction(tensor(&a, [3, 4], &device), tensor(&b, [3, 4], &device));
        assert_close(&values(each), &squares, 1e-6);
    }
}

#[test]
fn huber_is_quadratic_then_linear() {
    // δ = 1: r = 0.5 → 0.125, r = -2 → 1.5, r = 3 → 2.5, r = 0 → 0.
    let device = Device::flex();
    let huber = HuberLossConfig::new(1.0).init();
    let pred = tensor(&[0.5, -2.0, 3.0, 1.0], [4], &device);
    let target = tensor(&[0.0, 0.0, 0.0, 1.0], [4], &device);
    let each = values(huber.forward_no_reduction(pred.clone(), target.clone()));
    assert_close(&each, &[0.125, 1.5, 2.5, 0.0], 1e-7);
    assert_close(
        &values(huber.forward(pred.clone(), target.clone(), Reduction::Sum)),
        &[4.125],
        1e-6,
    );
    assert_close(
        &values(huber.forward(pred, target, Reduction::Mean)),
        &[4.125 / 4.0],
        1e-6,
    );
    // δ = 0.5 on random residuals.
    let (a, b) = (sample(20, 4), sample(20, 5));
    let expected: f64 = a
        .iter()
        .zip(&b)
        .map(|(x, y)| {
            let r = (x - y).abs();
            if r <= 0.5 {
                0.5 * r * r
            } else {
                0.5 * (r - 0.25)
            }
        })
        .sum::<f64>()
        / 20.0;
    let huber = HuberLossConfig::new(0.5).init();
    let loss = huber.forward(
        tensor(&a, [4, 5], &device),
        tensor(&b, [4, 5], &device),
        Reduction::Auto,
    );
    assert_close(&values(loss), &[expected], 1e-6);
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `mean(-w · (t·ln p + (1 - t)·ln(1 - p)))`.
fn bce_reference(p: &[f64], t: &[f64], w: &[f64]) -> f64 {
    let terms = p
        .iter()
        .zip(t)
        .zip(w)
        .map(|((p, t), w)| -w * (t * p.ln() + (1.0 - t) * (1.0 - p).ln()));
    terms.sum::<f64>() / p.len() as f64
}

#[test]
fn binary_cross_entropy_variants_match_pytorch() {
    let x: Vec<f64> = sample(6, 6).iter().map(|v| v * 2.0).collect();
    let p: Vec<f64> = x.iter().map(|&v| sigmoid(v)).collect();
    let labels = [1i64, 0, 0, 1, 1, 0];
    let t: Vec<f64> = labels.iter().map(|&v| v as f64).collect();
    let ones = [1.0; 6];
    for device in devices() {
        let targets = || int_tensor(&labels, [6], &device);
        // On probabilities (nn.BCELoss) and on logits (nn.BCEWithLogitsLoss).
        let on_probs = BinaryCrossEntropyLossConfig::new().init(&device);
        let loss = on_probs.forward(tensor(&p, [6], &device), targets());
        assert_close(&values(loss), &[bce_reference(&p, &t, &ones)], 1e-5);
        let on_logits = BinaryCrossEntropyLossConfig::new()
            .with_logits(true)
            .init(&device);
        let loss = on_logits.forward(tensor(&x, [6], &device), targets());
        assert_close(&values(loss), &[bce_reference(&p, &t, &ones)], 1e-5);
        // 1-d weights [w_0, w_1] picked by the target.
        let weighted = BinaryCrossEntropyLossConfig::new()
            .with_weights(Some(vec![3.0, 7.0]))
            .init(&device);
        let w: Vec<f64> = labels
            .iter()
            .map(|&l| if l == 1 { 7.0 } else { 3.0 })
            .collect();
        let loss = weighted.forward(tensor(&p, [6], &device), targets());
        assert_close(&values(loss), &[bce_reference(&p, &t, &w)], 1e-5);
        // Smoothing α = 0.1 on 1-d inputs: t·0.9 + 0.05.
        let smoothed = BinaryCrossEntropyLossConfig::new()
            .with_smoothing(Some(0.1))
            .init(&device);
        let ts: Vec<f64> = t.iter().map(|v| v * 0.9 + 0.05).collect();
        let loss = smoothed.forward(tensor(&p, [6], &device), targets());
        assert_close(&values(loss), &[bce_reference(&p, &ts, &ones)], 1e-5);
        // Multi-label [2, 3] on logits with per-class weights and smoothing α/3.
        let multi = BinaryCrossEntropyLossConfig::new()
            .with_logits(true)
            .with_weights(Some(vec![3.0, 7.0, 0.9]))
            .with_smoothing(Some(0.3))
            .init(&device);
        let w: Vec<f64> = (0..6).map(|i| [3.0, 7.0, 0.9f32 as f64][i % 3]).collect();
        let ts: Vec<f64> = t.iter().map(|v| v * 0.7 + 0.1).collect();
        let loss = multi.forward(
            tensor(&x, [2, 3], &device),
            int_tensor(&labels, [2, 3], &device),
        );
        assert_close(&values(loss), &[bce_reference(&p, &ts, &w)], 1e-5);
    }
}

#[test]
fn binary_cross_entropy_clamps_logs_at_minus_100() {
    // p = 0 for a positive target: -ln 0 is clamped to 100; mean over 2 elements.
    let device = Device::flex();
    let loss = BinaryCrossEntropyLossConfig::new().init(&device).forward(
        tensor(&[0.0, 0.0], [2], &device),
        int_tensor(&[1, 0], [2], &device),
    );
    assert_close(&values(loss), &[50.0], 1e-6);
}
