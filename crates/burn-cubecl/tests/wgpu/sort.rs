//! Sorting: every dtype, both directions, every dim of a 3-d tensor, against a stable float64
//! host sort (NaN the largest value, as on the CPU backend). Ties, NaN, ±inf and signed zeros,
//! rows of length 1, non-powers of two and rows longer than one shared-memory block, permuted,
//! sliced and broadcast inputs, extreme integers, empty tensors, and misuse.

use crate::bitwise::{expect_panic, int_dtypes, int_tensor, random_ints, read_ints};
use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{random_values, read, rng, tensor};
use crate::unary::float_dtypes;
use burn_backend::{DType, Shape, TensorMetadata};
use burn_cubecl::dtype::device_dtype_usage;
use burn_cubecl::kernel::{argsort, sort, sort_with_indices};
use burn_cubecl::{CubeDevice, CubeTensor};
use core::cmp::Ordering;

/// NaN greater than every number and equal to itself (the CPU backend's order).
fn cmp_nan_last(a: f64, b: f64) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(&b).expect("numbers compare"),
    }
}

/// The stable sort of every line along `dim`: the sorted values and their original indices,
/// row-major in `shape`.
fn reference(
    values: &[f64],
    shape: &[usize],
    dim: usize,
    descending: bool,
) -> (Vec<f64>, Vec<i128>) {
    let n = shape[dim];
    let inner: usize = shape[dim + 1..].iter().product();
    let outer: usize = shape[..dim].iter().product();
    let mut sorted = values.to_vec();
    let mut indices = vec![0i128; values.len()];
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| (o * n + k) * inner + i;
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| {
                let ord = cmp_nan_last(values[at(a)], values[at(b)]);
                if descending { ord.reverse() } else { ord }
            });
            for (k, &src) in order.iter().enumerate() {
                sorted[at(k)] = values[at(src)];
                indices[at(k)] = src as i128;
            }
        }
    }
    (sorted, indices)
}

/// Asserts the values are bit for bit the expected ones (the sign of zero included), any NaN
/// matching any NaN.
fn assert_same_values(what: &str, got: &[f64], expected: &[f64]) {
    assert_eq!(got.len(), expected.len(), "{what}: lengths differ");
    let first = got
        .iter()
        .zip(expected)
        .position(|(&g, &e)| !(g.is_nan() && e.is_nan()) && g.to_bits() != e.to_bits());
    if let Some(i) = first {
        panic!(
            "{what}: [{i}] got {}, expected {} (got {:?}, expected {:?})",
            got[i],
            expected[i],
            &got[i.saturating_sub(3)..(i + 4).min(got.len())],
            &expected[i.saturating_sub(3)..(i + 4).min(got.len())]
        );
    }
}

/// The widest index dtype the device computes with (its default int dtype).
fn index_dtype(device: &CubeDevice) -> DType {
    if device_dtype_usage(device, DType::I64).arithmetic {
        DType::I64
    } else {
        DType::I32
    }
}

/// Sorts `input` (holding `values`, row-major) along `dim` every way and checks values and
/// indices against the reference; `sort` and `argsort` must agree with `sort_with_indices`.
fn check(input: CubeTensor, values: &[f64], dim: usize, descending: bool, index: DType) {
    let shape = input.shape().dims.clone();
    let dtype = input.dtype();
    let what = format!("{dtype} {shape:?} dim {dim} descending {descending}");
    let (expected, expected_indices) = reference(values, &shape, dim, descending);
    let (v, i) = sort_with_indices(input.clone(), dim, descending, index);
    assert_same_values(
        &format!("sort_with_indices values {what}"),
        &read(v, &shape, dtype),
        &expected,
    );
    assert_eq!(
        read_ints(i, &shape, index),
        expected_indices,
        "sort_with_indices indices {what}"
    );
    let v = sort(input.clone(), dim, descending);
    assert_same_values(&format!("sort {what}"), &read(v, &shape, dtype), &expected);
    let i = argsort(input, dim, descending, index);
    assert_eq!(
        read_ints(i, &shape, index),
        expected_indices,
        "argsort {what}"
    );
}

/// `count` small integers (many ties) valid in `dtype`: 0/1 for booleans, `0..=4` unsigned,
/// `-3..=3` otherwise.
fn tie_values(seed: u64, count: usize, dtype: DType) -> Vec<f64> {
    let (low, high) = if dtype.is_bool() {
        (0, 1)
    } else if dtype.is_unsigned_int() {
        (0, 4)
    } else {
        (-3, 3)
    };
    random_ints(seed, count, DType::I64, low, high)
        .into_iter()
        .map(|v| v as f64)
        .collect()
}

#[test]
fn every_dtype_every_dim_both_directions() {
    let device = device_or_skip!();
    let index = index_dtype(&device);
    let shape = [3, 5, 7];
    for dtype in arithmetic_dtypes(&device) {
        let values = tie_values(1, 105, dtype);
        for dim in 0..3 {
            for descending in [false, true] {
                check(
                    tensor(&device, &values, &shape, dtype),
                    &values,
                    dim,
                    descending,
                    index,
                );
            }
        }
    }
}

#[test]
fn floats_with_nan_infinities_and_signed_zeros() {
    let device = device_or_skip!();
    let index = index_dtype(&device);
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    let specials = [
        nan, 1.0, -inf, 0.0, -0.0, inf, nan, -1.0, 0.0, -0.0, 2.5, -inf, nan, inf,
    ];
    for dtype in float_dtypes(&device) {
        // A line with every special value, then random lines with specials spliced in.
        check(
            tensor(&device, &specials, &[14], dtype),
            &specials,
            0,
            false,
            index,
        );
        check(
            tensor(&device, &specials, &[14], dtype),
            &specials,
            0,
            true,
            index,
        );
        let shape = [4, 6, 9];
        let mut values = random_values(&mut rng(2), &shape, dtype, -3.0, 3.0);
        for (k, v) in values.iter_mut().enumerate().filter(|(k, _)| k % 5 == 0) {
            *v = specials[k % specials.len()];
        }
        for dim in 0..3 {
            for descending in [false, true] {
                check(
                    tensor(&device, &values, &shape, dtype),
                    &values,
                    dim,
                    descending,
                    index,
                );
            }
        }
    }
}

#[test]
fn rows_of_every_length_class() {
    let device = device_or_skip!();
    let index = index_dtype(&device);
    // Length 1, powers of two and not, several rows per block, rows longer than one block
    // (these take the one-launch-per-stage path), a single long row.
    let shapes: [&[usize]; 8] = [
        &[4, 1, 3],
        &[2, 2],
        &[5, 16],
        &[300, 3],
        &[3, 1000],
        &[2, 1024],
        &[2, 2049],
        &[5000],
    ];
    for (seed, shape) in shapes.into_iter().enumerate() {
        let count = shape.iter().product();
        for dtype in [DType::F32, DType::I32] {
            let values = if dtype.is_float() {
                random_values(&mut rng(seed as u64), shape, dtype, -100.0, 100.0)
            } else {
                tie_values(seed as u64, count, dtype)
            };
            for dim in 0..shape.len() {
                for descending in [false, true] {
                    check(
                        tensor(&device, &values, shape, dtype),
                        &values,
                        dim,
                        descending,
                        index,
                    );
                }
            }
        }
    }
}

#[test]
fn permuted_sliced_and_broadcast_inputs() {
    let device = device_or_skip!();
    let index = index_dtype(&device);
    let values = tie_values(4, 60, DType::F32);
    for dim in 0..3 {
        for descending in [false, true] {
            // [3, 4, 5] permuted to [5, 3, 4]: the reference sorts its row-major copy.
            let permuted = tensor(&device, &values, &[3, 4, 5], DType::F32).permute(&[2, 0, 1]);
            let copy = read(permuted.clone(), &[5, 3, 4], DType::F32);
            check(permuted, &copy, dim, descending, index);
            if dim < 2 {
                // Rows 1..3 and columns 2..7 of a [4, 15] tensor, transposed.
                let sliced = tensor(&device, &values, &[4, 15], DType::F32)
                    .slice(&[1..3, 2..7])
                    .swap_dims(0, 1);
                let copy = read(sliced.clone(), &[5, 2], DType::F32);
                check(sliced, &copy, dim, descending, index);
            }
        }
    }
    // Broadcast along the sorted dim (zero stride): all ties, indices in order either way.
    let row = [2.0, -1.0, 2.0, 0.0, 5.0];
    for descending in [false, true] {
        for dim in 0..2 {
            let expanded = tensor(&device, &row, &[1, 5], DType::I32).expand(Shape::new([4, 5]));
            let copy = read(expanded.clone(), &[4, 5], DType::I32);
            check(expanded, &copy, dim, descending, index);
        }
    }
}

#[test]
fn extreme_integers_are_exact() {
    let device = device_or_skip!();
    for dtype in int_dtypes(&device) {
        let bits = 8 * dtype.size() as u32;
        let (min, max) = if dtype.is_signed_int() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        let mut values = vec![max, min, 0, max - 1, min + 1, max, 1, min];
        values.extend(random_ints(5, 24, dtype, min, max));
        let n = values.len();
        for descending in [false, true] {
            let mut expected = values.clone();
            expected.sort_by(|a, b| if descending { b.cmp(a) } else { a.cmp(b) });
            let mut order: Vec<i128> = (0..n as i128).collect();
            order.sort_by_key(|&i| {
                let v = values[i as usize];
                if descending { -v } else { v }
            });
            let input = int_tensor(&device, &values, &[n], dtype);
            let (v, i) = sort_with_indices(input, 0, descending, DType::I32);
            assert_eq!(
                read_ints(v, &[n], dtype),
                expected,
                "{dtype} descending {descending}"
            );
            assert_eq!(
                read_ints(i, &[n], DType::I32),
                order,
                "{dtype} descending {descending}"
            );
        }
    }
}

#[test]
fn every_index_dtype() {
    let device = device_or_skip!();
    let values = tie_values(6, 40, DType::F32);
    for index in int_dtypes(&device) {
        check(
            tensor(&device, &values, &[4, 10], DType::F32),
            &values,
            1,
            true,
            index,
        );
        check(
            tensor(&device, &values, &[4, 10], DType::F32),
            &values,
            0,
            false,
            index,
        );
    }
}

#[test]
fn empty_tensors() {
    let device = device_or_skip!();
    let index = index_dtype(&device);
    for (shape, dim) in [
        (&[0, 3][..], 0),
        (&[0, 3], 1),
        (&[2, 0, 4], 1),
        (&[2, 0, 4], 2),
    ] {
        for dtype in [DType::F32, DType::I32] {
            let input = || tensor(&device, &[], shape, dtype);
            let (v, i) = sort_with_indices(input(), dim, false, index);
            assert_eq!(read(v, shape, dtype), Vec::<f64>::new());
            assert_eq!(read_ints(i, shape, index), Vec::<i128>::new());
            assert_eq!(
                read(sort(input(), dim, true), shape, dtype),
                Vec::<f64>::new()
            );
            let i = argsort(input(), dim, true, index);
            assert_eq!(read_ints(i, shape, index), Vec::<i128>::new());
        }
    }
}

#[test]
fn misuse_names_the_op() {
    let device = device_or_skip!();
    let t = || tensor(&device, &[1.0; 6], &[2, 3], DType::F32);
    expect_panic(&["sort:", "dim 2", "[2, 3]"], || {
        sort(t(), 2, false);
    });
    expect_panic(&["argsort:", "dim 0", "rank 0"], || {
        argsort(
            tensor(&device, &[1.0], &[], DType::F32),
            0,
            false,
            DType::I32,
        );
    });
    expect_panic(&["sort_with_indices:", "integer dtype", "f32"], || {
        sort_with_indices(t(), 1, false, DType::F32);
    });
}
