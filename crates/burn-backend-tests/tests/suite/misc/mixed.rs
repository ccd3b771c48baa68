//! Operands of different float dtypes where the API does not promote: the result must be
//! right (in either dtype) or the call must panic with a message naming the operation — never
//! silently wrong numbers (DESIGN decision 8).

use burn::tensor::ops::IndexingUpdateOp;
use burn::tensor::{FloatDType, Int, Tensor, TensorData, s};
use burn_backend_tests::{Env, RefArray, compare, round_to};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// The other float dtype used as the second operand (f64, or f32 in an f64 run, where the
/// device has it).
fn other(env: &Env) -> FloatDType {
    burn_backend_tests::other_float_dtype(&env.device, env.dtype)
}

fn typed<const D: usize>(env: &Env, a: &RefArray, dtype: FloatDType) -> Tensor<D> {
    Tensor::<D>::from_data(
        TensorData::new(a.data.clone(), a.shape.clone()),
        (&env.device, dtype),
    )
}

/// Random values in `[5, 6)` representable in both the default and the other dtype.
fn narrow(env: &Env, shape: &[usize], seed: u64) -> RefArray {
    let other = other(env);
    env.random(shape, 5.0, 6.0, seed)
        .map(|v| round_to(env.dtype, round_to(other, v)))
}

/// Runs `f`; a panic must name `op`, a result must match `expected`.
fn right_or_named_panic(env: &Env, op: &str, expected: &RefArray, f: impl FnOnce() -> TensorData) {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(data) => {
            let (rel, abs) = env.tolerance(1.0);
            compare(
                &format!("{op} with mixed dtypes"),
                &data,
                expected,
                rel,
                abs,
            );
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            assert!(
                message.contains(op),
                "{op} with mixed dtypes panicked without naming the operation: {message:?}"
            );
        }
    }
}

#[test]
fn mask_where_with_a_value_of_another_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -1.0, 1.0, 531);
    let v = narrow(&env, &[3, 4], 532);
    let mask = env.random_bool(&[3, 4], 0.5, 533);
    let expected = a.mask_where(&mask, &v);
    right_or_named_panic(&env, "mask_where", &expected, || {
        env.float::<2>(&a)
            .mask_where(env.bool(&mask), typed(&env, &v, other(&env)))
            .into_data()
    });
}

#[test]
fn slice_assign_with_a_value_of_another_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -1.0, 1.0, 534);
    let v = narrow(&env, &[2, 4], 535);
    let ranges = [burn_backend_tests::reference::layout::Range::new(
        0,
        Some(2),
    )];
    let expected = a.slice_assign(&ranges, &v);
    right_or_named_panic(&env, "slice_assign", &expected, || {
        env.float::<2>(&a)
            .slice_assign(s![0..2], typed(&env, &v, other(&env)))
            .into_data()
    });
}

#[test]
fn scatter_with_values_of_another_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -1.0, 1.0, 536);
    let v = narrow(&env, &[1, 4], 537);
    let idx = RefArray::new(&[1, 4], vec![0.0, 2.0, 1.0, 0.0]);
    let expected = a.scatter(0, &idx, &v, |o, n| o + n);
    right_or_named_panic(&env, "scatter", &expected, || {
        env.float::<2>(&a)
            .scatter(
                0,
                env.int(&idx),
                typed(&env, &v, other(&env)),
                IndexingUpdateOp::Add,
            )
            .into_data()
    });
}

#[test]
fn select_add_with_values_of_another_dtype() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4], -1.0, 1.0, 538);
    let v = narrow(&env, &[2, 4], 539);
    let expected = a.select_add(0, &[2, 0], &v);
    right_or_named_panic(&env, "select_add", &expected, || {
        let idx = Tensor::<1, Int>::from_ints([2, 0], &env.device);
        env.float::<2>(&a)
            .select_add(0, idx, typed(&env, &v, other(&env)))
            .into_data()
    });
}
