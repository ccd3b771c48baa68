//! Loss functions against their formulas.

use burn::tensor::Tensor;
use burn::tensor::loss::{
    binary_cross_entropy_with_logits, cross_entropy_with_logits, l1_loss, mse_loss,
};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::reference::reduce::lane;
use burn_backend_tests::{Env, Layout, RefArray, seed};

#[test]
fn mse_and_l1() {
    // torch.nn.functional.mse_loss / l1_loss with reduction='mean'
    let env = Env::new(crate::device());
    let p = env.random(&[4, 6], -2.0, 2.0, 281);
    let t = env.random(&[4, 6], -2.0, 2.0, 282);
    let mse = RefArray::scalar(lane::mean(&p.zip(&t, |a, b| (a - b).powi(2)).data));
    let l1 = RefArray::scalar(lane::mean(&p.zip(&t, |a, b| (a - b).abs()).data));
    for layout in Layout::ALL {
        env.check(
            &format!("mse_loss ({layout:?})"),
            mse_loss(env.float_in::<2>(&p, layout), env.float(&t)),
            &mse,
            5.0,
        );
        env.check(
            &format!("l1_loss ({layout:?})"),
            l1_loss(env.float_in::<2>(&p, layout), env.float(&t)),
            &l1,
            5.0,
        );
    }
}

#[test]
fn cross_entropy_with_probabilities() {
    // torch.nn.functional.cross_entropy(logits, target_probs) = mean(-sum(t * log_softmax(x)))
    let env = Env::new(crate::device());
    let logits = env.random(&[5, 7], -3.0, 3.0, 283);
    let raw = env.random(&[5, 7], 0.0, 1.0, 284);
    let targets = env.round(&raw.zip(&raw.sum_dim(1), |a, s| a / s));
    let per_row = logits
        .log_softmax(1)
        .zip(&targets, |l, t| -l * t)
        .sum_dim(1);
    let expected = RefArray::scalar(lane::mean(&per_row.data));
    let got = cross_entropy_with_logits(env.float::<2>(&logits), env.float(&targets));
    env.check("cross_entropy_with_logits", got, &expected, 5.0);
}

#[test]
fn cross_entropy_with_one_hot_targets() {
    // With one-hot targets: mean over rows of -log_softmax(x)[target]
    let env = Env::new(crate::device());
    let logits = env.random(&[4, 3], -3.0, 3.0, 285);
    let classes = [2usize, 0, 1, 2];
    let targets = RefArray::from_fn(&[4, 3], |i| (classes[i[0]] == i[1]) as u8 as f64);
    let log_probs = logits.log_softmax(1);
    let expected = RefArray::scalar(
        classes
            .iter()
            .enumerate()
            .map(|(r, &c)| -log_probs.at(&[r, c]))
            .sum::<f64>()
            / 4.0,
    );
    let got = cross_entropy_with_logits(env.float::<2>(&logits), env.float(&targets));
    env.check("cross_entropy one-hot", got, &expected, 5.0);
}

#[test]
fn binary_cross_entropy_with_logits_is_stable() {
    // torch.nn.functional.binary_cross_entropy_with_logits: mean(softplus(x) - x * t),
    // including logits far in the tails
    let env = Env::new(crate::device());
    let mut x = env.random(&[3, 4], -5.0, 5.0, 286);
    x.set(&[0, 0], 40.0);
    x.set(&[1, 1], -40.0);
    let t = env.random_bool(&[3, 4], 0.5, 287);
    let per = x.zip(&t, |a, b| f::softplus(a, 1.0) - a * b);
    let expected = RefArray::scalar(lane::mean(&per.data));
    let got = binary_cross_entropy_with_logits(env.float::<2>(&x), env.float(&t));
    env.check("binary_cross_entropy_with_logits", got, &expected, 5.0);
}

#[test]
fn losses_of_equal_tensors_are_zero() {
    let env = Env::new(crate::device());
    let p = env.random(&[3, 3], -1.0, 1.0, 288);
    env.check(
        "mse of equal",
        mse_loss(env.float::<2>(&p), env.float(&p)),
        &RefArray::scalar(0.0),
        0.0,
    );
    env.check(
        "l1 of equal",
        l1_loss(env.float::<2>(&p), env.float(&p)),
        &RefArray::scalar(0.0),
        0.0,
    );
}

/// `-log Σ_π Π_t p(π_t)` over every path `π` of `time` classes that collapses (repeats merged,
/// then blanks dropped) to `target`: the CTC loss by enumeration.
fn ctc_by_enumeration(log_probs: &[Vec<f64>], target: &[usize], blank: usize) -> f64 {
    let (time, classes) = (log_probs.len(), log_probs[0].len());
    let mut total = 0.0;
    for code in 0..classes.pow(time as u32) {
        let path: Vec<usize> = (0..time)
            .map(|t| (code / classes.pow(t as u32)) % classes)
            .collect();
        let mut collapsed = Vec::new();
        for (t, &c) in path.iter().enumerate() {
            if c != blank && (t == 0 || path[t - 1] != c) {
                collapsed.push(c);
            }
        }
        if collapsed == target {
            total += path
                .iter()
                .enumerate()
                .map(|(t, &c)| log_probs[t][c])
                .sum::<f64>()
                .exp();
        }
    }
    -total.ln()
}

#[test]
fn ctc_loss_sums_every_alignment() {
    // torch.nn.functional.ctc_loss(log_probs, targets, input_lengths, target_lengths,
    // blank=0, reduction='none'): repeated labels need a blank between them; a target too long
    // for its input costs ∞; padding past the target length is ignored.
    use burn::tensor::Int;
    use burn::tensor::module::ctc_loss;
    let env = Env::new(crate::device());
    let (time, batch, classes) = (5, 4, 3);
    let raw = env.random(&[time, batch, classes], -2.0, 0.0, seed("ctc_loss"));
    let targets = [vec![1, 1], vec![2, 1, 2], vec![1, 1], vec![]];
    let input_lengths = [5, 4, 2, 3];
    let padded = RefArray::new(
        &[batch, 3],
        vec![1.0, 1.0, 7.0, 2.0, 1.0, 2.0, 1.0, 1.0, 9.0, 9.0, 9.0, 9.0],
    );
    let expected: Vec<f64> = (0..batch)
        .map(|b| {
            let rows: Vec<Vec<f64>> = (0..input_lengths[b])
                .map(|t| (0..classes).map(|c| raw.at(&[t, b, c])).collect())
                .collect();
            ctc_by_enumeration(&rows, &targets[b], 0)
        })
        .collect();
    // [1, 1] needs three steps (1, blank, 1): two cannot hold it.
    assert!(
        expected[2].is_infinite() && expected[0].is_finite(),
        "{expected:?}"
    );
    let got = ctc_loss(
        env.float(&raw),
        env.int(&padded),
        Tensor::<1, Int>::from_data(input_lengths.map(|l| l as i64), &env.device),
        Tensor::<1, Int>::from_data(targets.clone().map(|t| t.len() as i64), &env.device),
        0,
    );
    env.check("ctc_loss", got, &RefArray::new(&[batch], expected), 8.0);
}
