//! Loss functions against their formulas.

use burn::tensor::loss::{
    binary_cross_entropy_with_logits, cross_entropy_with_logits, l1_loss, mse_loss,
};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::reference::reduce::lane;
use burn_backend_tests::{Env, Layout, RefArray};

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
