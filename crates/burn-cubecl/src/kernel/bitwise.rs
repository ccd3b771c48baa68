//! Integer-only element-wise operations: bitwise logic and shifts (tensor and scalar forms),
//! the complement, integer powers and absolute values. NumPy broadcasting, strided operands and
//! in-place reuse of a unique operand buffer, as in [`super::binary`].
//!
//! The semantics are the CPU backend's (`burn-flex`), also where the hardware's are undefined:
//!
//! - Shifts by an amount at or beyond the bit width give 0 (`<<`, and `>>` of unsigned or
//!   non-negative values) or -1 (`>>` of negative values: the right shift is arithmetic for
//!   signed types). Shifts by a negative amount leave the value unchanged; for `u64`, an amount
//!   of 2⁶³ or more counts as negative (the CPU backend reads amounts as `i64`).
//! - `x ^ n` wraps on overflow; a negative exponent gives the truncated real result (1 for
//!   base 1, ±1 for base -1 by the exponent's parity, 0 otherwise); an exponent above `u32::MAX`
//!   is taken as `u32::MAX`.
//! - `abs` wraps (`abs(i8::MIN) == i8::MIN`) and is the identity on unsigned types.

use super::binary::broadcast_shape;
use super::cast::cast;
use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::{assert_same_device, plan_elementwise};
use burn_backend::{DType, Scalar};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

op_table! {
    /// A bitwise operation on integer tensors.
    BitwiseOp {
        /// `lhs & rhs`.
        And => "bitwise_and",
        /// `lhs | rhs`.
        Or => "bitwise_or",
        /// `lhs ^ rhs` (exclusive or).
        Xor => "bitwise_xor",
        /// `lhs << rhs` (see the module docs for out-of-range amounts).
        LeftShift => "bitwise_left_shift",
        /// `lhs >> rhs`, arithmetic for signed types (see the module docs).
        RightShift => "bitwise_right_shift",
    }
}

/// The binary operations of the integer kernel: the bitwise table plus the power.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
enum IntOp {
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Pow,
}

impl From<BitwiseOp> for IntOp {
    fn from(op: BitwiseOp) -> Self {
        match op {
            BitwiseOp::And => IntOp::And,
            BitwiseOp::Or => IntOp::Or,
            BitwiseOp::Xor => IntOp::Xor,
            BitwiseOp::LeftShift => IntOp::Shl,
            BitwiseOp::RightShift => IntOp::Shr,
        }
    }
}

/// The unary operations of the integer kernel.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
enum IntUnaryOp {
    Not,
    Abs,
}

/// What the kernels need to know of the integer type at compile time.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
struct IntInfo {
    signed: bool,
    bits: u32,
}

impl IntInfo {
    fn of(dtype: DType) -> Self {
        Self {
            signed: dtype.is_signed_int(),
            bits: 8 * dtype.size() as u32,
        }
    }
}

#[cube]
fn apply_int<C: Int, N: Size>(
    lhs: Vector<C, N>,
    rhs: Vector<C, N>,
    #[comptime] op: IntOp,
    #[comptime] info: IntInfo,
) -> Vector<C, N> {
    match op {
        IntOp::And => lhs & rhs,
        IntOp::Or => lhs | rhs,
        IntOp::Xor => lhs ^ rhs,
        IntOp::Shl => shift_left::<C, N>(lhs, rhs, info),
        IntOp::Shr => shift_right::<C, N>(lhs, rhs, info),
        IntOp::Pow => power::<C, N>(lhs, rhs, info),
    }
}

/// The lanes whose shift amount counts as negative (see the module docs).
#[cube]
fn negative_amount<C: Int, N: Size>(
    amount: Vector<C, N>,
    #[comptime] info: IntInfo,
) -> Vector<bool, N> {
    if comptime![!info.signed && info.bits == 64] {
        amount.greater_than(&Vector::new(C::from_int(i64::MAX)))
    } else {
        // Never true for the other unsigned types.
        amount.less_than(&Vector::new(C::from_int(0)))
    }
}

/// `value << amount`, the amount first brought in range (the hardware leaves shifts by the
/// bit width or more undefined).
#[cube]
fn shift_left<C: Int, N: Size>(
    value: Vector<C, N>,
    amount: Vector<C, N>,
    #[comptime] info: IntInfo,
) -> Vector<C, N> {
    let zero = Vector::new(C::from_int(0));
    let width = Vector::new(C::from_int(comptime![info.bits as i64]));
    let negative = negative_amount::<C, N>(amount, info);
    let too_far = amount.greater_equal(&width);
    let shifted = value << select_many(negative.or(too_far), zero, amount);
    select_many(negative, value, select_many(too_far, zero, shifted))
}

/// `value >> amount`: an amount at or beyond the width shifts by `width - 1`, which for signed
/// types fills with the sign; unsigned types give 0 there.
#[cube]
fn shift_right<C: Int, N: Size>(
    value: Vector<C, N>,
    amount: Vector<C, N>,
    #[comptime] info: IntInfo,
) -> Vector<C, N> {
    let zero = Vector::new(C::from_int(0));
    let width = Vector::new(C::from_int(comptime![info.bits as i64]));
    let last = Vector::new(C::from_int(comptime![info.bits as i64 - 1]));
    let negative = negative_amount::<C, N>(amount, info);
    let too_far = amount.greater_equal(&width);
    let safe = select_many(negative, zero, select_many(too_far, last, amount));
    let mut shifted = value >> safe;
    if comptime![!info.signed] {
        shifted = select_many(too_far, zero, shifted);
    }
    select_many(negative, value, shifted)
}

/// `base ^ exp` by binary exponentiation over a fixed number of exponent bits (no divergent
/// loops), wrapping like the integer multiplication it is made of.
#[cube]
fn power<C: Int, N: Size>(
    base: Vector<C, N>,
    exp: Vector<C, N>,
    #[comptime] info: IntInfo,
) -> Vector<C, N> {
    let zero = Vector::new(C::from_int(0));
    let one = Vector::new(C::from_int(1));
    // Never true for unsigned types.
    let negative = exp.less_than(&zero);
    let mut remaining = select_many(negative, zero, exp);
    if comptime![info.bits == 64] {
        let cap = Vector::new(C::from_int(u32::MAX as i64));
        remaining = select_many(remaining.greater_than(&cap), cap, remaining);
    }
    let mut result = one;
    let mut square = base;
    #[unroll]
    for _ in 0..comptime![info.bits.min(32)] {
        let bit = (remaining & one).equal(&one);
        result = select_many(bit, result * square, result);
        square *= square;
        remaining >>= one;
    }
    // Negative exponents: only bases 1 and -1 keep a non-zero integer part.
    let minus_one = zero - one;
    let odd = (exp & one).equal(&one);
    let minus_one_power = select_many(odd, minus_one, one);
    let truncated = select_many(
        base.equal(&one),
        one,
        select_many(base.equal(&minus_one), minus_one_power, zero),
    );
    select_many(negative, truncated, result)
}

#[cube(launch, address_type = "dynamic")]
fn int_binary_kernel<C: Int, N: Size>(
    lhs: LinearView<'_, Vector<C, N>>,
    rhs: LinearView<'_, Vector<C, N>>,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[comptime] op: IntOp,
    #[comptime] info: IntInfo,
    #[define(C)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let value = apply_int::<C, N>(lhs.read(ABSOLUTE_POS), rhs.read(ABSOLUTE_POS), op, info);
    output.write(ABSOLUTE_POS, value);
}

#[cube(launch, address_type = "dynamic")]
fn int_scalar_kernel<C: Int, N: Size>(
    lhs: LinearView<'_, Vector<C, N>>,
    rhs: InputScalar,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[comptime] op: IntOp,
    #[comptime] info: IntInfo,
    #[define(C)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let rhs = Vector::new(rhs.get::<C>());
    let value = apply_int::<C, N>(lhs.read(ABSOLUTE_POS), rhs, op, info);
    output.write(ABSOLUTE_POS, value);
}

#[cube(launch, address_type = "dynamic")]
fn int_unary_kernel<C: Int, N: Size>(
    input: LinearView<'_, Vector<C, N>>,
    mut output: LinearViewMut<'_, Vector<C, N>>,
    #[comptime] op: IntUnaryOp,
    #[define(C)] _dtype: ElemType,
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let x = input.read(ABSOLUTE_POS);
    let value = match op {
        IntUnaryOp::Not => !x,
        IntUnaryOp::Abs => {
            let zero = Vector::new(C::from_int(0));
            select_many(x.less_than(&zero), zero - x, x)
        }
    };
    output.write(ABSOLUTE_POS, value);
}

/// Panics, naming `op`, unless `tensor` has an integer dtype the device computes with.
fn check_int(op: &str, tensor: &CubeTensor) {
    let dtype = tensor.dtype;
    assert!(
        dtype.is_int(),
        "{op}: expected an integer tensor, got {dtype}"
    );
    assert_arithmetic(op, &tensor.client, dtype);
}

/// `op(lhs, rhs)` with broadcasting, into an operand's buffer when one can be reused.
fn launch_binary(op: IntOp, name: &str, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    assert_eq!(
        lhs.dtype, rhs.dtype,
        "{name}: operands have different dtypes ({} and {})",
        lhs.dtype, rhs.dtype
    );
    assert_same_device(name, &[&lhs, &rhs]);
    check_int(name, &lhs);
    let out_shape = broadcast_shape(name, &lhs.shape, &rhs.shape);
    let rank = out_shape.num_dims();
    let lhs = lhs.unsqueeze_to(rank);
    let rhs = rhs.unsqueeze_to(rank);
    let dtype = lhs.dtype;
    let count = out_shape.num_elements();
    if count == 0 {
        return lhs.empty_like(out_shape, dtype);
    }
    let client = lhs.client.clone();
    let plan = plan_elementwise(&[&lhs, &rhs], &out_shape, dtype);
    crate::launch::before_launch(&client);
    int_binary_kernel::launch(
        &client,
        plan.cube_count,
        plan.cube_dim,
        plan.addresses,
        plan.vector,
        lhs.into_linear_view_broadcast(&out_shape),
        rhs.into_linear_view_broadcast(&out_shape),
        plan.out_view,
        op,
        IntInfo::of(dtype),
        elem_type(dtype),
    );
    plan.output
}

/// `op(lhs, rhs)` for a scalar `rhs` converted to the tensor's dtype with `as` semantics.
fn launch_scalar(op: IntOp, name: &str, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
    check_int(name, &lhs);
    let count = lhs.num_elements();
    if count == 0 {
        return lhs;
    }
    let dtype = lhs.dtype;
    let shape = lhs.shape.clone();
    let client = lhs.client.clone();
    let plan = plan_elementwise(&[&lhs], &shape, dtype);
    crate::launch::before_launch(&client);
    int_scalar_kernel::launch(
        &client,
        plan.cube_count,
        plan.cube_dim,
        plan.addresses,
        plan.vector,
        lhs.into_linear_view(),
        scalar_arg(rhs, dtype),
        plan.out_view,
        op,
        IntInfo::of(dtype),
        elem_type(dtype),
    );
    plan.output
}

/// `op(x)` for every element, in place when the buffer can be reused.
fn launch_unary(op: IntUnaryOp, name: &str, input: CubeTensor) -> CubeTensor {
    check_int(name, &input);
    let count = input.num_elements();
    if count == 0 {
        return input;
    }
    let dtype = input.dtype;
    let shape = input.shape.clone();
    let client = input.client.clone();
    let plan = plan_elementwise(&[&input], &shape, dtype);
    crate::launch::before_launch(&client);
    int_unary_kernel::launch(
        &client,
        plan.cube_count,
        plan.cube_dim,
        plan.addresses,
        plan.vector,
        input.into_linear_view(),
        plan.out_view,
        op,
        elem_type(dtype),
    );
    plan.output
}

/// `op(lhs, rhs)` element-wise on integer tensors of one dtype, broadcast (NumPy rules) and
/// read through their strides; written into an operand's buffer when that operand is unique,
/// non-overlapping and of the output shape. Shift semantics: see the module docs.
///
/// # Panics
///
/// On non-integer or mixed dtypes, different devices, or shapes that do not broadcast.
pub fn bitwise(op: BitwiseOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    launch_binary(op.into(), op.name(), lhs, rhs)
}

/// [`bitwise`], its panics naming the operation `name` (for operations built on it).
pub(super) fn bitwise_named(
    name: &str,
    op: BitwiseOp,
    lhs: CubeTensor,
    rhs: CubeTensor,
) -> CubeTensor {
    launch_binary(op.into(), name, lhs, rhs)
}

/// `op(lhs, rhs)` for a scalar `rhs`, converted to the tensor's integer dtype with `as`
/// semantics (so a shift amount of 300 on `u8` is 44, hence out of range).
///
/// # Panics
///
/// On a non-integer dtype.
pub fn bitwise_scalar(op: BitwiseOp, lhs: CubeTensor, rhs: Scalar) -> CubeTensor {
    launch_scalar(op.into(), op.name(), lhs, rhs)
}

/// [`bitwise_scalar`], its panics naming the operation `name`.
pub(super) fn bitwise_scalar_named(
    name: &str,
    op: BitwiseOp,
    lhs: CubeTensor,
    rhs: Scalar,
) -> CubeTensor {
    launch_scalar(op.into(), name, lhs, rhs)
}

/// `!x`, the bitwise complement of an integer tensor.
///
/// # Panics
///
/// On a non-integer dtype.
pub fn bitwise_not(tensor: CubeTensor) -> CubeTensor {
    launch_unary(IntUnaryOp::Not, "bitwise_not", tensor)
}

/// `lhs ^ rhs` element-wise for integer tensors, broadcast, wrapping on overflow; negative
/// exponents give 1 for base 1, ±1 for base -1 and 0 otherwise (see the module docs). An `rhs`
/// of another integer dtype is first converted to `lhs`'s with `as` semantics.
///
/// # Panics
///
/// On non-integer dtypes, different devices, or shapes that do not broadcast.
pub fn int_powi(lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    check_int("int_powi", &lhs);
    check_int("int_powi", &rhs);
    let rhs = if rhs.dtype == lhs.dtype {
        rhs
    } else {
        cast(rhs, lhs.dtype)
    };
    launch_binary(IntOp::Pow, "int_powi", lhs, rhs)
}

/// `|x|` for an integer tensor, wrapping (`abs(i32::MIN) == i32::MIN`); unsigned tensors are
/// returned as they are.
///
/// # Panics
///
/// On a non-integer dtype.
pub fn int_abs(tensor: CubeTensor) -> CubeTensor {
    if tensor.dtype.is_unsigned_int() {
        check_int("int_abs", &tensor);
        return tensor;
    }
    launch_unary(IntUnaryOp::Abs, "int_abs", tensor)
}
