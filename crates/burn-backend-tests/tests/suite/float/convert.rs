//! Conversions and reading: cast between float dtypes, float → int, into_data / to_data /
//! try_into_data / into_data_async, into_scalar, to_device, primitives, Display, and
//! require_grad being accepted.

use burn::tensor::{DType, FloatDType, Tensor, TensorData};
use burn_backend_tests::{Env, Layout, RefArray, round_to};

#[test]
fn cast_between_float_dtypes() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -100.0, 100.0, 241);
    for target in [
        FloatDType::F64,
        FloatDType::F32,
        FloatDType::F16,
        FloatDType::BF16,
    ] {
        if !burn_backend_tests::supports(
            &env.device,
            &[target.into()],
            &format!("{} in {target}", module_path!()),
        ) {
            continue;
        }
        for layout in Layout::ALL {
            let got = env.float_in::<2>(&a, layout).cast(target);
            assert_eq!(got.dtype(), DType::from(target), "cast to {target}");
            let expected = a.map(|v| round_to(target, v));
            env.check_tol(
                &format!("cast to {target} ({layout:?})"),
                got,
                &expected,
                0.0,
                0.0,
            );
        }
    }
}

#[test]
fn cast_to_the_same_dtype_is_identity() {
    let env = Env::new(crate::device());
    let a = env.random(&[5], -1.0, 1.0, 242);
    let got = env.float::<1>(&a).cast(env.dtype);
    env.check("cast to self", got, &a, 0.0);
}

#[test]
fn int_truncates_toward_zero() {
    // torch.tensor([2.7, -2.7, 0.5, -0.5, 3.0]).to(torch.int64) = [2, -2, 0, 0, 3]
    let env = Env::new(crate::device());
    let a = env.round(&RefArray::new(&[5], vec![2.7, -2.7, 0.5, -0.5, 3.0]));
    let expected = RefArray::new(&[5], vec![2.0, -2.0, 0.0, 0.0, 3.0]);
    for layout in Layout::ALL {
        let got = env.float_in::<1>(&a, layout).int();
        assert_eq!(
            got.dtype(),
            DType::from(env.device.settings().int_dtype),
            "int() dtype"
        );
        env.check_int(&format!("int ({layout:?})"), got, &expected);
    }
}

#[test]
fn into_data_to_data_and_into_scalar() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 3], -1.0, 1.0, 243);
    let x = env.float::<2>(&a);
    let data = x.to_data();
    assert_eq!(data.shape.dims.to_vec(), vec![2, 3], "to_data shape");
    assert_eq!(data.dtype, DType::from(env.dtype), "to_data dtype");
    assert_eq!(data.to_vec::<f64>().unwrap(), a.data, "to_data values");
    let again = x.into_data();
    again.assert_eq(&data, true);
    let s = env.float::<2>(&a).slice([1..2, 2..3]);
    assert_eq!(s.clone().into_scalar::<f64>(), a.at(&[1, 2]), "into_scalar");
    let exact = s.clone().into_data().to_vec::<f64>().unwrap()[0];
    assert_eq!(
        s.clone().into_scalar::<f32>(),
        exact as f32,
        "into_scalar as f32"
    );
    assert_eq!(s.try_into_scalar::<f64>(), Ok(exact), "try_into_scalar");
    let sum = Tensor::<1>::from_floats([1.5, 2.0], &env.device).sum();
    assert_eq!(sum.into_scalar::<f64>(), 3.5, "into_scalar of a sum");
    let many = env.float::<2>(&a).try_into_scalar::<f64>();
    assert_eq!(
        many,
        Err(burn::tensor::TensorReadError::InvalidShape {
            expected: 1,
            actual: 6
        }),
        "try_into_scalar of many elements"
    );
}

#[test]
fn into_data_of_views_is_row_major() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -1.0, 1.0, 244);
    for layout in Layout::ALL {
        let data = env.float_in::<2>(&a, layout).into_data();
        assert_eq!(
            data.to_vec::<f64>().unwrap(),
            a.data,
            "into_data ({layout:?})"
        );
    }
    let data = env.float::<2>(&a).transpose().into_data();
    assert_eq!(data.shape.dims.to_vec(), vec![4, 3]);
    assert_eq!(
        data.to_vec::<f64>().unwrap(),
        a.transpose().data,
        "into_data of transpose"
    );
}

#[test]
fn try_into_data_and_async_read() {
    let env = Env::new(crate::device());
    let a = env.random(&[4], -1.0, 1.0, 245);
    let data = env.float::<1>(&a).try_into_data().expect("try_into_data");
    assert_eq!(data.to_vec::<f64>().unwrap(), a.data);
    let data = block_on(env.float::<1>(&a).into_data_async()).expect("into_data_async");
    assert_eq!(data.to_vec::<f64>().unwrap(), a.data);
    env.device.sync().expect("sync after reads");
}

/// Polls a future to completion on this thread.
fn block_on<F: core::future::Future>(future: F) -> F::Output {
    use core::task::{Context, Poll, RawWaker, RawWakerVTable, Waker};
    fn noop(_: *const ()) {}
    fn clone(p: *const ()) -> RawWaker {
        RawWaker::new(p, &VTABLE)
    }
    static VTABLE: RawWakerVTable = RawWakerVTable::new(clone, noop, noop, noop);
    // SAFETY: the vtable's functions do nothing with the (null) data pointer.
    let waker = unsafe { Waker::from_raw(RawWaker::new(core::ptr::null(), &VTABLE)) };
    let mut cx = Context::from_waker(&waker);
    let mut future = core::pin::pin!(future);
    loop {
        if let Poll::Ready(v) = future.as_mut().poll(&mut cx) {
            return v;
        }
        std::thread::yield_now();
    }
}

#[test]
fn to_device_on_the_same_device_keeps_values() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 2], -1.0, 1.0, 246);
    let x = env.float::<2>(&a).to_device(&env.device);
    assert_eq!(x.device(), env.device);
    env.check("to_device same", x, &a, 0.0);
}

#[test]
fn primitive_round_trip() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 3], -1.0, 1.0, 247);
    let x = env.float::<2>(&a);
    let primitive = x.into_primitive();
    env.check(
        "from_primitive",
        Tensor::<2>::from_primitive(primitive),
        &a,
        0.0,
    );
}

#[test]
fn require_grad_is_accepted() {
    // Gradients are out of scope here; the flag must be accepted and not change values.
    let env = Env::new(crate::device());
    let a = env.random(&[3], -1.0, 1.0, 248);
    let x = env.float::<1>(&a).require_grad();
    let _ = x.is_require_grad();
    let y = x.set_require_grad(false);
    assert!(!y.is_require_grad(), "set_require_grad(false)");
    env.check("require_grad values", y.detach(), &a, 0.0);
}

#[test]
fn display_golden() {
    // The format of burn-tensor's Display: values as nested lists, then shape, device, kind and
    // dtype, one per line.
    let env = Env::new(crate::device());
    let x = Tensor::<2>::from_data(
        TensorData::from([[1.5f32, -2.25], [0.5, 4.75]]),
        &env.device,
    );
    let expected = format!(
        "Tensor {{\n  data:\n[[1.5, -2.25],\n [0.5, 4.75]],\n  shape:  [2, 2],\n  device:  {},\n  kind:  \"Float\",\n  dtype:  \"{}\",\n}}",
        env.device, env.dtype
    );
    assert_eq!(format!("{x}"), expected);
}

#[test]
fn display_elides_long_dims_and_honours_precision() {
    // Burn's default print options: up to 1000 elements print in full; above, every dim
    // longer than 6 shows its first and last 3 entries.
    use burn::tensor::Int;
    let env = Env::new(crate::device());
    let x = Tensor::<1>::from_data(
        TensorData::from([
            0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0,
        ]),
        &env.device,
    );
    let text = format!("{x:.1}");
    assert!(
        text.contains("[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0]"),
        "12 values print in full with precision 1: {text}"
    );
    // Small integers, exact in every float dtype (bf16 included).
    let long = Tensor::<1, Int>::arange(0..1001, &env.device)
        .remainder_scalar(8)
        .float();
    let text = format!("{long:.1}");
    assert!(
        text.contains("[0.0, 1.0, 2.0, ..., 6.0, 7.0, 0.0]"),
        "1001 values print the first and last 3: {text}"
    );
}

#[test]
fn cast_changes_kind_with_the_target_dtype() {
    // x.to(torch.int32) truncates toward zero; ints and bools .to(torch.float32)
    use burn::tensor::{Bool, Int, IntDType};
    let env = Env::new(crate::device());
    let x = RefArray::new(&[4], vec![1.5, -2.5, 3.0, -0.25]);
    let ints: Tensor<1, Int> = env.float::<1>(&x).cast(IntDType::I32);
    assert_eq!(ints.dtype(), DType::I32);
    env.check_int(
        "float -> i32",
        ints.clone(),
        &RefArray::new(&[4], vec![1.0, -2.0, 3.0, 0.0]),
    );
    let back: Tensor<1> = ints.cast(FloatDType::F32);
    assert_eq!(back.dtype(), DType::F32);
    assert_eq!(
        back.into_data().to_vec::<f32>().unwrap(),
        [1.0, -2.0, 3.0, 0.0]
    );
    let mask = Tensor::<1, Bool>::from_data([true, false], &env.device);
    assert_eq!(
        mask.clone()
            .cast(IntDType::I32)
            .into_data()
            .to_vec::<i32>()
            .unwrap(),
        [1, 0]
    );
    assert_eq!(
        mask.cast(FloatDType::F32)
            .into_data()
            .to_vec::<f32>()
            .unwrap(),
        [1.0, 0.0]
    );
    // A plain DType keeps the kind.
    let same: Tensor<1> = env.float::<1>(&x).cast(DType::F32);
    assert_eq!(same.dtype(), DType::F32);
}
