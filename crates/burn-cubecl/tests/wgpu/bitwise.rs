//! Integer-only ops against exact 128-bit host references, for every integer dtype the device
//! computes with: bitwise logic and shifts (tensor and scalar forms, out-of-range and negative
//! amounts), the complement, powers (zero and negative exponents, wrapping) and absolute
//! values. Also the shared helpers of the integer tests.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{broadcast_index, coords, rng};
use burn_backend::{DType, Scalar, Shape, TensorData};
use burn_cubecl::kernel::{BitwiseOp, bitwise, bitwise_not, bitwise_scalar, int_abs, int_powi};
use burn_cubecl::{CubeDevice, CubeTensor};
use rand::Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `f`, expecting a panic whose message contains every one of `parts`.
pub fn expect_panic(parts: &[&str], f: impl FnOnce()) {
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

/// The integer dtypes `device` computes with.
pub fn int_dtypes(device: &CubeDevice) -> Vec<DType> {
    arithmetic_dtypes(device)
        .into_iter()
        .filter(DType::is_int)
        .collect()
}

/// `value` wrapped into the range of the integer `dtype` (what `as` does).
pub fn wrap(value: i128, dtype: DType) -> i128 {
    let modulus = 1i128 << (8 * dtype.size());
    let r = value.rem_euclid(modulus);
    if dtype.is_signed_int() && r >= modulus / 2 {
        r - modulus
    } else {
        r
    }
}

macro_rules! per_int_dtype {
    ($dtype:expr, $ty:ident => $body:expr) => {
        match $dtype {
            DType::I8 => {
                type $ty = i8;
                $body
            }
            DType::I16 => {
                type $ty = i16;
                $body
            }
            DType::I32 => {
                type $ty = i32;
                $body
            }
            DType::I64 => {
                type $ty = i64;
                $body
            }
            DType::U8 => {
                type $ty = u8;
                $body
            }
            DType::U16 => {
                type $ty = u16;
                $body
            }
            DType::U32 => {
                type $ty = u32;
                $body
            }
            DType::U64 => {
                type $ty = u64;
                $body
            }
            other => panic!("not an integer dtype: {other}"),
        }
    };
}

/// A device tensor of the integer `dtype` holding `values` (wrapped into its range).
pub fn int_tensor(
    device: &CubeDevice,
    values: &[i128],
    shape: &[usize],
    dtype: DType,
) -> CubeTensor {
    let shape = Shape::from(shape.to_vec());
    let data = per_int_dtype!(dtype, E => TensorData::new(values.iter().map(|&v| v as E).collect::<Vec<E>>(), shape));
    CubeTensor::from_data(data, device)
}

/// Reads an integer tensor back exactly, checking its shape and dtype.
pub fn read_ints(tensor: CubeTensor, shape: &[usize], dtype: DType) -> Vec<i128> {
    let data = tensor.into_data_sync().expect("read back");
    assert_eq!(&data.shape.dims[..], shape, "shape of the result");
    assert_eq!(data.dtype, dtype, "dtype of the result");
    per_int_dtype!(dtype, E => bytemuck::cast_slice::<u8, E>(data.as_bytes()).iter().map(|&v| v as i128).collect())
}

/// The smallest and largest values of the integer `dtype`.
fn int_range(dtype: DType) -> (i128, i128) {
    let bits = 8 * dtype.size();
    if dtype.is_signed_int() {
        (-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    } else {
        (0, (1 << bits) - 1)
    }
}

/// Random values of `dtype` in `low..=high`, clamped to the dtype's range.
pub fn random_ints(seed: u64, count: usize, dtype: DType, low: i128, high: i128) -> Vec<i128> {
    let (min, max) = int_range(dtype);
    let (low, high) = (low.clamp(min, max), high.clamp(min, max));
    let mut r = rng(seed);
    (0..count).map(|_| r.random_range(low..=high)).collect()
}

/// The CPU backend's semantics, on exact integers.
fn reference(op: BitwiseOp, a: i128, b: i128, dtype: DType) -> i128 {
    let bits = 8 * dtype.size() as i128;
    // Amounts are read as i64: a u64 amount of 2^63 or more is negative.
    let amount = b as i64 as i128;
    match op {
        BitwiseOp::And => a & b,
        BitwiseOp::Or => a | b,
        BitwiseOp::Xor => a ^ b,
        BitwiseOp::LeftShift if amount < 0 => a,
        BitwiseOp::LeftShift if amount >= bits => 0,
        BitwiseOp::LeftShift => wrap(a << amount, dtype),
        BitwiseOp::RightShift if amount < 0 => a,
        BitwiseOp::RightShift if amount >= bits => i128::from(a < 0).wrapping_neg(),
        BitwiseOp::RightShift => a >> amount,
    }
}

fn pow_reference(base: i128, exp: i128, dtype: DType) -> i128 {
    if exp < 0 {
        return match base {
            1 => 1,
            -1 if exp % 2 == 0 => 1,
            -1 => -1,
            _ => 0,
        };
    }
    let (mut result, mut square, mut e) = (1i128, wrap(base, dtype), exp.min(u32::MAX as i128));
    while e > 0 {
        if e & 1 == 1 {
            result = wrap(result.wrapping_mul(square), dtype);
        }
        square = wrap(square.wrapping_mul(square), dtype);
        e >>= 1;
    }
    result
}

const CASES: [(&[usize], &[usize]); 4] = [
    (&[6, 16], &[6, 16]),
    (&[3, 1, 5], &[4, 1]),
    (&[7], &[]),
    (&[0, 4], &[4]),
];

/// The broadcast reference of `f` on the two operands.
fn broadcast(
    a: &[i128],
    ls: &[usize],
    b: &[i128],
    rs: &[usize],
    f: impl Fn(i128, i128) -> i128,
) -> (Vec<usize>, Vec<i128>) {
    let out_shape = Shape::from(ls.to_vec())
        .broadcast(&Shape::from(rs.to_vec()))
        .unwrap()
        .to_vec();
    let n: usize = out_shape.iter().product();
    let values = (0..n)
        .map(|i| {
            let c = coords(i, &out_shape);
            f(a[broadcast_index(&c, ls)], b[broadcast_index(&c, rs)])
        })
        .collect();
    (out_shape, values)
}

#[test]
fn every_op_every_dtype_with_broadcasting() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let bits = 8 * dtype.size() as i128;
        for op in BitwiseOp::ALL {
            for (case, (ls, rs)) in CASES.iter().enumerate() {
                let seed = case as u64;
                let a = random_ints(seed, ls.iter().product(), dtype, i128::MIN, i128::MAX);
                let shift = matches!(op, BitwiseOp::LeftShift | BitwiseOp::RightShift);
                // Shift amounts: negative, zero, in range, at and past the width.
                let (low, high) = if shift {
                    (-3, bits + 6)
                } else {
                    (i128::MIN, i128::MAX)
                };
                let b = random_ints(seed + 50, rs.iter().product(), dtype, low, high);
                let (out_shape, expected) =
                    broadcast(&a, ls, &b, rs, |x, y| reference(op, x, y, dtype));
                let out = bitwise(
                    op,
                    int_tensor(&device, &a, ls, dtype),
                    int_tensor(&device, &b, rs, dtype),
                );
                assert_eq!(
                    read_ints(out, &out_shape, dtype),
                    expected,
                    "{} {dtype} {ls:?} with {rs:?}",
                    op.name()
                );
            }
        }
    }
}

#[test]
fn shifts_by_zero_large_and_negative_amounts() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let bits = 8 * dtype.size() as i128;
        let min = wrap(1 << (bits - 1), dtype); // the top bit alone
        let values = [1, -1, min, 5, -6, 0x55, min + 3, 127];
        let values: Vec<i128> = values.iter().map(|&v| wrap(v, dtype)).collect();
        let amounts = [0, 1, bits - 1, bits, bits + 1, 200, -1, i64::MIN as i128];
        for op in [BitwiseOp::LeftShift, BitwiseOp::RightShift] {
            for &amount in &amounts {
                let amount = wrap(amount, dtype);
                let expected: Vec<i128> = values
                    .iter()
                    .map(|&v| reference(op, v, amount, dtype))
                    .collect();
                let tensor_form = bitwise(
                    op,
                    int_tensor(&device, &values, &[8], dtype),
                    int_tensor(&device, &[amount], &[1], dtype),
                );
                assert_eq!(
                    read_ints(tensor_form, &[8], dtype),
                    expected,
                    "{} {dtype} by {amount}",
                    op.name()
                );
                let scalar_form = bitwise_scalar(
                    op,
                    int_tensor(&device, &values, &[2, 4], dtype),
                    Scalar::Int(amount as i64),
                );
                assert_eq!(
                    read_ints(scalar_form, &[2, 4], dtype),
                    expected,
                    "{}_scalar {dtype} by {amount}",
                    op.name()
                );
            }
        }
        // A scalar converts with `as`: 300 is 44 for 8-bit types, out of range.
        let expected: Vec<i128> = values
            .iter()
            .map(|&v| reference(BitwiseOp::LeftShift, v, wrap(300, dtype), dtype))
            .collect();
        let out = bitwise_scalar(
            BitwiseOp::LeftShift,
            int_tensor(&device, &values, &[8], dtype),
            Scalar::Int(300),
        );
        assert_eq!(
            read_ints(out, &[8], dtype),
            expected,
            "shift by 300 {dtype}"
        );
    }
}

#[test]
fn scalar_forms_not_and_strided_operands() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let a = random_ints(7, 24, dtype, i128::MIN, i128::MAX);
        // A [4, 6] tensor transposed to [6, 4].
        let transposed: Vec<i128> = (0..24).map(|i| a[(i % 4) * 6 + i / 4]).collect();
        for op in [BitwiseOp::And, BitwiseOp::Or, BitwiseOp::Xor] {
            let s = wrap(0x5a5a_5a5a_5a5a_5a5a, dtype);
            let expected: Vec<i128> = transposed
                .iter()
                .map(|&x| reference(op, x, s, dtype))
                .collect();
            let t = int_tensor(&device, &a, &[4, 6], dtype).swap_dims(0, 1);
            let out = bitwise_scalar(op, t, Scalar::Int(0x5a5a_5a5a_5a5a_5a5a));
            assert_eq!(
                read_ints(out, &[6, 4], dtype),
                expected,
                "{}_scalar {dtype}",
                op.name()
            );
            // Transposed lhs, broadcast row rhs.
            let row = random_ints(8, 4, dtype, i128::MIN, i128::MAX);
            let t = int_tensor(&device, &a, &[4, 6], dtype).swap_dims(0, 1);
            let out = bitwise(op, t, int_tensor(&device, &row, &[4], dtype));
            let expected: Vec<i128> = (0..24)
                .map(|i| reference(op, transposed[i], row[i % 4], dtype))
                .collect();
            assert_eq!(
                read_ints(out, &[6, 4], dtype),
                expected,
                "{} {dtype} strided",
                op.name()
            );
        }
        let t = int_tensor(&device, &a, &[4, 6], dtype).swap_dims(0, 1);
        let expected: Vec<i128> = transposed.iter().map(|&x| wrap(!x, dtype)).collect();
        assert_eq!(
            read_ints(bitwise_not(t), &[6, 4], dtype),
            expected,
            "bitwise_not {dtype}"
        );
    }
}

#[test]
fn powers_with_zero_negative_and_wrapping_exponents() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let signed = dtype.is_signed_int();
        let bases: Vec<i128> = if signed {
            (-4..=4).collect()
        } else {
            (0..=8).collect()
        };
        let exps: Vec<i128> = if signed {
            (-3..=12).collect()
        } else {
            (0..=15).collect()
        };
        let (ls, rs) = ([bases.len(), 1], [exps.len()]);
        let (out_shape, expected) =
            broadcast(&bases, &ls, &exps, &rs, |b, e| pow_reference(b, e, dtype));
        let out = int_powi(
            int_tensor(&device, &bases, &ls, dtype),
            int_tensor(&device, &exps, &rs, dtype),
        );
        assert_eq!(
            read_ints(out, &out_shape, dtype),
            expected,
            "int_powi {dtype}"
        );
        // Large exponents: wrapping, and the u32::MAX cap of 64-bit exponents.
        let bases = [3, 2, 7, 1, 0, 5];
        let bits = 8 * dtype.size() as i128;
        let exps = [bits + 9, bits, 1 << 20, (1 << 40) + 3, 0, -1].map(|e| wrap(e, dtype));
        let expected: Vec<i128> = bases
            .iter()
            .zip(&exps)
            .map(|(&b, &e)| pow_reference(b, e, dtype))
            .collect();
        let out = int_powi(
            int_tensor(&device, &bases, &[6], dtype),
            int_tensor(&device, &exps, &[6], dtype),
        );
        assert_eq!(
            read_ints(out, &[6], dtype),
            expected,
            "int_powi {dtype} large exponents"
        );
    }
    // An exponent tensor of another integer dtype is converted first.
    let out = int_powi(
        int_tensor(&device, &[3, -2], &[2], DType::I32),
        int_tensor(&device, &[4, 3], &[2], DType::U32),
    );
    assert_eq!(read_ints(out, &[2], DType::I32), vec![81, -8]);
}

#[test]
fn absolute_values_wrap_and_unsigned_is_identity() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let min = int_range(dtype).0;
        let values: Vec<i128> = [0, 1, -1, 7, -9, min, min + 1, wrap(-1, dtype)]
            .iter()
            .map(|&v| wrap(v, dtype))
            .collect();
        let expected: Vec<i128> = values.iter().map(|&v| wrap(v.abs(), dtype)).collect();
        let t = int_tensor(&device, &values, &[2, 4], dtype).swap_dims(0, 1);
        let expected_t: Vec<i128> = (0..8).map(|i| expected[(i % 2) * 4 + i / 2]).collect();
        assert_eq!(
            read_ints(int_abs(t), &[4, 2], dtype),
            expected_t,
            "int_abs {dtype}"
        );
    }
}

#[test]
fn in_place_reuse_and_empty() {
    let device = device_or_skip!();
    let lhs = int_tensor(&device, &[12, 10, 7], &[3], DType::I32);
    let id = lhs.buffer_id();
    let out = bitwise(
        BitwiseOp::And,
        lhs,
        int_tensor(&device, &[10], &[1], DType::I32),
    );
    assert_eq!(out.buffer_id(), id);
    assert_eq!(read_ints(out, &[3], DType::I32), vec![8, 10, 2]);
    let kept = int_tensor(&device, &[12, 10, 7], &[3], DType::I32);
    let out = bitwise_not(kept.clone());
    assert_ne!(out.buffer_id(), kept.buffer_id());
    assert_eq!(read_ints(kept, &[3], DType::I32), vec![12, 10, 7]);
    assert_eq!(read_ints(out, &[3], DType::I32), vec![-13, -11, -8]);
    let empty = || int_tensor(&device, &[], &[0, 3], DType::I32);
    assert_eq!(read_ints(bitwise_not(empty()), &[0, 3], DType::I32), vec![]);
    assert_eq!(read_ints(int_abs(empty()), &[0, 3], DType::I32), vec![]);
    assert_eq!(
        read_ints(int_powi(empty(), empty()), &[0, 3], DType::I32),
        vec![]
    );
    assert_eq!(
        read_ints(
            bitwise_scalar(BitwiseOp::Or, empty(), Scalar::Int(1)),
            &[0, 3],
            DType::I32
        ),
        vec![]
    );
}

#[test]
fn misuse_names_the_op() {
    let device = device_or_skip!();
    let i =
        |shape: &[usize]| int_tensor(&device, &vec![1; shape.iter().product()], shape, DType::I32);
    let f = crate::harness::tensor(&device, &[1.0; 4], &[4], DType::F32);
    expect_panic(&["bitwise_and:", "integer", "f32"], || {
        bitwise(BitwiseOp::And, f.clone(), f.clone());
    });
    expect_panic(
        &["bitwise_left_shift:", "[2, 3]", "[2, 4]", "broadcast"],
        || {
            bitwise(BitwiseOp::LeftShift, i(&[2, 3]), i(&[2, 4]));
        },
    );
    expect_panic(&["bitwise_xor:", "different dtypes", "i32", "u32"], || {
        bitwise(
            BitwiseOp::Xor,
            i(&[2]),
            int_tensor(&device, &[1, 2], &[2], DType::U32),
        );
    });
    expect_panic(&["bitwise_not:", "integer", "f32"], || {
        bitwise_not(f.clone());
    });
    expect_panic(&["int_powi:", "integer", "f32"], || {
        int_powi(f.clone(), i(&[4]));
    });
    expect_panic(&["int_abs:", "integer", "f32"], || {
        int_abs(f.clone());
    });
}
