//! Element-wise chains on tensors large enough that backends defer and fuse them (Flex from
//! 2^15 elements, Cube+Fusion always): values, broadcasting, shared intermediates, strided
//! inputs, `sync` and in-place updates after it. Softmax over a large input is
//! `float::large::softmax_large`.

use burn::tensor::Tensor;
use burn_backend_tests::Env;

const ROWS: usize = 300;
const COLS: usize = 200;

#[test]
fn a_long_chain_over_a_large_tensor_matches_the_reference() {
    let env = Env::new(crate::device());
    let (a, b, c) = (
        env.random(&[ROWS, COLS], -1.0, 1.0, 71),
        env.random(&[ROWS, COLS], -1.0, 1.0, 72),
        env.random(&[1, COLS], 0.5, 1.5, 73),
    );
    let got = ((env.float::<2>(&a) * env.float(&b) + env.float(&c)).exp() / 2.0 - 0.25)
        .abs()
        .sqrt();
    let expected = a
        .zip(&b, |x, y| x * y)
        .zip(&c, |x, y| x + y)
        .map(|v| (v.exp() / 2.0 - 0.25).abs().sqrt());
    env.check("exp(a*b + c)/2 - 1/4, |.|, sqrt", got, &expected, 8.0);
}

#[test]
fn an_intermediate_used_twice_feeds_both_and_stays_readable() {
    let env = Env::new(crate::device());
    let (a, b) = (
        env.random(&[ROWS, COLS], -1.0, 1.0, 75),
        env.random(&[ROWS, COLS], -1.0, 1.0, 76),
    );
    let y = env.float::<2>(&a) * env.float(&b);
    let left = y.clone() + 1.0;
    let right = (y.clone() * 2.0).neg();
    let ab = a.zip(&b, |x, y| x * y);
    env.check("shared: y + 1", left, &ab.map(|v| v + 1.0), 4.0);
    env.check("shared: -(2y)", right, &ab.map(|v| -2.0 * v), 4.0);
    env.check("shared: y itself", y, &ab, 4.0);
}

#[test]
fn transposed_inputs_of_a_large_chain_are_read_through_their_layout() {
    let env = Env::new(crate::device());
    let (a, b) = (
        env.random(&[ROWS, COLS], -1.0, 1.0, 77),
        env.random(&[COLS, ROWS], -1.0, 1.0, 78),
    );
    let got = (env.float::<2>(&a).transpose() - env.float(&b)).exp();
    let expected = a.transpose().zip(&b, |x, y| (x - y).exp());
    env.check("exp(aᵀ - b)", got, &expected, 8.0);
}

#[test]
fn work_pending_at_sync_is_done_and_later_updates_apply() {
    let env = Env::new(crate::device());
    let a = env.random(&[ROWS, COLS], -1.0, 1.0, 79);
    let x: Tensor<2> = env.float::<2>(&a) * 3.0;
    env.device.sync().expect("sync");
    let x = (x + 1.0).exp();
    env.device.sync().expect("sync");
    env.check(
        "exp(3a + 1) across syncs",
        x,
        &a.map(|v| (3.0 * v + 1.0).exp()),
        8.0,
    );
}
