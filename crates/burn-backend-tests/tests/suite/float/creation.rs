//! Creating float tensors: empty, zeros, ones, full, *_like, from_data / from_floats with
//! nested arrays, explicit dtypes, and random tensors of every distribution (moments and
//! ranges checked statistically, with loose bounds).

use burn::tensor::{DType, Distribution, FloatDType, Tensor, TensorData};
use burn_backend_tests::{Env, RefArray};

#[test]
fn zeros_ones_full() {
    let env = Env::new(crate::device());
    env.check(
        "zeros",
        Tensor::<2>::zeros([2, 3], &env.device),
        &RefArray::full(&[2, 3], 0.0),
        0.0,
    );
    env.check(
        "ones",
        Tensor::<3>::ones([2, 1, 3], &env.device),
        &RefArray::full(&[2, 1, 3], 1.0),
        0.0,
    );
    env.check(
        "full 2.5",
        Tensor::<2>::full([3, 2], 2.5, &env.device),
        &RefArray::full(&[3, 2], 2.5),
        0.0,
    );
    env.check(
        "full int value",
        Tensor::<1>::full([4], -3, &env.device),
        &RefArray::full(&[4], -3.0),
        0.0,
    );
    let inf = Tensor::<1>::full([2], f64::INFINITY, &env.device);
    env.check("full inf", inf, &RefArray::full(&[2], f64::INFINITY), 0.0);
}

#[test]
fn empty_has_shape_and_dtype() {
    let env = Env::new(crate::device());
    let x = Tensor::<3>::empty([2, 0, 4], &env.device);
    assert_eq!(x.dims(), [2, 0, 4], "empty with a zero dim");
    let y = Tensor::<2>::empty([3, 5], &env.device);
    assert_eq!(y.dims(), [3, 5]);
    assert_eq!(
        y.dtype(),
        DType::from(env.dtype),
        "empty takes the default float dtype"
    );
    assert_eq!(y.into_data().num_elements(), 15);
}

#[test]
fn like_constructors_keep_shape_device_and_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 3], -1.0, 1.0, 231);
    let x = env.float::<2>(&a);
    env.check(
        "zeros_like",
        x.zeros_like(),
        &RefArray::full(&[2, 3], 0.0),
        0.0,
    );
    env.check(
        "ones_like",
        x.ones_like(),
        &RefArray::full(&[2, 3], 1.0),
        0.0,
    );
    env.check(
        "full_like",
        x.full_like(-0.5),
        &RefArray::full(&[2, 3], -0.5),
        0.0,
    );
    let other = burn_backend_tests::other_float_dtype(&env.device, env.dtype);
    let wide = Tensor::<2>::zeros([2, 2], (&env.device, other));
    let like = wide.ones_like();
    assert_eq!(
        like.dtype(),
        DType::from(other),
        "ones_like of an {other} tensor"
    );
    assert_eq!(like.device(), env.device, "ones_like keeps the device");
}

#[test]
fn from_floats_with_nested_arrays() {
    let env = Env::new(crate::device());
    let x = Tensor::<1>::from_floats([1.0, -2.0, 3.5], &env.device);
    env.check(
        "from_floats rank 1",
        x,
        &RefArray::new(&[3], vec![1.0, -2.0, 3.5]),
        0.0,
    );
    let x = Tensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &env.device);
    env.check(
        "from_floats rank 2",
        x,
        &RefArray::iota(&[2, 3]).map(|v| v + 1.0),
        0.0,
    );
    let x = Tensor::<3>::from_floats([[[1.0f32, 2.0]], [[3.0, 4.0]]], &env.device);
    env.check(
        "from_floats rank 3",
        x,
        &RefArray::new(&[2, 1, 2], vec![1.0, 2.0, 3.0, 4.0]),
        0.0,
    );
    let x = Tensor::<4>::from_floats([[[[0.5f64]]]], &env.device);
    env.check(
        "from_floats rank 4",
        x,
        &RefArray::new(&[1, 1, 1, 1], vec![0.5]),
        0.0,
    );
}

#[test]
fn from_data_converts_any_element_type() {
    let env = Env::new(crate::device());
    let expected = RefArray::new(&[2, 2], vec![1.0, 2.0, -3.0, 4.0]);
    let from_f64 = Tensor::<2>::from_data([[1.0f64, 2.0], [-3.0, 4.0]], &env.device);
    env.check("from_data f64", from_f64, &expected, 0.0);
    let from_i32 = Tensor::<2>::from_data([[1i32, 2], [-3, 4]], &env.device);
    env.check("from_data i32", from_i32, &expected, 0.0);
    let data = TensorData::new(vec![1.0f32, 2.0, -3.0, 4.0], [2, 2]);
    env.check(
        "from_data TensorData",
        Tensor::<2>::from_data(data, &env.device),
        &expected,
        0.0,
    );
    let from_vec = Tensor::<1>::from_data(vec![1.5f32, 2.5], &env.device);
    env.check(
        "from_data Vec",
        from_vec,
        &RefArray::new(&[2], vec![1.5, 2.5]),
        0.0,
    );
}

#[test]
fn explicit_dtypes() {
    let env = Env::new(crate::device());
    for dtype in [
        FloatDType::F64,
        FloatDType::F32,
        FloatDType::F16,
        FloatDType::BF16,
    ] {
        if !burn_backend_tests::supports(
            &env.device,
            &[dtype.into()],
            &format!("{} in {dtype}", module_path!()),
        ) {
            continue;
        }
        let x = Tensor::<2>::from_data([[1.5, -2.0], [0.25, 8.0]], (&env.device, dtype));
        assert_eq!(
            x.dtype(),
            DType::from(dtype),
            "from_data with an explicit {dtype}"
        );
        let y = Tensor::<2>::ones([2, 2], (&env.device, DType::from(dtype)));
        assert_eq!(
            y.dtype(),
            DType::from(dtype),
            "ones with an explicit {dtype}"
        );
        let sum = (x + y).sum().into_scalar::<f64>();
        assert_eq!(sum, 11.75, "sum in {dtype}: (1.5 - 2 + 0.25 + 8) + 4");
    }
}

#[test]
fn f64_keeps_precision_beyond_f32() {
    // 1 + 2^-40 is exact in f64 and rounds to 1 in f32
    let env = Env::new(crate::device());
    if !burn_backend_tests::supports(&env.device, &[DType::F64], module_path!()) {
        return;
    }
    let tiny = 2f64.powi(-40);
    let x = Tensor::<1>::from_data([1.0f64], (&env.device, DType::F64)) + tiny;
    let v = x.into_data().to_vec::<f64>().unwrap()[0];
    assert_eq!(v, 1.0 + tiny, "f64 add_scalar lost precision");
}

/// Draws `count` values of `distribution` on the device and returns them as f64.
fn draw(env: &Env, distribution: Distribution, count: usize) -> Vec<f64> {
    let _lock = burn_backend_tests::device_rng_lock();
    let x = Tensor::<2>::random([count / 100, 100], distribution, &env.device);
    assert_eq!(
        x.dtype(),
        DType::from(env.dtype),
        "random takes the default float dtype"
    );
    x.into_data().to_vec::<f64>().unwrap()
}

fn moments(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[test]
fn random_default_is_uniform_on_unit_interval() {
    let env = Env::new(crate::device());
    let values = draw(&env, Distribution::Default, 20_000);
    assert!(
        values.iter().all(|v| (0.0..=1.0).contains(v)),
        "Default values outside [0, 1]"
    );
    let (mean, std) = moments(&values);
    // U(0, 1): mean 0.5, std 0.2887
    assert!((mean - 0.5).abs() < 0.02, "Default mean {mean}");
    assert!((std - 0.2887).abs() < 0.02, "Default std {std}");
}

#[test]
fn random_uniform_respects_its_range() {
    let env = Env::new(crate::device());
    let values = draw(&env, Distribution::Uniform(-3.0, 5.0), 20_000);
    assert!(
        values.iter().all(|v| (-3.0..=5.0).contains(v)),
        "Uniform(-3, 5) values outside the range"
    );
    let (mean, std) = moments(&values);
    // U(-3, 5): mean 1, std 8 / sqrt(12) = 2.309
    assert!((mean - 1.0).abs() < 0.1, "Uniform mean {mean}");
    assert!((std - 2.309).abs() < 0.1, "Uniform std {std}");
    let low = values.iter().cloned().fold(f64::INFINITY, f64::min);
    let high = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    assert!(
        low < -2.9 && high > 4.9,
        "Uniform covers its range: min {low}, max {high}"
    );
}

#[test]
fn random_normal_has_its_moments() {
    let env = Env::new(crate::device());
    let values = draw(&env, Distribution::Normal(2.0, 0.5), 20_000);
    let (mean, std) = moments(&values);
    assert!((mean - 2.0).abs() < 0.03, "Normal(2, 0.5) mean {mean}");
    assert!((std - 0.5).abs() < 0.03, "Normal(2, 0.5) std {std}");
    let within_one_sigma =
        values.iter().filter(|v| (*v - 2.0).abs() < 0.5).count() as f64 / values.len() as f64;
    // P(|Z| < 1) = 0.6827
    assert!(
        (within_one_sigma - 0.6827).abs() < 0.03,
        "Normal mass within one sigma {within_one_sigma}"
    );
}

#[test]
fn random_bernoulli_gives_zeros_and_ones() {
    let env = Env::new(crate::device());
    let values = draw(&env, Distribution::Bernoulli(0.3), 20_000);
    assert!(
        values.iter().all(|&v| v == 0.0 || v == 1.0),
        "Bernoulli values other than 0 and 1"
    );
    let (mean, _) = moments(&values);
    assert!((mean - 0.3).abs() < 0.02, "Bernoulli(0.3) mean {mean}");
}

#[test]
fn random_values_are_not_all_equal() {
    let env = Env::new(crate::device());
    let values = draw(&env, Distribution::Default, 1000);
    let distinct = values.iter().filter(|&&v| v != values[0]).count();
    assert!(
        distinct > 900,
        "random gave {distinct} values different from the first of 1000"
    );
}
