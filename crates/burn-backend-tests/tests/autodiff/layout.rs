//! Gradients of layout and indexing ops: reshaping, permuting, slicing, concatenating,
//! gathering and scattering, masking, padding, moving between devices and dtypes.
//!
//! No gradient by design: the int indices of `gather`, `scatter`, `select` and friends, and
//! bool masks. Scatters with the `Mul`, `Max` and `Min` updates have no gradient rule and
//! refuse tracked inputs (see `scatter_mul_refuses_tracked_inputs`). `detach` and `inner`
//! cut the graph on purpose, which finite differences cannot see (`semantics.rs` covers them).

use super::{bools, constant, distinct, inner_constant, ints, shaped, uniform, unit};
use burn::tensor::ops::{IndexingUpdateOp, PadMode};
use burn::tensor::{DType, FloatDType, Tensor, ZeroDimPlaceholders, s};

/// The pieces in reverse order, each scaled by its position, concatenated along `dim`: a
/// layout that routes every piece's gradient somewhere else.
fn reassemble<const D: usize>(pieces: Vec<Tensor<D>>, dim: usize) -> Tensor<D> {
    let scaled = pieces
        .into_iter()
        .enumerate()
        .map(|(i, p)| p * (i as f64 + 1.0))
        .rev()
        .collect();
    Tensor::cat(scaled, dim)
}

grad_cases! {
    // ---- composed selections ---------------------------------------------------------------------
    gather_nd: [unit(24)] => |t| {
        let x = shaped(&t[0], [3, 4, 2]);
        let at = ints(&[0, 1, 2, 3, 2, 3, 1, 0], [2, 2, 2], &x);
        x.gather_nd::<3, 3>(at).exp()
    };
    scatter_nd_add: [unit(12), unit(8)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let rows = ints(&[2, 2], [2, 1], &x);
        x.scatter_nd(rows, shaped(&t[1], [2, 4]), IndexingUpdateOp::Add).exp()
    };
    take: [unit(12)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        x.clone().take::<2, 3>(1, ints(&[3, 0, 3, 1], [2, 2], &x)).exp()
    };
    select_dim: [unit(12)] => |t| shaped(&t[0], [3, 4]).select_dim::<1>(-2, 1).exp();
    mask_select: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let mask = bools(&[true, false, true, true, false, false], [2, 3], &x);
        x.mask_select(mask).exp()
    };
    unfold_windows: [unit(14)] => |t| shaped(&t[0], [2, 7]).unfold::<3, _>(1, 3, 2).exp();

    // ---- reshaping and permuting ----------------------------------------------------------------
    reshape: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).reshape([4, 6]).exp();
    reshape_infer_and_keep: [unit(24)]
        => |t| shaped(&t[0], [2, 3, 4]).reshape(ZeroDimPlaceholders([0i64, -1])).sin();
    flatten: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).flatten::<2>(1, 2).exp();
    swap_dims: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).swap_dims(0, 2).exp();
    transpose: [unit(12)] => |t| shaped(&t[0], [3, 4]).transpose().exp();
    t_alias: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).t().exp();
    permute: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).permute([2, 0, 1]).exp();
    permute_negative_axes: [unit(24)]
        => |t| shaped(&t[0], [2, 3, 4]).permute([-1, -3, -2]).exp();
    movedim: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).movedim(0, -1).exp();
    flip: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).flip([0, 2]).exp();
    flip_negative_axis: [unit(12)] => |t| shaped(&t[0], [3, 4]).flip([-1]).exp();
    expand: [unit(6)] => |t| shaped(&t[0], [2, 1, 3]).expand([4, 2, 5, 3]).exp();
    expand_keep_size: [unit(6)]
        => |t| shaped(&t[0], [2, 1, 3]).expand([-1i64, 4, -1]).exp();
    unsqueeze: [unit(6)] => |t| shaped(&t[0], [2, 3]).unsqueeze::<4>().exp();
    unsqueeze_dim: [unit(6)] => |t| shaped(&t[0], [2, 3]).unsqueeze_dim::<3>(1).exp();
    unsqueeze_dims: [unit(6)]
        => |t| shaped(&t[0], [2, 3]).unsqueeze_dims::<4>(&[0, -1]).exp();
    squeeze: [unit(6)] => |t| shaped(&t[0], [2, 1, 3, 1]).squeeze::<2>().exp();
    squeeze_dim: [unit(6)] => |t| shaped(&t[0], [2, 1, 3]).squeeze_dim::<2>(1).exp();
    squeeze_dims: [unit(6)]
        => |t| shaped(&t[0], [1, 2, 3, 1]).squeeze_dims::<2>(&[0, -1]).exp();

    // ---- slicing --------------------------------------------------------------------------------
    slice: [unit(20)] => |t| shaped(&t[0], [4, 5]).slice([1..3, 0..4]).exp();
    slice_steps: [unit(20)] => |t| shaped(&t[0], [4, 5]).slice(s![0..4;2, 1..;2]).exp();
    slice_negative_indices: [unit(20)]
        => |t| shaped(&t[0], [4, 5]).slice(s![-3..-1, -2..]).exp();
    slice_negative_step: [unit(20)]
        => |t| shaped(&t[0], [4, 5]).slice(s![..;-1, 0..5;-2]).exp();
    slice_single_index: [unit(20)] => |t| shaped(&t[0], [4, 5]).slice(s![-1, 1..4]).exp();
    slice_dim: [unit(20)] => |t| shaped(&t[0], [4, 5]).slice_dim(1, 1..4).exp();
    narrow: [unit(20)] => |t| shaped(&t[0], [4, 5]).narrow(0, 1, 2).exp();
    chunk: [unit(20)] => |t| reassemble(shaped(&t[0], [4, 5]).chunk(3, 1), 1);
    split: [unit(20)] => |t| reassemble(shaped(&t[0], [4, 5]).split(3, 0), 0);
    split_with_sizes: [unit(20)]
        => |t| reassemble(shaped(&t[0], [4, 5]).split_with_sizes(vec![1, 3, 1], 1), 1);
    iter_dim: [unit(20)]
        => |t| reassemble(shaped(&t[0], [4, 5]).iter_dim(0).collect(), 0);
    slice_assign: [unit(20), unit(4)]
        => |t| shaped(&t[0], [4, 5]).slice_assign([1..3, 2..4], shaped(&t[1], [2, 2])).exp();
    slice_assign_steps: [unit(20), unit(6)]
        => |t| shaped(&t[0], [4, 5]).slice_assign(s![0..4;2, ..;2], shaped(&t[1], [2, 3])).exp();
    slice_assign_negative_indices: [unit(20), unit(6)]
        => |t| shaped(&t[0], [4, 5]).slice_assign(s![-2.., -4..-1], shaped(&t[1], [2, 3])).exp();
    slice_assign_value_only: [unit(4)] => |t| {
        let base = constant(&[0.5; 20], [4, 5], &t[0]);
        base.slice_assign([0..2, 3..5], shaped(&t[0], [2, 2])).exp()
    };
    slice_fill: [unit(20)] => |t| shaped(&t[0], [4, 5]).slice_fill(s![1..3, ..;2], 2.0).exp();

    slice_step_beyond_size: [unit(20)] => |t| shaped(&t[0], [4, 5]).slice(s![..;3, 1..;7]).exp();
    permute_rank4: [unit(24)]
        => |t| shaped(&t[0], [2, 1, 3, 4]).permute([3, 1, 0, 2]).exp();
    flip_every_dim: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).flip([0, 1, 2]).exp();

    // ---- joining and repeating ------------------------------------------------------------------
    cat_three_with_a_constant: [unit(6), unit(4)] => |t| {
        let c = constant(&[0.5, -0.5], [2, 1], &t[0]);
        Tensor::cat(vec![shaped(&t[0], [2, 3]), c, shaped(&t[1], [2, 2])], 1).exp()
    };
    cat_dim0: [unit(6), unit(3), unit(9)] => |t| {
        let parts = vec![shaped(&t[0], [2, 3]), shaped(&t[1], [1, 3]), shaped(&t[2], [3, 3])];
        Tensor::cat(parts, 0).exp()
    };
    cat_same_tensor_twice: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        Tensor::cat(vec![x.clone(), x.exp()], 0)
    };
    cat_with_an_empty_piece: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let empty = x.clone().narrow(1, 1, 0);
        Tensor::cat(vec![empty, x.clone().exp(), x.narrow(1, 0, 0)], 1)
    };
    stack: [unit(6), unit(6)] => |t| {
        Tensor::stack::<3>(vec![shaped(&t[0], [2, 3]), shaped(&t[1], [2, 3]).exp()], 1)
    };
    repeat_dim: [unit(6)] => |t| shaped(&t[0], [2, 3]).repeat_dim(0, 3).exp();
    repeat: [unit(6)] => |t| shaped(&t[0], [2, 3]).repeat(&[2, 3]).exp();
    roll_dim: [unit(12)] => |t| shaped(&t[0], [3, 4]).roll_dim(-3, 1).exp();
    roll: [unit(12)] => |t| shaped(&t[0], [3, 4]).roll(&[1, 2], &[0, 1]).exp();
    pad_constant: [unit(6)]
        => |t| shaped(&t[0], [2, 3]).pad((1, 2, 0, 1), PadMode::Constant(0.5)).exp();
    pad_zeros: [unit(6)]
        => |t| shaped(&t[0], [1, 2, 3]).pad((2, 0, 1, 1), PadMode::default()).exp();
    pad_edge: [unit(6)] => |t| shaped(&t[0], [2, 3]).pad((2, 1, 1, 2), PadMode::Edge).exp();
    pad_reflect: [unit(12)]
        => |t| shaped(&t[0], [3, 4]).pad((2, 3, 1, 2), PadMode::Reflect).exp();
    pad_dims: [unit(6)]
        => |t| shaped(&t[0], [2, 3]).pad_dims([(1, 0), (0, 2)], PadMode::Edge).exp();
    tril: [unit(12)] => |t| shaped(&t[0], [3, 4]).tril(0).exp();
    tril_offset: [unit(24)] => |t| shaped(&t[0], [2, 3, 4]).tril(-1).exp();
    triu: [unit(12)] => |t| shaped(&t[0], [3, 4]).triu(1).exp();

    // ---- indexing -------------------------------------------------------------------------------
    gather_dim1: [unit(12)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[0, 3, 2, 2, 1, 0], [3, 2], &x);
        x.gather(1, idx).exp()
    };
    gather_dim0: [unit(12)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[2, 0, 1, 2, 2, 2, 0, 1], [2, 4], &x);
        x.gather(0, idx).exp()
    };
    gather_index_smaller_than_tensor: [unit(12)] => |t| {
        // Indices [2, 2] into [3, 4] along dim 1: rows 0-1 only.
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[3, 3, 0, 2], [2, 2], &x);
        x.gather(1, idx).exp()
    };
    scatter_add: [unit(12), unit(8)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[0, 2, 2, 1, 0, 2, 1, 1], [2, 4], &x);
        x.scatter(0, idx, shaped(&t[1], [2, 4]), IndexingUpdateOp::Add).exp()
    };
    scatter_assign: [unit(12), unit(8)] => |t| {
        // Distinct indices per column: each position is written at most once.
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[0, 2, 1, 0, 2, 1, 0, 1], [2, 4], &x);
        x.scatter(0, idx, shaped(&t[1], [2, 4]), IndexingUpdateOp::Assign).exp()
    };
    scatter_assign_dim1: [unit(12), unit(6)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[3, 0, 1, 2, 0, 3], [3, 2], &x);
        x.scatter(1, idx, shaped(&t[1], [3, 2]), IndexingUpdateOp::Assign).exp()
    };
    scatter_add_index_smaller_than_tensor: [unit(12), unit(6)] => |t| {
        // Indices and values [2, 3] into [3, 4] along dim 0: columns 0-2 only.
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[2, 0, 2, 2, 1, 0], [2, 3], &x);
        x.scatter(0, idx, shaped(&t[1], [2, 3]), IndexingUpdateOp::Add).exp()
    };
    scatter_assign_index_smaller_than_tensor: [unit(12), unit(4)] => |t| {
        let x = shaped(&t[0], [3, 4]);
        let idx = ints(&[1, 3, 0, 2], [2, 2], &x);
        x.scatter(1, idx, shaped(&t[1], [2, 2]), IndexingUpdateOp::Assign).exp()
    };
    select: [unit(12)] => |t| {
        let x = shaped(&t[0], [4, 3]);
        let idx = ints(&[3, 0, 3, 1], [4], &x);
        x.select(0, idx).exp()
    };
    select_dim1: [unit(12)] => |t| {
        let x = shaped(&t[0], [4, 3]);
        let idx = ints(&[2, 2, 0], [3], &x);
        x.select(1, idx).exp()
    };
    select_add: [unit(12), unit(9)] => |t| {
        let x = shaped(&t[0], [4, 3]);
        let idx = ints(&[1, 3, 1], [3], &x);
        x.select_add(0, idx, shaped(&t[1], [3, 3])).exp()
    };
    select_assign_add: [unit(12), unit(8)] => |t| {
        let x = shaped(&t[0], [4, 3]);
        let idx = ints(&[2, 0], [2], &x);
        x.select_assign(1, idx, shaped(&t[1], [4, 2]), IndexingUpdateOp::Add).exp()
    };
    select_assign_assign: [unit(12), unit(6)] => |t| {
        let x = shaped(&t[0], [4, 3]);
        let idx = ints(&[3, 1], [2], &x);
        x.select_assign(0, idx, shaped(&t[1], [2, 3]), IndexingUpdateOp::Assign).exp()
    };
    mask_where: [unit(6), unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let mask = bools(&[true, false, false, true, true, false], [2, 3], &x);
        x.mask_where(mask, shaped(&t[1], [2, 3])).exp()
    };
    mask_where_broadcast: [unit(6), unit(3)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let mask = bools(&[true, false, true], [1, 3], &x);
        x.mask_where(mask, shaped(&t[1], [1, 3])).exp()
    };
    mask_where_broadcast_self: [unit(3), unit(6)] => |t| {
        let x = shaped(&t[0], [1, 3]);
        let mask = bools(&[true, false, false, false, true, true], [2, 3], &x);
        x.mask_where(mask, shaped(&t[1], [2, 3])).exp()
    };
    mask_fill: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let mask = bools(&[false, true, false, true, true, false], [2, 3], &x);
        x.mask_fill(mask, 0.25).exp()
    };
    mask_fill_broadcast: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let mask = bools(&[false, true, true], [1, 3], &x);
        x.mask_fill(mask, -2.0).exp()
    };
    mask_fill_broadcast_tensor: [unit(3)] => |t| {
        // The mask is larger than the tensor: the gradient sums back to [1, 3].
        let x = shaped(&t[0], [1, 3]);
        let mask = bools(&[false, true, false, true, true, false], [2, 3], &x);
        x.mask_fill(mask, 0.5).exp()
    };
    mask_from_comparison: [distinct(6, -2.0, 2.0)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let mask = x.clone().greater_elem(0.0);
        x.clone().mask_where(mask, x.exp())
    };

    // ---- constants of the plain device in the first position ------------------------------------
    cat_inner_device_piece_first: [unit(6)] => |t| {
        let c = inner_constant(&[0.5, -0.5, 1.0], [1, 3]);
        Tensor::cat(vec![c, shaped(&t[0], [2, 3])], 0).exp()
    };
    mask_where_tracked_value_into_inner: [unit(6)] => |t| {
        let value = shaped(&t[0], [2, 3]);
        let mask = bools(&[true, false, true, false, true, true], [2, 3], &value);
        inner_constant(&[0.5; 6], [2, 3]).mask_where(mask, value).exp()
    };
    slice_assign_tracked_value_into_inner: [unit(4)] => |t| {
        inner_constant(&[0.25; 12], [3, 4]).slice_assign([1..3, 0..2], shaped(&t[0], [2, 2])).exp()
    };
    scatter_tracked_values_into_inner: [unit(6)] => |t| {
        let values = shaped(&t[0], [2, 3]);
        let idx = ints(&[0, 2, 1, 2, 0, 0], [2, 3], &values);
        inner_constant(&[0.25; 9], [3, 3]).scatter(0, idx, values, IndexingUpdateOp::Add).exp()
    };
    select_add_tracked_values_into_inner: [unit(6)] => |t| {
        let values = shaped(&t[0], [2, 3]);
        let idx = ints(&[2, 2], [2], &values);
        inner_constant(&[0.25; 9], [3, 3]).select_add(0, idx, values).exp()
    };

    // ---- devices and dtypes ---------------------------------------------------------------------
    to_same_device: [unit(6)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let device = x.device();
        x.to_device(&device).exp()
    };
    // Through the other float dtype and back. On float64 devices the round trip goes through
    // float32: the inputs are small so that float32's spacing (3e-11 here) stays far below
    // the finite-difference step.
    cast_round_trip needs [DType::F32, DType::F64]: [uniform(6, 0.00025, 0.00048)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let (other, back) = if x.dtype() == DType::F64 {
            (FloatDType::F32, FloatDType::F64)
        } else {
            (FloatDType::F64, FloatDType::F32)
        };
        x.cast(other).cast(back)
    };
    // A float64 and a float32 operand: the narrower one is promoted, and each leaf gets the
    // gradient of both paths (the scale keeps the gradient well above the tolerance).
    cast_mixed_dtypes_promote needs [DType::F32, DType::F64]: [uniform(6, 0.00025, 0.00048)] => |t| {
        let x = shaped(&t[0], [2, 3]);
        let other = if x.dtype() == DType::F64 { FloatDType::F32 } else { FloatDType::F64 };
        (x.clone() * x.cast(other)).mul_scalar(1e4)
    };
}

/// A scatter that multiplies, or keeps the larger or smaller value, has no gradient rule:
/// tracked inputs are refused rather than given a wrong gradient.
#[test]
#[should_panic(expected = "not implemented")]
fn scatter_mul_refuses_tracked_inputs() {
    let device = super::device().autodiff();
    let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &device).require_grad();
    let idx = ints(&[1, 0], [1, 2], &x);
    let values = Tensor::<2>::from_floats([[2.0, 3.0]], &device);
    let _ = x.scatter(0, idx, values, IndexingUpdateOp::Mul);
}
