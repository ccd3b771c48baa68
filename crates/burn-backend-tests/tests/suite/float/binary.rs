//! Element-wise binary float ops: one module per op from a table, each with a same-shape test
//! over every pair of layouts, a broadcasting test, and (where the op has one) a scalar test.

use burn::tensor::{FloatDType, Tensor};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// How an operand is drawn.
#[derive(Clone, Copy, Debug)]
pub enum Draw {
    /// Uniform in `[low, high)`.
    Uniform(f64, f64),
    /// Magnitude uniform in `[low, high)`, random sign (a safe divisor).
    Nonzero(f64, f64),
}

impl Draw {
    /// Values of `shape` drawn from `seed`.
    pub fn sample(self, env: &Env, shape: &[usize], seed: u64) -> RefArray {
        match self {
            Draw::Uniform(low, high) => env.random(shape, low, high, seed),
            Draw::Nonzero(low, high) => env.random_nonzero(shape, low, high, seed),
        }
    }
}

/// `op(lhs, rhs)` against `reference` for equal shapes, on every pair of layouts.
pub fn same_shape(
    name: &str,
    op: impl Fn(Tensor<3>, Tensor<3>) -> Tensor<3>,
    reference: impl Fn(f64, f64) -> f64,
    (lhs, rhs): (Draw, Draw),
    factor: f64,
) {
    let env = Env::new(crate::device());
    let a = lhs.sample(&env, &[3, 4, 5], seed(name));
    let b = rhs.sample(&env, &[3, 4, 5], seed(name) + 1);
    let expected = a.zip(&b, &reference);
    for la in Layout::ALL {
        for lb in Layout::ALL {
            let got = op(env.float_in(&a, la), env.float_in(&b, lb));
            env.check(&format!("{name} ({la:?}, {lb:?})"), got, &expected, factor);
        }
    }
    let long_a = lhs.sample(&env, &[2, 4, 10_007], seed(name) + 2);
    let long_b = rhs.sample(&env, &[2, 4, 10_007], seed(name) + 3);
    let got = op(env.float(&long_a), env.float(&long_b));
    env.check(
        &format!("{name} (long)"),
        got,
        &long_a.zip(&long_b, &reference),
        factor,
    );
}

/// `op(lhs, rhs)` for shapes that broadcast, and for an expanded operand.
pub fn broadcast(
    name: &str,
    op: impl Fn(Tensor<3>, Tensor<3>) -> Tensor<3>,
    reference: impl Fn(f64, f64) -> f64,
    (lhs, rhs): (Draw, Draw),
    factor: f64,
) {
    let env = Env::new(crate::device());
    let cases: [([usize; 3], [usize; 3]); 5] = [
        ([3, 4, 5], [1, 4, 1]),
        ([3, 1, 5], [1, 4, 1]),
        ([1, 1, 1], [3, 4, 5]),
        ([3, 4, 1], [3, 4, 5]),
        ([3, 4, 5], [3, 1, 5]),
    ];
    for (k, (sa, sb)) in cases.into_iter().enumerate() {
        let a = lhs.sample(&env, &sa, seed(name) + 10 * k as u64);
        let b = rhs.sample(&env, &sb, seed(name) + 10 * k as u64 + 1);
        let expected = a.zip(&b, &reference);
        for layout in [Layout::Contiguous, Layout::Flipped] {
            let got = op(env.float_in(&a, layout), env.float_in(&b, layout));
            env.check(
                &format!("{name} {sa:?} with {sb:?} ({layout:?})"),
                got,
                &expected,
                factor,
            );
        }
    }
    let small = lhs.sample(&env, &[1, 4, 1], seed(name) + 100);
    let (x, a) = env.expanded::<3>(&small, [3, 4, 5]);
    let b = rhs.sample(&env, &[3, 4, 5], seed(name) + 101);
    let got = op(x, env.float(&b));
    env.check(
        &format!("{name} (expanded lhs)"),
        got,
        &a.zip(&b, &reference),
        factor,
    );
}

/// `op(tensor, scalar)` on every layout, for a few scalars.
pub fn with_scalar(
    name: &str,
    op: impl Fn(Tensor<3>, f64) -> Tensor<3>,
    reference: impl Fn(f64, f64) -> f64,
    lhs: Draw,
    scalars: &[f64],
    factor: f64,
) {
    let env = Env::new(crate::device());
    let a = lhs.sample(&env, &[3, 4, 5], seed(name));
    for &s in scalars {
        let s = burn_backend_tests::round_to(env.dtype, s);
        for layout in Layout::ALL {
            let got = op(env.float_in(&a, layout), s);
            let expected = a.map(|v| reference(v, s));
            env.check(
                &format!("{name} scalar {s} ({layout:?})"),
                got,
                &expected,
                factor,
            );
        }
    }
}

macro_rules! binary_tests {
    ($($name:ident: $op:expr, $reference:expr, $draws:expr, $factor:expr $(, scalar $scalar:expr, $scalars:expr)?;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn same_shape() {
                super::same_shape(stringify!($name), $op, $reference, $draws, $factor);
            }

            #[test]
            fn broadcast() {
                super::broadcast(stringify!($name), $op, $reference, $draws, $factor);
            }

            $(
                #[test]
                fn scalar() {
                    super::with_scalar(stringify!($name), $scalar, $reference, $draws.0, $scalars, $factor);
                }
            )?
        }
    )*};
}

const ANY: Draw = Draw::Uniform(-4.0, 4.0);
const DIVISOR: Draw = Draw::Nonzero(0.25, 4.0);

binary_tests! {
    add: Tensor::add, |a, b| a + b, (ANY, ANY), 1.0,
        scalar |t: Tensor<3>, s| t.add_scalar(s), &[2.5, -0.75, 0.0];
    sub: Tensor::sub, |a, b| a - b, (ANY, ANY), 1.0,
        scalar |t: Tensor<3>, s| t.sub_scalar(s), &[2.5, -0.75];
    mul: Tensor::mul, |a, b| a * b, (ANY, ANY), 1.0,
        scalar |t: Tensor<3>, s| t.mul_scalar(s), &[2.5, -0.75, 0.0];
    div: Tensor::div, |a, b| a / b, (ANY, DIVISOR), 1.0,
        scalar |t: Tensor<3>, s| t.div_scalar(s), &[2.5, -0.75];
    remainder: Tensor::remainder, f::remainder, (ANY, DIVISOR), 2.0,
        scalar |t: Tensor<3>, s| t.remainder_scalar(s), &[1.5, -0.75];
    powf: Tensor::powf, f64::powf, (Draw::Uniform(0.25, 3.0), Draw::Uniform(-2.0, 2.0)), 2.0;
    atan2: Tensor::atan2, f64::atan2, (ANY, ANY), 1.0;
    hypot: Tensor::hypot, f64::hypot, (ANY, ANY), 1.0;
    max_pair: Tensor::max_pair, f64::max, (ANY, ANY), 1.0;
    min_pair: Tensor::min_pair, f64::min, (ANY, ANY), 1.0;
}

#[test]
fn remainder_takes_the_sign_of_the_divisor() {
    // torch.remainder(torch.tensor([5., -5., 5., -5., 4.5, -0.5]),
    //                 torch.tensor([3., 3., -3., -3., 1.5, 2.]))
    //   = [2., 1., -1., -2., 0., 1.5]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[6], vec![5.0, -5.0, 5.0, -5.0, 4.5, -0.5]);
    let b = RefArray::new(&[6], vec![3.0, 3.0, -3.0, -3.0, 1.5, 2.0]);
    let expected = RefArray::new(&[6], vec![2.0, 1.0, -1.0, -2.0, 0.0, 1.5]);
    let got = env.float::<1>(&a).remainder(env.float(&b));
    env.check("remainder signs", got, &expected, 0.0);
    // torch.remainder(torch.tensor([5., -5.]), -3.) = [-1., -2.]
    let got = env
        .float::<1>(&RefArray::new(&[2], vec![5.0, -5.0]))
        .remainder_scalar(-3.0);
    env.check(
        "remainder_scalar signs",
        got,
        &RefArray::new(&[2], vec![-1.0, -2.0]),
        0.0,
    );
}

#[test]
fn hypot_does_not_overflow_and_keeps_infinities() {
    // torch.hypot(torch.tensor([3e30, 0., -0., inf, nan, 1e-30]),
    //             torch.tensor([4e30, 0., 5., nan, -inf, 1e-30]))
    //   = [5e30, 0., 5., inf, inf, 1.4142e-30]  (in float32, 3e30² overflows)
    let env = Env::new(crate::device());
    let inf = f64::INFINITY;
    let hypot = |a: &RefArray, b: &RefArray| {
        let values = a
            .data
            .iter()
            .zip(&b.data)
            .map(|(x, y)| x.hypot(*y))
            .collect();
        RefArray::new(&a.shape, values)
    };
    if matches!(env.dtype, FloatDType::F32 | FloatDType::F64) {
        let a = env.round(&RefArray::new(
            &[6],
            vec![3e30, 0.0, -0.0, inf, f64::NAN, 1e-30],
        ));
        let b = env.round(&RefArray::new(
            &[6],
            vec![4e30, 0.0, 5.0, f64::NAN, -inf, 1e-30],
        ));
        let got = env.float::<1>(&a).hypot(env.float(&b));
        env.check("hypot extremes", got, &hypot(&a, &b), 1.0);
    }
    // In every float dtype: 300² overflows f16 (largest 65504), the hypotenuse does not.
    let a = RefArray::new(&[3], vec![300.0, -inf, 0.0]);
    let b = RefArray::new(&[3], vec![400.0, 1.0, -0.0]);
    let got = env.float::<1>(&a).hypot(env.float(&b));
    env.check(
        "hypot in range",
        got,
        &RefArray::new(&[3], vec![500.0, inf, 0.0]),
        1.0,
    );
}

#[test]
fn division_by_zero_gives_infinities_and_nan() {
    // torch.tensor([1., -1., 0.]) / 0. = [inf, -inf, nan]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[3], vec![1.0, -1.0, 0.0]);
    let expected = RefArray::new(&[3], vec![f64::INFINITY, f64::NEG_INFINITY, f64::NAN]);
    env.check(
        "div by zero scalar",
        env.float::<1>(&a).div_scalar(0.0),
        &expected,
        0.0,
    );
    let zeros = RefArray::full(&[3], 0.0);
    env.check(
        "div by zero tensor",
        env.float::<1>(&a).div(env.float(&zeros)),
        &expected,
        0.0,
    );
}
