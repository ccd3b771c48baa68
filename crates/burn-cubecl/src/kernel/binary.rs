//! Element-wise binary arithmetic with NumPy broadcasting, arbitrary strides on both operands,
//! scalar forms, and in-place reuse of a unique operand buffer.

use super::precision::compute_dtype;
use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::{ElementwisePlan, assert_same_device, plan_elementwise};
use burn_backend::{Scalar, Shape};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

op_table! {
    /// An element-wise binary operation.
    BinaryOp {
        /// `lhs + rhs`.
        Add => "add",
        /// `lhs - rhs`.
        Sub => "sub",
        /// `lhs * rhs`.
        Mul => "mul",
        /// `lhs / rhs` (integer division truncates).
        Div => "div",
        /// The remainder with the sign of the divisor (`lhs - rhs * floor(lhs / rhs)`).
        Remainder => "remainder",
        /// `lhs ^ rhs` (float dtypes only).
        Powf => "powf",
        /// The angle of the point `(rhs, lhs)`, `atan2(lhs, rhs)` (float dtypes only).
        Atan2 => "atan2",
        /// `sqrt(lhs² + rhs²)` with no overflow in the squares (float dtypes only).
        Hypot => "hypot",
        /// The larger of the two (NaN if either is NaN).
        Max => "max_pair",
        /// The smaller of the two (NaN if either is NaN).
        Min => "min_pair",
    }
}

impl BinaryOp {
    /// Whether the operation exists for float dtypes only.
    fn is_float_only(self) -> bool {
        matches!(self, BinaryOp::Powf | BinaryOp::Atan2 | BinaryOp::Hypot)
    }

    /// Whether the operation needs the extended (transcendental) instruction set.
    pub(crate) fn is_transcendental(self) -> bool {
        self.is_float_only()
    }
}

/// The operation on any numeric type. `Powf`, `Atan2` and `Hypot` never reach it (the host routes floats
/// to [`apply_float`] and refuses them on other dtypes), nor does a float `Remainder`.
#[cube]
pub(crate) fn apply_numeric<C: Numeric, N: Size>(
    lhs: Vector<C, N>,
    rhs: Vector<C, N>,
    #[comptime] op: BinaryOp,
) -> Vector<C, N> {
    match op {
        BinaryOp::Add => lhs + rhs,
        BinaryOp::Sub => lhs - rhs,
        BinaryOp::Mul => lhs * rhs,
        BinaryOp::Div => lhs / rhs,
        BinaryOp::Remainder => remainder_int::<C, N>(lhs, rhs),
        BinaryOp::Max => select_many(lhs.less_than(&rhs), rhs, lhs),
        BinaryOp::Min => select_many(rhs.less_than(&lhs), rhs, lhs),
        BinaryOp::Powf | BinaryOp::Atan2 | BinaryOp::Hypot => lhs,
    }
}

/// The integer remainder with the sign of the divisor, from truncating division only: the
/// native `%` of some targets (GLSL, reached through WGPU's GL backend) is undefined for
/// negative operands.
#[cube]
fn remainder_int<C: Numeric, N: Size>(lhs: Vector<C, N>, rhs: Vector<C, N>) -> Vector<C, N> {
    let zero = Vector::from_int(0);
    let truncated = lhs - (lhs / rhs) * rhs;
    // A non-zero remainder whose sign differs from the divisor's moves by one divisor.
    let below = truncated.less_than(&zero).vec_and(rhs.greater_than(&zero));
    let above = truncated.greater_than(&zero).vec_and(rhs.less_than(&zero));
    truncated + select_many(below.or(above), rhs, zero)
}

#[cube]
pub(crate) fn apply_float<F: Float, N: Size>(
    lhs: Vector<F, N>,
    rhs: Vector<F, N>,
    #[comptime] op: BinaryOp,
) -> Vector<F, N> {
    match op {
        BinaryOp::Powf => Vector::powf(lhs, rhs),
        BinaryOp::Atan2 => Vector::atan2(lhs, rhs),
        BinaryOp::Hypot => hypot::<F, N>(lhs, rhs),
        BinaryOp::Remainder => Vector::mod_floor(lhs, rhs),
        // A NaN on either side is the result (the numeric form already keeps a NaN lhs).
        BinaryOp::Max | BinaryOp::Min => {
            select_many(rhs.is_nan(), rhs, apply_numeric::<F, N>(lhs, rhs, op))
        }
        _ => apply_numeric::<F, N>(lhs, rhs, op),
    }
}

/// `hypot` with the larger magnitude `m` factored out, `m * sqrt(1 + (s / m)²)`, so that the
/// squares neither overflow nor underflow; infinite where either side is (even against a NaN).
#[cube]
pub(crate) fn hypot<F: Float, N: Size>(lhs: Vector<F, N>, rhs: Vector<F, N>) -> Vector<F, N> {
    let zero = Vector::new(F::new(0.0));
    let one = Vector::new(F::new(1.0));
    let a = Vector::abs(lhs);
    let b = Vector::abs(rhs);
    let a_smaller = a.less_than(&b);
    let large = select_many(a_smaller, b, a);
    let small = select_many(a_smaller, a, b);
    let ratio = small / select_many(large.equal(&zero), one, large);
    let out = large * Vector::sqrt(one + ratio * ratio);
    // The infinite magnitude itself, not an infinity literal (WGSL has none: `f32(+Inf)` fails
    // to parse on the GL path).
    let a_infinite = Vector::is_inf(a);
    let infinite = a_infinite.or(Vector::is_inf(b));
    select_many(infinite, select_many(a_infinite, a, b), out)
}

#[cube(launch, address_type = "dynamic")]
fn binary_numeric_kernel<C: Numeric, N: Size>(
    lhs: LinearView<'_, Vector<C, N>>,
    rhs: LinearView<'_, Vector<C, N>>,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[comptime] op: BinaryOp,
    #[define(C)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let value = apply_numeric::<C, N>(lhs.read(ABSOLUTE_POS), rhs.read(ABSOLUTE_POS), op);
    output.write(ABSOLUTE_POS, value);
}

/// Reads `F`, computes in `A` (see [`compute_dtype`]), stores `F`.
#[cube(launch, address_type = "dynamic")]
fn binary_float_kernel<F: Float, A: Float, N: Size>(
    lhs: LinearView<'_, Vector<F, N>>,
    rhs: LinearView<'_, Vector<F, N>>,
    mut output: LinearViewMut<'_, Vector<F, N>>,
    #[comptime] op: BinaryOp,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let lhs = Vector::<A, N>::cast_from(lhs.read(ABSOLUTE_POS));
    let rhs = Vector::<A, N>::cast_from(rhs.read(ABSOLUTE_POS));
    output.write(
        ABSOLUTE_POS,
        Vector::cast_from(apply_float::<A, N>(lhs, rhs, op)),
    );
}

#[cube(launch, address_type = "dynamic")]
fn binary_scalar_numeric_kernel<C: Numeric, N: Size>(
    lhs: LinearView<'_, Vector<C, N>>,
    rhs: InputScalar,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[comptime] op: BinaryOp,
    #[define(C)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let rhs = Vector::new(rhs.get::<C>());
    output.write(
        ABSOLUTE_POS,
        apply_numeric::<C, N>(lhs.read(ABSOLUTE_POS), rhs, op),
    );
}

/// Reads `F`, computes in `A` (the scalar given in `A`), stores `F`.
#[cube(launch, address_type = "dynamic")]
fn binary_scalar_float_kernel<F: Float, A: Float, N: Size>(
    lhs: LinearView<'_, Vector<F, N>>,
    rhs: InputScalar,
    mut output: LinearViewMut<'_, Vector<F, N>>,
    #[comptime] op: BinaryOp,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let lhs = Vector::<A, N>::cast_from(lhs.read(ABSOLUTE_POS));
    let rhs = Vector::new(rhs.get::<A>());
    output.write(
        ABSOLUTE_POS,
        Vector::cast_from(apply_float::<A, N>(lhs, rhs, op)),
    );
}

/// Checks what every binary operation requires of its left operand's dtype.
fn check_dtype(op: BinaryOp, lhs: &CubeTensor) {
    let dtype = lhs.dtype;
    assert!(
        !dtype.is_bool(),
        "{}: expected a numeric tensor, got {dtype}",
        op.name()
    );
    assert!(
        !op.is_float_only() || dtype.is_float(),
        "{}: expected a float tensor, got {dtype}",
        op.name()
    );
    assert_arithmetic(op.name(), &lhs.client, dtype);
}

/// The broadcast shape of two operands, panicking with the operation's name when the shapes
/// are incompatible.
pub(crate) fn broadcast_shape(op: &str, lhs: &Shape, rhs: &Shape) -> Shape {
    lhs.broadcast(rhs).unwrap_or_else(|| {
        panic!(
            "{op}: shapes {:?} and {:?} cannot be broadcast together",
            lhs.dims, rhs.dims
        )
    })
}

/// `op(lhs, rhs)` element-wise, the operands broadcast against each other (NumPy rules) and
/// read through their strides. Both must have the same dtype and device. The result is written
/// into an operand's buffer when that operand is unique, non-overlapping and already of the
/// output shape; otherwise into a new tensor.
pub fn binary(op: BinaryOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    assert_eq!(
        lhs.dtype,
        rhs.dtype,
        "{}: operands have different dtypes ({} and {})",
        op.name(),
        lhs.dtype,
        rhs.dtype
    );
    assert_same_device(op.name(), &[&lhs, &rhs]);
    check_dtype(op, &lhs);
    let out_shape = broadcast_shape(op.name(), &lhs.shape, &rhs.shape);
    let rank = out_shape.num_dims();
    let lhs = lhs.unsqueeze_to(rank);
    let rhs = rhs.unsqueeze_to(rank);
    let dtype = lhs.dtype;
    let count = out_shape.num_elements();
    if count == 0 {
        return lhs.empty_like(out_shape, dtype);
    }
    if super::host::binary_needs_host(&lhs, op) {
        let (lhs, rhs) = (lhs.expand(out_shape.clone()), rhs.expand(out_shape));
        return super::host::binary_f64(op, lhs, rhs);
    }
    let client = lhs.client.clone();
    let elem = elem_type(dtype);
    let float = dtype.is_float();

    // The output is one of the operands (aliased) or a new tensor.
    let ElementwisePlan {
        output,
        out_view,
        vector,
        addresses,
        cube_count,
        cube_dim,
    } = plan_elementwise(&[&lhs, &rhs], &out_shape, dtype);
    let compute = elem_type(compute_dtype(&lhs, op.is_transcendental()));
    let lhs_view = lhs.into_linear_view_broadcast(&out_shape);
    let rhs_view = rhs.into_linear_view_broadcast(&out_shape);
    if float {
        crate::launch::before_launch(&client);
        binary_float_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            addresses,
            vector,
            lhs_view,
            rhs_view,
            out_view,
            op,
            [elem, compute],
        );
    } else {
        crate::launch::before_launch(&client);
        binary_numeric_kernel::launch(
            &client, cube_count, cube_dim, addresses, vector, lhs_view, rhs_view, out_view, op,
            elem,
        );
    }
    output
}

/// `op(lhs, rhs)` element-wise for a scalar `rhs` (converted to the tensor's dtype with `as`
/// semantics). Written in place when `lhs`'s buffer is unique and non-overlapping.
pub fn binary_scalar(op: BinaryOp, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
    check_dtype(op, &lhs);
    let count = lhs.num_elements();
    if count == 0 {
        return lhs;
    }
    let dtype = lhs.dtype;
    let shape = lhs.shape.clone();
    if super::host::binary_needs_host(&lhs, op) {
        let rhs = super::fill::full(shape, rhs, dtype, &lhs.device);
        return super::host::binary_f64(op, lhs, rhs);
    }
    let client = lhs.client.clone();
    let elem = elem_type(dtype);
    let ElementwisePlan {
        output,
        out_view,
        vector,
        addresses,
        cube_count,
        cube_dim,
    } = plan_elementwise(&[&lhs], &shape, dtype);
    if dtype.is_float() {
        // The scalar is given in the compute dtype, so an f16 tensor sees the exact f32 value.
        let compute = compute_dtype(&lhs, op.is_transcendental());
        let scalar = scalar_arg(rhs, compute);
        crate::launch::before_launch(&client);
        binary_scalar_float_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            addresses,
            vector,
            lhs.into_linear_view(),
            scalar,
            out_view,
            op,
            [elem, elem_type(compute)],
        );
    } else {
        let scalar = scalar_arg(rhs, dtype);
        crate::launch::before_launch(&client);
        binary_scalar_numeric_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            addresses,
            vector,
            lhs.into_linear_view(),
            scalar,
            out_view,
            op,
            elem,
        );
    }
    output
}
