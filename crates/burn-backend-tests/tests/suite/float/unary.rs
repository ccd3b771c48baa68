//! Element-wise float math: one test per op from a table of (tensor method, f64 function,
//! input domain, tolerance factor), each run on every memory layout, on an expanded input, and
//! on a long input that takes the vectorized and parallel paths.

use burn::tensor::Tensor;
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// Checks `op` against `reference` on inputs drawn from `[low, high)`.
pub fn check_unary(
    name: &str,
    op: impl Fn(Tensor<3>) -> Tensor<3>,
    reference: impl Fn(f64) -> f64 + Copy,
    (low, high): (f64, f64),
    factor: f64,
) {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 3, 5], low, high, seed(name));
    for layout in Layout::ALL {
        let got = op(env.float_in::<3>(&a, layout));
        env.check(
            &format!("{name} ({layout:?})"),
            got,
            &a.map(reference),
            factor,
        );
    }
    let small = env.random(&[2, 1, 5], low, high, seed(name) + 1);
    let (x, expanded) = env.expanded::<3>(&small, [2, 3, 5]);
    env.check(
        &format!("{name} (expanded)"),
        op(x),
        &expanded.map(reference),
        factor,
    );
    let long = env.random(&[1, 7, 10_007], low, high, seed(name) + 2);
    env.check(
        &format!("{name} (long)"),
        op(env.float(&long)),
        &long.map(reference),
        factor,
    );
}

macro_rules! unary_tests {
    ($($name:ident: $op:expr, $reference:expr, $domain:expr, $factor:expr;)*) => {$(
        #[test]
        fn $name() {
            check_unary(stringify!($name), $op, $reference, $domain, $factor);
        }
    )*};
}

unary_tests! {
    exp: Tensor::exp, f64::exp, (-4.0, 4.0), 1.0;
    log: Tensor::log, f64::ln, (0.05, 20.0), 1.0;
    log1p: Tensor::log1p, f64::ln_1p, (-0.9, 5.0), 1.0;
    sqrt: Tensor::sqrt, f64::sqrt, (0.0, 16.0), 1.0;
    recip: Tensor::recip, f64::recip, (0.25, 4.0), 1.0;
    sin: Tensor::sin, f64::sin, (-4.0, 4.0), 1.0;
    cos: Tensor::cos, f64::cos, (-4.0, 4.0), 1.0;
    tan: Tensor::tan, f64::tan, (-1.2, 1.2), 1.0;
    sinh: Tensor::sinh, f64::sinh, (-3.0, 3.0), 1.0;
    cosh: Tensor::cosh, f64::cosh, (-3.0, 3.0), 1.0;
    tanh: Tensor::tanh, f64::tanh, (-4.0, 4.0), 1.0;
    asin: Tensor::asin, f64::asin, (-0.95, 0.95), 1.0;
    acos: Tensor::acos, f64::acos, (-0.95, 0.95), 1.0;
    atan: Tensor::atan, f64::atan, (-5.0, 5.0), 1.0;
    asinh: Tensor::asinh, f64::asinh, (-5.0, 5.0), 1.0;
    acosh: Tensor::acosh, f64::acosh, (1.05, 6.0), 1.0;
    atanh: Tensor::atanh, f64::atanh, (-0.9, 0.9), 1.0;
    erf: Tensor::erf, f::erf, (-3.0, 3.0), 1.0;
    round: Tensor::round, f64::round_ties_even, (-5.0, 5.0), 1.0;
    floor: Tensor::floor, f64::floor, (-5.0, 5.0), 1.0;
    ceil: Tensor::ceil, f64::ceil, (-5.0, 5.0), 1.0;
    trunc: Tensor::trunc, f64::trunc, (-5.0, 5.0), 1.0;
    neg: Tensor::neg, |x: f64| -x, (-5.0, 5.0), 1.0;
    abs: Tensor::abs, f64::abs, (-5.0, 5.0), 1.0;
    sign: Tensor::sign, f::sign, (-5.0, 5.0), 1.0;
    square: |t: Tensor<3>| t.square(), |x: f64| x * x, (-5.0, 5.0), 1.0;
    powf_scalar_half: |t: Tensor<3>| t.powf_scalar(0.5), f64::sqrt, (0.0, 9.0), 1.0;
    powf_scalar_fraction: |t: Tensor<3>| t.powf_scalar(2.5), |x: f64| x.powf(2.5), (0.1, 4.0), 1.0;
    powf_scalar_negative: |t: Tensor<3>| t.powf_scalar(-1.5), |x: f64| x.powf(-1.5), (0.5, 4.0), 1.0;
    powi_scalar_cube: |t: Tensor<3>| t.powi_scalar(3), |x: f64| x.powi(3), (-3.0, 3.0), 1.0;
    powi_scalar_negative: |t: Tensor<3>| t.powi_scalar(-2), |x: f64| x.powi(-2), (0.5, 3.0), 1.0;
    powi_scalar_zero: |t: Tensor<3>| t.powi_scalar(0), |_: f64| 1.0, (-3.0, 3.0), 1.0;
    clamp: |t: Tensor<3>| t.clamp(-1.0, 2.0), |x: f64| x.clamp(-1.0, 2.0), (-4.0, 4.0), 1.0;
    clamp_min: |t: Tensor<3>| t.clamp_min(0.5), |x: f64| x.max(0.5), (-4.0, 4.0), 1.0;
    clamp_max: |t: Tensor<3>| t.clamp_max(0.5), |x: f64| x.min(0.5), (-4.0, 4.0), 1.0;
    detach_is_identity: Tensor::detach, |x: f64| x, (-4.0, 4.0), 1.0;
}

#[test]
fn round_breaks_ties_to_even() {
    // torch.round(torch.tensor([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.49]))
    //   = [0., 2., 2., -0., -2., -2., 3.]
    let env = Env::new(crate::device());
    let x = RefArray::new(
        &[7],
        vec![0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5 - 1.0 / 64.0],
    );
    let expected = RefArray::new(&[7], vec![0.0, 2.0, 2.0, 0.0, -2.0, -2.0, 3.0]);
    env.check("round ties", env.float::<1>(&x).round(), &expected, 0.0);
}

#[test]
fn special_values_follow_ieee() {
    // torch.exp / log / sqrt / recip / tanh / abs of [inf, -inf, 0, -1]:
    // exp: [inf, 0, 1, e^-1]; log: [inf, nan, -inf, nan]; sqrt: [inf, nan, 0, nan];
    // recip: [0, -0, inf, -1]; tanh: [1, -1, 0, tanh(-1)]; abs: [inf, inf, 0, 1]
    let env = Env::new(crate::device());
    let inf = f64::INFINITY;
    let x = RefArray::new(&[4], vec![inf, -inf, 0.0, -1.0]);
    let t = || env.float::<1>(&x);
    let e = |v: Vec<f64>| env.round(&RefArray::new(&[4], v));
    env.check(
        "exp specials",
        t().exp(),
        &e(vec![inf, 0.0, 1.0, (-1f64).exp()]),
        1.0,
    );
    env.check(
        "log specials",
        t().log(),
        &e(vec![inf, f64::NAN, -inf, f64::NAN]),
        1.0,
    );
    env.check(
        "sqrt specials",
        t().sqrt(),
        &e(vec![inf, f64::NAN, 0.0, f64::NAN]),
        1.0,
    );
    env.check(
        "recip specials",
        t().recip(),
        &e(vec![0.0, 0.0, inf, -1.0]),
        1.0,
    );
    env.check(
        "tanh specials",
        t().tanh(),
        &e(vec![1.0, -1.0, 0.0, (-1f64).tanh()]),
        1.0,
    );
    env.check("abs specials", t().abs(), &e(vec![inf, inf, 0.0, 1.0]), 1.0);
}

#[test]
fn nan_propagates_through_math() {
    // torch.exp / sin / abs / floor / neg of nan are nan
    let env = Env::new(crate::device());
    let x = RefArray::new(&[3], vec![f64::NAN, 1.0, f64::NAN]);
    type Case = (&'static str, fn(Tensor<1>) -> Tensor<1>, fn(f64) -> f64);
    let ops: [Case; 5] = [
        ("exp", Tensor::exp, f64::exp),
        ("sin", Tensor::sin, f64::sin),
        ("abs", Tensor::abs, f64::abs),
        ("floor", Tensor::floor, f64::floor),
        ("neg", Tensor::neg, |v| -v),
    ];
    for (name, op, reference) in ops {
        let expected = env.round(&x.map(reference));
        env.check(&format!("{name} of nan"), op(env.float(&x)), &expected, 1.0);
    }
}

#[test]
fn sign_of_zero_is_zero() {
    // torch.sign(torch.tensor([0., -0., 3., -2.])) = [0., 0., 1., -1.]
    let env = Env::new(crate::device());
    let x = RefArray::new(&[4], vec![0.0, -0.0, 3.0, -2.0]);
    let expected = RefArray::new(&[4], vec![0.0, 0.0, 1.0, -1.0]);
    env.check("sign zeros", env.float::<1>(&x).sign(), &expected, 0.0);
}

#[test]
fn powi_with_int_exponent_tensor_broadcasts() {
    let env = Env::new(crate::device());
    // torch.pow(a, n) with a float base (never 0) and an int exponent tensor of shape [1, 4]
    let a = env.random_nonzero(&[3, 4], 0.25, 2.0, 11);
    let n = env.random_int(&[1, 4], -2, 4, 12);
    let expected = a.zip(&n, |x, k| x.powi(k as i32));
    for layout in Layout::ALL {
        let got = env.float_in::<2>(&a, layout).powi(env.int(&n).float());
        env.check(&format!("powi ({layout:?})"), got, &expected, 4.0);
    }
}

#[test]
fn powf_of_negative_bases_with_integral_exponents() {
    // torch.pow(torch.tensor([-2., -0.5, 3.]), 3.) = [-8., -0.125, 27.]; ** 2. = [4., 0.25, 9.];
    // ** 0.5 of a negative base is nan
    let env = Env::new(crate::device());
    let x = RefArray::new(&[3], vec![-2.0, -0.5, 3.0]);
    let t = || env.float::<1>(&x);
    env.check(
        "powf_scalar 3",
        t().powf_scalar(3.0),
        &RefArray::new(&[3], vec![-8.0, -0.125, 27.0]),
        1.0,
    );
    env.check(
        "powf_scalar 2",
        t().powf_scalar(2.0),
        &RefArray::new(&[3], vec![4.0, 0.25, 9.0]),
        1.0,
    );
    let sqrt3 = env.round(&RefArray::scalar(3f64.sqrt())).data[0];
    env.check(
        "powf_scalar 0.5",
        t().powf_scalar(0.5),
        &RefArray::new(&[3], vec![f64::NAN, f64::NAN, sqrt3]),
        1.0,
    );
    let exponents = RefArray::new(&[3], vec![3.0, -2.0, 2.0]);
    let got = t().powf(env.float(&exponents));
    env.check(
        "powf tensor",
        got,
        &RefArray::new(&[3], vec![-8.0, 4.0, 9.0]),
        1.0,
    );
}

#[test]
fn clamp_keeps_nan() {
    // torch.clamp(torch.tensor([nan, -5., 5.]), -1., 1.) = [nan, -1., 1.]
    let env = Env::new(crate::device());
    let x = RefArray::new(&[3], vec![f64::NAN, -5.0, 5.0]);
    env.check(
        "clamp nan",
        env.float::<1>(&x).clamp(-1.0, 1.0),
        &RefArray::new(&[3], vec![f64::NAN, -1.0, 1.0]),
        0.0,
    );
    env.check(
        "clamp_min nan",
        env.float::<1>(&x).clamp_min(0.0),
        &RefArray::new(&[3], vec![f64::NAN, 0.0, 5.0]),
        0.0,
    );
    env.check(
        "clamp_max nan",
        env.float::<1>(&x).clamp_max(0.0),
        &RefArray::new(&[3], vec![f64::NAN, -5.0, 0.0]),
        0.0,
    );
}

#[test]
fn exp_and_log_at_the_edges_of_the_range() {
    // exp overflows to inf and underflows to 0; log1p of tiny values keeps them
    let env = Env::new(crate::device());
    let big = match env.dtype {
        burn::tensor::FloatDType::F64 => 800.0,
        _ => 100.0,
    };
    let x = RefArray::new(&[2], vec![big, -big]);
    env.check(
        "exp edges",
        env.float::<1>(&x).exp(),
        &RefArray::new(&[2], vec![f64::INFINITY, 0.0]),
        1.0,
    );
    let tiny = env.round(&RefArray::new(&[2], vec![1e-4, -1e-4]));
    env.check(
        "log1p tiny",
        env.float::<1>(&tiny).log1p(),
        &tiny.map(f64::ln_1p),
        1.0,
    );
}
