//! Cumulative ops: every op and dtype along every dim of a 3-d tensor, strided and permuted
//! inputs, f16 accumulation, NaN and ties, zeros in products, integer wrapping, empty tensors,
//! in-place reuse and misuse.

use crate::bitwise::{expect_panic, int_dtypes, int_tensor, random_ints, read_ints, wrap};
use crate::device_or_skip;
use crate::harness::{assert_close, random_values, read, rng, round_to, tensor, tolerance};
use crate::unary::float_dtypes;
use burn_backend::{DType, Shape, TensorMetadata};
use burn_cubecl::CubeTensor;
use burn_cubecl::kernel::{ScanOp, scan};

/// `values` (row-major, of `shape`) with every line along `dim` replaced by its running fold.
fn scan_lines<T: Copy>(values: &[T], shape: &[usize], dim: usize, f: impl Fn(T, T) -> T) -> Vec<T> {
    let mut out = values.to_vec();
    let inner: usize = shape[dim + 1..].iter().product();
    let len = shape[dim];
    for at in (0..values.len()).filter(|i| !(i / inner).is_multiple_of(len)) {
        out[at] = f(out[at - inner], out[at]);
    }
    out
}

/// The float64 reference of a scan (NaN propagating through max/min as the CPU backend does).
fn reference(op: ScanOp, values: &[f64], shape: &[usize], dim: usize) -> Vec<f64> {
    scan_lines(values, shape, dim, |acc, x| match op {
        ScanOp::Sum => acc + x,
        ScanOp::Prod => acc * x,
        _ if acc.is_nan() || x.is_nan() => f64::NAN,
        ScanOp::Max => acc.max(x),
        ScanOp::Min => acc.min(x),
    })
}

/// The integer reference, wrapping to `dtype` after every step.
fn reference_int(
    op: ScanOp,
    values: &[i128],
    shape: &[usize],
    dim: usize,
    dtype: DType,
) -> Vec<i128> {
    scan_lines(values, shape, dim, |acc, x| {
        let exact = match op {
            ScanOp::Sum => acc + x,
            ScanOp::Prod => acc * x,
            ScanOp::Max => acc.max(x),
            ScanOp::Min => acc.min(x),
        };
        wrap(exact, dtype)
    })
}

/// Checks `op` along `dim` of a float tensor against the reference.
fn check_float(op: ScanOp, dtype: DType, input: CubeTensor, values: &[f64], dim: usize) {
    let shape = input.shape().dims.clone();
    let expected = round_to(&reference(op, values, &shape, dim), dtype);
    let got = read(scan(op, input, dim), &shape, dtype);
    assert_close(
        &format!("{} {dtype} {shape:?} dim {dim}", op.name()),
        &got,
        &expected,
        tolerance(dtype),
    );
}

#[test]
fn every_op_every_float_dtype_every_dim() {
    let device = device_or_skip!();
    let shape = [3, 4, 5];
    for dtype in float_dtypes(&device) {
        let values = random_values(&mut rng(1), &shape, dtype, -2.0, 2.0);
        for op in ScanOp::ALL {
            for dim in 0..3 {
                let input = tensor(&device, &values, &shape, dtype);
                check_float(op, dtype, input, &values, dim);
            }
        }
    }
}

#[test]
fn every_op_every_int_dtype_every_dim() {
    let device = device_or_skip!();
    let shape = [3, 4, 5];
    for dtype in int_dtypes(&device) {
        // Products of five values up to 9 overflow the 8- and 16-bit types: they must wrap.
        let values = random_ints(2, 60, dtype, -9, 9);
        for op in ScanOp::ALL {
            for dim in 0..3 {
                let expected = reference_int(op, &values, &shape, dim, dtype);
                let out = scan(op, int_tensor(&device, &values, &shape, dtype), dim);
                assert_eq!(
                    read_ints(out, &shape, dtype),
                    expected,
                    "{} {dtype} dim {dim}",
                    op.name()
                );
            }
        }
    }
}

#[test]
fn integer_sums_and_products_wrap() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let bits = 8 * dtype.size() as u32;
        // 2^(bits-2) three times, then a factor 4: the sum and product leave the range.
        let big = 1i128 << (bits - 2);
        let values = [big, big, big, 4, 3];
        for op in [ScanOp::Sum, ScanOp::Prod] {
            let expected = reference_int(op, &values, &[5], 0, dtype);
            let out = scan(op, int_tensor(&device, &values, &[5], dtype), 0);
            assert_eq!(
                read_ints(out, &[5], dtype),
                expected,
                "{} {dtype}",
                op.name()
            );
        }
    }
}

#[test]
fn strided_and_permuted_inputs() {
    let device = device_or_skip!();
    let values = random_values(&mut rng(3), &[60], DType::F32, -2.0, 2.0);
    for op in ScanOp::ALL {
        for dim in 0..3 {
            // [3, 4, 5] permuted to [5, 3, 4]: the reference scans its row-major copy.
            let permuted = tensor(&device, &values, &[3, 4, 5], DType::F32).permute(&[2, 0, 1]);
            let copy = read(permuted.clone(), &[5, 3, 4], DType::F32);
            check_float(op, DType::F32, permuted, &copy, dim);
            // Rows 1..3 and columns 2..5 of a [4, 8] tensor, transposed: [3, 2], strides [1, 8].
            let sliced = tensor(&device, &values[..32], &[4, 8], DType::F32)
                .slice(&[1..3, 2..5])
                .swap_dims(0, 1);
            if dim < 2 {
                let copy = read(sliced.clone(), &[3, 2], DType::F32);
                check_float(op, DType::F32, sliced, &copy, dim);
            }
        }
    }
    // An integer tensor broadcast along the scanned dim (zero stride).
    let ints: Vec<i128> = vec![3, -1, 2];
    let expanded = int_tensor(&device, &ints, &[1, 3], DType::I32).expand(Shape::new([4, 3]));
    let out = scan(ScanOp::Sum, expanded, 0);
    let expected: Vec<i128> = (1..=4)
        .flat_map(|k| ints.iter().map(move |v| v * k))
        .collect();
    assert_eq!(read_ints(out, &[4, 3], DType::I32), expected);
}

#[test]
fn half_precision_accumulates_in_f32() {
    let device = device_or_skip!();
    if !float_dtypes(&device).contains(&DType::F16) {
        return;
    }
    // In f16 arithmetic 2048 + 1 rounds back to 2048 every step; accumulated in f32 and rounded
    // once per output, the running sum does move.
    let values = [2048.0, 1.0, 1.0, 1.0, 1.0];
    let got = read(
        scan(ScanOp::Sum, tensor(&device, &values, &[5], DType::F16), 0),
        &[5],
        DType::F16,
    );
    assert_eq!(got, vec![2048.0, 2048.0, 2050.0, 2052.0, 2052.0]);
}

#[test]
fn cumprod_with_zeros() {
    let device = device_or_skip!();
    let values = [2.0, 3.0, 0.0, 4.0, -1.0, 0.0, 5.0, 2.0];
    for dtype in float_dtypes(&device) {
        let got = read(
            scan(ScanOp::Prod, tensor(&device, &values, &[2, 4], dtype), 1),
            &[2, 4],
            dtype,
        );
        assert_eq!(
            got,
            vec![2.0, 6.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0],
            "{dtype}"
        );
        let got = read(
            scan(ScanOp::Prod, tensor(&device, &values, &[2, 4], dtype), 0),
            &[2, 4],
            dtype,
        );
        assert_eq!(
            got,
            vec![2.0, 3.0, 0.0, 4.0, -2.0, 0.0, 0.0, 8.0],
            "{dtype}"
        );
    }
    for dtype in int_dtypes(&device)
        .into_iter()
        .filter(|d| d.is_signed_int())
    {
        let ints: Vec<i128> = values.iter().map(|&v| v as i128).collect();
        let out = scan(ScanOp::Prod, int_tensor(&device, &ints, &[8], dtype), 0);
        assert_eq!(
            read_ints(out, &[8], dtype),
            vec![2, 6, 0, 0, 0, 0, 0, 0],
            "{dtype}"
        );
    }
}

#[test]
fn cummax_cummin_nan_and_ties() {
    let device = device_or_skip!();
    let nan = f64::NAN;
    let lines = [
        [1.0, 3.0, 3.0, nan, 5.0, 2.0],
        [nan, 1.0, -1.0, 2.0, 0.0, 0.0],
        [2.0, 2.0, -1.0, 2.0, 7.0, 7.0],
    ];
    let values: Vec<f64> = lines.concat();
    for dtype in float_dtypes(&device) {
        for op in [ScanOp::Max, ScanOp::Min] {
            let input = tensor(&device, &values, &[3, 6], dtype);
            check_float(op, dtype, input, &values, 1);
            // Along dim 0 too: the NaN of the second line's first column propagates down.
            let input = tensor(&device, &values, &[3, 6], dtype);
            check_float(op, dtype, input, &values, 0);
        }
        let got = read(
            scan(ScanOp::Max, tensor(&device, &values[..6], &[6], dtype), 0),
            &[6],
            dtype,
        );
        assert_eq!(got[..3], [1.0, 3.0, 3.0], "{dtype}");
        assert!(
            got[3..].iter().all(|v| v.is_nan()),
            "cummax {dtype}: {got:?}"
        );
    }
    for dtype in int_dtypes(&device) {
        let ints: Vec<i128> = vec![2, 2, 1, 3, 3, 0, 4];
        for op in [ScanOp::Max, ScanOp::Min] {
            let out = scan(op, int_tensor(&device, &ints, &[7], dtype), 0);
            let expected = reference_int(op, &ints, &[7], 0, dtype);
            assert_eq!(
                read_ints(out, &[7], dtype),
                expected,
                "{} {dtype}",
                op.name()
            );
        }
    }
}

#[test]
fn empty_tensors_in_place_and_clones() {
    let device = device_or_skip!();
    for (shape, dim) in [(&[0, 3][..], 0), (&[0, 3], 1), (&[2, 0, 4], 2)] {
        let t = tensor(&device, &[], shape, DType::F32);
        assert_eq!(
            read(scan(ScanOp::Sum, t, dim), shape, DType::F32),
            Vec::<f64>::new()
        );
    }
    let values = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    // A unique contiguous tensor is scanned in place.
    let t = tensor(&device, &values, &[2, 3], DType::F32);
    let id = t.buffer_id();
    let out = scan(ScanOp::Sum, t, 1);
    assert_eq!(out.buffer_id(), id);
    assert_eq!(
        read(out, &[2, 3], DType::F32),
        vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]
    );
    // A shared one is not; the original keeps its values.
    let t = tensor(&device, &values, &[2, 3], DType::F32);
    let out = scan(ScanOp::Prod, t.clone(), 0);
    assert_ne!(out.buffer_id(), t.buffer_id());
    assert_eq!(
        read(out, &[2, 3], DType::F32),
        vec![1.0, 2.0, 3.0, 4.0, 10.0, 18.0]
    );
    assert_eq!(read(t, &[2, 3], DType::F32), values.to_vec());
    // A line of one element is copied as is.
    let t = tensor(&device, &values, &[6, 1], DType::F32);
    assert_eq!(
        read(scan(ScanOp::Max, t, 1), &[6, 1], DType::F32),
        values.to_vec()
    );
}

#[test]
fn misuse_names_the_op() {
    let device = device_or_skip!();
    let t = || tensor(&device, &[1.0; 6], &[2, 3], DType::F32);
    expect_panic(&["cumsum:", "dim 2", "[2, 3]"], || {
        scan(ScanOp::Sum, t(), 2);
    });
    expect_panic(&["cummax:", "dim 0", "rank 0"], || {
        scan(ScanOp::Max, tensor(&device, &[1.0], &[], DType::F32), 0);
    });
    let bools = tensor(
        &device,
        &[1.0, 0.0],
        &[2],
        burn_cubecl::dtype::bool_dtype(&device.client()),
    );
    expect_panic(&["cumprod:", "float or integer", "bool"], || {
        scan(ScanOp::Prod, bools, 0);
    });
}
