//! The unary float table against float64 references, on contiguous, vectorizable,
//! transposed and sliced inputs, with and without in-place reuse.

use crate::device_or_skip;
use crate::harness::{
    assert_close, check_close, random_values, read, rng, round_to, tensor, tolerance,
};
use burn_backend::DType;
use burn_cubecl::CubeDevice;
use burn_cubecl::dtype::device_dtype_usage;
use burn_cubecl::kernel::{UnaryOp, unary};

/// The float dtypes the device computes with.
pub fn float_dtypes(device: &CubeDevice) -> Vec<DType> {
    [DType::F32, DType::F16, DType::F64, DType::BF16]
        .into_iter()
        .filter(|&d| device_dtype_usage(device, d).arithmetic)
        .collect()
}

/// The float64 reference and the input domain of each operation.
fn reference(op: UnaryOp) -> (fn(f64) -> f64, (f64, f64)) {
    fn round_half_even(x: f64) -> f64 {
        let r = x.round();
        if (x - x.trunc()).abs() == 0.5 {
            2.0 * (x / 2.0).round()
        } else {
            r
        }
    }
    match op {
        UnaryOp::Exp => (f64::exp, (-4.0, 4.0)),
        UnaryOp::Log => (f64::ln, (0.05, 10.0)),
        UnaryOp::Log1p => (f64::ln_1p, (-0.9, 10.0)),
        UnaryOp::Sqrt => (f64::sqrt, (0.0, 10.0)),
        UnaryOp::Abs => (f64::abs, (-5.0, 5.0)),
        UnaryOp::Neg => (|x| -x, (-5.0, 5.0)),
        UnaryOp::Recip => (f64::recip, (0.2, 5.0)),
        UnaryOp::Sin => (f64::sin, (-3.0, 3.0)),
        UnaryOp::Cos => (f64::cos, (-3.0, 3.0)),
        UnaryOp::Tan => (f64::tan, (-1.2, 1.2)),
        UnaryOp::Tanh => (f64::tanh, (-4.0, 4.0)),
        UnaryOp::Sinh => (f64::sinh, (-3.0, 3.0)),
        UnaryOp::Cosh => (f64::cosh, (-3.0, 3.0)),
        UnaryOp::Asin => (f64::asin, (-0.95, 0.95)),
        UnaryOp::Acos => (f64::acos, (-0.95, 0.95)),
        UnaryOp::Atan => (f64::atan, (-5.0, 5.0)),
        UnaryOp::Asinh => (f64::asinh, (-5.0, 5.0)),
        UnaryOp::Acosh => (f64::acosh, (1.0, 6.0)),
        UnaryOp::Atanh => (f64::atanh, (-0.9, 0.9)),
        UnaryOp::Erf => (erf, (-3.0, 3.0)),
        UnaryOp::Round => (round_half_even, (-6.0, 6.0)),
        UnaryOp::Floor => (f64::floor, (-6.0, 6.0)),
        UnaryOp::Ceil => (f64::ceil, (-6.0, 6.0)),
        UnaryOp::Trunc => (f64::trunc, (-6.0, 6.0)),
        UnaryOp::Sigmoid => (|x| 1.0 / (1.0 + (-x).exp()), (-6.0, 6.0)),
        UnaryOp::Relu => (|x| x.max(0.0), (-5.0, 5.0)),
        UnaryOp::Sign => (
            |x| {
                if x > 0.0 {
                    1.0
                } else if x < 0.0 {
                    -1.0
                } else {
                    0.0
                }
            },
            (-3.0, 3.0),
        ),
        UnaryOp::Square => (|x| x * x, (-5.0, 5.0)),
    }
}

/// erf by its Maclaurin series (converges fast on the tested domain |x| <= 3).
fn erf(x: f64) -> f64 {
    let mut term = x;
    let mut sum = x;
    for n in 1..200 {
        term *= -x * x / n as f64;
        let next = term / (2 * n + 1) as f64;
        sum += next;
        if next.abs() < 1e-17 {
            break;
        }
    }
    sum * 2.0 / std::f64::consts::PI.sqrt()
}

/// The tolerance of `op` in `dtype`: exact-ish ops at the dtype's rounding, transcendental
/// functions a few ulps looser, erf at its approximation error.
fn op_tolerance(op: UnaryOp, dtype: DType) -> (f64, f64) {
    // f64 transcendental functions are exact to a few ulps: WGPU computes them on the host.
    let (abs, rel) = tolerance(dtype);
    match op {
        UnaryOp::Erf if dtype != DType::F64 => (abs.max(5e-7), rel.max(5e-7)),
        UnaryOp::Exp
        | UnaryOp::Log
        | UnaryOp::Log1p
        | UnaryOp::Sin
        | UnaryOp::Cos
        | UnaryOp::Tan
        | UnaryOp::Tanh
        | UnaryOp::Sinh
        | UnaryOp::Cosh
        | UnaryOp::Asin
        | UnaryOp::Acos
        | UnaryOp::Atan
        | UnaryOp::Asinh
        | UnaryOp::Acosh
        | UnaryOp::Atanh
        | UnaryOp::Sigmoid => (abs * 4.0, rel * 4.0),
        _ => (abs, rel),
    }
}

/// Inputs with exact halves mixed in for the rounding ops.
fn inputs(op: UnaryOp, dtype: DType, n: usize, seed: u64) -> Vec<f64> {
    let (low, high) = reference(op).1;
    let mut values = random_values(&mut rng(seed), &[n], dtype, low, high);
    if matches!(
        op,
        UnaryOp::Round | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc
    ) {
        for (i, v) in [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.0, -3.0]
            .into_iter()
            .enumerate()
        {
            values[i] = v;
        }
    }
    if op == UnaryOp::Sign {
        values[0] = 0.0;
    }
    values
}

#[test]
fn every_op_every_float_dtype_contiguous() {
    let device = device_or_skip!();
    let mut failures = Vec::new();
    for dtype in float_dtypes(&device) {
        for op in UnaryOp::ALL {
            // [8, 64] vectorizes; [7, 33] cannot.
            for shape in [&[8usize, 64][..], &[7, 33]] {
                let n = shape.iter().product();
                let x = inputs(op, dtype, n, 7);
                let (f, _) = reference(op);
                let expected = round_to(&x.iter().map(|&v| f(v)).collect::<Vec<_>>(), dtype);
                let out = unary(op, tensor(&device, &x, shape, dtype));
                let got = read(out, shape, dtype);
                if let Err(message) = check_close(
                    &format!("{} {dtype} {shape:?}", op.name()),
                    &got,
                    &expected,
                    op_tolerance(op, dtype),
                ) {
                    failures.push(message);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn transposed_and_sliced_inputs() {
    let device = device_or_skip!();
    for dtype in float_dtypes(&device) {
        for op in [UnaryOp::Exp, UnaryOp::Neg, UnaryOp::Sigmoid, UnaryOp::Round] {
            let (f, _) = reference(op);
            // A [6, 10] tensor seen as its transpose [10, 6].
            let x = inputs(op, dtype, 60, 11);
            let t = tensor(&device, &x, &[6, 10], dtype).swap_dims(0, 1);
            assert!(!t.is_contiguous());
            let expected: Vec<f64> = (0..60).map(|i| f(x[(i % 6) * 10 + i / 6])).collect();
            let got = read(unary(op, t), &[10, 6], dtype);
            assert_close(
                &format!("{} {dtype} transposed", op.name()),
                &got,
                &round_to(&expected, dtype),
                op_tolerance(op, dtype),
            );
            // Columns 2..7 of a [6, 10] tensor: rows strided by 10, offset 2.
            let t = tensor(&device, &x, &[6, 10], dtype).slice(&[0..6, 2..7]);
            let expected: Vec<f64> = (0..30).map(|i| f(x[(i / 5) * 10 + 2 + i % 5])).collect();
            let got = read(unary(op, t), &[6, 5], dtype);
            assert_close(
                &format!("{} {dtype} sliced", op.name()),
                &got,
                &round_to(&expected, dtype),
                op_tolerance(op, dtype),
            );
        }
    }
}

#[test]
fn in_place_only_when_unique() {
    let device = device_or_skip!();
    let x = vec![1.0, -2.0, 3.0, -4.0];
    let t = tensor(&device, &x, &[4], DType::F32);
    let keep = t.clone();
    assert!(!t.can_mut());
    let before = t.buffer_id();
    let out = unary(UnaryOp::Neg, t);
    assert_ne!(
        out.buffer_id(),
        before,
        "a shared buffer is never overwritten"
    );
    assert_eq!(read(keep, &[4], DType::F32), x);
    assert_eq!(read(out, &[4], DType::F32), vec![-1.0, 2.0, -3.0, 4.0]);

    let t = tensor(&device, &x, &[4], DType::F32);
    assert!(t.can_mut());
    let before = t.buffer_id();
    let out = unary(UnaryOp::Abs, t);
    assert_eq!(out.buffer_id(), before, "a unique buffer is reused");
    assert_eq!(read(out, &[4], DType::F32), vec![1.0, 2.0, 3.0, 4.0]);
}
