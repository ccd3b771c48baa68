//! The operators `+ - * / %` and unary `-` on float tensors, with tensors and scalars of
//! every accepted type on either side.

use burn::tensor::{Tensor, bf16, f16};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, RefArray};

fn inputs(env: &Env) -> (RefArray, RefArray) {
    let a = env.random(&[2, 3], -4.0, 4.0, 41);
    let b = env.random_nonzero(&[2, 3], 0.5, 4.0, 42);
    (a, b)
}

#[test]
fn tensor_operators() {
    let env = Env::new(crate::device());
    let (a, b) = inputs(&env);
    let (x, y) = (|| env.float::<2>(&a), || env.float::<2>(&b));
    env.check("+", x() + y(), &a.zip(&b, |p, q| p + q), 1.0);
    env.check("-", x() - y(), &a.zip(&b, |p, q| p - q), 1.0);
    env.check("*", x() * y(), &a.zip(&b, |p, q| p * q), 1.0);
    env.check("/", x() / y(), &a.zip(&b, |p, q| p / q), 1.0);
    env.check("%", x() % y(), &a.zip(&b, f::remainder), 2.0);
    env.check("unary -", -x(), &a.map(|p| -p), 0.0);
}

#[test]
fn scalar_on_the_right_of_every_type() {
    let env = Env::new(crate::device());
    let (a, _) = inputs(&env);
    let x = || env.float::<2>(&a);
    env.check("+ f64", x() + 1.5f64, &a.map(|v| v + 1.5), 1.0);
    env.check("+ f32", x() + 1.5f32, &a.map(|v| v + 1.5), 1.0);
    env.check("+ f16", x() + f16::from_f32(1.5), &a.map(|v| v + 1.5), 1.0);
    env.check(
        "+ bf16",
        x() + bf16::from_f32(1.5),
        &a.map(|v| v + 1.5),
        1.0,
    );
    env.check("- i64", x() - 2i64, &a.map(|v| v - 2.0), 1.0);
    env.check("- i32", x() - 2i32, &a.map(|v| v - 2.0), 1.0);
    env.check("* i16", x() * 3i16, &a.map(|v| v * 3.0), 1.0);
    env.check("* i8", x() * -3i8, &a.map(|v| v * -3.0), 1.0);
    env.check("/ u64", x() / 4u64, &a.map(|v| v / 4.0), 1.0);
    env.check("/ u32", x() / 4u32, &a.map(|v| v / 4.0), 1.0);
    env.check("% u16", x() % 3u16, &a.map(|v| f::remainder(v, 3.0)), 2.0);
    env.check("% u8", x() % 3u8, &a.map(|v| f::remainder(v, 3.0)), 2.0);
    env.check(
        "% f64",
        x() % -1.5f64,
        &a.map(|v| f::remainder(v, -1.5)),
        2.0,
    );
}

#[test]
fn scalar_on_the_left() {
    let env = Env::new(crate::device());
    let (_, b) = inputs(&env);
    let y = || env.float::<2>(&b);
    env.check("f64 +", 1.5f64 + y(), &b.map(|v| 1.5 + v), 1.0);
    env.check("f32 +", 1.5f32 + y(), &b.map(|v| 1.5 + v), 1.0);
    env.check("i64 +", 2i64 + y(), &b.map(|v| 2.0 + v), 1.0);
    env.check("i32 +", 2i32 + y(), &b.map(|v| 2.0 + v), 1.0);
    env.check("f64 -", 1.5f64 - y(), &b.map(|v| 1.5 - v), 1.0);
    env.check("f32 -", 1.5f32 - y(), &b.map(|v| 1.5 - v), 1.0);
    env.check("i64 -", 2i64 - y(), &b.map(|v| 2.0 - v), 1.0);
    env.check("i32 -", 2i32 - y(), &b.map(|v| 2.0 - v), 1.0);
    env.check("f64 *", 1.5f64 * y(), &b.map(|v| 1.5 * v), 1.0);
    env.check("f32 *", 1.5f32 * y(), &b.map(|v| 1.5 * v), 1.0);
    env.check("i64 *", 2i64 * y(), &b.map(|v| 2.0 * v), 1.0);
    env.check("i32 *", -2i32 * y(), &b.map(|v| -2.0 * v), 1.0);
    env.check("f64 /", 1.5f64 / y(), &b.map(|v| 1.5 / v), 2.0);
    env.check("f32 /", 1.5f32 / y(), &b.map(|v| 1.5 / v), 2.0);
    env.check("i64 /", 3i64 / y(), &b.map(|v| 3.0 / v), 2.0);
    env.check("i32 /", 3i32 / y(), &b.map(|v| 3.0 / v), 2.0);
}

#[test]
fn operators_broadcast() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 1, 4], -2.0, 2.0, 43);
    let b = env.random(&[1, 5, 4], -2.0, 2.0, 44);
    let got = env.float::<3>(&a) * env.float::<3>(&b) + env.float::<3>(&a);
    let expected = a.zip(&b, |p, q| p * q).zip(&a, |p, q| p + q);
    env.check("a * b + a", got, &expected, 2.0);
}

#[test]
fn chained_expression_matches_reference() {
    // (x * 2 - 1) / (x * x + 1): a chain of operators on one tensor and its clones.
    let env = Env::new(crate::device());
    let a = env.random(&[4, 5], -3.0, 3.0, 45);
    let x = env.float::<2>(&a);
    let got = (x.clone() * 2.0 - 1.0) / (x.clone() * x + 1.0);
    env.check(
        "chain",
        got,
        &a.map(|v| (v * 2.0 - 1.0) / (v * v + 1.0)),
        4.0,
    );
}

#[test]
fn scalar_arithmetic_on_a_rank_one_tensor() {
    // torch.tensor([1., 2., 3.]) * 2 + 1 = [3., 5., 7.]
    let env = Env::new(crate::device());
    let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &env.device);
    env.check(
        "x * 2 + 1",
        x * 2 + 1,
        &RefArray::new(&[3], vec![3.0, 5.0, 7.0]),
        0.0,
    );
}
