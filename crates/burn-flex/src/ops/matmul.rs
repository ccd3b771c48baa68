//! Batched matrix products with broadcast batch dimensions. Float products go through
//! `FloatElement::gemm` reading the operands through their strides (a transposed operand is not
//! copied); integer products use a plain loop.

use super::arith::NumElement;
use super::map::{broadcast_shape, check_same_dtype};
use crate::element::FloatElement;
use crate::kernels::gemm::PARALLEL_THRESHOLD;
use crate::parallel;
use crate::tensor::iter::for_each_row;
use crate::tensor::{FlexTensor, Storable, pool};
use burn_std::Shape;

/// One operand broadcast to the batch shape: its buffer positions per batch and the strides of
/// its two matrix dimensions.
struct Operand {
    offsets: Vec<usize>,
    strides: [isize; 2],
}

/// A view gemm can read: non-negative matrix strides, and no stride 0 along a dim of size > 1.
fn gemm_ready(t: FlexTensor) -> FlexTensor {
    let r = t.rank();
    let ok = (r - 2..r).all(|d| {
        let s = t.layout().strides()[d];
        s > 0 || (s == 0 && t.shape()[d] <= 1)
    });
    if ok { t } else { t.to_contiguous() }
}

fn operand(t: &FlexTensor, batch: &Shape) -> Operand {
    let r = t.rank();
    let layout = t.layout();
    let mut full = batch.clone();
    full.dims.extend_from_slice(&t.shape().dims[r - 2..]);
    let expanded = layout.expand(&full);
    let b = batch.num_dims();
    let mut offsets = Vec::with_capacity(batch.num_elements());
    for_each_row(
        &batch.dims,
        [&expanded.strides()[..b]],
        [expanded.offset()],
        |[p], len, [s]| {
            let mut p = p as isize;
            for _ in 0..len {
                offsets.push(p as usize);
                p += s;
            }
        },
    );
    Operand {
        offsets,
        strides: [layout.strides()[r - 2], layout.strides()[r - 1]],
    }
}

/// The values an `rows×cols` matrix at `offset` with `strides` reaches.
fn matrix<E>(data: &[E], offset: usize, rows: usize, cols: usize, strides: [isize; 2]) -> &[E] {
    if rows == 0 || cols == 0 {
        return &data[offset..offset];
    }
    let last = (rows - 1) as isize * strides[0] + (cols - 1) as isize * strides[1];
    &data[offset..offset + last as usize + 1]
}

/// The matrix product of the last two dims of `lhs` (`…×m×k`) and `rhs` (`…×k×n`), with the
/// batch dims broadcast; a contiguous `…×m×n` result.
pub fn matmul(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    check_same_dtype("matmul", &lhs, &rhs);
    assert!(
        lhs.rank() >= 2 && rhs.rank() >= 2,
        "matmul: expected tensors of rank >= 2, got shapes {:?} and {:?}",
        lhs.shape(),
        rhs.shape()
    );
    let (lr, rr) = (lhs.rank(), rhs.rank());
    let (m, k) = (lhs.shape()[lr - 2], lhs.shape()[lr - 1]);
    let (k2, n) = (rhs.shape()[rr - 2], rhs.shape()[rr - 1]);
    assert_eq!(
        k,
        k2,
        "matmul: inner dimensions differ: lhs {:?} has {k} columns, rhs {:?} has {k2} rows",
        lhs.shape(),
        rhs.shape()
    );
    if lr == 2 && rr == 2 && lhs.dtype().is_float() {
        let (lhs, rhs) = (gemm_ready(lhs), gemm_ready(rhs));
        return with_float!(lhs.dtype(), "matmul", E => matmul_matrices::<E>(&lhs, &rhs, [m, k, n]));
    }
    let batch = broadcast_shape(
        "matmul",
        &Shape::new(&lhs.shape().dims[..lr - 2]),
        &Shape::new(&rhs.shape().dims[..rr - 2]),
    );
    let mut out_shape = batch.clone();
    out_shape.dims.extend([m, n]);
    if lhs.dtype().is_float() {
        let (lhs, rhs) = (gemm_ready(lhs), gemm_ready(rhs));
        with_float!(lhs.dtype(), "matmul", E => matmul_float::<E>(&lhs, &rhs, &batch, [m, k, n], out_shape))
    } else {
        with_int!(lhs.dtype(), "matmul", E => matmul_int::<E>(&lhs, &rhs, &batch, [m, k, n], out_shape))
    }
}

/// The product of two matrices (rank 2, the most common case): what [`matmul_float`] computes
/// for an empty batch, without building the batch's shapes and offsets (allocations that cost
/// more than a small product itself).
fn matmul_matrices<E: FloatElement + Storable>(
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    [m, k, n]: [usize; 3],
) -> FlexTensor {
    // As in `matmul_float`: the product writes its whole destination.
    let mut out = pool::aligned_for_overwrite(m * n);
    if m * n > 0 {
        let strides = |t: &FlexTensor| [t.layout().strides()[0], t.layout().strides()[1]];
        let (a, b) = (strides(lhs), strides(rhs));
        let l = matrix(lhs.storage::<E>(), lhs.layout().offset(), m, k, a);
        let r = matrix(rhs.storage::<E>(), rhs.layout().offset(), k, n, b);
        E::gemm(m, k, n, l, a, r, b, &mut out);
    }
    FlexTensor::from_aligned(out, [m, n])
}

fn matmul_float<E: FloatElement + Storable>(
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    batch: &Shape,
    [m, k, n]: [usize; 3],
    out_shape: Shape,
) -> FlexTensor {
    let (a, b) = (operand(lhs, batch), operand(rhs, batch));
    let (ld, rd) = (lhs.storage::<E>(), rhs.storage::<E>());
    // Every product below writes its whole destination (gemm with no accumulation, or zeros
    // when k = 0), so a pooled buffer's old values need no clearing first.
    let mut out = pool::aligned_for_overwrite(out_shape.num_elements());
    if m * n == 0 {
        return FlexTensor::from_aligned(out, out_shape);
    }
    let batches = batch.num_elements();
    if batches > 1 && folds_into_one_product(&a, &b, m) {
        // A shared rhs and lhs matrices stacked at one row stride (e.g. `linear` on
        // `[batch, seq, d]`): one product of `batches·m` rows instead of `batches` small ones.
        let rows = batches * m;
        let l = matrix(ld, a.offsets[0], rows, k, a.strides);
        let r = matrix(rd, b.offsets[0], k, n, b.strides);
        E::gemm(rows, k, n, l, a.strides, r, b.strides, &mut out);
        return FlexTensor::from_aligned(out, out_shape);
    }
    let product = |(i, dst): (usize, &mut [E])| {
        let l = matrix(ld, a.offsets[i], m, k, a.strides);
        let r = matrix(rd, b.offsets[i], k, n, b.strides);
        E::gemm(m, k, n, l, a.strides, r, b.strides, dst);
    };
    if shares_batches(batches, m * k * n, parallel::threads()) {
        parallel::for_each_chunk_mut(&mut out, m * n, |i, dst| product((i, dst)));
    } else {
        out.chunks_mut(m * n).enumerate().for_each(product);
    }
    FlexTensor::from_aligned(out, out_shape)
}

/// Whether a batch of `batches` products of `work` (m·k·n) each is shared between `threads`
/// by whole products (each then on one thread) rather than run in order (each product shared
/// by `gemm` when it is large enough): yes for small products, and for large ones when the
/// batches fill the threads evenly or are many enough for the last round not to matter.
fn shares_batches(batches: usize, work: usize, threads: usize) -> bool {
    batches > 1
        && threads > 1
        && batches.saturating_mul(work) >= PARALLEL_THRESHOLD
        && (work < PARALLEL_THRESHOLD || batches.is_multiple_of(threads) || batches >= 4 * threads)
}

/// Whether every batch uses the same rhs matrix and the lhs matrices follow each other at the
/// lhs row stride, so the batch can be folded into the rows of one product.
fn folds_into_one_product(lhs: &Operand, rhs: &Operand, m: usize) -> bool {
    let row_stride = lhs.strides[0];
    let shared_rhs = rhs.offsets.iter().all(|&o| o == rhs.offsets[0]);
    let stacked =
        row_stride > 0
            && lhs.offsets.iter().enumerate().all(|(i, &o)| {
                o as isize == lhs.offsets[0] as isize + (i * m) as isize * row_stride
            });
    shared_rhs && stacked
}

fn matmul_int<E: NumElement>(
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    batch: &Shape,
    [m, k, n]: [usize; 3],
    out_shape: Shape,
) -> FlexTensor {
    let (a, b) = (operand(lhs, batch), operand(rhs, batch));
    let (ld, rd) = (lhs.storage::<E>(), rhs.storage::<E>());
    let mut out = pool::aligned_filled(out_shape.num_elements(), E::zero());
    if m * n == 0 {
        return FlexTensor::from_aligned(out, out_shape);
    }
    let [ls0, ls1] = a.strides;
    let [rs0, rs1] = b.strides;
    let product = |(bi, dst): (usize, &mut [E])| {
        let (lo, ro) = (a.offsets[bi] as isize, b.offsets[bi] as isize);
        for i in 0..m {
            let row = &mut dst[i * n..(i + 1) * n];
            for p in 0..k {
                let x = ld[(lo + i as isize * ls0 + p as isize * ls1) as usize];
                let base = ro + p as isize * rs0;
                for (j, o) in row.iter_mut().enumerate() {
                    *o = o.add(x.mul(rd[(base + j as isize * rs1) as usize]));
                }
            }
        }
    };
    if batch.num_elements().saturating_mul(m * k * n) >= PARALLEL_THRESHOLD {
        parallel::for_each_chunk_mut(&mut out, m * n, |i, dst| product((i, dst)));
    } else {
        out.chunks_mut(m * n).enumerate().for_each(product);
    }
    FlexTensor::from_aligned(out, out_shape)
}

/// A layout-only check used by tests: whether `t` would be read by gemm without a copy.
#[cfg(test)]
fn reads_in_place(t: &FlexTensor) -> bool {
    let before = t.shared_buffer().clone();
    let ready = gemm_ready(t.clone());
    std::sync::Arc::ptr_eq(&before, ready.shared_buffer())
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::{DType, bf16, f16};

    #[test]
    fn batches_are_shared_when_they_fill_the_threads() {
        let big = PARALLEL_THRESHOLD;
        // Small products: whole products per thread, once there is enough work in all.
        assert!(shares_batches(64, 8192, 2));
        assert!(!shares_batches(8, 64, 2));
        // Large products: by batch when the rounds come out even or are many ...
        assert!(shares_batches(4, big, 2));
        assert!(shares_batches(9, big, 2));
        // ... else one after another, each shared by gemm.
        assert!(!shares_batches(3, big, 2));
        assert!(!shares_batches(1, big, 2));
        assert!(!shares_batches(8, big, 1));
    }

    fn naive(a: &[f64], b: &[f64], m: usize, k: usize, n: usize) -> Vec<f64> {
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                out[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        out
    }

    #[test]
    fn batched_broadcast_and_transposed_operands() {
        let (m, k, n) = (3, 4, 5);
        let a: Vec<f64> = (0..2 * m * k).map(|i| (i as f64 * 0.3).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.7).cos()).collect();
        let ta = FlexTensor::from_vec(a.clone(), [2, m, k]);
        // rhs stored as n×k and transposed: a strided view read in place.
        let bt: Vec<f64> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        let tb = FlexTensor::from_vec(bt, [1, n, k]).transpose();
        assert!(reads_in_place(&tb));
        let out = matmul(ta, tb);
        assert_eq!(out.shape().dims.to_vec(), vec![2, m, n]);
        let got = out.to_vec::<f64>();
        for batch in 0..2 {
            let expected = naive(&a[batch * m * k..(batch + 1) * m * k], &b, m, k, n);
            for (g, e) in got[batch * m * n..(batch + 1) * m * n]
                .iter()
                .zip(&expected)
            {
                assert!((g - e).abs() < 1e-12);
            }
        }
        // A flipped operand is copied first and still gives the right numbers.
        let fa = FlexTensor::from_vec(a[..m * k].to_vec(), [m, k]).flip(&[0]);
        assert!(!reads_in_place(&fa));
        let reversed: Vec<f64> = (0..m)
            .rev()
            .flat_map(|i| a[i * k..(i + 1) * k].to_vec())
            .collect();
        let got = matmul(fa, FlexTensor::from_vec(b.clone(), [k, n])).to_vec::<f64>();
        for (g, e) in got.iter().zip(&naive(&reversed, &b, m, k, n)) {
            assert!((g - e).abs() < 1e-12);
        }
    }

    #[test]
    fn matrices_read_at_an_offset_and_transposed() {
        let (m, k, n) = (6, 5, 4);
        // lhs: rows 1..=k of a (k + 2)×m matrix, transposed: offset m, strides [1, m].
        let big: Vec<f64> = (0..(k + 2) * m).map(|i| (i as f64 * 0.41).sin()).collect();
        let ta = FlexTensor::from_vec(big.clone(), [k + 2, m])
            .slice(&[burn_std::Slice::new(1, Some(k as isize + 1), 1)])
            .transpose();
        assert!(reads_in_place(&ta));
        let a: Vec<f64> = (0..m * k).map(|p| big[(1 + p % k) * m + p / k]).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.23).cos()).collect();
        let out = matmul(ta, FlexTensor::from_vec(b.clone(), [k, n]));
        assert_eq!(out.shape().dims.to_vec(), vec![m, n]);
        for (g, e) in out.to_vec::<f64>().iter().zip(&naive(&a, &b, m, k, n)) {
            assert!((g - e).abs() < 1e-12);
        }
    }

    #[test]
    fn int_and_half_products() {
        let a = FlexTensor::from_vec(vec![1i32, 2, 3, 4, 5, 6], [2, 3]);
        let b = FlexTensor::from_vec(vec![1i32, 0, -1, 2, 3, 1], [3, 2]);
        assert_eq!(matmul(a.clone(), b).to_vec::<i32>(), vec![8, 7, 17, 16]);
        let at = a.transpose(); // [3, 2]
        let aa = FlexTensor::from_vec(vec![1i32, 2, 3, 4, 5, 6], [2, 3]);
        assert_eq!(
            matmul(at, aa).to_vec::<i32>(),
            vec![17, 22, 27, 22, 29, 36, 27, 36, 45]
        );
        let h = super::super::creation::cast(
            FlexTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], [2, 2]),
            DType::F16,
        );
        assert_eq!(
            matmul(h.clone(), h).to_vec::<f16>(),
            [7.0f32, 10.0, 15.0, 22.0].map(f16::from_f32).to_vec()
        );
        let bf = FlexTensor::from_vec(vec![bf16::from_f32(2.0); 4], [1, 2, 2]);
        assert_eq!(
            matmul(bf.clone(), bf).to_vec::<bf16>(),
            vec![bf16::from_f32(8.0); 4]
        );
    }
}
