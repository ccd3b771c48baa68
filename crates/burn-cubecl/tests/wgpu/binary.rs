//! Binary arithmetic: every op and numeric dtype, NumPy broadcasting, strided operands on both
//! sides, scalar forms, in-place reuse.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{
    assert_close, broadcast_index, coords, random_values, read, rng, round_to, tensor, tolerance,
};
use burn_backend::{DType, Scalar, Shape};
use burn_cubecl::CubeDevice;
use burn_cubecl::kernel::{BinaryOp, binary, binary_scalar};

fn reference(op: BinaryOp, a: f64, b: f64, dtype: DType) -> f64 {
    match op {
        BinaryOp::Add => a + b,
        BinaryOp::Sub => a - b,
        BinaryOp::Mul => a * b,
        BinaryOp::Div if dtype.is_float() => a / b,
        BinaryOp::Div => (a / b).trunc(),
        BinaryOp::Remainder => a - b * (a / b).floor(),
        BinaryOp::Powf => a.powf(b),
        BinaryOp::Atan2 => a.atan2(b),
        BinaryOp::Hypot => a.hypot(b),
        BinaryOp::Max => a.max(b),
        BinaryOp::Min => a.min(b),
    }
}

/// The numeric dtypes `op` applies to on `device`.
fn dtypes(device: &CubeDevice, op: BinaryOp) -> Vec<DType> {
    arithmetic_dtypes(device)
        .into_iter()
        .filter(|d| !d.is_bool() && (!is_float_only(op) || d.is_float()))
        .collect()
}

/// Whether `op` is defined for float dtypes only.
fn is_float_only(op: BinaryOp) -> bool {
    matches!(op, BinaryOp::Powf | BinaryOp::Atan2 | BinaryOp::Hypot)
}

/// Operand values that keep every op and dtype in range and away from division by zero:
/// lhs in [1, 8) (or [-8, 8) where signed), rhs in [1, 6) for divisions and powers.
fn operands(op: BinaryOp, dtype: DType, n: (usize, usize), seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut r = rng(seed);
    let signed = dtype.is_float() || dtype.is_signed_int();
    let (low, high) = match op {
        BinaryOp::Powf => (0.5, 3.0),
        _ if signed => (-8.0, 8.0),
        _ => (1.0, 8.0),
    };
    let lhs = random_values(&mut r, &[n.0], dtype, low, high);
    let (low, high) = match op {
        BinaryOp::Div | BinaryOp::Remainder if signed => (1.0, 6.0),
        BinaryOp::Div | BinaryOp::Remainder => (1.0, 6.0),
        BinaryOp::Powf => (-2.0, 2.5),
        // Unsigned subtraction stays non-negative: rhs below every lhs.
        BinaryOp::Sub if !signed => (0.0, 1.0),
        _ if signed => (-8.0, 8.0),
        _ => (0.0, 8.0),
    };
    let mut rhs = random_values(&mut r, &[n.1], dtype, low, high);
    if matches!(op, BinaryOp::Remainder) && signed {
        // Negative divisors too (the result takes the divisor's sign).
        for v in rhs.iter_mut().step_by(2) {
            *v = -*v;
        }
    }
    (lhs, rhs)
}

/// Checks `op` on operands of the two shapes against the broadcast reference.
fn check(
    device: &CubeDevice,
    op: BinaryOp,
    dtype: DType,
    lhs_shape: &[usize],
    rhs_shape: &[usize],
    seed: u64,
) {
    let n_lhs = lhs_shape.iter().product();
    let n_rhs = rhs_shape.iter().product();
    let (a, b) = operands(op, dtype, (n_lhs, n_rhs), seed);
    let out_shape = Shape::from(lhs_shape.to_vec())
        .broadcast(&Shape::from(rhs_shape.to_vec()))
        .unwrap()
        .to_vec();
    let n: usize = out_shape.iter().product();
    let expected: Vec<f64> = (0..n)
        .map(|i| {
            let c = coords(i, &out_shape);
            reference(
                op,
                a[broadcast_index(&c, lhs_shape)],
                b[broadcast_index(&c, rhs_shape)],
                dtype,
            )
        })
        .collect();
    let out = binary(
        op,
        tensor(device, &a, lhs_shape, dtype),
        tensor(device, &b, rhs_shape, dtype),
    );
    let got = read(out, &out_shape, dtype);
    let tol = powf_tolerance(op, dtype);
    assert_close(
        &format!("{} {dtype} {lhs_shape:?} with {rhs_shape:?}", op.name()),
        &got,
        &round_to(&expected, dtype),
        tol,
    );
}

/// The dtype's tolerance; for the transcendental `powf`, `atan2`, `hypot` a few ulps looser (in f64
/// too: WGPU computes those on the host rather than in f32).
fn powf_tolerance(op: BinaryOp, dtype: DType) -> (f64, f64) {
    let (abs, rel) = tolerance(dtype);
    if !is_float_only(op) {
        return (abs, rel);
    }
    (abs * 4.0, rel * 4.0)
}

#[test]
fn every_op_every_dtype_same_shape() {
    let device = device_or_skip!();
    for op in BinaryOp::ALL {
        for dtype in dtypes(&device, op) {
            check(&device, op, dtype, &[8, 64], &[8, 64], 1);
            check(&device, op, dtype, &[5, 13], &[5, 13], 2);
        }
    }
}

#[test]
fn broadcasting_shapes() {
    let device = device_or_skip!();
    let cases: [(&[usize], &[usize]); 7] = [
        (&[2, 3, 4], &[4]),
        (&[2, 1, 4], &[3, 1]),
        (&[1], &[5, 2]),
        (&[], &[3]),
        (&[4, 1], &[1, 8]),
        (&[3, 1, 8], &[3, 5, 8]),
        (&[2, 0, 3], &[1, 3]),
    ];
    for op in BinaryOp::ALL {
        for dtype in dtypes(&device, op) {
            for (i, (lhs, rhs)) in cases.iter().enumerate() {
                check(&device, op, dtype, lhs, rhs, 10 + i as u64);
                check(&device, op, dtype, rhs, lhs, 20 + i as u64);
            }
        }
    }
}

#[test]
fn strided_operands_on_both_sides() {
    let device = device_or_skip!();
    for dtype in [DType::F32, DType::I32] {
        for op in [BinaryOp::Sub, BinaryOp::Div, BinaryOp::Max] {
            let (a, b) = operands(op, dtype, (48, 128), 5);
            // lhs: a [8, 6] tensor transposed to [6, 8], then broadcast to [2, 6, 8]; rhs: rows
            // 2..8 and columns 8..16 of an [8, 16] tensor (a view 160 bytes into the buffer,
            // rows strided by 16).
            let lhs = tensor(&device, &a, &[8, 6], dtype).swap_dims(0, 1);
            let parent = tensor(&device, &b, &[8, 16], dtype);
            let rhs = parent.clone().slice(&[2..8, 8..16]);
            assert_eq!(
                rhs.buffer_id(),
                parent.buffer_id(),
                "an aligned slice is a view"
            );
            drop(parent);
            assert!(!lhs.is_contiguous() && !rhs.is_contiguous());
            let lhs = lhs.expand(Shape::new([2, 6, 8]));
            let out = binary(op, lhs, rhs);
            let expected: Vec<f64> = (0..96)
                .map(|i| {
                    let c = coords(i, &[2, 6, 8]);
                    let x = a[c[2] * 6 + c[1]];
                    let y = b[(c[1] + 2) * 16 + c[2] + 8];
                    reference(op, x, y, dtype)
                })
                .collect();
            let got = read(out, &[2, 6, 8], dtype);
            assert_close(
                &format!("{} {dtype} strided", op.name()),
                &got,
                &round_to(&expected, dtype),
                tolerance(dtype),
            );
        }
    }
}

#[test]
fn scalar_forms() {
    let device = device_or_skip!();
    for op in BinaryOp::ALL {
        for dtype in dtypes(&device, op) {
            let (a, b) = operands(op, dtype, (40, 1), 3);
            let scalar = if dtype.is_float() {
                Scalar::Float(b[0])
            } else {
                Scalar::Int(b[0] as i64)
            };
            let expected: Vec<f64> = a.iter().map(|&x| reference(op, x, b[0], dtype)).collect();
            for shape in [&[40usize][..], &[5, 8]] {
                let out = binary_scalar(op, tensor(&device, &a, shape, dtype), scalar);
                let got = read(out, shape, dtype);
                assert_close(
                    &format!("{}_scalar {dtype} {shape:?}", op.name()),
                    &got,
                    &round_to(&expected, dtype),
                    powf_tolerance(op, dtype),
                );
            }
            // A transposed operand.
            let t = tensor(&device, &a, &[5, 8], dtype).swap_dims(0, 1);
            let got = read(binary_scalar(op, t, scalar), &[8, 5], dtype);
            let expected: Vec<f64> = (0..40).map(|i| expected[(i % 5) * 8 + i / 5]).collect();
            assert_close(
                &format!("{}_scalar {dtype} transposed", op.name()),
                &got,
                &round_to(&expected, dtype),
                powf_tolerance(op, dtype),
            );
        }
    }
}

#[test]
fn in_place_reuse_and_clones() {
    let device = device_or_skip!();
    let a = vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let b = vec![10.0, 20.0, 30.0];
    // Unique lhs of the output shape: written in place.
    let lhs = tensor(&device, &a, &[2, 3], DType::F32);
    let id = lhs.buffer_id();
    let out = binary(BinaryOp::Add, lhs, tensor(&device, &b, &[3], DType::F32));
    assert_eq!(out.buffer_id(), id);
    assert_eq!(
        read(out, &[2, 3], DType::F32),
        vec![11.0, 22.0, 33.0, 14.0, 25.0, 36.0]
    );
    // Broadcast lhs, unique rhs of the output shape: written into rhs.
    let rhs = tensor(&device, &a, &[2, 3], DType::F32);
    let id = rhs.buffer_id();
    let out = binary(BinaryOp::Sub, tensor(&device, &b, &[3], DType::F32), rhs);
    assert_eq!(out.buffer_id(), id);
    assert_eq!(
        read(out, &[2, 3], DType::F32),
        vec![9.0, 18.0, 27.0, 6.0, 15.0, 24.0]
    );
    // Shared operands: a new buffer, the originals unchanged; x + x works.
    let x = tensor(&device, &a, &[2, 3], DType::F32);
    let out = binary(BinaryOp::Mul, x.clone(), x.clone());
    assert_ne!(out.buffer_id(), x.buffer_id());
    assert_eq!(
        read(out, &[2, 3], DType::F32),
        vec![1.0, 4.0, 9.0, 16.0, 25.0, 36.0]
    );
    assert_eq!(read(x.clone(), &[2, 3], DType::F32), a);
    let kept = x.clone();
    let out = binary_scalar(BinaryOp::Add, x, Scalar::Float(1.0));
    assert_ne!(out.buffer_id(), kept.buffer_id());
    assert_eq!(read(kept, &[2, 3], DType::F32), a);
    assert_eq!(
        read(out, &[2, 3], DType::F32),
        vec![2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    );
}

#[test]
fn nan_propagates_through_max_min_and_relu() {
    let device = device_or_skip!();
    let nan = f64::NAN;
    let a = [nan, 1.0, nan, -2.0];
    let b = [1.0, nan, nan, 3.0];
    for dtype in crate::unary::float_dtypes(&device) {
        for op in [BinaryOp::Max, BinaryOp::Min] {
            let out = binary(
                op,
                tensor(&device, &a, &[4], dtype),
                tensor(&device, &b, &[4], dtype),
            );
            let got = read(out, &[4], dtype);
            assert!(
                got[..3].iter().all(|v| v.is_nan()),
                "{} {dtype}: {got:?}",
                op.name()
            );
            let expected = if op == BinaryOp::Max { 3.0 } else { -2.0 };
            assert_eq!(got[3], expected, "{} {dtype}", op.name());
        }
        let out = burn_cubecl::kernel::unary(
            burn_cubecl::kernel::UnaryOp::Relu,
            tensor(&device, &a, &[4], dtype),
        );
        let got = read(out, &[4], dtype);
        assert!(
            got[0].is_nan() && got[1] == 1.0 && got[3] == 0.0,
            "relu {dtype}: {got:?}"
        );
    }
}
