//! Element-wise float functions: one kernel, the function picked at compile time from a table.

use super::precision::compute_dtype;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::plan_elementwise;
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

op_table! {
    /// An element-wise function of a float tensor.
    UnaryOp {
        /// `e^x`.
        Exp => "exp",
        /// Natural logarithm.
        Log => "log",
        /// `ln(1 + x)`.
        Log1p => "log1p",
        /// Square root.
        Sqrt => "sqrt",
        /// Absolute value.
        Abs => "abs",
        /// `-x`.
        Neg => "neg",
        /// `1 / x`.
        Recip => "recip",
        /// Sine.
        Sin => "sin",
        /// Cosine.
        Cos => "cos",
        /// Tangent.
        Tan => "tan",
        /// Hyperbolic tangent.
        Tanh => "tanh",
        /// Hyperbolic sine.
        Sinh => "sinh",
        /// Hyperbolic cosine.
        Cosh => "cosh",
        /// Arc sine.
        Asin => "asin",
        /// Arc cosine.
        Acos => "acos",
        /// Arc tangent.
        Atan => "atan",
        /// Inverse hyperbolic sine.
        Asinh => "asinh",
        /// Inverse hyperbolic cosine.
        Acosh => "acosh",
        /// Inverse hyperbolic tangent.
        Atanh => "atanh",
        /// Error function.
        Erf => "erf",
        /// Round half to even.
        Round => "round",
        /// Round down.
        Floor => "floor",
        /// Round up.
        Ceil => "ceil",
        /// Round toward zero.
        Trunc => "trunc",
        /// `1 / (1 + e^-x)`.
        Sigmoid => "sigmoid",
        /// `max(x, 0)` (NaN stays NaN).
        Relu => "relu",
        /// -1, 0 or 1 by the sign of `x` (NaN stays NaN).
        Sign => "sign",
        /// `x * x`.
        Square => "square",
    }
}

impl UnaryOp {
    /// Whether the function needs the extended (transcendental) instruction set, which some
    /// targets lack for `f64`.
    pub(crate) fn is_transcendental(self) -> bool {
        matches!(
            self,
            UnaryOp::Exp
                | UnaryOp::Log
                | UnaryOp::Log1p
                | UnaryOp::Sin
                | UnaryOp::Cos
                | UnaryOp::Tan
                | UnaryOp::Tanh
                | UnaryOp::Sinh
                | UnaryOp::Cosh
                | UnaryOp::Asin
                | UnaryOp::Acos
                | UnaryOp::Atan
                | UnaryOp::Asinh
                | UnaryOp::Acosh
                | UnaryOp::Atanh
                | UnaryOp::Erf
                | UnaryOp::Sigmoid
        )
    }
}

#[cube]
pub(crate) fn apply_unary<F: Float, N: Size>(
    x: Vector<F, N>,
    #[comptime] op: UnaryOp,
) -> Vector<F, N> {
    let zero = Vector::new(F::new(0.0));
    let one = Vector::new(F::new(1.0));
    match op {
        UnaryOp::Exp => Vector::exp(x),
        UnaryOp::Log => Vector::ln(x),
        UnaryOp::Log1p => Vector::log1p(x),
        UnaryOp::Sqrt => Vector::sqrt(x),
        UnaryOp::Abs => Vector::abs(x),
        UnaryOp::Neg => -x,
        UnaryOp::Recip => Vector::recip(x),
        UnaryOp::Sin => Vector::sin(x),
        UnaryOp::Cos => Vector::cos(x),
        UnaryOp::Tan => Vector::tan(x),
        UnaryOp::Tanh => Vector::tanh(x),
        UnaryOp::Sinh => Vector::sinh(x),
        UnaryOp::Cosh => Vector::cosh(x),
        // Through atan2: several drivers (lavapipe among them) implement asin/acos with
        // errors near 1e-4, their atan2 is tighter.
        UnaryOp::Asin => Vector::atan2(x, Vector::sqrt(one - x * x)),
        UnaryOp::Acos => Vector::atan2(Vector::sqrt(one - x * x), x),
        UnaryOp::Atan => Vector::atan(x),
        // Written with log1p so that small arguments keep their precision.
        UnaryOp::Asinh => {
            let a = Vector::abs(x);
            let y = Vector::log1p(a + a * a / (one + Vector::sqrt(one + a * a)));
            select_many(x.less_than(&zero), -y, y)
        }
        // acosh(x) = log1p(t + sqrt(t² + 2t)) with t = x - 1 (NaN below 1).
        UnaryOp::Acosh => {
            let t = x - one;
            Vector::log1p(t + Vector::sqrt(t * t + t + t))
        }
        UnaryOp::Atanh => {
            let half = Vector::new(F::new(0.5));
            half * Vector::log1p((x + x) / (one - x))
        }
        UnaryOp::Erf => Vector::erf(x),
        UnaryOp::Round => round_half_even::<F, N>(x),
        UnaryOp::Floor => Vector::floor(x),
        UnaryOp::Ceil => Vector::ceil(x),
        UnaryOp::Trunc => Vector::trunc(x),
        UnaryOp::Sigmoid => one / (one + Vector::exp(-x)),
        // NaN kept explicitly: comparisons with NaN are not IEEE on every target (GLSL).
        UnaryOp::Relu => select_many(x.is_nan(), x, select_many(x.less_than(&zero), zero, x)),
        UnaryOp::Sign => {
            let minus_one = Vector::new(F::new(-1.0));
            let sign = select_many(x.greater_than(&zero), one, zero);
            let sign = select_many(x.less_than(&zero), minus_one, sign);
            select_many(x.is_nan(), x, sign)
        }
        UnaryOp::Square => x * x,
    }
}

/// Rounds to the nearest integer, ties to the even one, independent of how the target's own
/// `round` breaks ties.
#[cube]
fn round_half_even<F: Float, N: Size>(x: Vector<F, N>) -> Vector<F, N> {
    let zero = Vector::new(F::new(0.0));
    let half = Vector::new(F::new(0.5));
    let one = Vector::new(F::new(1.0));
    let two = Vector::new(F::new(2.0));
    let down = Vector::floor(x);
    let fraction = x - down;
    // 1 when `down` is odd, 0 when even.
    let odd = down - two * Vector::floor(down * half);
    let tie = select_many(fraction.less_than(&half), zero, odd);
    down + select_many(fraction.greater_than(&half), one, tie)
}

/// Reads `F`, computes in `A` (see [`compute_dtype`]), stores `F`.
#[cube(launch, address_type = "dynamic")]
fn unary_kernel<F: Float, A: Float, N: Size>(
    input: LinearView<'_, Vector<F, N>>,
    mut output: LinearViewMut<'_, Vector<F, N>>,
    #[comptime] op: UnaryOp,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if !output.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    let x = Vector::<A, N>::cast_from(input.read(ABSOLUTE_POS));
    output.write(ABSOLUTE_POS, Vector::cast_from(apply_unary::<A, N>(x, op)));
}

/// `op` applied to every element of the float tensor `input` (computed in the precision
/// [`compute_dtype`] picks). The result has the input's shape and dtype; it is written into
/// the input's buffer when that buffer is unique and non-overlapping.
///
/// # Panics
///
/// When the dtype is not a float type the device computes with.
pub fn unary(op: UnaryOp, input: CubeTensor) -> CubeTensor {
    let dtype = input.dtype;
    assert!(
        dtype.is_float(),
        "{}: expected a float tensor, got {dtype}",
        op.name()
    );
    assert_arithmetic(op.name(), &input.client, dtype);
    let count = input.num_elements();
    if count == 0 {
        return input;
    }
    if super::host::unary_needs_host(&input, op) {
        return super::host::unary_f64(op, input);
    }
    let client = input.client.clone();
    let dtypes = [
        elem_type(dtype),
        elem_type(compute_dtype(&input, op.is_transcendental())),
    ];
    let shape = input.shape.clone();
    let plan = plan_elementwise(&[&input], &shape, dtype);
    crate::launch::before_launch(&client);
    unary_kernel::launch(
        &client,
        plan.cube_count,
        plan.cube_dim,
        plan.addresses,
        plan.vector,
        input.into_linear_view(),
        plan.out_view,
        op,
        dtypes,
    );
    plan.output
}
