//! Clone invariance (DESIGN decision 3): a backend may write into a uniquely owned buffer, so a
//! clone taken before an op must keep its values, results must be the same with and without
//! a live clone, and an op on a view must not write through to the tensor it views.

use burn::tensor::ops::IndexingUpdateOp;
use burn::tensor::{Int, Tensor, s};
use burn_backend_tests::{Env, RefArray};

/// Runs `op` on a tensor holding `a` three ways: with a live clone (which must keep `a`),
/// without one, and on a view of a larger tensor (which must keep its values); all three
/// results must be equal.
fn check_invariance(name: &str, op: impl Fn(Tensor<2>) -> Tensor<2>) {
    let env = Env::new(crate::device());
    let a = env.random(&[4, 6], 0.5, 2.0, burn_backend_tests::seed(name));
    let x = env.float::<2>(&a);
    let kept = x.clone();
    let with_clone = op(x).into_data();
    env.check(&format!("{name}: the clone"), kept, &a, 0.0);
    let alone = op(env.float::<2>(&a)).into_data();
    with_clone.assert_eq(&alone, true);
    let wide = env.random(&[4, 9], 0.5, 2.0, burn_backend_tests::seed(name) + 1);
    let base = env.float::<2>(&wide);
    let view_result = op(base.clone().slice(s![.., 1..7])).into_data();
    env.check(&format!("{name}: the base of a view"), base, &wide, 0.0);
    let view_values = wide.slice(&[
        burn_backend_tests::reference::layout::Range::full(),
        burn_backend_tests::reference::layout::Range::new(1, Some(7)),
    ]);
    let fresh = op(env.float::<2>(&view_values)).into_data();
    view_result.assert_eq(&fresh, true);
}

macro_rules! invariance_tests {
    ($($name:ident: $op:expr;)*) => {$(
        #[test]
        fn $name() {
            check_invariance(stringify!($name), $op);
        }
    )*};
}

invariance_tests! {
    add_scalar: |t| t.add_scalar(1.5);
    mul_scalar: |t| t.mul_scalar(-2.0);
    exp: |t| t.exp();
    neg: |t| -t;
    clamp: |t| t.clamp(0.75, 1.5);
    powf_scalar: |t| t.powf_scalar(2.0);
    add_self: |t| t.clone() + t;
    mul_self: |t| t.clone() * t.exp();
    sub_from_other: |t| t.ones_like() - t;
    mask_fill: |t| {
        let mask = t.clone().greater_elem(1.0);
        t.mask_fill(mask, 0.0)
    };
    mask_where: |t| {
        let mask = t.clone().lower_elem(1.0);
        let other = t.clone().neg();
        t.mask_where(mask, other)
    };
    slice_assign: |t| {
        let patch = Tensor::<2>::full([2, 3], 9.0, &t.device());
        t.slice_assign(s![1..3, 0..3], patch)
    };
    slice_fill: |t| t.slice_fill(s![.., 2..4], -1.0);
    scatter_add: |t| {
        let idx = Tensor::<2, Int>::from_ints([[0, 1, 2, 3, 0, 1]], &t.device());
        let values = Tensor::<2>::ones([1, 6], &t.device());
        t.scatter(0, idx, values, IndexingUpdateOp::Add)
    };
    scatter_assign: |t| {
        let idx = Tensor::<2, Int>::from_ints([[3, 2, 1, 0, 3, 2]], &t.device());
        let values = Tensor::<2>::zeros([1, 6], &t.device());
        t.scatter(0, idx, values, IndexingUpdateOp::Assign)
    };
    select_add: |t| {
        let idx = Tensor::<1, Int>::from_ints([0, 0], &t.device());
        let values = Tensor::<2>::ones([2, 6], &t.device());
        t.select_add(0, idx, values)
    };
    cumsum: |t| t.cumsum(1);
    cumprod: |t| t.cumprod(0);
    sort: |t| t.sort(1);
    reshape_then_add: |t| t.reshape([6, 4]).add_scalar(1.0).reshape([4, 6]);
    transpose_then_exp: |t| t.transpose().exp().transpose();
    softmax: |t| burn::tensor::activation::softmax(t, 1);
    sum_dim: |t| t.sum_dim(1).expand([4, 6]) + 0.0;
    matmul: |t| t.clone().matmul(t.transpose());
    cast_round_trip: |t| {
        let dtype = burn::tensor::FloatDType::from_dtype(t.dtype());
        let other = burn_backend_tests::other_float_dtype(&t.device(), dtype);
        t.cast(other).add_scalar(1.0).cast(dtype)
    };
}

#[test]
fn int_clone_invariance() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4], -9, 10, 401);
    let x = env.int::<2>(&a);
    let kept = x.clone();
    let result = (x + 5i64).bitwise_and_scalar(6).cumsum(1);
    env.check_int("int clone kept", kept, &a);
    let alone = (env.int::<2>(&a) + 5i64).bitwise_and_scalar(6).cumsum(1);
    result.into_data().assert_eq(&alone.into_data(), true);
}

#[test]
fn bool_clone_invariance() {
    let env = Env::new(crate::device());
    let a = env.random_bool(&[3, 4], 0.5, 402);
    let x = env.bool::<2>(&a);
    let kept = x.clone();
    let _ = x.bool_not().bool_and(kept.clone());
    env.check_bool("bool clone kept", kept, &a);
}

#[test]
fn chained_in_place_ops_on_a_unique_tensor() {
    // A long chain on a uniquely owned tensor (the case where reuse happens) still matches.
    let env = Env::new(crate::device());
    let a = env.random(&[5, 5], 0.5, 2.0, 403);
    let mut x = env.float::<2>(&a);
    let mut expected: RefArray = a.clone();
    for k in 0..10 {
        x = (x * 0.5f64 + k as f64).sqrt();
        expected = expected.map(|v| (v * 0.5 + k as f64).sqrt());
    }
    env.check("chain of unique ops", x, &expected, 10.0);
}

#[test]
fn slice_assign_from_a_slice_of_itself() {
    // x[0:2] = x[1:3] (torch copies the right-hand side first)
    let env = Env::new(crate::device());
    let a = env.random(&[4, 3], -1.0, 1.0, 404);
    let x = env.float::<2>(&a);
    let source = x.clone().slice(s![1..3]);
    let got = x.slice_assign(s![0..2], source);
    let ranges = [burn_backend_tests::reference::layout::Range::new(
        0,
        Some(2),
    )];
    let moved = a.slice(&[burn_backend_tests::reference::layout::Range::new(
        1,
        Some(3),
    )]);
    env.check(
        "slice_assign aliasing",
        got,
        &a.slice_assign(&ranges, &moved),
        0.0,
    );
}

#[test]
fn in_place_ops_on_a_uniquely_owned_expanded_tensor() {
    // Every logical element of an expanded view maps to a shared physical one: an op must not
    // apply its update once per logical element.
    let env = Env::new(crate::device());
    let small = env.random(&[1, 4], 0.5, 2.0, 405);
    let expanded = small.broadcast_to(&[3, 4]);
    let x = || env.float::<2>(&small).expand([3, 4]);
    env.check(
        "expanded add_scalar",
        x().add_scalar(1.0),
        &expanded.map(|v| v + 1.0),
        1.0,
    );
    env.check("expanded exp", x().exp(), &expanded.map(f64::exp), 1.0);
    env.check(
        "expanded mul self",
        {
            let t = x();
            t.clone() * t
        },
        &expanded.map(|v| v * v),
        1.0,
    );
    let patch = RefArray::full(&[1, 2], 9.0);
    let ranges = [
        burn_backend_tests::reference::layout::Range::new(1, Some(2)),
        burn_backend_tests::reference::layout::Range::new(0, Some(2)),
    ];
    let got = x().slice_assign(s![1..2, 0..2], env.float(&patch));
    env.check(
        "expanded slice_assign",
        got,
        &expanded.slice_assign(&ranges, &patch),
        0.0,
    );
    let mask = env.random_bool(&[3, 4], 0.5, 406);
    let got = x().mask_fill(env.bool(&mask), -1.0);
    env.check(
        "expanded mask_fill",
        got,
        &expanded.mask_where(&mask, &RefArray::scalar(-1.0)),
        0.0,
    );
    env.check("expanded cumsum", x().cumsum(0), &expanded.cumsum(0), 2.0);
    let idx = Tensor::<2, Int>::from_ints([[0, 1, 2, 0]], &env.device);
    let got = x().scatter(
        0,
        idx,
        Tensor::<2>::ones([1, 4], &env.device),
        IndexingUpdateOp::Add,
    );
    let ridx = RefArray::new(&[1, 4], vec![0.0, 1.0, 2.0, 0.0]);
    env.check(
        "expanded scatter",
        got,
        &expanded.scatter(0, &ridx, &RefArray::full(&[1, 4], 1.0), |o, n| o + n),
        1.0,
    );
}
