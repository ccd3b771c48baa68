//! Reading by index tensors (gather, select): every stored dtype, every index dtype the device
//! stores, duplicates, permuted and strided operands, out-of-range indices, empty shapes, and
//! the misuse of every indexing op. Also the helpers the other indexing tests share.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{coords, random_values, read, rng, strides, tensor};
use burn_backend::{DType, IndexingUpdateOp, Slice};
use burn_cubecl::dtype::device_dtype_usage;
use burn_cubecl::kernel::{gather, scatter, select, select_add, slice};
use burn_cubecl::{CubeDevice, CubeTensor};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Every integer dtype the device stores, usable as indices.
pub fn index_dtypes(device: &CubeDevice) -> Vec<DType> {
    [
        DType::I32,
        DType::I64,
        DType::U32,
        DType::I16,
        DType::U16,
        DType::I8,
        DType::U8,
        DType::U64,
    ]
    .into_iter()
    .filter(|&d| device_dtype_usage(device, d).storage)
    .collect()
}

/// I32, and I64 where the device stores it.
pub fn main_index_dtypes(device: &CubeDevice) -> Vec<DType> {
    index_dtypes(device)
        .into_iter()
        .filter(|d| matches!(d, DType::I32 | DType::I64))
        .collect()
}

/// The row-major index of `coords` in `shape`.
pub fn offset(coords: &[usize], shape: &[usize]) -> usize {
    coords.iter().zip(strides(shape)).map(|(c, s)| c * s).sum()
}

/// A device tensor of logical `shape` holding `values` (row-major) but stored with its dims
/// in reverse order, i.e. the permuted view of a tensor of the reversed shape.
pub fn reversed_layout(
    device: &CubeDevice,
    values: &[f64],
    shape: &[usize],
    dtype: DType,
) -> CubeTensor {
    let rank = shape.len();
    let stored_shape: Vec<usize> = shape.iter().rev().copied().collect();
    let stored: Vec<f64> = (0..values.len())
        .map(|i| {
            let c: Vec<usize> = coords(i, &stored_shape).into_iter().rev().collect();
            values[offset(&c, shape)]
        })
        .collect();
    let axes: Vec<usize> = (0..rank).rev().collect();
    tensor(device, &stored, &stored_shape, dtype).permute(&axes)
}

/// `values` as a device tensor, contiguous or through [`reversed_layout`].
pub fn make(
    device: &CubeDevice,
    values: &[f64],
    shape: &[usize],
    dtype: DType,
    permuted: bool,
) -> CubeTensor {
    if permuted {
        reversed_layout(device, values, shape, dtype)
    } else {
        tensor(device, values, shape, dtype)
    }
}

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

/// Random indices in `0..size`.
pub fn random_indices(seed: u64, count: usize, size: usize) -> Vec<f64> {
    random_values(&mut rng(seed), &[count], DType::I64, 0.0, size as f64)
}

/// Values for `update` on `dtype` that keep every result exact: small integers (in floats
/// too), multipliers in {1, 2} (or {-1, 1, 2} where signed), booleans 0/1.
pub fn update_values(update: IndexingUpdateOp, dtype: DType, count: usize, seed: u64) -> Vec<f64> {
    let signed = dtype.is_float() || dtype.is_signed_int();
    let (low, high) = match update {
        _ if dtype.is_bool() => (0.0, 2.0),
        IndexingUpdateOp::Mul if signed => (-1.0, 3.0),
        IndexingUpdateOp::Mul => (1.0, 3.0),
        _ if signed => (-4.0, 5.0),
        _ => (0.0, 5.0),
    };
    let mut values: Vec<f64> = random_values(&mut rng(seed), &[count], dtype, low, high)
        .into_iter()
        .map(f64::floor)
        .collect();
    if update == IndexingUpdateOp::Mul && signed {
        values
            .iter_mut()
            .filter(|v| **v == 0.0)
            .for_each(|v| *v = 2.0);
    }
    values
}

#[test]
fn gather_every_dtype_dim_and_layout() {
    let device = device_or_skip!();
    let shape = [3, 5, 4];
    let n: usize = shape.iter().product();
    for dtype in arithmetic_dtypes(&device) {
        let x = update_values(IndexingUpdateOp::Add, dtype, n, 1);
        let index_dtypes = if dtype == DType::F32 {
            index_dtypes(&device)
        } else {
            main_index_dtypes(&device)
        };
        for dim in 0..3 {
            // Indices smaller than the tensor outside `dim`, longer along it.
            let mut idx_shape = vec![2, 3, 3];
            idx_shape[dim] = 7;
            let m: usize = idx_shape.iter().product();
            let idx = random_indices(dim as u64, m, shape[dim]);
            let expected: Vec<f64> = (0..m)
                .map(|i| {
                    let mut c = coords(i, &idx_shape);
                    c[dim] = idx[i] as usize;
                    x[offset(&c, &shape)]
                })
                .collect();
            for &index_dtype in &index_dtypes {
                for permuted in [false, true] {
                    let t = make(&device, &x, &shape, dtype, permuted);
                    let i = make(&device, &idx, &idx_shape, index_dtype, permuted);
                    assert_eq!(
                        read(gather(dim, t, i), &idx_shape, dtype),
                        expected,
                        "gather {dtype} dim {dim} indices {index_dtype} permuted {permuted}"
                    );
                }
            }
        }
    }
}

#[test]
fn gather_out_of_range_fails_at_the_next_read_and_empty_shapes() {
    let device = device_or_skip!();
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    for index_dtype in index_dtypes(&device) {
        let mut idx = vec![2.0, 3.0, 0.0, 100.0];
        if index_dtype.is_signed_int() {
            idx[2] = -1.0;
        }
        if index_dtype == DType::I64 || index_dtype == DType::U64 {
            // Would alias index 1 if truncated to 32 bits.
            idx[3] = 4294967297.0;
        }
        let t = tensor(&device, &x, &[2, 3], DType::F32);
        let i = tensor(&device, &idx, &[2, 2], index_dtype);
        let error = gather(1, t, i)
            .into_data_sync()
            .expect_err("an out-of-range index must fail the read");
        assert!(
            error
                .to_string()
                .contains("gather: an index is out of range for dim 1 of size 3"),
            "{index_dtype}: {error}"
        );
        // The error is reported once; the device stays usable.
        let t = tensor(&device, &x, &[2, 3], DType::F32);
        let i = tensor(&device, &[2.0, 0.0], &[2, 1], index_dtype);
        assert_eq!(read(gather(1, t, i), &[2, 1], DType::F32), vec![3.0, 4.0]);
    }
    // No indices.
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let i = tensor(&device, &[], &[2, 0], DType::I32);
    assert_eq!(
        read(gather(1, t, i), &[2, 0], DType::F32),
        Vec::<f64>::new()
    );
    // No elements to index: every index is out of range.
    let t = tensor(&device, &[], &[2, 0], DType::I32);
    let i = tensor(&device, &[0.0, 1.0], &[2, 1], DType::I32);
    assert!(gather(1, t, i).into_data_sync().is_err());
}

#[test]
fn select_every_dtype_with_duplicates_and_strided_indices() {
    let device = device_or_skip!();
    let shape = [4, 3, 5];
    let n: usize = shape.iter().product();
    for dtype in arithmetic_dtypes(&device) {
        let x = update_values(IndexingUpdateOp::Add, dtype, n, 2);
        for dim in 0..3 {
            // 14 indices, every other one used: a strided 1-D view, with duplicates.
            let all = random_indices(10 + dim as u64, 14, shape[dim]);
            let idx: Vec<f64> = all.iter().step_by(2).copied().collect();
            let mut out_shape = shape.to_vec();
            out_shape[dim] = idx.len();
            let expected: Vec<f64> = (0..out_shape.iter().product())
                .map(|i| {
                    let mut c = coords(i, &out_shape);
                    c[dim] = idx[c[dim]] as usize;
                    x[offset(&c, &shape)]
                })
                .collect();
            for index_dtype in main_index_dtypes(&device) {
                for permuted in [false, true] {
                    let t = make(&device, &x, &shape, dtype, permuted);
                    let i = slice(
                        tensor(&device, &all, &[14], index_dtype),
                        &[Slice::new(0, None, 2)],
                    );
                    assert_eq!(i.strides(), &[2]);
                    assert_eq!(
                        read(select(t, dim, i), &out_shape, dtype),
                        expected,
                        "select {dtype} dim {dim} {index_dtype} permuted {permuted}"
                    );
                }
            }
        }
        // No indices.
        let t = tensor(&device, &x, &shape, dtype);
        let i = tensor(&device, &[], &[0], DType::I32);
        assert_eq!(read(select(t, 1, i), &[4, 0, 5], dtype), Vec::<f64>::new());
    }
}

#[test]
fn index_misuse_names_the_op() {
    let device = device_or_skip!();
    let t = || tensor(&device, &[0.0; 6], &[2, 3], DType::F32);
    let i2 = || tensor(&device, &[0.0; 4], &[2, 2], DType::I32);
    let i1 = || tensor(&device, &[0.0; 2], &[2], DType::I32);
    expect_panic(&["gather:", "integer indices", "f32"], || {
        gather(1, t(), t());
    });
    expect_panic(&["gather:", "dim 2", "rank 2"], || {
        gather(2, t(), i2());
    });
    expect_panic(&["gather:", "[2]", "do not fit"], || {
        gather(0, t(), i1());
    });
    expect_panic(&["scatter:", "dtype i32", "f32"], || {
        let v = tensor(&device, &[0.0; 4], &[2, 2], DType::I32);
        scatter(1, t(), i2(), v, IndexingUpdateOp::Add);
    });
    expect_panic(&["scatter:", "do not cover"], || {
        let v = tensor(&device, &[0.0; 2], &[2, 1], DType::F32);
        scatter(1, t(), i2(), v, IndexingUpdateOp::Add);
    });
    expect_panic(&["select:", "1-D indices", "[2, 2]"], || {
        select(t(), 0, i2());
    });
    expect_panic(&["select_add:", "values of shape", "[2, 3]"], || {
        select_add(t(), 1, i1(), t(), IndexingUpdateOp::Add);
    });
    expect_panic(&["select_add:", "dim 5"], || {
        let v = tensor(&device, &[0.0; 4], &[2, 2], DType::F32);
        select_add(t(), 5, i1(), v, IndexingUpdateOp::Add);
    });
}
