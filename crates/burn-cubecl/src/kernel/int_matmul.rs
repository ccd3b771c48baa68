//! Batched matrix products of integer tensors: a direct kernel, one unit per output element.
//!
//! cubek's matmul targets float (and quantized) inputs; integer products are rarer and small,
//! so a plain dot product per output element, accumulated in the tensor's own integer type
//! (wrapping on overflow, like the CPU backend), is enough.

use super::binary::broadcast_shape;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::{address_type, assert_same_device, elementwise_geometry};
use burn_backend::Shape;
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Output element `ABSOLUTE_POS` (row-major over `sizes`, the output shape) is the dot
/// product of a row of `lhs` and a column of `rhs`. `lhs_strides` / `rhs_strides` give, per
/// output dimension, how far each operand moves when that coordinate grows (0 for broadcast
/// batch dims, for `n` in `lhs` and for `m` in `rhs`); `lhs_step` / `rhs_step` are their strides
/// along the shared `k` dimension.
#[cube(launch, address_type = "dynamic")]
fn int_matmul_kernel<C: Numeric>(
    lhs: &[C],
    rhs: &[C],
    output: &mut [C],
    sizes: Sequence<FastDivmod<usize>>,
    lhs_strides: Sequence<usize>,
    rhs_strides: Sequence<usize>,
    k: usize,
    lhs_step: usize,
    rhs_step: usize,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let rank = comptime![sizes.len()];
    let mut remaining = ABSOLUTE_POS;
    let mut at_lhs = 0;
    let mut at_rhs = 0;
    #[unroll]
    for i in 0..rank {
        let dim = comptime![rank - 1 - i];
        let (quotient, coordinate) = sizes[dim].div_mod(remaining);
        at_lhs += coordinate * lhs_strides[dim];
        at_rhs += coordinate * rhs_strides[dim];
        remaining = quotient;
    }
    let mut acc = C::from_int(0);
    for _ in 0..k {
        acc += lhs[at_lhs] * rhs[at_rhs];
        at_lhs += lhs_step;
        at_rhs += rhs_step;
    }
    output[ABSOLUTE_POS] = acc;
}

/// The product of the last two dims of integer tensors, `[.., m, k] × [.., k, n] → [.., m, n]`,
/// the batch dims broadcast (NumPy rules) and both operands read through their strides
/// (transposed or sliced views work without a copy). The result is a new contiguous tensor of
/// the operands' dtype; sums and products wrap on overflow. `k == 0` gives zeros.
///
/// # Panics
///
/// On a rank below 2, inner dims that differ, batch dims that do not broadcast, mixed dtypes or
/// devices, or a non-integer dtype.
pub fn int_matmul(lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    let (ls, rs) = (lhs.shape.dims.clone(), rhs.shape.dims.clone());
    assert!(
        ls.len() >= 2 && rs.len() >= 2,
        "int_matmul: operands must have rank 2 or more, got {ls:?} and {rs:?}"
    );
    assert_eq!(
        lhs.dtype, rhs.dtype,
        "int_matmul: operands have different dtypes ({} and {})",
        lhs.dtype, rhs.dtype
    );
    assert!(
        lhs.dtype.is_int(),
        "int_matmul: expected integer tensors, got {}",
        lhs.dtype
    );
    assert_same_device("int_matmul", &[&lhs, &rhs]);
    assert_arithmetic("int_matmul", &lhs.client, lhs.dtype);
    let (m, k) = (ls[ls.len() - 2], ls[ls.len() - 1]);
    let (k2, n) = (rs[rs.len() - 2], rs[rs.len() - 1]);
    assert_eq!(
        k, k2,
        "int_matmul: inner dims differ: {ls:?} × {rs:?} ({k} and {k2})"
    );
    let batch = broadcast_shape(
        "int_matmul",
        &Shape::from(ls[..ls.len() - 2].to_vec()),
        &Shape::from(rs[..rs.len() - 2].to_vec()),
    );
    let mut out_dims = batch.dims.clone();
    out_dims.extend([m, n]);
    let rank = out_dims.len();
    let dtype = lhs.dtype;
    let output = lhs.empty_contiguous_like(Shape::from(out_dims.clone()), dtype);
    let count = output.num_elements();
    if count == 0 {
        return output;
    }
    if k == 0 {
        return super::fill::fill(output, 0.into());
    }
    let lhs = lhs.unsqueeze_to(rank);
    let rhs = rhs.unsqueeze_to(rank);

    // How far each operand moves per output coordinate: broadcast batch dims do not move it.
    let moves = |t: &CubeTensor, d: usize| {
        if t.shape.dims[d] == 1 {
            0
        } else {
            t.strides[d]
        }
    };
    let mut sizes = SequenceArg::new();
    let mut lhs_strides = SequenceArg::new();
    let mut rhs_strides = SequenceArg::new();
    for (d, &size) in out_dims.iter().enumerate().take(rank - 2) {
        sizes.push(size);
        lhs_strides.push(moves(&lhs, d));
        rhs_strides.push(moves(&rhs, d));
    }
    // Row `i` moves lhs along its dim `m`; column `j` moves rhs along its dim `n`.
    sizes.push(m);
    lhs_strides.push(lhs.strides[rank - 2]);
    rhs_strides.push(0);
    sizes.push(n);
    lhs_strides.push(0);
    rhs_strides.push(rhs.strides[rank - 1]);

    let client = lhs.client.clone();
    let buffer = |t: &CubeTensor| {
        let len = t.handle.size_in_used() as usize / dtype.size();
        // SAFETY: the handle belongs to `client` and holds `len` elements of the dtype; the
        // kernel is launched in checked mode, so no access leaves the buffer.
        unsafe { BufferArg::from_raw_parts(t.handle.clone(), len) }
    };
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    crate::launch::record_launch();
    int_matmul_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&lhs, &rhs, &output]),
        buffer(&lhs),
        buffer(&rhs),
        buffer(&output),
        sizes,
        lhs_strides,
        rhs_strides,
        k,
        lhs.strides[rank - 1],
        rhs.strides[rank - 2],
        elem_type(dtype),
    );
    output
}
