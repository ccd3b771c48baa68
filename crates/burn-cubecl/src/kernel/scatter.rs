//! Writing by index tensors: `scatter` and `select_add` along a dim, for every update op.
//!
//! Updates never race: one unit owns one line of the output along `dim` and applies the
//! updates aimed at it in the order of the indices, so duplicates accumulate exactly and, for
//! `Assign`, the last one wins (as on the CPU backend). Out-of-range indices are skipped.

use super::index::{
    IndexView, buffer, check_dim, check_index_shape, check_indices, check_values, divisors,
    last_index, sequence,
};
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::{address_type, elementwise_geometry};
use burn_backend::IndexingUpdateOp;
use cubecl::prelude::select as pick;
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Whether a float value is NaN (`float` comptime: always false for other dtypes).
#[cube]
fn is_nan<T: Numeric>(value: T, #[comptime] float: bool) -> bool {
    let mut nan = false;
    if comptime![float] {
        nan = f32::cast_from(value).is_nan();
    }
    nan
}

/// `current` updated with `value`. Max and Min propagate NaN (either side), as the CPU
/// backend does.
#[cube]
fn combine<T: Numeric>(
    current: T,
    value: T,
    #[comptime] update: IndexingUpdateOp,
    #[comptime] float: bool,
) -> T {
    match update {
        IndexingUpdateOp::Assign => value,
        IndexingUpdateOp::Add => current + value,
        IndexingUpdateOp::Mul => current * value,
        // A NaN `current` is kept by both comparisons; a NaN `value` is taken.
        IndexingUpdateOp::Max => {
            let larger = pick(current < value, value, current);
            pick(is_nan::<T>(value, float), value, larger)
        }
        IndexingUpdateOp::Min => {
            let smaller = pick(value < current, value, current);
            pick(is_nan::<T>(value, float), value, smaller)
        }
    }
}

/// One unit per line: the unit of coordinates `c` (in `lines`, whose `dim` is 1) walks
/// `j in 0..len` and updates `output[Σ c·output_strides + indices[..j..] · output_strides[dim]]`
/// with `values[..j..]`, skipping indices out of `0..=last`.
#[cube(launch, address_type = "dynamic")]
fn scatter_kernel<T: Numeric, I: Int>(
    output: &mut [T],
    indices: &[I],
    values: &[T],
    lines: Sequence<FastDivmod<usize>>,
    output_strides: Sequence<usize>,
    index_strides: Sequence<usize>,
    value_strides: Sequence<usize>,
    units: usize,
    len: usize,
    last: InputScalar,
    #[comptime] dim: usize,
    #[comptime] update: IndexingUpdateOp,
    #[comptime] float: bool,
    #[define(T, I)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let rank = comptime![lines.len()];
    let mut remaining = ABSOLUTE_POS;
    let mut out_base = 0;
    let mut index_at = 0;
    let mut value_at = 0;
    #[unroll]
    for i in 0..rank {
        let d = comptime![rank - 1 - i];
        if comptime![d != dim] {
            let (quotient, coordinate) = lines[d].div_mod(remaining);
            out_base += coordinate * output_strides[d];
            index_at += coordinate * index_strides[d];
            value_at += coordinate * value_strides[d];
            remaining = quotient;
        }
    }
    let out_step = output_strides[dim];
    let index_step = index_strides[dim];
    let value_step = value_strides[dim];
    let lower = I::from_int(0);
    let upper = last.get::<I>();
    for _ in 0..len {
        let index = indices[index_at];
        if index >= lower && index <= upper {
            let target = out_base + usize::cast_from(index) * out_step;
            output[target] = combine::<T>(output[target], values[value_at], update, float);
        }
        index_at += index_step;
        value_at += value_step;
    }
}

/// Updates, along `dim`, the output lines that `indices` aim at with `values` (which cover the
/// indices' shape): the shared body of `scatter` and `select_add`.
fn scatter_with(
    op: &str,
    dim: usize,
    tensor: CubeTensor,
    indices: IndexView,
    values: CubeTensor,
    update: IndexingUpdateOp,
) -> CubeTensor {
    let len = indices.shape.dims[dim];
    let mut lines = indices.shape.clone();
    lines.dims[dim] = 1;
    let units = lines.num_elements();
    let size = tensor.shape.dims[dim];
    if units == 0 || len == 0 || size == 0 {
        return tensor;
    }
    let output = if tensor.can_mut() && tensor.is_nonoverlapping() {
        tensor
    } else {
        super::copy_strided(&tensor, 0)
    };
    // Booleans (0 or 1) combine with `or` for Add and `and` for Mul, as the CPU backend does.
    let update = match (output.dtype.is_bool(), update) {
        (true, IndexingUpdateOp::Add) => IndexingUpdateOp::Max,
        (true, IndexingUpdateOp::Mul) => IndexingUpdateOp::Min,
        (_, update) => update,
    };
    if update != IndexingUpdateOp::Assign && !output.dtype.is_bool() {
        assert_arithmetic(op, &output.client, output.dtype);
    }
    let client = output.client.clone();
    let index_dtype = indices.tensor.dtype;
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);
    crate::launch::before_launch(&client);
    scatter_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&output, &indices.tensor, &values]),
        buffer(&output),
        buffer(&indices.tensor),
        buffer(&values),
        divisors(&lines.dims),
        sequence(&output.strides),
        sequence(&indices.strides),
        sequence(&values.strides),
        units,
        len,
        last_index(size, index_dtype),
        dim,
        update,
        output.dtype.is_float(),
        [elem_type(output.dtype), elem_type(index_dtype)],
    );
    output
}

/// `tensor` with `values` combined in at `indices` along `dim` by `update` (for `dim = 1`:
/// `out[i][indices[i][j][k]][k] = update(out[..], values[i][j][k])`). `indices` (any integer
/// dtype) has `tensor`'s rank and no larger size outside `dim`; `values` covers the indices'
/// shape. Updates of one output line apply in the indices' order, so duplicates accumulate
/// (and the last wins for `Assign`); out-of-range indices are skipped. Written into `tensor`'s
/// buffer when it is unique and non-overlapping, else into a copy. On bool tensors, `Add` is
/// `or` and `Mul` is `and`.
///
/// # Panics
///
/// On a bad `dim`, non-integer or ill-fitting indices, values of another dtype or too small a
/// shape, or tensors on different devices.
pub fn scatter(
    dim: usize,
    tensor: CubeTensor,
    indices: CubeTensor,
    values: CubeTensor,
    update: IndexingUpdateOp,
) -> CubeTensor {
    check_indices("scatter", &tensor, &indices);
    check_values("scatter", &tensor, &values);
    check_dim("scatter", &tensor.shape, dim);
    check_index_shape("scatter", &tensor.shape, &indices.shape, dim);
    let covers = values.shape.num_dims() == indices.shape.num_dims()
        && (0..indices.shape.num_dims()).all(|d| indices.shape.dims[d] <= values.shape.dims[d]);
    assert!(
        covers,
        "scatter: values of shape {:?} do not cover indices of shape {:?}",
        values.shape.dims, indices.shape.dims
    );
    super::bounds::validate("scatter", &indices, tensor.shape.dims[dim], dim);
    scatter_with(
        "scatter",
        dim,
        tensor,
        IndexView::own(indices),
        values,
        update,
    )
}

/// `tensor` with slice `j` of `values` along `dim` combined by `update` into slice
/// `indices[j]` (1-D, any integer dtype), for every `j` in order: repeated indices accumulate,
/// out-of-range ones are skipped. `values` has `tensor`'s shape with `dims[dim] =
/// indices.len()`. In place when `tensor` is unique and non-overlapping.
///
/// # Panics
///
/// On a bad `dim`, non-1-D or non-integer indices, values of another dtype or shape, or
/// tensors on different devices.
pub fn select_add(
    tensor: CubeTensor,
    dim: usize,
    indices: CubeTensor,
    values: CubeTensor,
    update: IndexingUpdateOp,
) -> CubeTensor {
    check_indices("select_add", &tensor, &indices);
    check_values("select_add", &tensor, &values);
    check_dim("select_add", &tensor.shape, dim);
    assert_eq!(
        indices.shape.num_dims(),
        1,
        "select_add: expected 1-D indices, got shape {:?}",
        indices.shape.dims
    );
    let mut expected = tensor.shape.clone();
    expected.dims[dim] = indices.shape.dims[0];
    assert_eq!(
        values.shape.dims, expected.dims,
        "select_add: values of shape {:?}, expected {:?}",
        values.shape.dims, expected.dims
    );
    super::bounds::validate("select_add", &indices, tensor.shape.dims[dim], dim);
    let indices = IndexView::along(indices, tensor.shape.clone(), dim);
    scatter_with("select_add", dim, tensor, indices, values, update)
}
