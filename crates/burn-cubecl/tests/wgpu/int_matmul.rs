//! Integer matrix products against an exact 128-bit host loop, for every integer dtype the
//! device computes with: broadcast batches, transposed operands, wrapping, empty and `k == 0`
//! products, and misuse.

use crate::bitwise::{expect_panic, int_dtypes, int_tensor, random_ints, read_ints, wrap};
use crate::device_or_skip;
use crate::harness::{broadcast_index, coords};
use burn_backend::{DType, Shape};
use burn_cubecl::kernel::int_matmul;

/// The host matmul of row-major `a` (`[.., m, k]`) and `b` (`[.., k, n]`), batches broadcast.
fn matmul_reference(
    a: &[i128],
    ls: &[usize],
    b: &[i128],
    rs: &[usize],
    dtype: DType,
) -> (Vec<usize>, Vec<i128>) {
    let (m, k, n) = (ls[ls.len() - 2], ls[ls.len() - 1], rs[rs.len() - 1]);
    let batch = Shape::from(ls[..ls.len() - 2].to_vec())
        .broadcast(&Shape::from(rs[..rs.len() - 2].to_vec()))
        .unwrap()
        .to_vec();
    let mut out_shape = batch.clone();
    out_shape.extend([m, n]);
    let (lb, rb) = (&ls[..ls.len() - 2], &rs[..rs.len() - 2]);
    let batches: usize = batch.iter().product();
    let mut out = Vec::new();
    for bi in 0..batches {
        let c = coords(bi, &batch);
        let (lo, ro) = (
            broadcast_index(&c, lb) * m * k,
            broadcast_index(&c, rb) * k * n,
        );
        for i in 0..m {
            for j in 0..n {
                let dot: i128 = (0..k).map(|p| a[lo + i * k + p] * b[ro + p * n + j]).sum();
                out.push(wrap(dot, dtype));
            }
        }
    }
    (out_shape, out)
}

#[test]
fn int_matmul_against_a_host_loop() {
    let device = device_or_skip!();
    let cases: [(&[usize], &[usize]); 6] = [
        (&[3, 4], &[4, 5]),
        (&[2, 3, 4], &[4, 5]),
        (&[2, 1, 3, 6], &[3, 6, 2]),
        (&[1, 5, 7], &[4, 7, 3]),
        (&[2, 3, 0], &[0, 4]),
        (&[0, 3], &[2, 3, 2]),
    ];
    for dtype in int_dtypes(&device) {
        for (case, (ls, rs)) in cases.iter().enumerate() {
            // Up to 7 products of values below 16: the 8-bit types overflow and must wrap.
            let a = random_ints(case as u64, ls.iter().product(), dtype, -15, 16);
            let b = random_ints(case as u64 + 9, rs.iter().product(), dtype, -15, 16);
            let (out_shape, expected) = matmul_reference(&a, ls, &b, rs, dtype);
            let out = int_matmul(
                int_tensor(&device, &a, ls, dtype),
                int_tensor(&device, &b, rs, dtype),
            );
            assert_eq!(
                read_ints(out, &out_shape, dtype),
                expected,
                "int_matmul {dtype} {ls:?} × {rs:?}"
            );
        }
        // Transposed operands: two lhs matrices stored [2, k, m], one rhs stored [n, k] and
        // broadcast over the batch.
        let (m, k, n) = (4, 5, 3);
        let a = random_ints(30, 2 * m * k, dtype, -15, 16);
        let b = random_ints(31, k * n, dtype, -15, 16);
        let lhs_t: Vec<i128> = (0..2 * m * k)
            .map(|i| {
                let c = coords(i, &[2, k, m]);
                a[c[0] * m * k + c[2] * k + c[1]]
            })
            .collect();
        let rhs_t: Vec<i128> = (0..k * n).map(|i| b[(i % k) * n + i / k]).collect();
        let lhs = int_tensor(&device, &lhs_t, &[2, k, m], dtype).swap_dims(1, 2);
        let rhs = int_tensor(&device, &rhs_t, &[n, k], dtype).swap_dims(0, 1);
        let (_, expected) = matmul_reference(&a, &[2, m, k], &b, &[k, n], dtype);
        assert_eq!(
            read_ints(int_matmul(lhs, rhs), &[2, m, n], dtype),
            expected,
            "int_matmul {dtype} transposed"
        );
    }
}

#[test]
fn misuse_names_the_op() {
    let device = device_or_skip!();
    let i =
        |shape: &[usize]| int_tensor(&device, &vec![1; shape.iter().product()], shape, DType::I32);
    let f = crate::harness::tensor(&device, &[1.0; 4], &[2, 2], DType::F32);
    expect_panic(&["int_matmul:", "inner dims", "[2, 3]", "[4, 2]"], || {
        int_matmul(i(&[2, 3]), i(&[4, 2]));
    });
    expect_panic(&["int_matmul:", "integer", "f32"], || {
        int_matmul(f.clone(), f.clone());
    });
    expect_panic(&["int_matmul:", "rank 2"], || {
        int_matmul(i(&[3]), i(&[3, 2]));
    });
    expect_panic(&["int_matmul:", "[2]", "[3]", "broadcast"], || {
        int_matmul(i(&[2, 2, 3]), i(&[3, 3, 2]));
    });
}
