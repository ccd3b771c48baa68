//! Masking (mask_where, mask_fill): every stored dtype, broadcasting of all operands, permuted
//! operands, both bool stores for the mask, in-place and shared results.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{broadcast_index, coords, random_values, read, rng, round_to, tensor};
use crate::index::{expect_panic, make};
use burn_backend::{BoolStore, DType, Scalar, Shape};
use burn_cubecl::CubeDevice;
use burn_cubecl::dtype::{bool_dtype, device_dtype_usage};
use burn_cubecl::kernel::{mask_fill, mask_where};

/// The bool stores the device keeps (its default first).
fn mask_dtypes(device: &CubeDevice) -> Vec<DType> {
    let default = bool_dtype(&device.client());
    let mut dtypes = vec![default];
    for store in [BoolStore::U8, BoolStore::U32] {
        let dtype = DType::Bool(store);
        let storable = match store {
            BoolStore::U8 => device_dtype_usage(device, DType::U8).storage,
            _ => true,
        };
        if dtype != default && storable {
            dtypes.push(dtype);
        }
    }
    dtypes
}

/// The broadcast shape of several shapes.
fn broadcast(shapes: &[&[usize]]) -> Vec<usize> {
    shapes
        .iter()
        .fold(Shape::from(Vec::<usize>::new()), |acc, s| {
            acc.broadcast(&Shape::from(s.to_vec())).unwrap()
        })
        .to_vec()
}

const CASES: [(&[usize], &[usize], &[usize]); 5] = [
    (&[4, 6], &[4, 6], &[4, 6]),
    (&[2, 3], &[3], &[2, 1]),
    (&[1], &[2, 5], &[5]),
    (&[3, 1, 4], &[5, 1], &[]),
    (&[2, 3, 8], &[2, 3, 8], &[8]),
];

#[test]
fn mask_where_every_dtype_broadcasting_and_layout() {
    let device = device_or_skip!();
    for dtype in arithmetic_dtypes(&device) {
        for mask_dtype in mask_dtypes(&device) {
            for (case, (ts, ms, vs)) in CASES.iter().enumerate() {
                let mut r = rng(case as u64);
                let count = |s: &[usize]| s.iter().product::<usize>();
                let (low, high) = if dtype.is_bool() {
                    (0.0, 2.0)
                } else {
                    (0.0, 9.0)
                };
                let x = random_values(&mut r, &[count(ts)], dtype, low, high);
                let m = random_values(&mut r, &[count(ms)], DType::I32, 0.0, 2.0);
                let v = random_values(&mut r, &[count(vs)], dtype, low, high);
                let shape = broadcast(&[ts, ms, vs]);
                let expected: Vec<f64> = (0..count(&shape))
                    .map(|i| {
                        let c = coords(i, &shape);
                        if m[broadcast_index(&c, ms)] != 0.0 {
                            v[broadcast_index(&c, vs)]
                        } else {
                            x[broadcast_index(&c, ts)]
                        }
                    })
                    .collect();
                for permuted in [false, true] {
                    let out = mask_where(
                        make(&device, &x, ts, dtype, permuted),
                        make(&device, &m, ms, mask_dtype, permuted),
                        make(&device, &v, vs, dtype, !permuted),
                    );
                    assert_eq!(
                        read(out, &shape, dtype),
                        expected,
                        "mask_where {dtype} mask {mask_dtype} {ts:?} {ms:?} {vs:?} permuted {permuted}"
                    );
                }
            }
        }
    }
}

#[test]
fn mask_fill_every_dtype_broadcasting_and_layout() {
    let device = device_or_skip!();
    for dtype in arithmetic_dtypes(&device) {
        for mask_dtype in mask_dtypes(&device) {
            for (case, (ts, ms, _)) in CASES.iter().enumerate() {
                let mut r = rng(10 + case as u64);
                let count = |s: &[usize]| s.iter().product::<usize>();
                let (low, high) = if dtype.is_bool() {
                    (0.0, 2.0)
                } else {
                    (0.0, 9.0)
                };
                let x = random_values(&mut r, &[count(ts)], dtype, low, high);
                let m = random_values(&mut r, &[count(ms)], DType::I32, 0.0, 2.0);
                let value = if dtype.is_bool() {
                    1.0
                } else if dtype.is_float() {
                    -2.5
                } else if dtype.is_signed_int() {
                    -3.0
                } else {
                    7.0
                };
                let filled = round_to(&[value], dtype)[0];
                let shape = broadcast(&[ts, ms]);
                let expected: Vec<f64> = (0..count(&shape))
                    .map(|i| {
                        let c = coords(i, &shape);
                        if m[broadcast_index(&c, ms)] != 0.0 {
                            filled
                        } else {
                            x[broadcast_index(&c, ts)]
                        }
                    })
                    .collect();
                for permuted in [false, true] {
                    let out = mask_fill(
                        make(&device, &x, ts, dtype, permuted),
                        make(&device, &m, ms, mask_dtype, !permuted),
                        Scalar::Float(value),
                    );
                    assert_eq!(
                        read(out, &shape, dtype),
                        expected,
                        "mask_fill {dtype} mask {mask_dtype} {ts:?} {ms:?} permuted {permuted}"
                    );
                }
            }
        }
    }
}

#[test]
fn in_place_and_shared_results_agree() {
    let device = device_or_skip!();
    let mask_dtype = bool_dtype(&device.client());
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let m = [1.0, 0.0, 1.0];
    let v = [-1.0, -2.0];
    let expected = vec![-1.0, 2.0, -1.0, -2.0, 5.0, -2.0];
    let mask = || tensor(&device, &m, &[3], mask_dtype);
    let value = || tensor(&device, &v, &[2, 1], DType::F32);

    // Unique tensor: written in place.
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let id = t.buffer_id();
    let out = mask_where(t, mask(), value());
    assert_eq!(out.buffer_id(), id);
    assert_eq!(read(out, &[2, 3], DType::F32), expected);
    // Shared tensor: a new buffer, the input untouched.
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let keep = t.clone();
    let out = mask_where(t, mask(), value());
    assert_ne!(out.buffer_id(), keep.buffer_id());
    assert_eq!(read(out, &[2, 3], DType::F32), expected);
    assert_eq!(read(keep, &[2, 3], DType::F32), x);
    // A unique full-size value may take the output.
    let full_value = tensor(
        &device,
        &[-1.0, -1.0, -1.0, -2.0, -2.0, -2.0],
        &[2, 3],
        DType::F32,
    );
    let id = full_value.buffer_id();
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let keep = t.clone();
    let out = mask_where(t, mask(), full_value);
    assert_eq!(out.buffer_id(), id);
    assert_eq!(read(out, &[2, 3], DType::F32), expected);
    drop(keep);

    // mask_fill in place and shared.
    let expected = vec![0.0, 2.0, 0.0, 0.0, 5.0, 0.0];
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let id = t.buffer_id();
    let out = mask_fill(t, mask(), Scalar::Int(0));
    assert_eq!(out.buffer_id(), id);
    assert_eq!(read(out, &[2, 3], DType::F32), expected);
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let keep = t.clone();
    let out = mask_fill(t, mask(), Scalar::Int(0));
    assert_eq!(read(out, &[2, 3], DType::F32), expected);
    assert_eq!(read(keep, &[2, 3], DType::F32), x);
}

#[test]
fn empty_masks() {
    let device = device_or_skip!();
    let mask_dtype = bool_dtype(&device.client());
    let t = tensor(&device, &[], &[0, 3], DType::I32);
    let m = tensor(&device, &[1.0, 0.0, 1.0], &[3], mask_dtype);
    let out = mask_fill(t, m, Scalar::Int(4));
    assert_eq!(read(out, &[0, 3], DType::I32), Vec::<f64>::new());
    let t = tensor(&device, &[1.0, 2.0], &[2, 1], DType::F32);
    let m = tensor(&device, &[], &[0], mask_dtype);
    let v = tensor(&device, &[3.0], &[1], DType::F32);
    let out = mask_where(t, m, v);
    assert_eq!(read(out, &[2, 0], DType::F32), Vec::<f64>::new());
}

#[test]
fn mask_misuse_names_the_op() {
    let device = device_or_skip!();
    let mask_dtype = bool_dtype(&device.client());
    let t = || tensor(&device, &[0.0; 6], &[2, 3], DType::F32);
    let m = || tensor(&device, &[1.0; 6], &[2, 3], mask_dtype);
    expect_panic(&["mask_where:", "bool mask", "f32"], || {
        mask_where(t(), t(), t());
    });
    expect_panic(&["mask_where:", "dtype i32", "f32"], || {
        let v = tensor(&device, &[0.0; 6], &[2, 3], DType::I32);
        mask_where(t(), m(), v);
    });
    expect_panic(&["mask_where:", "broadcast"], || {
        let v = tensor(&device, &[0.0; 4], &[4], DType::F32);
        mask_where(t(), m(), v);
    });
    expect_panic(&["mask_fill:", "bool mask", "i32"], || {
        let not_bool = tensor(&device, &[1.0; 6], &[2, 3], DType::I32);
        mask_fill(t(), not_bool, Scalar::Int(1));
    });
    expect_panic(&["mask_fill:", "broadcast"], || {
        let mask = tensor(&device, &[1.0; 2], &[2], mask_dtype);
        mask_fill(t(), mask, Scalar::Int(1));
    });
}
