//! Creating int tensors: from_ints / from_data, zeros / ones / full / *_like, arange,
//! arange_step, random, explicit int dtypes.

use burn::tensor::{DType, Distribution, Int, IntDType, Tensor};
use burn_backend_tests::{Env, RefArray};

#[test]
fn from_ints_with_nested_arrays() {
    let env = Env::new(crate::device());
    let x = Tensor::<2, Int>::from_ints([[1, -2, 3], [4, 5, -6]], &env.device);
    assert_eq!(
        x.dtype(),
        DType::from(env.device.settings().int_dtype),
        "from_ints takes the default int dtype"
    );
    env.check_int(
        "from_ints",
        x,
        &RefArray::new(&[2, 3], vec![1.0, -2.0, 3.0, 4.0, 5.0, -6.0]),
    );
    let x = Tensor::<1, Int>::from_data([7i64, 8, 9], &env.device);
    env.check_int(
        "from_data i64",
        x,
        &RefArray::new(&[3], vec![7.0, 8.0, 9.0]),
    );
    let x = Tensor::<3, Int>::from_data([[[1u8, 2]], [[3, 4]]], &env.device);
    env.check_int(
        "from_data u8",
        x,
        &RefArray::new(&[2, 1, 2], vec![1.0, 2.0, 3.0, 4.0]),
    );
}

#[test]
fn from_floats_data_truncates() {
    // TensorData of floats converted to ints with `as` semantics: 2.7 -> 2, -2.7 -> -2
    let env = Env::new(crate::device());
    let x = Tensor::<1, Int>::from_data([2.7f32, -2.7, 0.0], &env.device);
    env.check_int(
        "from_data f32 into int",
        x,
        &RefArray::new(&[3], vec![2.0, -2.0, 0.0]),
    );
}

#[test]
fn constant_constructors() {
    let env = Env::new(crate::device());
    env.check_int(
        "int zeros",
        Tensor::<2, Int>::zeros([2, 3], &env.device),
        &RefArray::full(&[2, 3], 0.0),
    );
    env.check_int(
        "int ones",
        Tensor::<2, Int>::ones([3, 1], &env.device),
        &RefArray::full(&[3, 1], 1.0),
    );
    env.check_int(
        "int full",
        Tensor::<1, Int>::full([4], -7, &env.device),
        &RefArray::full(&[4], -7.0),
    );
    let x = Tensor::<2, Int>::full([2, 2], 5, &env.device);
    env.check_int(
        "int zeros_like",
        x.zeros_like(),
        &RefArray::full(&[2, 2], 0.0),
    );
    env.check_int(
        "int ones_like",
        x.ones_like(),
        &RefArray::full(&[2, 2], 1.0),
    );
    env.check_int(
        "int full_like",
        x.full_like(9),
        &RefArray::full(&[2, 2], 9.0),
    );
}

#[test]
fn arange_and_arange_step() {
    // torch.arange(-2, 5) and torch.arange(1, 10, 3) = [1, 4, 7]
    let env = Env::new(crate::device());
    let x = Tensor::<1, Int>::arange(-2..5, &env.device);
    env.check_int(
        "arange",
        x,
        &RefArray::new(&[7], (-2..5).map(|v| v as f64).collect()),
    );
    let x = Tensor::<1, Int>::arange_step(1..10, 3, &env.device);
    env.check_int("arange_step", x, &RefArray::new(&[3], vec![1.0, 4.0, 7.0]));
    let x = Tensor::<1, Int>::arange_step(0..10, 5, &env.device);
    env.check_int(
        "arange_step exact end",
        x,
        &RefArray::new(&[2], vec![0.0, 5.0]),
    );
    let x = Tensor::<1, Int>::arange(3..3, &env.device);
    assert_eq!(x.dims(), [0], "arange of an empty range");
}

#[test]
fn explicit_int_dtypes() {
    let env = Env::new(crate::device());
    for dtype in [
        IntDType::I64,
        IntDType::I32,
        IntDType::I16,
        IntDType::I8,
        IntDType::U8,
        IntDType::U32,
    ] {
        if !burn_backend_tests::supports(
            &env.device,
            &[dtype.into()],
            &format!("{} in {dtype}", module_path!()),
        ) {
            continue;
        }
        let x = Tensor::<1, Int>::from_data([1, 2, 3], (&env.device, dtype));
        assert_eq!(
            x.dtype(),
            DType::from(dtype),
            "from_data with an explicit {dtype}"
        );
        let y = Tensor::<1, Int>::arange(0..3, (&env.device, dtype));
        assert_eq!(
            y.dtype(),
            DType::from(dtype),
            "arange with an explicit {dtype}"
        );
        let sum = (x + y).sum();
        assert_eq!(sum.dtype(), DType::from(dtype), "sum keeps {dtype}");
        assert_eq!(sum.into_scalar::<i64>(), 9, "sum in {dtype}: 1+2+3 + 0+1+2");
    }
}

#[test]
fn random_ints_are_truncated_samples() {
    let env = Env::new(crate::device());
    let _lock = burn_backend_tests::device_rng_lock();
    let x = Tensor::<2, Int>::random([100, 100], Distribution::Uniform(0.0, 10.0), &env.device);
    let values = x.into_data().to_vec::<i64>().unwrap();
    assert!(
        values.iter().all(|v| (0..10).contains(v)),
        "Uniform(0, 10) ints outside 0..10"
    );
    for k in 0..10 {
        let count = values.iter().filter(|&&v| v == k).count();
        assert!(
            (800..1200).contains(&count),
            "value {k} drawn {count} times of 10000 (expected ~1000)"
        );
    }
    let b = Tensor::<1, Int>::random([10_000], Distribution::Bernoulli(0.25), &env.device);
    let ones = b
        .into_data()
        .to_vec::<i64>()
        .unwrap()
        .iter()
        .filter(|&&v| v == 1)
        .count();
    assert!(
        (2200..2800).contains(&ones),
        "Bernoulli(0.25) gave {ones} ones of 10000"
    );
}
