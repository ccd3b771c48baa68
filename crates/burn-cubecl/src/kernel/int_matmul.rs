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

/// Where the output element at `position` (row-major over `sizes`) starts in `lhs` and in
/// `rhs`: the sum over its coordinates of `coordinate · moves` (see [`DirectProduct`]).
#[cube]
pub(crate) fn product_starts(
    sizes: &Sequence<FastDivmod<usize>>,
    lhs_moves: &Sequence<usize>,
    rhs_moves: &Sequence<usize>,
    position: usize,
) -> (usize, usize) {
    let rank = comptime![sizes.len()];
    let mut remaining = position;
    let mut at_lhs = 0;
    let mut at_rhs = 0;
    #[unroll]
    for i in 0..rank {
        let dim = comptime![rank - 1 - i];
        let (quotient, coordinate) = sizes[dim].div_mod(remaining);
        at_lhs += coordinate * lhs_moves[dim];
        at_rhs += coordinate * rhs_moves[dim];
        remaining = quotient;
    }
    (at_lhs, at_rhs)
}

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
    let (mut at_lhs, mut at_rhs) = product_starts(&sizes, &lhs_strides, &rhs_strides, ABSOLUTE_POS);
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
    assert!(
        lhs.dtype.is_int(),
        "int_matmul: expected integer tensors, got {}",
        lhs.dtype
    );
    let direct = DirectProduct::new("int_matmul", lhs, rhs);
    let dtype = direct.lhs.dtype;
    let output = direct
        .lhs
        .empty_contiguous_like(direct.out_shape.clone(), dtype);
    let count = output.num_elements();
    if count == 0 {
        return output;
    }
    if direct.k == 0 {
        return super::fill::fill(output, 0.into());
    }
    let client = direct.lhs.client.clone();
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    crate::launch::before_launch(&client);
    int_matmul_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&direct.lhs, &direct.rhs, &output]),
        whole_buffer(&direct.lhs),
        whole_buffer(&direct.rhs),
        whole_buffer(&output),
        direct.sizes.iter().copied().collect(),
        direct.lhs_moves.iter().copied().collect(),
        direct.rhs_moves.iter().copied().collect(),
        direct.k,
        direct.lhs_step,
        direct.rhs_step,
        elem_type(dtype),
    );
    output
}

/// The whole buffer of `tensor` as a kernel argument (views index it through their strides).
pub(crate) fn whole_buffer(tensor: &CubeTensor) -> BufferArg {
    let len = tensor.handle.size_in_used() as usize / tensor.dtype.size();
    // SAFETY: the handle belongs to the tensor's client and holds `len` elements of its dtype;
    // the kernels are launched in checked mode, so no access leaves the buffer.
    unsafe { BufferArg::from_raw_parts(tensor.handle.clone(), len) }
}

/// A batched product `[.., m, k] × [.., k, n]` laid out for a direct kernel (one unit per
/// output element): output element `p` (row-major over `sizes`, the output shape) starts at
/// `Σ coordinate · lhs_moves` in `lhs` and `Σ coordinate · rhs_moves` in `rhs` (0 for broadcast
/// batch dims, for `n` in `lhs` and for `m` in `rhs`), then walks `k` steps of `lhs_step` /
/// `rhs_step`.
pub(crate) struct DirectProduct {
    /// The left operand, unsqueezed to the output's rank.
    pub lhs: CubeTensor,
    /// The right operand, unsqueezed to the output's rank.
    pub rhs: CubeTensor,
    /// The output shape: the broadcast batch dims, then `m`, `n`.
    pub out_shape: Shape,
    pub sizes: Vec<usize>,
    pub lhs_moves: Vec<usize>,
    pub rhs_moves: Vec<usize>,
    pub k: usize,
    pub lhs_step: usize,
    pub rhs_step: usize,
}

impl DirectProduct {
    /// Checks the operands of `op` (ranks, inner dims, batch dims, dtypes, devices) and lays
    /// the product out; panics naming `op` when they do not fit.
    pub fn new(op: &str, lhs: CubeTensor, rhs: CubeTensor) -> Self {
        let (ls, rs) = (lhs.shape.dims.clone(), rhs.shape.dims.clone());
        assert!(
            ls.len() >= 2 && rs.len() >= 2,
            "{op}: operands must have rank 2 or more, got {ls:?} and {rs:?}"
        );
        assert_eq!(
            lhs.dtype, rhs.dtype,
            "{op}: operands have different dtypes ({} and {})",
            lhs.dtype, rhs.dtype
        );
        assert_same_device(op, &[&lhs, &rhs]);
        assert_arithmetic(op, &lhs.client, lhs.dtype);
        let (m, k) = (ls[ls.len() - 2], ls[ls.len() - 1]);
        let (k2, n) = (rs[rs.len() - 2], rs[rs.len() - 1]);
        assert_eq!(
            k, k2,
            "{op}: inner dims differ: {ls:?} × {rs:?} ({k} and {k2})"
        );
        let batch = broadcast_shape(
            op,
            &Shape::from(ls[..ls.len() - 2].to_vec()),
            &Shape::from(rs[..rs.len() - 2].to_vec()),
        );
        let mut sizes = batch.to_vec();
        sizes.extend([m, n]);
        let rank = sizes.len();
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
        let mut lhs_moves: Vec<usize> = (0..rank - 2).map(|d| moves(&lhs, d)).collect();
        let mut rhs_moves: Vec<usize> = (0..rank - 2).map(|d| moves(&rhs, d)).collect();
        // Row `i` moves lhs along its dim `m`; column `j` moves rhs along its dim `n`.
        lhs_moves.extend([lhs.strides[rank - 2], 0]);
        rhs_moves.extend([0, rhs.strides[rank - 1]]);
        Self {
            lhs_step: lhs.strides[rank - 1],
            rhs_step: rhs.strides[rank - 2],
            out_shape: Shape::from(sizes.clone()),
            lhs,
            rhs,
            sizes,
            lhs_moves,
            rhs_moves,
            k,
        }
    }
}
