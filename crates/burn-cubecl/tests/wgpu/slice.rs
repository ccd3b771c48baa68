//! Stepped slices (views or copies), flips and slice assignment: every stored dtype, negative
//! bounds and steps, permuted tensors, in-place and shared results.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{coords, random_values, read, rng, tensor};
use crate::index::{expect_panic, make, offset};
use burn_backend::{DType, Slice};
use burn_cubecl::kernel::{flip, slice, slice_assign};

const SHAPE: [usize; 3] = [4, 6, 5];

/// The slicing expressions tested on [`SHAPE`].
fn cases() -> Vec<Vec<Slice>> {
    vec![
        vec![],
        vec![Slice::new(1, Some(3), 1)],
        vec![Slice::new(-3, None, 1), Slice::new(1, Some(-1), 2)],
        vec![Slice::new(0, None, -1)],
        vec![Slice::full(), Slice::new(0, Some(5), -2)],
        vec![
            Slice::new(-1, None, -3),
            Slice::new(0, None, 3),
            Slice::new(1, Some(4), -1),
        ],
        vec![Slice::new(-10, Some(100), 2), Slice::index(-1)],
        vec![Slice::full(), Slice::full(), Slice::new(-2, None, -1)],
        vec![Slice::new(2, Some(2), 1)],
        vec![Slice::full(), Slice::new(4, Some(1), -1)],
    ]
}

/// The indices a slice takes from a dim of `size`, in order.
fn picks(slice: &Slice, size: usize) -> Vec<usize> {
    let range = slice.to_range(size);
    let step = slice.step.unsigned_abs();
    if slice.step > 0 {
        range.step_by(step).collect()
    } else {
        range.rev().step_by(step).collect()
    }
}

/// The region's shape and, for each of its elements in row-major order, the row-major index
/// of the element of `shape` it is.
fn region(slices: &[Slice], shape: &[usize]) -> (Vec<usize>, Vec<usize>) {
    let picks: Vec<Vec<usize>> = (0..shape.len())
        .map(|d| match slices.get(d) {
            Some(s) => picks(s, shape[d]),
            None => (0..shape[d]).collect(),
        })
        .collect();
    let region_shape: Vec<usize> = picks.iter().map(Vec::len).collect();
    let count = region_shape.iter().product();
    let positions = (0..count)
        .map(|i| {
            let c: Vec<usize> = coords(i, &region_shape)
                .iter()
                .enumerate()
                .map(|(d, &c)| picks[d][c])
                .collect();
            offset(&c, shape)
        })
        .collect();
    (region_shape, positions)
}

fn values(dtype: DType, count: usize, seed: u64) -> Vec<f64> {
    let high = if dtype.is_bool() { 2.0 } else { 100.0 };
    random_values(&mut rng(seed), &[count], dtype, 0.0, high)
}

#[test]
fn slices_every_dtype_with_steps_and_layouts() {
    let device = device_or_skip!();
    let n: usize = SHAPE.iter().product();
    for dtype in arithmetic_dtypes(&device) {
        let x = values(dtype, n, 1);
        for slices in cases() {
            let (shape, positions) = region(&slices, &SHAPE);
            let expected: Vec<f64> = positions.iter().map(|&p| x[p]).collect();
            for permuted in [false, true] {
                let t = make(&device, &x, &SHAPE, dtype, permuted);
                assert_eq!(
                    read(slice(t, &slices), &shape, dtype),
                    expected,
                    "slice {dtype} {slices:?} permuted {permuted}"
                );
            }
        }
    }
}

#[test]
fn positive_steps_are_views_when_aligned() {
    let device = device_or_skip!();
    let x: Vec<f64> = (0..16 * 64).map(f64::from).collect();
    let t = tensor(&device, &x, &[16, 64], DType::F32);
    // Rows 4..8, every other column: 1024 bytes in, so a view with a doubled stride.
    let view = slice(
        t.clone(),
        &[Slice::new(4, Some(8), 1), Slice::new(0, None, 2)],
    );
    assert_eq!(view.buffer_id(), t.buffer_id());
    assert_eq!(view.strides(), &[64, 2]);
    let expected: Vec<f64> = (0..4 * 32)
        .map(|i| x[(4 + i / 32) * 64 + 2 * (i % 32)])
        .collect();
    assert_eq!(read(view, &[4, 32], DType::F32), expected);
    // A negative step copies.
    let reversed = slice(t.clone(), &[Slice::new(0, None, -1)]);
    assert_ne!(reversed.buffer_id(), t.buffer_id());
    assert!(reversed.is_contiguous());
    let expected: Vec<f64> = (0..16 * 64)
        .map(|i| x[(15 - i / 64) * 64 + i % 64])
        .collect();
    assert_eq!(read(reversed, &[16, 64], DType::F32), expected);
    // A view of a view, then an unaligned start (copied).
    let inner = slice(
        slice(t.clone(), &[Slice::new(8, None, 1)]),
        &[Slice::new(1, None, 3), Slice::new(3, Some(-3), 5)],
    );
    let (shape, positions) = region(
        &[Slice::new(1, None, 3), Slice::new(3, Some(-3), 5)],
        &[8, 64],
    );
    let expected: Vec<f64> = positions.iter().map(|&p| x[8 * 64 + p]).collect();
    assert_eq!(read(inner, &shape, DType::F32), expected);
}

#[test]
fn flips_every_dtype_and_layout() {
    let device = device_or_skip!();
    let n: usize = SHAPE.iter().product();
    let axes_cases: [&[usize]; 6] = [&[], &[0], &[2], &[0, 1], &[2, 0, 1], &[1, 2]];
    for dtype in arithmetic_dtypes(&device) {
        let x = values(dtype, n, 2);
        for axes in axes_cases {
            let expected: Vec<f64> = (0..n)
                .map(|i| {
                    let mut c = coords(i, &SHAPE);
                    for &a in axes {
                        c[a] = SHAPE[a] - 1 - c[a];
                    }
                    x[offset(&c, &SHAPE)]
                })
                .collect();
            for permuted in [false, true] {
                let t = make(&device, &x, &SHAPE, dtype, permuted);
                assert_eq!(
                    read(flip(t, axes), &SHAPE, dtype),
                    expected,
                    "flip {dtype} {axes:?} permuted {permuted}"
                );
            }
        }
    }
    // Flipping dims of size 1 changes nothing: the same tensor.
    let t = tensor(&device, &[1.0, 2.0], &[1, 2, 1], DType::F32);
    let id = t.buffer_id();
    let out = flip(t, &[0, 2]);
    assert_eq!(out.buffer_id(), id);
    assert_eq!(read(out, &[1, 2, 1], DType::F32), vec![1.0, 2.0]);
}

#[test]
fn slice_assign_every_dtype_in_place_and_shared() {
    let device = device_or_skip!();
    let n: usize = SHAPE.iter().product();
    for dtype in arithmetic_dtypes(&device) {
        let x = values(dtype, n, 3);
        for (case, slices) in cases().into_iter().enumerate() {
            let (shape, positions) = region(&slices, &SHAPE);
            let v = values(dtype, positions.len(), 10 + case as u64);
            let mut expected = x.clone();
            for (&p, &value) in positions.iter().zip(&v) {
                expected[p] = value;
            }
            for permuted in [false, true] {
                // Unique: written into the tensor's own (possibly permuted) buffer.
                let t = make(&device, &x, &SHAPE, dtype, permuted);
                let id = t.buffer_id();
                let value = make(&device, &v, &shape, dtype, !permuted);
                let out = slice_assign(t, &slices, value);
                assert_eq!(out.buffer_id(), id, "in place {dtype} {slices:?}");
                assert_eq!(
                    read(out, &SHAPE, dtype),
                    expected,
                    "slice_assign {dtype} {slices:?} permuted {permuted}"
                );
                // Shared: a copy, the input untouched.
                let t = make(&device, &x, &SHAPE, dtype, permuted);
                let keep = t.clone();
                let value = make(&device, &v, &shape, dtype, permuted);
                let out = slice_assign(t, &slices, value);
                if !positions.is_empty() {
                    assert_ne!(out.buffer_id(), keep.buffer_id());
                }
                assert_eq!(
                    read(out, &SHAPE, dtype),
                    expected,
                    "slice_assign shared {dtype} {slices:?} permuted {permuted}"
                );
                assert_eq!(read(keep, &SHAPE, dtype), x, "shared input untouched");
            }
        }
    }
}

#[test]
fn slice_misuse_names_the_op() {
    let device = device_or_skip!();
    let t = || tensor(&device, &[0.0; 6], &[2, 3], DType::F32);
    expect_panic(&["slice:", "step must not be 0"], || {
        slice(
            t(),
            &[Slice {
                start: 0,
                end: None,
                step: 0,
            }],
        );
    });
    expect_panic(&["slice:", "3 slices", "rank 2"], || {
        slice(t(), &[Slice::full(); 3]);
    });
    expect_panic(
        &["slice_assign:", "value of shape [2, 3]", "[1, 3]"],
        || {
            slice_assign(t(), &[Slice::new(0, Some(1), 1)], t());
        },
    );
    expect_panic(&["slice_assign:", "dtype i32", "f32"], || {
        let v = tensor(&device, &[0.0; 6], &[2, 3], DType::I32);
        slice_assign(t(), &[], v);
    });
    expect_panic(&["flip:", "axis 2", "rank 2"], || {
        flip(t(), &[2]);
    });
    expect_panic(&["flip:", "axis 1 given twice"], || {
        flip(t(), &[1, 0, 1]);
    });
}
