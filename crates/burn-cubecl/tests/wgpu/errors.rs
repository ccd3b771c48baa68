//! Misuse panics on the calling thread with a message naming the operation, before anything
//! reaches the device.

use crate::device_or_skip;
use crate::harness::tensor;
use burn_backend::{DType, Scalar, Shape};
use burn_cubecl::dtype::bool_dtype;
use burn_cubecl::kernel::{
    BinaryOp, CompareOp, UnaryOp, arange, binary, binary_scalar, compare, unary,
};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `f`, expecting a panic whose message contains every one of `parts`.
fn expect_panic(parts: &[&str], f: impl FnOnce()) {
    let err = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    let message = err
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    for part in parts {
        assert!(
            message.contains(part),
            "panic message {message:?} lacks {part:?}"
        );
    }
}

#[test]
fn shape_mismatch_names_the_op() {
    let device = device_or_skip!();
    let a = || tensor(&device, &[0.0; 6], &[2, 3], DType::F32);
    let b = || tensor(&device, &[0.0; 8], &[2, 4], DType::F32);
    expect_panic(&["add:", "[2, 3]", "[2, 4]", "broadcast"], || {
        binary(BinaryOp::Add, a(), b());
    });
    expect_panic(&["powf:", "[2, 3]", "[2, 4]"], || {
        binary(BinaryOp::Powf, a(), b());
    });
    let out = bool_dtype(&device.client());
    expect_panic(&["greater_equal:", "broadcast"], || {
        compare(CompareOp::GreaterEqual, a(), b(), out);
    });
}

#[test]
fn dtype_misuse_names_the_op() {
    let device = device_or_skip!();
    let f = || tensor(&device, &[1.0; 4], &[4], DType::F32);
    let i = || tensor(&device, &[1.0; 4], &[4], DType::I32);
    expect_panic(&["mul:", "different dtypes", "f32", "i32"], || {
        binary(BinaryOp::Mul, f(), i());
    });
    expect_panic(&["exp:", "float", "i32"], || {
        unary(UnaryOp::Exp, i());
    });
    expect_panic(&["powf:", "float", "i32"], || {
        binary_scalar(BinaryOp::Powf, i(), Scalar::Int(2));
    });
    expect_panic(&["equal:", "bool dtype"], || {
        burn_cubecl::kernel::compare_scalar(CompareOp::Equal, f(), Scalar::Int(1), DType::F32);
    });
    expect_panic(&["arange:", "step"], || {
        arange(0..4, 0, DType::I32, &device);
    });
}

#[test]
fn layout_misuse_names_the_op() {
    let device = device_or_skip!();
    let t = || tensor(&device, &[0.0; 6], &[2, 3], DType::F32);
    expect_panic(&["permute:", "[0, 0]"], || {
        t().permute(&[0, 0]);
    });
    expect_panic(&["slice:", "out of bounds"], || {
        t().slice(&[0..3, 0..3]);
    });
    expect_panic(&["reshape:", "[2, 3]", "[4, 2]"], || {
        t().reshape(Shape::new([4, 2]));
    });
    expect_panic(&["expand:", "[2, 3]", "[2, 4]"], || {
        t().expand(Shape::new([2, 4]));
    });
}

#[test]
fn unsupported_dtypes_are_refused_up_front() {
    let device = device_or_skip!();
    let usage = burn_cubecl::dtype::device_dtype_usage(&device, DType::BF16);
    if usage.storage {
        eprintln!("bf16 is supported here; nothing to refuse");
        return;
    }
    expect_panic(&["from_data:", "bf16", "cannot be stored"], || {
        tensor(&device, &[1.0], &[1], DType::BF16);
    });
    expect_panic(&["full:", "bf16"], || {
        burn_cubecl::kernel::zeros(Shape::new([2]), DType::BF16, &device);
    });
}
