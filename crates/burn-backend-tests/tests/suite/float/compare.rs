//! Comparisons of float tensors (tensor and scalar forms), equality, NaN and infinity tests,
//! `is_close` / `all_close`, `any` / `all`.

use burn::tensor::{Bool, Tensor};
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// Values on a coarse grid so that ties are frequent.
fn coarse(env: &Env, shape: &[usize], seed: u64) -> RefArray {
    env.random_int(shape, -3, 4, seed).map(|v| v * 0.5)
}

macro_rules! comparison_tests {
    ($($name:ident / $elem:ident: $reference:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn tensor() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = coarse(&env, &[3, 4], seed(name));
                let b = coarse(&env, &[3, 4], seed(name) + 1);
                let expected = a.zip(&b, |x, y| $reference(x, y) as u8 as f64);
                for layout in Layout::ALL {
                    let got = env.float_in::<2>(&a, layout).$name(env.float_in(&b, layout));
                    env.check_bool(&format!("{name} ({layout:?})"), got, &expected);
                }
                let row = coarse(&env, &[1, 4], seed(name) + 2);
                let got = env.float::<2>(&a).$name(env.float(&row));
                env.check_bool(&format!("{name} broadcast"), got, &a.zip(&row, |x, y| $reference(x, y) as u8 as f64));
            }

            #[test]
            fn scalar() {
                let env = Env::new(crate::device());
                let name = stringify!($elem);
                let a = coarse(&env, &[3, 4], seed(name));
                for s in [0.5, -1.0] {
                    for layout in Layout::ALL {
                        let got = env.float_in::<2>(&a, layout).$elem(s);
                        let expected = a.map(|x| $reference(x, s) as u8 as f64);
                        env.check_bool(&format!("{name} {s} ({layout:?})"), got, &expected);
                    }
                }
            }
        }
    )*};
}

comparison_tests! {
    greater / greater_elem: |x: f64, y: f64| x > y;
    greater_equal / greater_equal_elem: |x: f64, y: f64| x >= y;
    lower / lower_elem: |x: f64, y: f64| x < y;
    lower_equal / lower_equal_elem: |x: f64, y: f64| x <= y;
    equal / equal_elem: |x: f64, y: f64| x == y;
    not_equal / not_equal_elem: |x: f64, y: f64| x != y;
}

#[test]
fn comparisons_with_nan_are_false_except_not_equal() {
    // torch: nan > 1, nan < 1, nan == nan are False; nan != nan is True
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2], vec![f64::NAN, f64::NAN]);
    let b = RefArray::new(&[2], vec![1.0, f64::NAN]);
    let x = || env.float::<1>(&a);
    let y = || env.float::<1>(&b);
    let none = RefArray::full(&[2], 0.0);
    env.check_bool("nan >", x().greater(y()), &none);
    env.check_bool("nan >=", x().greater_equal(y()), &none);
    env.check_bool("nan <", x().lower(y()), &none);
    env.check_bool("nan <=", x().lower_equal(y()), &none);
    env.check_bool("nan ==", x().equal(y()), &none);
    env.check_bool("nan !=", x().not_equal(y()), &RefArray::full(&[2], 1.0));
    env.check_bool("nan > elem", x().greater_elem(0.0), &none);
}

#[test]
fn is_nan_and_is_inf() {
    // torch.isnan / torch.isinf of [nan, inf, -inf, 0, 1]
    let env = Env::new(crate::device());
    let inf = f64::INFINITY;
    let a = RefArray::new(&[5], vec![f64::NAN, inf, -inf, 0.0, 1.0]);
    let nan = RefArray::new(&[5], vec![1.0, 0.0, 0.0, 0.0, 0.0]);
    let infinite = RefArray::new(&[5], vec![0.0, 1.0, 1.0, 0.0, 0.0]);
    for layout in Layout::ALL {
        env.check_bool(
            &format!("is_nan ({layout:?})"),
            env.float_in::<1>(&a, layout).is_nan(),
            &nan,
        );
        env.check_bool(
            &format!("is_inf ({layout:?})"),
            env.float_in::<1>(&a, layout).is_inf(),
            &infinite,
        );
    }
}

#[test]
fn contains_nan() {
    let env = Env::new(crate::device());
    let clean = env.random(&[3, 4], -1.0, 1.0, 51);
    assert!(
        !env.float::<2>(&clean).contains_nan().into_scalar::<bool>(),
        "contains_nan: no NaN in a random tensor"
    );
    let mut dirty = clean.clone();
    dirty.set(&[2, 1], f64::NAN);
    assert!(
        env.float::<2>(&dirty).contains_nan().into_scalar::<bool>(),
        "contains_nan: missed a NaN at [2, 1]"
    );
    let strided = env.float_in::<2>(&dirty, Layout::Strided);
    assert!(
        strided.contains_nan().into_scalar::<bool>(),
        "contains_nan: missed a NaN in a strided tensor"
    );
}

#[test]
fn is_close_and_all_close() {
    // torch.isclose(a, b, rtol=1e-2, atol=1e-3): |a - b| <= atol + rtol * |b|
    let env = Env::new(crate::device());
    let b = RefArray::new(&[4], vec![1.0, 100.0, 0.0, -2.0]);
    let a = env.round(&RefArray::new(&[4], vec![1.005, 103.0, 0.0005, -2.5]));
    let expected = a.zip(&b, |x, y| {
        ((x - y).abs() <= 1e-3 + 1e-2 * y.abs()) as u8 as f64
    });
    assert_eq!(
        expected.data,
        vec![1.0, 0.0, 1.0, 0.0],
        "reference self-check"
    );
    let got = env
        .float::<1>(&a)
        .is_close(env.float(&b), Some(1e-2), Some(1e-3));
    env.check_bool("is_close", got, &expected);
    assert!(
        !env.float::<1>(&a)
            .all_close(env.float(&b), Some(1e-2), Some(1e-3)),
        "all_close: two elements are far"
    );
    assert!(
        env.float::<1>(&b)
            .all_close(env.float(&b), Some(0.0), Some(0.0)),
        "all_close: a tensor is close to itself"
    );
}

#[test]
fn is_close_with_infinities_nans_and_defaults() {
    // torch.isclose(torch.tensor([inf, inf, 1., nan, 1.00001, 1e-9]),
    //               torch.tensor([inf, -inf, inf, nan, 1., 0.]))
    //   = [True, False, False, False, True, True]  (defaults rtol=1e-5, atol=1e-8)
    let env = Env::new(crate::device());
    let inf = f64::INFINITY;
    let a = env.round(&RefArray::new(
        &[6],
        vec![inf, inf, 1.0, f64::NAN, 1.0 + 1e-6, 1e-9],
    ));
    let b = RefArray::new(&[6], vec![inf, -inf, inf, f64::NAN, 1.0, 0.0]);
    let expected = RefArray::new(&[6], vec![1.0, 0.0, 0.0, 0.0, 1.0, 1.0]);
    let got = env.float::<1>(&a).is_close(env.float(&b), None, None);
    env.check_bool("is_close defaults", got, &expected);
}

#[test]
fn any_and_all_of_floats() {
    // torch.any / torch.all: non-zero counts as true
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 3], vec![0.0, 0.0, 0.5, 0.0, 0.0, 0.0]);
    let b = RefArray::new(&[2, 3], vec![1.0, -2.0, 0.5, 3.0, f64::NAN, 1.0]);
    let check = |name: &str, got: Tensor<1, Bool>, want: bool| {
        env.check_bool(name, got, &RefArray::scalar(want as u8 as f64))
    };
    check("any a", env.float::<2>(&a).any(), true);
    check("all a", env.float::<2>(&a).all(), false);
    check(
        "any zeros",
        env.float::<2>(&RefArray::full(&[2, 3], 0.0)).any(),
        false,
    );
    check("all b (nan is non-zero)", env.float::<2>(&b).all(), true);
    env.check_bool(
        "any_dim 1",
        env.float::<2>(&a).any_dim(1),
        &RefArray::new(&[2, 1], vec![1.0, 0.0]),
    );
    env.check_bool(
        "all_dim 0",
        env.float::<2>(&b).all_dim(0),
        &RefArray::new(&[1, 3], vec![1.0, 1.0, 1.0]),
    );
    env.check_bool(
        "all_dim 0 of a",
        env.float::<2>(&a).all_dim(0),
        &RefArray::new(&[1, 3], vec![0.0, 0.0, 0.0]),
    );
}
