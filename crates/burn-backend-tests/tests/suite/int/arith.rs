//! Int arithmetic: + - * with tensors and scalars (broadcasting, every layout), truncating
//! division, remainder with the divisor's sign, neg / abs / sign, powi, clamp, operators.

use burn::tensor::{Int, Tensor};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// Random non-zero ints in `±[1, high)`.
fn divisors(env: &Env, shape: &[usize], high: i64, seed: u64) -> RefArray {
    let magnitude = env.random_int(shape, 1, high, seed);
    let sign = env.random_bool(shape, 0.5, seed + 1);
    magnitude.zip(&sign, |m, s| if s != 0.0 { -m } else { m })
}

macro_rules! int_binary_tests {
    ($($name:ident: $op:expr, $scalar_op:expr, $reference:expr, $rhs:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn tensor() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random_int(&[3, 4, 5], -50, 50, seed(name));
                let b = $rhs(&env, &[3, 4, 5], seed(name) + 1);
                let expected = a.zip(&b, $reference);
                for la in Layout::ALL {
                    for lb in [Layout::Contiguous, Layout::Flipped] {
                        let got = $op(env.int_in::<3>(&a, la), env.int_in(&b, lb));
                        env.check_int(&format!("{name} ({la:?}, {lb:?})"), got, &expected);
                    }
                }
                let row = $rhs(&env, &[1, 4, 1], seed(name) + 2);
                let got = $op(env.int::<3>(&a), env.int(&row));
                env.check_int(&format!("{name} broadcast"), got, &a.zip(&row, $reference));
            }

            #[test]
            fn scalar() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random_int(&[3, 4, 5], -50, 50, seed(name) + 3);
                for s in [7i64, -3] {
                    for layout in Layout::ALL {
                        let got = $scalar_op(env.int_in::<3>(&a, layout), s);
                        let expected = a.map(|v| $reference(v, s as f64));
                        env.check_int(&format!("{name} scalar {s} ({layout:?})"), got, &expected);
                    }
                }
            }
        }
    )*};
}

fn any_int(env: &Env, shape: &[usize], seed: u64) -> RefArray {
    env.random_int(shape, -50, 50, seed)
}

fn nonzero_int(env: &Env, shape: &[usize], seed: u64) -> RefArray {
    divisors(env, shape, 12, seed)
}

int_binary_tests! {
    add: Tensor::add, |t: Tensor<3, Int>, s| t.add_scalar(s), |a: f64, b: f64| a + b, any_int;
    sub: Tensor::sub, |t: Tensor<3, Int>, s| t.sub_scalar(s), |a: f64, b: f64| a - b, any_int;
    mul: Tensor::mul, |t: Tensor<3, Int>, s| t.mul_scalar(s), |a: f64, b: f64| a * b, any_int;
    div: Tensor::div, |t: Tensor<3, Int>, s| t.div_scalar(s), f::int_div, nonzero_int;
    remainder: Tensor::remainder, |t: Tensor<3, Int>, s| t.remainder_scalar(s), f::int_remainder, nonzero_int;
}

#[test]
fn division_truncates_toward_zero() {
    // torch.div(torch.tensor([7, -7, 7, -7, 6]), torch.tensor([2, 2, -2, -2, 3]), rounding_mode='trunc')
    //   = [3, -3, -3, 3, 2]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[5], vec![7.0, -7.0, 7.0, -7.0, 6.0]);
    let b = RefArray::new(&[5], vec![2.0, 2.0, -2.0, -2.0, 3.0]);
    let got = env.int::<1>(&a).div(env.int(&b));
    env.check_int(
        "int div",
        got,
        &RefArray::new(&[5], vec![3.0, -3.0, -3.0, 3.0, 2.0]),
    );
    let got = env.int::<1>(&a).div_scalar(-2);
    env.check_int(
        "int div_scalar",
        got,
        &RefArray::new(&[5], vec![-3.0, 3.0, -3.0, 3.0, -3.0]),
    );
}

#[test]
fn remainder_has_the_sign_of_the_divisor() {
    // torch.remainder(torch.tensor([7, -7, 7, -7, 6]), torch.tensor([3, 3, -3, -3, 3])) = [1, 2, -2, -1, 0]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[5], vec![7.0, -7.0, 7.0, -7.0, 6.0]);
    let b = RefArray::new(&[5], vec![3.0, 3.0, -3.0, -3.0, 3.0]);
    let got = env.int::<1>(&a).remainder(env.int(&b));
    env.check_int(
        "int remainder",
        got,
        &RefArray::new(&[5], vec![1.0, 2.0, -2.0, -1.0, 0.0]),
    );
    // torch.remainder(torch.tensor([7, -7]), -3) = [-2, -1]
    let got = env
        .int::<1>(&RefArray::new(&[2], vec![7.0, -7.0]))
        .remainder_scalar(-3);
    env.check_int(
        "int remainder_scalar",
        got,
        &RefArray::new(&[2], vec![-2.0, -1.0]),
    );
}

#[test]
fn large_values_stay_exact() {
    // i64 arithmetic beyond 2^53 must not go through f64 (which would round 2^62 + 1 to 2^62)
    let env = Env::new(crate::device());
    if env.device.settings().int_dtype != burn::tensor::IntDType::I64 {
        return;
    }
    let big = (1i64 << 62) + 1;
    let x = Tensor::<1, Int>::from_ints([big, 2], &env.device);
    let got = (x.clone() - (1i64 << 62))
        .into_data()
        .to_vec::<i64>()
        .unwrap();
    assert_eq!(got, vec![1, 2 - (1i64 << 62)], "i64 sub_scalar near 2^62");
    let sum = x.sum().into_data().to_vec::<i64>().unwrap();
    assert_eq!(sum, vec![(1i64 << 62) + 3], "i64 sum of 2^62 + 1 and 2");
}

#[test]
fn neg_abs_sign() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[4, 5], -9, 10, 301);
    for layout in Layout::ALL {
        env.check_int(
            &format!("int neg ({layout:?})"),
            env.int_in::<2>(&a, layout).neg(),
            &a.map(|v| -v),
        );
        env.check_int(
            &format!("int abs ({layout:?})"),
            env.int_in::<2>(&a, layout).abs(),
            &a.map(f64::abs),
        );
        env.check_int(
            &format!("int sign ({layout:?})"),
            env.int_in::<2>(&a, layout).sign(),
            &a.map(f::sign),
        );
        env.check_int(
            &format!("int unary - ({layout:?})"),
            -env.int_in::<2>(&a, layout),
            &a.map(|v| -v),
        );
    }
}

#[test]
fn powi_and_square() {
    // torch.pow(int_tensor, int_tensor) for non-negative exponents
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4], -5, 6, 302);
    let n = env.random_int(&[3, 4], 0, 4, 303);
    let got = env.int::<2>(&a).powi(env.int(&n));
    env.check_int("int powi", got, &a.zip(&n, |x, k| x.powi(k as i32)));
    let got = env.int::<2>(&a).powi_scalar(3);
    env.check_int("int powi_scalar", got, &a.map(|x| x.powi(3)));
    env.check_int("int square", env.int::<2>(&a).square(), &a.map(|x| x * x));
}

#[test]
fn clamp_family() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[4, 5], -20, 20, 304);
    for layout in Layout::ALL {
        let x = || env.int_in::<2>(&a, layout);
        env.check_int(
            &format!("int clamp ({layout:?})"),
            x().clamp(-5, 7),
            &a.map(|v| v.clamp(-5.0, 7.0)),
        );
        env.check_int(
            &format!("int clamp_min ({layout:?})"),
            x().clamp_min(0),
            &a.map(|v| v.max(0.0)),
        );
        env.check_int(
            &format!("int clamp_max ({layout:?})"),
            x().clamp_max(3),
            &a.map(|v| v.min(3.0)),
        );
    }
}

#[test]
fn max_pair_and_min_pair() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4], -9, 10, 305);
    let b = env.random_int(&[1, 4], -9, 10, 306);
    env.check_int(
        "int max_pair",
        env.int::<2>(&a).max_pair(env.int(&b)),
        &a.zip(&b, f64::max),
    );
    env.check_int(
        "int min_pair",
        env.int::<2>(&a).min_pair(env.int(&b)),
        &a.zip(&b, f64::min),
    );
}

#[test]
fn operators_with_scalars_on_both_sides() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[2, 3], -9, 10, 307);
    let x = || env.int::<2>(&a);
    env.check_int("int + i64", x() + 3i64, &a.map(|v| v + 3.0));
    env.check_int("int - i32", x() - 3i32, &a.map(|v| v - 3.0));
    env.check_int("int * u8", x() * 2u8, &a.map(|v| v * 2.0));
    env.check_int("int / i64", x() / 2i64, &a.map(|v| f::int_div(v, 2.0)));
    env.check_int(
        "int % i64",
        x() % 4i64,
        &a.map(|v| f::int_remainder(v, 4.0)),
    );
    env.check_int("i64 + int", 3i64 + x(), &a.map(|v| 3.0 + v));
    env.check_int("i32 - int", 3i32 - x(), &a.map(|v| 3.0 - v));
    env.check_int("i64 * int", 2i64 * x(), &a.map(|v| 2.0 * v));
    env.check_int("int + int", x() + x(), &a.map(|v| 2.0 * v));
}
