//! Float tensors of an explicit dtype other than the default, and promotion between float
//! dtypes (the wider wins, as in PyTorch).

use burn::tensor::{DType, FloatDType, Tensor, TensorData};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, RefArray, round_to};

const ALL: [FloatDType; 4] = [
    FloatDType::F64,
    FloatDType::F32,
    FloatDType::F16,
    FloatDType::BF16,
];

fn tolerance(dtype: FloatDType) -> (f64, f64) {
    burn_backend_tests::harness::base_tolerance(dtype)
}

/// `a` on the device as `dtype` (values rounded to it), and the rounded reference.
fn typed<const D: usize>(env: &Env, a: &RefArray, dtype: FloatDType) -> (Tensor<D>, RefArray) {
    let rounded = a.map(|v| round_to(dtype, v));
    let t = Tensor::<D>::from_data(
        TensorData::new(rounded.data.clone(), rounded.shape.clone()),
        (&env.device, dtype),
    );
    (t, rounded)
}

#[test]
fn ops_in_every_supported_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[6, 7], -2.0, 2.0, 511);
    let b = env.random(&[7, 5], -2.0, 2.0, 512);
    for dtype in ALL.into_iter().filter(|d| {
        burn_backend_tests::supports(
            &env.device,
            &[(*d).into()],
            &format!("{} in {d}", module_path!()),
        )
    }) {
        let (rel, abs) = tolerance(dtype);
        let (x, ra) = typed::<2>(&env, &a, dtype);
        let (y, rb) = typed::<2>(&env, &b, dtype);
        let check = |name: &str, got: Tensor<2>, expected: &RefArray, factor: f64| {
            assert_eq!(got.dtype(), DType::from(dtype), "{name} keeps {dtype}");
            env.check_tol(
                &format!("{name} in {dtype}"),
                got,
                expected,
                rel * factor,
                abs * factor,
            );
        };
        check("exp", x.clone().exp(), &ra.map(f64::exp), 1.0);
        check(
            "gelu",
            burn::tensor::activation::gelu(x.clone()),
            &ra.map(f::gelu),
            1.0,
        );
        check("add_scalar", x.clone() + 0.5, &ra.map(|v| v + 0.5), 1.0);
        check(
            "matmul",
            x.clone().matmul(y.clone()),
            &ra.matmul(&rb),
            7f64.sqrt(),
        );
        check("sum_dim", x.clone().sum_dim(1), &ra.sum_dim(1), 7f64.sqrt());
        check(
            "softmax",
            burn::tensor::activation::softmax(x.clone(), 1),
            &ra.softmax(1),
            1.0,
        );
        check(
            "transpose * transpose",
            x.clone().transpose() * x.clone().transpose(),
            &ra.transpose().map(|v| v * v),
            1.0,
        );
        let (s, i) = x.clone().sort_with_indices(1);
        let (sv, si) = ra.sort_with_indices(1, false);
        check("sort", s, &sv, 0.0);
        env.check_int(&format!("sort indices in {dtype}"), i, &si);
    }
}

#[test]
fn binary_ops_promote_to_the_wider_dtype() {
    // torch: float16 + float32 -> float32, float32 * float64 -> float64
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -2.0, 2.0, 513);
    let b = env.random(&[3, 4], -2.0, 2.0, 514);
    let pairs = [
        (FloatDType::F16, FloatDType::F32, FloatDType::F32),
        (FloatDType::F32, FloatDType::F64, FloatDType::F64),
        (FloatDType::BF16, FloatDType::F64, FloatDType::F64),
        (FloatDType::F16, FloatDType::BF16, FloatDType::F32),
    ];
    for (da, db, wide) in pairs {
        if ![da, db].iter().all(|d| {
            burn_backend_tests::supports(
                &env.device,
                &[(*d).into()],
                &format!("{} with {d}", module_path!()),
            )
        }) {
            continue;
        }
        let (x, ra) = typed::<2>(&env, &a, da);
        let (y, rb) = typed::<2>(&env, &b, db);
        let got = x.clone() + y.clone();
        assert_eq!(got.dtype(), DType::from(wide), "{da} + {db}");
        let (rel, abs) = tolerance(wide);
        env.check_tol(
            &format!("{da} + {db}"),
            got,
            &ra.zip(&rb, |p, q| p + q).map(|v| round_to(wide, v)),
            rel,
            abs,
        );
        let got = y.clone() * x.clone();
        assert_eq!(got.dtype(), DType::from(wide), "{db} * {da}");
        let mask = x.greater(y);
        env.check_bool(
            &format!("{da} > {db}"),
            mask,
            &ra.zip(&rb, |p, q| (p > q) as u8 as f64),
        );
    }
}

#[test]
fn cast_round_trip_through_a_narrow_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[20], -3.0, 3.0, 515);
    for dtype in [FloatDType::F16, FloatDType::BF16] {
        if !burn_backend_tests::supports(
            &env.device,
            &[dtype.into()],
            &format!("{} in {dtype}", module_path!()),
        ) {
            continue;
        }
        let got = env.float::<1>(&a).cast(dtype).cast(env.dtype);
        let expected = a.map(|v| round_to(env.dtype, round_to(dtype, v)));
        env.check(&format!("cast through {dtype}"), got, &expected, 0.0);
    }
}
