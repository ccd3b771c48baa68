//! Views and copies: permutations, slices (viewed or copied), broadcasts, reshapes, and
//! reading non-contiguous tensors back.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{coords, read, round_to, tensor};
use burn_backend::{DType, Shape};
use burn_cubecl::kernel::into_contiguous;

fn iota(n: usize) -> Vec<f64> {
    (0..n).map(|i| i as f64).collect()
}

#[test]
fn permuted_tensors_read_and_copy() {
    let device = device_or_skip!();
    for dtype in arithmetic_dtypes(&device) {
        let x = round_to(&iota(24), dtype);
        let t = tensor(&device, &x, &[2, 3, 4], dtype).permute(&[2, 0, 1]);
        assert_eq!(t.strides(), &[1, 12, 4]);
        let expected: Vec<f64> = (0..24)
            .map(|i| {
                let c = coords(i, &[4, 2, 3]);
                x[c[1] * 12 + c[2] * 4 + c[0]]
            })
            .collect();
        assert_eq!(
            read(t.clone(), &[4, 2, 3], dtype),
            expected,
            "read permuted {dtype}"
        );
        let c = into_contiguous(t);
        assert!(c.is_contiguous());
        assert_eq!(
            read(c, &[4, 2, 3], dtype),
            expected,
            "into_contiguous {dtype}"
        );
    }
}

#[test]
fn slices_view_or_copy() {
    let device = device_or_skip!();
    let x = iota(16 * 64);
    let t = tensor(&device, &x, &[16, 64], DType::F32);
    // Rows 4..8 start 4 * 64 * 4 = 1024 bytes in: aligned, so a view of the same buffer.
    let rows = t.clone().slice(&[4..8, 0..64]);
    assert_eq!(rows.buffer_id(), t.buffer_id());
    assert_eq!(read(rows, &[4, 64], DType::F32), x[4 * 64..8 * 64].to_vec());
    // Rows 2..6, columns 8..40: 544 bytes in (a multiple of the 32-byte alignment on lavapipe),
    // a strided view when the device's alignment allows, else a copy.
    let block = t.clone().slice(&[2..6, 8..40]);
    let expected: Vec<f64> = (0..128)
        .map(|i| x[(2 + i / 32) * 64 + 8 + i % 32])
        .collect();
    assert_eq!(read(block, &[4, 32], DType::F32), expected);
    // Starting at element 3: unaligned, so copied.
    let cols = t.clone().slice(&[1..3, 3..9]);
    let expected: Vec<f64> = (0..12).map(|i| x[(1 + i / 6) * 64 + 3 + i % 6]).collect();
    assert_eq!(read(cols, &[2, 6], DType::F32), expected);
    // A slice of a transposed view.
    let tt = t.clone().swap_dims(0, 1).slice(&[0..2, 5..7]);
    let expected = vec![x[5 * 64], x[6 * 64], x[5 * 64 + 1], x[6 * 64 + 1]];
    assert_eq!(read(tt, &[2, 2], DType::F32), expected);
    // An empty slice.
    let empty = t.slice(&[3..3, 0..64]);
    assert_eq!(read(empty, &[0, 64], DType::F32), Vec::<f64>::new());
}

#[test]
fn expand_and_reshape() {
    let device = device_or_skip!();
    let x = iota(3);
    let t = tensor(&device, &x, &[3, 1], DType::F32).expand(Shape::new([2, 3, 4]));
    assert!(!t.is_nonoverlapping());
    let expected: Vec<f64> = (0..24).map(|i| x[coords(i, &[2, 3, 4])[1]]).collect();
    assert_eq!(read(t.clone(), &[2, 3, 4], DType::F32), expected);
    // Reshaping a non-contiguous view copies first.
    let r = t.reshape(Shape::new([6, 4]));
    assert!(r.is_contiguous());
    assert_eq!(read(r, &[6, 4], DType::F32), expected);
    // Reshaping a contiguous tensor is a view.
    let c = tensor(&device, &iota(12), &[3, 4], DType::I32);
    let id = c.buffer_id();
    let r = c.reshape(Shape::new([2, 2, 3]));
    assert_eq!(r.buffer_id(), id);
    assert_eq!(read(r, &[2, 2, 3], DType::I32), iota(12));
}

#[test]
fn large_tensor_many_workgroups() {
    let device = device_or_skip!();
    // More units than one dimension of cubes holds at the smallest cube size.
    let n = 1 << 22;
    let x: Vec<f64> = (0..n).map(|i| (i % 1000) as f64).collect();
    let t = tensor(&device, &x, &[1024, 4096], DType::F32).swap_dims(0, 1);
    let c = into_contiguous(t);
    let got = read(c, &[4096, 1024], DType::F32);
    for (i, &v) in got.iter().enumerate().step_by(997) {
        assert_eq!(v, x[(i % 1024) * 4096 + i / 1024], "element {i}");
    }
}
