//! Comparisons to booleans: every op and dtype, with ties, broadcasting, strides, scalars.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{broadcast_index, coords, random_values, read, rng, tensor};
use burn_backend::{DType, Scalar, Shape};
use burn_cubecl::dtype::bool_dtype;
use burn_cubecl::kernel::{CompareOp, compare, compare_scalar};

fn reference(op: CompareOp, a: f64, b: f64) -> f64 {
    let r = match op {
        CompareOp::Equal => a == b,
        CompareOp::NotEqual => a != b,
        CompareOp::Greater => a > b,
        CompareOp::GreaterEqual => a >= b,
        CompareOp::Lower => a < b,
        CompareOp::LowerEqual => a <= b,
    };
    f64::from(u8::from(r))
}

#[test]
fn every_op_every_dtype_with_broadcasting() {
    let device = device_or_skip!();
    let out_dtype = bool_dtype(&device.client());
    let cases: [(&[usize], &[usize]); 4] = [
        (&[6, 16], &[6, 16]),
        (&[3, 1, 5], &[4, 1]),
        (&[7], &[]),
        (&[2, 8], &[8]),
    ];
    for dtype in arithmetic_dtypes(&device) {
        for op in CompareOp::ALL {
            for (case, (ls, rs)) in cases.iter().enumerate() {
                // Small integers, so that ties are frequent.
                let mut r = rng(case as u64);
                let (low, high) = if dtype.is_bool() {
                    (0.0, 2.0)
                } else {
                    (0.0, 4.0)
                };
                let a = random_values(&mut r, &[ls.iter().product()], dtype, low, high);
                let b = random_values(&mut r, &[rs.iter().product()], dtype, low, high);
                let out_shape = Shape::from(ls.to_vec())
                    .broadcast(&Shape::from(rs.to_vec()))
                    .unwrap()
                    .to_vec();
                let n: usize = out_shape.iter().product();
                let expected: Vec<f64> = (0..n)
                    .map(|i| {
                        let c = coords(i, &out_shape);
                        reference(op, a[broadcast_index(&c, ls)], b[broadcast_index(&c, rs)])
                    })
                    .collect();
                let out = compare(
                    op,
                    tensor(&device, &a, ls, dtype),
                    tensor(&device, &b, rs, dtype),
                    out_dtype,
                );
                assert_eq!(
                    read(out, &out_shape, out_dtype),
                    expected,
                    "{} {dtype} {ls:?} with {rs:?}",
                    op.name()
                );
            }
        }
    }
}

#[test]
fn scalar_forms_and_strided_operands() {
    let device = device_or_skip!();
    let out_dtype = bool_dtype(&device.client());
    for dtype in arithmetic_dtypes(&device) {
        if dtype.is_bool() {
            continue;
        }
        let a = random_values(&mut rng(4), &[24], dtype, 0.0, 5.0);
        for op in CompareOp::ALL {
            let expected: Vec<f64> = a.iter().map(|&x| reference(op, x, 2.0)).collect();
            let out = compare_scalar(
                op,
                tensor(&device, &a, &[4, 6], dtype),
                Scalar::Int(2),
                out_dtype,
            );
            assert_eq!(
                read(out, &[4, 6], out_dtype),
                expected,
                "{}_elem {dtype}",
                op.name()
            );
            // Transposed lhs against a broadcast row.
            let lhs = tensor(&device, &a, &[4, 6], dtype).swap_dims(0, 1);
            let row = [1.0, 2.0, 3.0, 4.0];
            let out = compare(op, lhs, tensor(&device, &row, &[4], dtype), out_dtype);
            let expected: Vec<f64> = (0..24)
                .map(|i| reference(op, a[(i % 4) * 6 + i / 4], row[i % 4]))
                .collect();
            assert_eq!(
                read(out, &[6, 4], out_dtype),
                expected,
                "{} {dtype} strided",
                op.name()
            );
        }
    }
}

#[test]
fn float_scalar_against_int_like_values() {
    let device = device_or_skip!();
    let out_dtype = bool_dtype(&device.client());
    let a = [0.5, 1.0, 1.5, 2.0];
    let out = compare_scalar(
        CompareOp::GreaterEqual,
        tensor(&device, &a, &[4], DType::F32),
        Scalar::Float(1.5),
        out_dtype,
    );
    assert_eq!(read(out, &[4], out_dtype), vec![0.0, 0.0, 1.0, 1.0]);
}
