//! Boolean logic on both bool stores (`Bool(U8)` where the device has byte buffers, and
//! `Bool(U32)`): broadcasting, strided operands, in-place reuse, empty tensors and misuse.

use crate::bitwise::expect_panic;
use crate::device_or_skip;
use crate::harness::{broadcast_index, coords, random_values, read, rng, tensor};
use burn_backend::{BoolStore, DType, Shape};
use burn_cubecl::dtype::device_dtype_usage;
use burn_cubecl::kernel::{bool_and, bool_not, bool_or};
use burn_cubecl::{CubeDevice, CubeTensor};

/// The bool stores `device` supports.
fn bool_dtypes(device: &CubeDevice) -> Vec<DType> {
    let mut dtypes = vec![DType::Bool(BoolStore::U32)];
    if device_dtype_usage(device, DType::U8).arithmetic {
        dtypes.push(DType::Bool(BoolStore::U8));
    }
    dtypes
}

/// A device operation on two bool tensors.
type Logic = fn(CubeTensor, CubeTensor) -> CubeTensor;
/// Its host reference.
type Host = fn(bool, bool) -> bool;

fn random_bools(seed: u64, count: usize) -> Vec<f64> {
    random_values(&mut rng(seed), &[count], DType::I32, 0.0, 2.0)
}

#[test]
fn and_or_with_broadcasting_on_both_stores() {
    let device = device_or_skip!();
    let cases: [(&[usize], &[usize]); 5] = [
        (&[6, 16], &[6, 16]),
        (&[3, 1, 5], &[4, 1]),
        (&[7], &[]),
        (&[1, 8], &[3, 1]),
        (&[0, 4], &[4]),
    ];
    for dtype in bool_dtypes(&device) {
        for (case, (ls, rs)) in cases.iter().enumerate() {
            let a = random_bools(case as u64, ls.iter().product());
            let b = random_bools(case as u64 + 20, rs.iter().product());
            let out_shape = Shape::from(ls.to_vec())
                .broadcast(&Shape::from(rs.to_vec()))
                .unwrap()
                .to_vec();
            let n: usize = out_shape.iter().product();
            let pairs: Vec<(bool, bool)> = (0..n)
                .map(|i| {
                    let c = coords(i, &out_shape);
                    (
                        a[broadcast_index(&c, ls)] != 0.0,
                        b[broadcast_index(&c, rs)] != 0.0,
                    )
                })
                .collect();
            let ops: [(&str, Logic, Host); 2] = [
                ("bool_and", bool_and, |x, y| x && y),
                ("bool_or", bool_or, |x, y| x || y),
            ];
            for (name, op, host) in ops {
                let expected: Vec<f64> = pairs
                    .iter()
                    .map(|&(x, y)| f64::from(u8::from(host(x, y))))
                    .collect();
                for (lhs, rhs, l, r) in [(&a, &b, ls, rs), (&b, &a, rs, ls)] {
                    let out = op(
                        tensor(&device, lhs, l, dtype),
                        tensor(&device, rhs, r, dtype),
                    );
                    assert_eq!(
                        read(out, &out_shape, dtype),
                        expected,
                        "{name} {dtype:?} {l:?} with {r:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn not_and_strided_operands() {
    let device = device_or_skip!();
    for dtype in bool_dtypes(&device) {
        let a = random_bools(3, 24);
        let b = random_bools(4, 6);
        // [4, 6] transposed to [6, 4].
        let transposed: Vec<f64> = (0..24).map(|i| a[(i % 4) * 6 + i / 4]).collect();
        let t = tensor(&device, &a, &[4, 6], dtype).swap_dims(0, 1);
        let expected: Vec<f64> = transposed.iter().map(|&x| 1.0 - x).collect();
        assert_eq!(
            read(bool_not(t), &[6, 4], dtype),
            expected,
            "bool_not {dtype:?}"
        );
        // Transposed lhs against a column broadcast along the rows.
        let t = tensor(&device, &a, &[4, 6], dtype).swap_dims(0, 1);
        let out = bool_or(t, tensor(&device, &b, &[6, 1], dtype));
        let expected: Vec<f64> = (0..24)
            .map(|i| f64::from(u8::from(transposed[i] != 0.0 || b[i / 4] != 0.0)))
            .collect();
        assert_eq!(
            read(out, &[6, 4], dtype),
            expected,
            "bool_or {dtype:?} strided"
        );
    }
}

#[test]
fn in_place_reuse_clones_and_empty() {
    let device = device_or_skip!();
    for dtype in bool_dtypes(&device) {
        let values = [1.0, 0.0, 1.0, 1.0, 0.0, 0.0];
        let t = tensor(&device, &values, &[2, 3], dtype);
        let id = t.buffer_id();
        let out = bool_not(t);
        assert_eq!(out.buffer_id(), id, "bool_not in place {dtype:?}");
        assert_eq!(
            read(out, &[2, 3], dtype),
            vec![0.0, 1.0, 0.0, 0.0, 1.0, 1.0]
        );
        let t = tensor(&device, &values, &[2, 3], dtype);
        let out = bool_and(t.clone(), t.clone());
        assert_ne!(out.buffer_id(), t.buffer_id());
        assert_eq!(read(out, &[2, 3], dtype), values.to_vec());
        assert_eq!(read(t, &[2, 3], dtype), values.to_vec());
        let empty = || tensor(&device, &[], &[3, 0], dtype);
        assert_eq!(read(bool_not(empty()), &[3, 0], dtype), Vec::<f64>::new());
        assert_eq!(
            read(bool_or(empty(), empty()), &[3, 0], dtype),
            Vec::<f64>::new()
        );
    }
}

#[test]
fn misuse_names_the_op() {
    let device = device_or_skip!();
    let b32 = || tensor(&device, &[1.0, 0.0], &[2], DType::Bool(BoolStore::U32));
    let i = || tensor(&device, &[1.0, 0.0], &[2], DType::I32);
    expect_panic(&["bool_and:", "bool", "i32"], || {
        bool_and(i(), b32());
    });
    expect_panic(&["bool_or:", "bool", "i32"], || {
        bool_or(b32(), i());
    });
    expect_panic(&["bool_not:", "bool", "i32"], || {
        bool_not(i());
    });
    let three = tensor(&device, &[1.0; 3], &[3], DType::Bool(BoolStore::U32));
    expect_panic(&["bool_or:", "[2]", "[3]", "broadcast"], || {
        bool_or(b32(), three);
    });
    if bool_dtypes(&device).len() == 2 {
        let b8 = tensor(&device, &[1.0, 0.0], &[2], DType::Bool(BoolStore::U8));
        expect_panic(&["bool_and:", "different bool stores"], || {
            bool_and(b32(), b8);
        });
    }
}
