//! Int tensors of every supported int dtype (not only the default): arithmetic, reductions,
//! running ops, sorting, bitwise ops, matmul, comparisons and conversion to float; and index
//! tensors of non-default dtypes in select / gather / scatter / embedding.

use burn::tensor::module::embedding;
use burn::tensor::ops::IndexingUpdateOp;
use burn::tensor::{DType, Int, IntDType, Tensor, TensorData};
use burn_backend_tests::reference::elementwise::f;
use burn_backend_tests::{Env, RefArray};

const ALL: [IntDType; 8] = [
    IntDType::I64,
    IntDType::I32,
    IntDType::I16,
    IntDType::I8,
    IntDType::U64,
    IntDType::U32,
    IntDType::U16,
    IntDType::U8,
];

fn typed<const D: usize>(env: &Env, a: &RefArray, dtype: IntDType) -> Tensor<D, Int> {
    Tensor::<D, Int>::from_data(
        TensorData::new(a.to_i64(), a.shape.clone()),
        (&env.device, dtype),
    )
}

#[test]
fn ops_in_every_supported_int_dtype() {
    let env = Env::new(crate::device());
    for dtype in ALL.into_iter().filter(|d| {
        burn_backend_tests::supports(
            &env.device,
            &[(*d).into()],
            &format!("{} in {d}", module_path!()),
        )
    }) {
        let signed = DType::from(dtype).is_signed_int();
        let (low, high) = if signed { (-5, 6) } else { (0, 11) };
        let a = env.random_int(&[3, 4], low, high, 521);
        let b = env.random_int(&[3, 4], 1, 6, 522);
        let x = || typed::<2>(&env, &a, dtype);
        let y = || typed::<2>(&env, &b, dtype);
        let check = |name: &str, got: Tensor<2, Int>, expected: &RefArray| {
            assert_eq!(got.dtype(), DType::from(dtype), "{name} keeps {dtype}");
            env.check_int(&format!("{name} in {dtype}"), got, expected);
        };
        check("add", x() + y(), &a.zip(&b, |p, q| p + q));
        check("mul_scalar", x() * 3i64, &a.map(|p| p * 3.0));
        check("div", x().div(y()), &a.zip(&b, f::int_div));
        check(
            "remainder",
            x().remainder(y()),
            &a.zip(&b, f::int_remainder),
        );
        check("sum_dim", x().sum_dim(1), &a.sum_dim(1));
        check("max_dim", x().max_dim(0), &a.max_dim(0));
        check("cumsum", x().cumsum(1), &a.cumsum(1));
        check("sort", x().sort(1), &a.sort_with_indices(1, false).0);
        check(
            "bitwise_and",
            x().bitwise_and(y()),
            &a.zip(&b, |p, q| ((p as i64) & (q as i64)) as f64),
        );
        check(
            "matmul",
            x().matmul(y().transpose()),
            &a.matmul(&b.transpose()),
        );
        check(
            "transpose + add",
            x().transpose() + y().transpose(),
            &a.zip(&b, |p, q| p + q).transpose(),
        );
        env.check_bool(
            &format!("greater in {dtype}"),
            x().greater(y()),
            &a.zip(&b, |p, q| (p > q) as u8 as f64),
        );
        env.check(&format!("float of {dtype}"), x().float(), &a, 0.0);
        env.check_int(
            &format!("argmax in {dtype}"),
            x().argmax(1),
            &a.argmax_dim(1),
        );
    }
}

#[test]
fn unsigned_subtraction_wraps() {
    // torch.tensor([1], dtype=torch.uint8) - 2 = [255]
    let env = Env::new(crate::device());
    if !burn_backend_tests::supports(&env.device, &[DType::U8], module_path!()) {
        return;
    }
    let x = Tensor::<1, Int>::from_data([1u8, 200], (&env.device, IntDType::U8));
    let got = (x - 2i64).into_data().to_vec::<i64>().unwrap();
    assert_eq!(got, vec![255, 198], "u8 1 - 2 wraps to 255");
}

#[test]
fn indices_of_other_int_dtypes() {
    let env = Env::new(crate::device());
    let a = env.random(&[4, 5], -2.0, 2.0, 523);
    for dtype in [IntDType::I32, IntDType::I16, IntDType::U8, IntDType::U32] {
        if !burn_backend_tests::supports(
            &env.device,
            &[dtype.into()],
            &format!("{} in {dtype}", module_path!()),
        ) {
            continue;
        }
        let idx = RefArray::new(&[3], vec![4.0, 0.0, 2.0]);
        let got = env.float::<2>(&a).select(1, typed(&env, &idx, dtype));
        env.check(
            &format!("select with {dtype} indices"),
            got,
            &a.select(1, &[4, 0, 2]),
            0.0,
        );
        let gidx = env.random_int(&[4, 3], 0, 5, 524);
        let got = env.float::<2>(&a).gather(1, typed(&env, &gidx, dtype));
        env.check(
            &format!("gather with {dtype} indices"),
            got,
            &a.gather(1, &gidx),
            0.0,
        );
        let values = env.random(&[4, 3], -1.0, 1.0, 525);
        let got = env.float::<2>(&a).scatter(
            1,
            typed(&env, &gidx, dtype),
            env.float(&values),
            IndexingUpdateOp::Add,
        );
        env.check(
            &format!("scatter with {dtype} indices"),
            got,
            &a.scatter(1, &gidx, &values, |o, n| o + n),
            2.0,
        );
        let rows = env.random_int(&[2, 3], 0, 4, 526);
        let got = embedding(env.float(&a), typed(&env, &rows, dtype));
        let expected = RefArray::from_fn(&[2, 3, 5], |i| {
            a.at(&[rows.at(&[i[0], i[1]]) as usize, i[2]])
        });
        env.check(
            &format!("embedding with {dtype} indices"),
            got,
            &expected,
            0.0,
        );
        let mask = Tensor::<2, Int>::from_data(
            TensorData::new(vec![0i64, 2], [1, 2]),
            (&env.device, dtype),
        );
        let one_hot: Tensor<3, Int> = mask.one_hot(3);
        env.check_int(
            &format!("one_hot of {dtype}"),
            one_hot,
            &RefArray::new(&[1, 2], vec![0.0, 2.0]).one_hot(3),
        );
    }
}

#[test]
fn index_results_have_the_default_int_dtype() {
    let env = Env::new(crate::device());
    let int_dtype = DType::from(env.device.settings().int_dtype);
    let a = env.random(&[3, 4], -1.0, 1.0, 527);
    let x = || env.float::<2>(&a);
    assert_eq!(x().argmax(1).dtype(), int_dtype, "argmax");
    assert_eq!(x().argsort(1).dtype(), int_dtype, "argsort");
    assert_eq!(
        x().sort_with_indices(0).1.dtype(),
        int_dtype,
        "sort_with_indices"
    );
    assert_eq!(
        x().max_dim_with_indices(1).1.dtype(),
        int_dtype,
        "max_dim_with_indices"
    );
    assert_eq!(
        x().topk_with_indices(2, 1).1.dtype(),
        int_dtype,
        "topk_with_indices"
    );
    assert_eq!(
        x().greater_elem(0.0).argwhere().dtype(),
        int_dtype,
        "argwhere"
    );
    assert_eq!(x().int().dtype(), int_dtype, "int()");
    assert_eq!(x().greater_elem(0.0).int().dtype(), int_dtype, "bool int()");
}
