//! Matrix products of quantized tensors in integers.
//!
//! When both operands are quantized and each one's scales are constant along the summed dim
//! (per tensor; per row of `lhs`; per column of `rhs`), the product is the integer product of
//! the stored values, scaled once per output (`kernels::int8_gemm`). Everything else takes the
//! contract's default (dequantize, then the float product).

use crate::backend::Flex;
use crate::kernels::int8_gemm::{Int8Product, PackedRhs, int8_matmul};
use crate::{FlexTensor, backend};
use burn_backend::ops::{propagate, q_matmul_dequantized};
use burn_backend::quantization::{ComposedQTensor, QuantScheme, TensorPrimitive};
use burn_backend::{DType, Shape};
use std::sync::Arc;

type QTensor = ComposedQTensor<Flex>;

/// `lhs · rhs`, in integers where both are quantized with scales constant along `k`.
pub fn q_matmul(lhs: TensorPrimitive<Flex>, rhs: TensorPrimitive<Flex>) -> TensorPrimitive<Flex> {
    match (lhs, rhs) {
        // The integer kernel scales into f32: an f64 device keeps the float product.
        (TensorPrimitive::QFloat(a), TensorPrimitive::QFloat(b))
            if backend::float_dtype() != DType::F64 && integer_path(&a, &b) =>
        {
            let scheme = b.scheme;
            let out = integer_product(a, b);
            let out = match backend::float_dtype() {
                DType::F32 => out,
                other => crate::ops::creation::cast(out, other),
            };
            propagate::<Flex>(out, &scheme, &crate::FlexDevice)
        }
        (lhs, rhs) => q_matmul_dequantized::<Flex>(lhs, rhs),
    }
}

/// The block extents of `scheme` over a tensor of `rank` dims (all dims for per-tensor).
fn block_extents(scheme: &QuantScheme, shape: &Shape) -> Vec<usize> {
    match scheme.block_size() {
        Some(block) => block.to_dim_vec(shape.num_dims()),
        None => shape.to_vec(),
    }
}

/// Whether the integer kernel computes this product: equal ranks ≥ 2, matching `k`,
/// broadcastable batch dims, `i8` values, and each side's blocks spanning all of `k`.
fn integer_path(a: &QTensor, b: &QTensor) -> bool {
    let (sa, sb) = (a.values.shape(), b.values.shape());
    let rank = sa.num_dims();
    if rank < 2
        || sb.num_dims() != rank
        || a.values.dtype() != DType::I8
        || b.values.dtype() != DType::I8
    {
        return false;
    }
    let k = sa.dims[rank - 1];
    // The float path reports a mismatch; empty products and k beyond the i32 sums' reach
    // (2^17) take it too.
    let (m, n) = (sa.dims[rank - 2], sb.dims[rank - 1]);
    if sb.dims[rank - 2] != k || m == 0 || n == 0 || k >= 1 << 17 {
        return false;
    }
    let batches_broadcast = (0..rank - 2).all(|d| {
        let (x, y) = (sa.dims[d], sb.dims[d]);
        (x == y || x == 1 || y == 1) && x > 0 && y > 0
    });
    let (ba, bb) = (block_extents(&a.scheme, sa), block_extents(&b.scheme, sb));
    batches_broadcast && ba[rank - 1] == k && bb[rank - 2] == k
}

/// The scale of each element of `grid` broadcast to `shape` (blocks of `extents`), at the
/// index `at` (whose summed dim is ignored: the scale is constant along it).
fn scale_at(grid: &[f32], grid_shape: &Shape, extents: &[usize], at: &[usize]) -> f32 {
    if grid.len() == 1 {
        return grid[0];
    }
    let flat = at
        .iter()
        .zip(extents)
        .zip(&grid_shape.dims)
        .fold(0, |acc, ((&i, &e), &g)| acc * g + (i / e).min(g - 1));
    grid[flat]
}

/// The product of two quantized tensors accepted by [`integer_path`], as `f32`.
fn integer_product(a: QTensor, b: QTensor) -> FlexTensor {
    let (sa, sb) = (a.values.shape().clone(), b.values.shape().clone());
    let rank = sa.num_dims();
    let (m, k, n) = (sa.dims[rank - 2], sa.dims[rank - 1], sb.dims[rank - 1]);
    let batch: Vec<usize> = (0..rank - 2).map(|d| sa.dims[d].max(sb.dims[d])).collect();
    let (ea, eb) = (block_extents(&a.scheme, &sa), block_extents(&b.scheme, &sb));
    let (grid_a, grid_b) = (a.scales.shape().clone(), b.scales.shape().clone());
    let (scales_a, scales_b) = (a.scales.values::<f32>(), b.scales.values::<f32>());
    let (va, vb) = (a.values.values::<i8>(), b.values.values::<i8>());
    let batches: usize = batch.iter().product();
    let rhs_shared = (0..rank - 2).all(|d| sb.dims[d] == 1);
    let mut out = crate::tensor::pool::for_overwrite::<f32>(batches * m * n);

    // The scales of one side at a batch index, per row (lhs) or per column (rhs).
    let side_scales = |scales: &[f32],
                       grid: &Shape,
                       extents: &[usize],
                       batch_at: &[usize],
                       len: usize,
                       dim: usize| {
        (0..len)
            .map(|x| {
                let mut at = batch_at.to_vec();
                at.extend([0, 0]);
                at[dim] = x;
                scale_at(scales, grid, extents, &at)
            })
            .collect::<Vec<f32>>()
    };
    let index_of = |flat: usize| -> Vec<usize> {
        let mut at = vec![0; batch.len()];
        let mut rest = flat;
        for d in (0..batch.len()).rev() {
            at[d] = rest % batch[d];
            rest /= batch[d];
        }
        at
    };
    let operand_batch = |dims: &[usize], at: &[usize]| -> (Vec<usize>, usize) {
        let clipped: Vec<usize> = at
            .iter()
            .zip(dims)
            .map(|(&i, &s)| if s == 1 { 0 } else { i })
            .collect();
        let flat = clipped
            .iter()
            .zip(dims)
            .fold(0, |acc, (&i, &s)| acc * s + i);
        (clipped, flat)
    };

    if rhs_shared && batches > 0 {
        // Every batch of `lhs` against one `rhs`: one product of `batches · m` rows (the
        // batch dims are then `lhs`'s own).
        let rows: Vec<f32> = (0..batches)
            .flat_map(|flat| side_scales(&scales_a, &grid_a, &ea, &index_of(flat), m, rank - 2))
            .collect();
        let cols = side_scales(&scales_b, &grid_b, &eb, &vec![0; rank - 2], n, rank - 1);
        // The packed weight is kept with the tensor: packed on its first product only.
        let packed = b
            .derived()
            .get_or_init(|| PackedRhs::new(&vb, k, n))
            .unwrap_or_else(|| Arc::new(PackedRhs::new(&vb, k, n)));
        let product = Int8Product {
            m: batches * m,
            k,
            n,
            a: &va,
            b: &packed,
            row_scales: &rows,
            col_scales: &cols,
        };
        int8_matmul(&product, &mut out);
    } else {
        for flat in 0..batches {
            let at = index_of(flat);
            let (at_a, fa) = operand_batch(&sa.dims[..rank - 2], &at);
            let (at_b, fb) = operand_batch(&sb.dims[..rank - 2], &at);
            let rows = side_scales(&scales_a, &grid_a, &ea, &at_a, m, rank - 2);
            let cols = side_scales(&scales_b, &grid_b, &eb, &at_b, n, rank - 1);
            let packed = PackedRhs::new(&vb[fb * k * n..(fb + 1) * k * n], k, n);
            let product = Int8Product {
                m,
                k,
                n,
                a: &va[fa * m * k..(fa + 1) * m * k],
                b: &packed,
                row_scales: &rows,
                col_scales: &cols,
            };
            int8_matmul(&product, &mut out[flat * m * n..(flat + 1) * m * n]);
        }
    }
    let mut shape = batch;
    shape.extend([m, n]);
    FlexTensor::from_vec(out, Shape::from(shape))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::quantization::{QuantValue, ScaleDtype};

    fn quantized(shape: [usize; 2], scheme: &QuantScheme) -> QTensor {
        let n = shape[0] * shape[1];
        let values: Vec<f32> = (0..n)
            .map(|i| ((i * 7919) % 97) as f32 / 50.0 - 1.0)
            .collect();
        QTensor::quantize_dynamic(FlexTensor::from_vec(values, Shape::from(shape)), scheme)
    }

    #[test]
    fn scales_constant_along_k_take_the_integer_path() {
        let tensor = QuantScheme::default().with_value(QuantValue::Q8S);
        let rows = tensor.per_block([32], ScaleDtype::F32);
        let cols = tensor.per_block([32, 1], ScaleDtype::F32);
        let along_n = tensor.per_block([8], ScaleDtype::F32);
        let a = |s| quantized([4, 32], s);
        let b = |s| quantized([32, 16], s);
        assert!(integer_path(&a(&tensor), &b(&tensor)));
        assert!(integer_path(&a(&rows), &b(&cols)));
        assert!(integer_path(&a(&rows), &b(&tensor)));
        // Blocks of a Linear weight along n vary with k: dequantized instead.
        assert!(!integer_path(&a(&tensor), &b(&along_n)));
        assert!(!integer_path(&quantized([4, 32], &along_n), &b(&tensor)));
    }
}
