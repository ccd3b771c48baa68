//! Int conversions: to float, between int dtypes (`as` semantics), one-hot, scalars, Display.

use burn::tensor::{DType, Int, IntDType, Tensor};
use burn_backend_tests::{Env, Layout, RefArray};

#[test]
fn float_conversion() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4], -100, 100, 321);
    for layout in Layout::ALL {
        let got = env.int_in::<2>(&a, layout).float();
        env.check(&format!("int float ({layout:?})"), got, &a, 0.0);
    }
}

#[test]
fn cast_between_int_dtypes_wraps_like_as() {
    // 300 as u8 = 44, -1 as u8 = 255, 40000 as i16 = -25536
    let env = Env::new(crate::device());
    let x = || Tensor::<1, Int>::from_ints([300, -1, 40000, 7], &env.device);
    let cases: [(IntDType, [i64; 4]); 4] = [
        (IntDType::U8, [44, 255, 64, 7]),
        (IntDType::I16, [300, -1, -25536, 7]),
        (IntDType::I32, [300, -1, 40000, 7]),
        (IntDType::I64, [300, -1, 40000, 7]),
    ];
    for (dtype, expected) in cases {
        if !burn_backend_tests::supports(
            &env.device,
            &[dtype.into()],
            &format!("{} in {dtype}", module_path!()),
        ) {
            continue;
        }
        let got = x().cast(dtype);
        assert_eq!(got.dtype(), DType::from(dtype), "cast to {dtype}");
        let expected = RefArray::new(&[4], expected.iter().map(|&v| v as f64).collect());
        env.check_int(&format!("cast to {dtype}"), got, &expected);
    }
}

#[test]
fn one_hot_adds_a_class_dim() {
    // torch.nn.functional.one_hot(torch.tensor([[0, 2], [1, 3]]), 4)
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 2], vec![0.0, 2.0, 1.0, 3.0]);
    for layout in Layout::ALL {
        let got: Tensor<3, Int> = env.int_in::<2>(&a, layout).one_hot(4);
        env.check_int(&format!("one_hot ({layout:?})"), got, &a.one_hot(4));
    }
    let b = env.random_int(&[7], 0, 5, 322);
    let got: Tensor<2, Int> = env.int::<1>(&b).one_hot(5);
    env.check_int("one_hot rank 1", got, &b.one_hot(5));
}

#[test]
fn into_scalar_and_value_reads() {
    let env = Env::new(crate::device());
    let x = Tensor::<2, Int>::from_ints([[4, -9], [2, 6]], &env.device);
    assert_eq!(
        x.clone().slice([1..2, 0..1]).into_scalar::<i64>(),
        2,
        "into_scalar of an int"
    );
    assert_eq!(
        x.clone().sum().into_scalar::<i32>(),
        3,
        "elem::<i32> of a sum"
    );
    assert_eq!(
        x.to_data().to_vec::<i64>().unwrap(),
        vec![4, -9, 2, 6],
        "to_data of ints"
    );
}

#[test]
fn display_golden() {
    // The format of burn-tensor's Display for an int tensor.
    let env = Env::new(crate::device());
    let x = Tensor::<2, Int>::from_ints([[1, -2, 3], [40, 5, 6]], &env.device);
    let expected = format!(
        "Tensor {{\n  data:\n[[1, -2, 3],\n [40, 5, 6]],\n  shape:  [2, 3],\n  device:  {},\n  kind:  \"Int\",\n  dtype:  \"{}\",\n}}",
        env.device,
        env.device.settings().int_dtype
    );
    assert_eq!(format!("{x}"), expected);
}
