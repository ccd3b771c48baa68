//! Writing by index tensors (scatter, select_add): every stored dtype and update op, I32 and
//! I64 indices, duplicates, permuted operands, out-of-range indices, NaN, in-place and shared
//! results, against a float64 host reference applied in the order of the indices.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{coords, read, tensor};
use crate::index::{main_index_dtypes, make, offset, random_indices, update_values};
use burn_backend::{DType, IndexingUpdateOp};
use burn_cubecl::CubeTensor;
use burn_cubecl::kernel::{scatter, select_add};

const UPDATES: [IndexingUpdateOp; 5] = [
    IndexingUpdateOp::Add,
    IndexingUpdateOp::Assign,
    IndexingUpdateOp::Mul,
    IndexingUpdateOp::Max,
    IndexingUpdateOp::Min,
];

/// The host reference of an update, in the semantics of `dtype` (booleans: Add and Max are
/// `or`, Mul and Min are `and`).
fn apply(update: IndexingUpdateOp, a: f64, b: f64, dtype: DType) -> f64 {
    let r = match update {
        IndexingUpdateOp::Assign => b,
        IndexingUpdateOp::Add if dtype.is_bool() => a.max(b),
        IndexingUpdateOp::Mul if dtype.is_bool() => a.min(b),
        IndexingUpdateOp::Add => a + b,
        IndexingUpdateOp::Mul => a * b,
        IndexingUpdateOp::Max if a.is_nan() || b.is_nan() => f64::NAN,
        IndexingUpdateOp::Min if a.is_nan() || b.is_nan() => f64::NAN,
        IndexingUpdateOp::Max => a.max(b),
        IndexingUpdateOp::Min => a.min(b),
    };
    if dtype.is_bool() { r.min(1.0) } else { r }
}

/// The reference of a scatter of `values` (of `values_shape`) at `idx` (of `idx_shape`) into
/// `x` (of `shape`), in row-major order of the indices.
fn scatter_reference(
    x: &[f64],
    shape: &[usize],
    dim: usize,
    (idx, idx_shape): (&[f64], &[usize]),
    (values, values_shape): (&[f64], &[usize]),
    update: IndexingUpdateOp,
    dtype: DType,
) -> Vec<f64> {
    let mut out = x.to_vec();
    for (i, &index) in idx.iter().enumerate() {
        let c = coords(i, idx_shape);
        let v = values[offset(&c, values_shape)];
        if index < 0.0 || index as usize >= shape[dim] {
            continue;
        }
        let mut target = c;
        target[dim] = index as usize;
        let o = offset(&target, shape);
        out[o] = apply(update, out[o], v, dtype);
    }
    out
}

#[test]
fn scatter_every_dtype_and_update_with_duplicates() {
    let device = device_or_skip!();
    let shape = [3, 4, 5];
    let n: usize = shape.iter().product();
    for dtype in arithmetic_dtypes(&device) {
        let dims = if matches!(dtype, DType::F32 | DType::I32) {
            vec![0, 1, 2]
        } else {
            vec![1]
        };
        for update in UPDATES {
            let x = update_values(IndexingUpdateOp::Add, dtype, n, 3);
            for &dim in &dims {
                // Four updates per output line (duplicates are frequent), on fewer lines than
                // the output has; values larger than the indices outside `dim`.
                let mut idx_shape = vec![2, 3, 4];
                idx_shape[dim] = 4;
                let values_shape: Vec<usize> = idx_shape.iter().map(|s| s + 1).collect();
                let m: usize = idx_shape.iter().product();
                let idx = random_indices(20 + dim as u64, m, shape[dim]);
                let values =
                    update_values(update, dtype, values_shape.iter().product(), 4 + dim as u64);
                let expected = scatter_reference(
                    &x,
                    &shape,
                    dim,
                    (&idx, &idx_shape),
                    (&values, &values_shape),
                    update,
                    dtype,
                );
                for index_dtype in main_index_dtypes(&device) {
                    for permuted in [false, true] {
                        let t = make(&device, &x, &shape, dtype, permuted);
                        let i = make(&device, &idx, &idx_shape, index_dtype, permuted);
                        let v = make(&device, &values, &values_shape, dtype, !permuted);
                        let before = t.buffer_id();
                        let out = scatter(dim, t, i, v, update);
                        assert_eq!(
                            out.buffer_id(),
                            before,
                            "a unique tensor is updated in place"
                        );
                        assert_eq!(
                            read(out, &shape, dtype),
                            expected,
                            "scatter {update:?} {dtype} dim {dim} {index_dtype} permuted {permuted}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn scatter_shared_and_in_place_agree_and_out_of_range_fails() {
    let device = device_or_skip!();
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    // Duplicates in both rows.
    let idx = [0.0, 1.0, 0.0, 2.0, 1.0, 2.0];
    let values = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0];
    // I64 where the device stores it.
    let index_dtype = *main_index_dtypes(&device).last().unwrap();
    for update in UPDATES {
        let expected = scatter_reference(
            &x,
            &[2, 3],
            1,
            (&idx, &[2, 3]),
            (&values, &[2, 3]),
            update,
            DType::F32,
        );
        let run = |t: CubeTensor| {
            let i = tensor(&device, &idx, &[2, 3], index_dtype);
            let v = tensor(&device, &values, &[2, 3], DType::F32);
            scatter(1, t, i, v, update)
        };
        let t = tensor(&device, &x, &[2, 3], DType::F32);
        let keep = t.clone();
        let shared = run(t);
        assert_ne!(shared.buffer_id(), keep.buffer_id());
        assert_eq!(
            read(keep, &[2, 3], DType::F32),
            x,
            "the shared input is untouched"
        );
        let in_place = run(tensor(&device, &x, &[2, 3], DType::F32));
        assert_eq!(read(shared, &[2, 3], DType::F32), expected, "{update:?}");
        assert_eq!(read(in_place, &[2, 3], DType::F32), expected, "{update:?}");
    }
    // NaN wins for Max and Min, from either side.
    let nan = f64::NAN;
    for update in [IndexingUpdateOp::Max, IndexingUpdateOp::Min] {
        let t = tensor(&device, &[1.0, nan, 3.0], &[3], DType::F32);
        let i = tensor(&device, &[0.0, 1.0, 2.0], &[3], DType::I32);
        let v = tensor(&device, &[nan, 2.0, 5.0], &[3], DType::F32);
        let got = read(scatter(0, t, i, v, update), &[3], DType::F32);
        let last = if update == IndexingUpdateOp::Max {
            5.0
        } else {
            3.0
        };
        assert!(got[0].is_nan() && got[1].is_nan(), "{update:?} {got:?}");
        assert_eq!(got[2], last);
    }
    // No indices: the tensor unchanged.
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let i = tensor(&device, &[], &[2, 0], DType::I32);
    let v = tensor(&device, &[], &[2, 0], DType::F32);
    let out = scatter(1, t, i, v, IndexingUpdateOp::Add);
    assert_eq!(read(out, &[2, 3], DType::F32), x);
    // Index 3 and -1 are out of range for dim 1 of [2, 3]: the next read fails, naming the op.
    let t = tensor(&device, &x, &[2, 3], DType::F32);
    let i = tensor(
        &device,
        &[0.0, 3.0, 0.0, 2.0, -1.0, 2.0],
        &[2, 3],
        DType::I32,
    );
    let v = tensor(&device, &values, &[2, 3], DType::F32);
    let error = scatter(1, t, i, v, IndexingUpdateOp::Add)
        .into_data_sync()
        .expect_err("an out-of-range index must fail the read");
    assert!(
        error
            .to_string()
            .contains("scatter: an index is out of range"),
        "{error}"
    );
}

#[test]
fn select_add_every_dtype_and_update() {
    let device = device_or_skip!();
    let shape = [4, 3, 5];
    let n: usize = shape.iter().product();
    for dtype in arithmetic_dtypes(&device) {
        let x = update_values(IndexingUpdateOp::Add, dtype, n, 5);
        for update in UPDATES {
            for dim in [0, 2] {
                // Six slices into four or five: duplicates.
                let idx = random_indices(30 + dim as u64, 6, shape[dim]);
                let mut values_shape = shape.to_vec();
                values_shape[dim] = idx.len();
                let values =
                    update_values(update, dtype, values_shape.iter().product(), 6 + dim as u64);
                let mut expected = x.clone();
                for (j, &index) in idx.iter().enumerate() {
                    for (i, &v) in values.iter().enumerate() {
                        let mut c = coords(i, &values_shape);
                        if c[dim] != j {
                            continue;
                        }
                        c[dim] = index as usize;
                        let o = offset(&c, &shape);
                        expected[o] = apply(update, expected[o], v, dtype);
                    }
                }
                for index_dtype in main_index_dtypes(&device) {
                    for permuted in [false, true] {
                        let t = make(&device, &x, &shape, dtype, permuted);
                        let i = tensor(&device, &idx, &[idx.len()], index_dtype);
                        let v = make(&device, &values, &values_shape, dtype, permuted);
                        let keep = permuted.then(|| t.clone());
                        let out = select_add(t, dim, i, v, update);
                        assert_eq!(
                            read(out, &shape, dtype),
                            expected,
                            "select_add {update:?} {dtype} dim {dim} {index_dtype} permuted {permuted}"
                        );
                        if let Some(keep) = keep {
                            assert_eq!(read(keep, &shape, dtype), x, "shared input untouched");
                        }
                    }
                }
            }
        }
    }
}
