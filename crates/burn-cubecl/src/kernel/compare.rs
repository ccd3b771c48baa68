//! Element-wise comparisons producing booleans, with broadcasting, strides and scalar forms.

use super::binary::broadcast_shape;
use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, assert_storage, elem_type};
use crate::launch::{address_type, assert_same_device, elementwise_geometry, vector_size};
use burn_backend::{DType, Scalar};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

op_table! {
    /// An element-wise comparison.
    CompareOp {
        /// `lhs == rhs`.
        Equal => "equal",
        /// `lhs != rhs`.
        NotEqual => "not_equal",
        /// `lhs > rhs`.
        Greater => "greater",
        /// `lhs >= rhs`.
        GreaterEqual => "greater_equal",
        /// `lhs < rhs`.
        Lower => "lower",
        /// `lhs <= rhs`.
        LowerEqual => "lower_equal",
    }
}

#[cube]
pub(crate) fn apply_compare<C: Numeric, N: Size>(
    lhs: Vector<C, N>,
    rhs: Vector<C, N>,
    #[comptime] op: CompareOp,
) -> Vector<bool, N> {
    match op {
        CompareOp::Equal => lhs.equal(&rhs),
        // The negated equality, so that NaN != NaN holds on targets whose `!=` is ordered
        // (SPIR-V's `FOrdNotEqual`).
        CompareOp::NotEqual => !lhs.equal(&rhs),
        CompareOp::Greater => lhs.greater_than(&rhs),
        CompareOp::GreaterEqual => lhs.greater_equal(&rhs),
        CompareOp::Lower => lhs.less_than(&rhs),
        CompareOp::LowerEqual => lhs.less_equal(&rhs),
    }
}

#[cube(launch, address_type = "dynamic")]
fn compare_kernel<C: Numeric, B: Numeric, N: Size>(
    lhs: LinearView<'_, Vector<C, N>>,
    rhs: LinearView<'_, Vector<C, N>>,
    mut output: LinearViewMut<'_, Vector<B, N>>,
    #[comptime] op: CompareOp,
    #[define(C, B)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let result = apply_compare::<C, N>(lhs.read(ABSOLUTE_POS), rhs.read(ABSOLUTE_POS), op);
    output.write(ABSOLUTE_POS, Vector::cast_from(result));
}

#[cube(launch, address_type = "dynamic")]
fn compare_scalar_kernel<C: Numeric, B: Numeric, N: Size>(
    lhs: LinearView<'_, Vector<C, N>>,
    rhs: InputScalar,
    mut output: LinearViewMut<'_, Vector<B, N>>,
    #[comptime] op: CompareOp,
    #[define(C, B)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let rhs = Vector::new(rhs.get::<C>());
    let result = apply_compare::<C, N>(lhs.read(ABSOLUTE_POS), rhs, op);
    output.write(ABSOLUTE_POS, Vector::cast_from(result));
}

fn check(op: CompareOp, lhs: &CubeTensor, out_dtype: DType) {
    assert!(
        matches!(out_dtype, DType::Bool(_)),
        "{}: the output dtype must be a bool dtype, got {out_dtype}",
        op.name()
    );
    assert_arithmetic(op.name(), &lhs.client, lhs.dtype);
    assert_storage(op.name(), &lhs.client, out_dtype);
}

/// `op(lhs, rhs)` element-wise as booleans of `out_dtype` (a `Bool` dtype the device stores,
/// see [`crate::dtype::bool_dtype`]), the operands broadcast and read through their strides.
/// Both operands must have the same dtype and device.
pub fn compare(op: CompareOp, lhs: CubeTensor, rhs: CubeTensor, out_dtype: DType) -> CubeTensor {
    assert_eq!(
        lhs.dtype,
        rhs.dtype,
        "{}: operands have different dtypes ({} and {})",
        op.name(),
        lhs.dtype,
        rhs.dtype
    );
    assert_same_device(op.name(), &[&lhs, &rhs]);
    check(op, &lhs, out_dtype);
    let out_shape = broadcast_shape(op.name(), &lhs.shape, &rhs.shape);
    let rank = out_shape.num_dims();
    let lhs = lhs.unsqueeze_to(rank);
    let rhs = rhs.unsqueeze_to(rank);
    let output = lhs.empty_like(out_shape.clone(), out_dtype);
    let count = out_shape.num_elements();
    if count == 0 {
        return output;
    }
    let client = lhs.client.clone();
    let size = lhs.dtype.size().max(out_dtype.size());
    let vector = vector_size(&client, &out_shape, &[&lhs, &rhs, &output], size);
    let addresses = address_type(&[&lhs, &rhs, &output]);
    let (cube_count, cube_dim) = elementwise_geometry(&client, count / vector);
    let dtypes = [elem_type(lhs.dtype), elem_type(out_dtype)];
    crate::launch::before_launch(&client);
    compare_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        lhs.into_linear_view_broadcast(&out_shape),
        rhs.into_linear_view_broadcast(&out_shape),
        output.clone().into_linear_view(),
        op,
        dtypes,
    );
    output
}

/// `op(lhs, rhs)` element-wise for a scalar `rhs` (converted to the tensor's dtype), as
/// booleans of `out_dtype`.
pub fn compare_scalar(op: CompareOp, lhs: CubeTensor, rhs: Scalar, out_dtype: DType) -> CubeTensor {
    check(op, &lhs, out_dtype);
    let shape = lhs.shape.clone();
    let output = lhs.empty_like(shape.clone(), out_dtype);
    let count = shape.num_elements();
    if count == 0 {
        return output;
    }
    let client = lhs.client.clone();
    let size = lhs.dtype.size().max(out_dtype.size());
    let vector = vector_size(&client, &shape, &[&lhs, &output], size);
    let addresses = address_type(&[&lhs, &output]);
    let (cube_count, cube_dim) = elementwise_geometry(&client, count / vector);
    let dtypes = [elem_type(lhs.dtype), elem_type(out_dtype)];
    let scalar = scalar_arg(rhs, lhs.dtype);
    crate::launch::before_launch(&client);
    compare_scalar_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        lhs.into_linear_view(),
        scalar,
        output.clone().into_linear_view(),
        op,
        dtypes,
    );
    output
}
