//! `FloatTensorOps` for `Autodiff`: every float op runs on the inner backend; ops on tracked
//! inputs record their backward rule. Element-wise math is one table; layout, indexing and
//! reductions live in `float_layout.rs` and `float_reduce.rs`.
//!
//! Ops without a gradient: comparisons, `argmax`/`argmin`/`argsort`, `is_nan`/`is_inf`,
//! `any`/`all`, `float_into_int` (their results are bool or int). Piecewise-constant ops
//! (`round`, `floor`, `ceil`, `trunc`, `sign`) have gradient zero.

use super::float_layout as layout;
use super::float_reduce as reduce;
use super::record::{AT, FT, binary_linear_op, binary_op, linear_op, output_op, unary_op};
use crate::checkpoint::strategy::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};
use burn_backend::IndexingUpdateOp;
use burn_backend::ops::FloatTensorOps;
use burn_backend::tensor::{BoolTensor, Device, IntTensor};
use burn_backend::{
    Backend, Distribution, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice, TensorData,
    TensorMetadata,
};

/// `x * x`.
fn square<B: Backend>(x: FT<B>) -> FT<B> {
    B::float_mul(x.clone(), x)
}

/// `1 + sign * x²`, the inner part of many inverse-trig derivatives.
fn one_plus_signed_square<B: Backend>(x: FT<B>, sign: f64) -> FT<B> {
    B::float_add_scalar(B::float_mul_scalar(square::<B>(x), sign.into()), 1.0.into())
}

/// Zeros shaped like `x` (the gradient of a piecewise-constant op).
pub(crate) fn zeros_like<B: Backend>(x: &FT<B>) -> FT<B> {
    super::record::zeros::<B>(x.shape(), x)
}

/// Writes element-wise unary ops: `name => |x, grad| input_gradient;`.
macro_rules! unary_rules {
    ($($name:ident => |$x:ident, $g:ident| $grad:expr;)*) => {$(
        fn $name(tensor: AT<B>) -> AT<B> {
            unary_op::<B, C>(tensor, B::$name, |$x: FT<B>, $g: FT<B>| $grad)
        }
    )*};
}

/// Writes element-wise unary ops whose gradient reads the output:
/// `name => |y, grad| input_gradient;` (the output is kept, not recomputed, unless the
/// strategy recomputes memory-bound results).
macro_rules! output_rules {
    ($($name:ident => |$y:ident, $g:ident| $grad:expr;)*) => {$(
        fn $name(tensor: AT<B>) -> AT<B> {
            output_op::<B, C>(tensor, B::$name, |$y: FT<B>, $g: FT<B>| $grad)
        }
    )*};
}

/// Writes piecewise-constant unary ops: tracked, gradient zero.
macro_rules! zero_gradient {
    ($($name:ident),* $(,)?) => {$(
        fn $name(tensor: AT<B>) -> AT<B> {
            linear_op::<B, C>(tensor, B::$name, |g: FT<B>| zeros_like::<B>(&g))
        }
    )*};
}

/// Writes ops whose result is not a float (no gradient): run on the primitives.
macro_rules! no_gradient {
    ($($name:ident($($arg:ident: $ty:ty => $conv:ident),*) -> $ret:ty;)*) => {$(
        fn $name($($arg: $ty),*) -> $ret {
            B::$name($(no_gradient!(@arg $conv $arg)),*)
        }
    )*};
    (@arg float $x:ident) => { $x.into_primitive() };
    (@arg val $x:ident) => { $x };
}

impl<B: Backend, C: CheckpointStrategy> FloatTensorOps<Self> for Autodiff<B, C> {
    fn float_from_data(data: TensorData, device: &Device<B>) -> AT<B> {
        AutodiffTensor::new(B::float_from_data(data, device))
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<B>,
        dtype: FloatDType,
    ) -> AT<B> {
        AutodiffTensor::new(B::float_random(shape, distribution, device, dtype))
    }
    fn float_empty(shape: Shape, device: &Device<B>, dtype: FloatDType) -> AT<B> {
        AutodiffTensor::new(B::float_empty(shape, device, dtype))
    }
    fn float_zeros(shape: Shape, device: &Device<B>, dtype: FloatDType) -> AT<B> {
        AutodiffTensor::new(B::float_zeros(shape, device, dtype))
    }
    fn float_ones(shape: Shape, device: &Device<B>, dtype: FloatDType) -> AT<B> {
        AutodiffTensor::new(B::float_ones(shape, device, dtype))
    }
    fn float_full(shape: Shape, value: Scalar, device: &Device<B>, dtype: FloatDType) -> AT<B> {
        AutodiffTensor::new(B::float_full(shape, value, device, dtype))
    }
    async fn float_into_data(tensor: AT<B>) -> Result<TensorData, ExecutionError> {
        B::float_into_data(tensor.into_primitive()).await
    }
    fn float_device(tensor: &AT<B>) -> Device<B> {
        B::float_device(tensor.primitive())
    }
    fn float_to_device(tensor: AT<B>, device: &Device<B>) -> AT<B> {
        let (from, to) = (B::float_device(tensor.primitive()), device.clone());
        linear_op::<B, C>(
            tensor,
            move |x| B::float_to_device(x, &to),
            move |g| B::float_to_device(g, &from),
        )
    }
    fn float_cast(tensor: AT<B>, dtype: FloatDType) -> AT<B> {
        let from = FloatDType::from_dtype(tensor.dtype());
        linear_op::<B, C>(
            tensor,
            move |x| B::float_cast(x, dtype),
            move |g| B::float_cast(g, from),
        )
    }

    // ---- arithmetic -------------------------------------------------------------------------

    fn float_add(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        binary_linear_op::<B, C>(lhs, rhs, B::float_add, |g| g, |g| g)
    }
    fn float_add_scalar(lhs: AT<B>, rhs: Scalar) -> AT<B> {
        linear_op::<B, C>(lhs, move |x| B::float_add_scalar(x, rhs), |g| g)
    }
    fn float_sub(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        binary_linear_op::<B, C>(lhs, rhs, B::float_sub, |g| g, B::float_neg)
    }
    fn float_sub_scalar(lhs: AT<B>, rhs: Scalar) -> AT<B> {
        linear_op::<B, C>(lhs, move |x| B::float_sub_scalar(x, rhs), |g| g)
    }
    fn float_mul(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        binary_op::<B, C>(
            lhs,
            rhs,
            B::float_mul,
            |_, r, g| B::float_mul(g, r),
            |l, _, g| B::float_mul(g, l),
        )
    }
    fn float_mul_scalar(lhs: AT<B>, rhs: Scalar) -> AT<B> {
        linear_op::<B, C>(
            lhs,
            move |x| B::float_mul_scalar(x, rhs),
            move |g| B::float_mul_scalar(g, rhs),
        )
    }
    fn float_div(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        binary_op::<B, C>(
            lhs,
            rhs,
            B::float_div,
            |_, r, g| B::float_div(g, r),
            |l, r, g| B::float_neg(B::float_div(B::float_mul(g, l), square::<B>(r))),
        )
    }
    fn float_div_scalar(lhs: AT<B>, rhs: Scalar) -> AT<B> {
        linear_op::<B, C>(
            lhs,
            move |x| B::float_div_scalar(x, rhs),
            move |g| B::float_div_scalar(g, rhs),
        )
    }
    fn float_remainder(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        // lhs - floor(lhs / rhs) * rhs: d/dlhs = 1, d/drhs = -floor(lhs / rhs).
        binary_op::<B, C>(
            lhs,
            rhs,
            B::float_remainder,
            |_, _, g| g,
            |l, r, g| B::float_neg(B::float_mul(g, B::float_floor(B::float_div(l, r)))),
        )
    }
    fn float_remainder_scalar(lhs: AT<B>, rhs: Scalar) -> AT<B> {
        linear_op::<B, C>(lhs, move |x| B::float_remainder_scalar(x, rhs), |g| g)
    }
    fn float_powf(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        binary_op::<B, C>(
            lhs,
            rhs,
            B::float_powf,
            |l, r, g| {
                // r · l^(r-1), taken as 0 where r == 0 (x^0 is constant, also at x = 0).
                let zero_exponent = B::float_equal_elem(r.clone(), 0.0.into());
                let r_minus_one = B::float_sub_scalar(r.clone(), 1.0.into());
                let grad = B::float_mul(g, B::float_mul(r, B::float_powf(l, r_minus_one)));
                B::float_mask_fill(grad, zero_exponent, 0.0.into())
            },
            |l, r, g| {
                // d/dr l^r = l^r ln l; taken as 0 where l == 0 (the limit for r > 0).
                let zero = B::float_equal_elem(l.clone(), 0.0.into());
                let grad = B::float_mul(
                    g,
                    B::float_mul(B::float_powf(l.clone(), r), B::float_log(l)),
                );
                B::float_mask_fill(grad, zero, 0.0.into())
            },
        )
    }
    fn float_powf_scalar(lhs: AT<B>, rhs: Scalar) -> AT<B> {
        let exponent = rhs.to_f64();
        unary_op::<B, C>(
            lhs,
            move |x| B::float_powf_scalar(x, rhs),
            move |x, g| {
                if exponent == 0.0 {
                    return zeros_like::<B>(&g);
                }
                let derivative = B::float_mul_scalar(
                    B::float_powf_scalar(x, (exponent - 1.0).into()),
                    exponent.into(),
                );
                B::float_mul(g, derivative)
            },
        )
    }
    fn float_matmul(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        reduce::matmul::<B, C>(lhs, rhs)
    }
    fn float_neg(tensor: AT<B>) -> AT<B> {
        linear_op::<B, C>(tensor, B::float_neg, B::float_neg)
    }

    // ---- element-wise math ------------------------------------------------------------------

    unary_rules! {
        float_log => |x, g| B::float_div(g, x);
        float_log1p => |x, g| B::float_div(g, B::float_add_scalar(x, 1.0.into()));
        float_abs => |x, g| B::float_mul(g, B::float_sign(x));
        float_cos => |x, g| B::float_neg(B::float_mul(g, B::float_sin(x)));
        float_sin => |x, g| B::float_mul(g, B::float_cos(x));
        float_tan => |x, g| B::float_mul(g, one_plus_signed_square::<B>(B::float_tan(x), 1.0));
        float_cosh => |x, g| B::float_mul(g, B::float_sinh(x));
        float_sinh => |x, g| B::float_mul(g, B::float_cosh(x));
        float_asin => |x, g| B::float_div(g, B::float_sqrt(one_plus_signed_square::<B>(x, -1.0)));
        float_acos => |x, g| B::float_neg(B::float_div(g, B::float_sqrt(one_plus_signed_square::<B>(x, -1.0))));
        float_atan => |x, g| B::float_div(g, one_plus_signed_square::<B>(x, 1.0));
        float_asinh => |x, g| B::float_div(g, B::float_sqrt(one_plus_signed_square::<B>(x, 1.0)));
        float_acosh => |x, g| B::float_div(g, B::float_sqrt(B::float_sub_scalar(square::<B>(x), 1.0.into())));
        float_atanh => |x, g| B::float_div(g, one_plus_signed_square::<B>(x, -1.0));
        float_erf => |x, g| {
            let gauss = B::float_exp(B::float_neg(square::<B>(x)));
            B::float_mul(g, B::float_mul_scalar(gauss, core::f64::consts::FRAC_2_SQRT_PI.into()))
        };
    }

    output_rules! {
        float_exp => |y, g| B::float_mul(g, y);
        float_sqrt => |y, g| B::float_div(g, B::float_mul_scalar(y, 2.0.into()));
        float_recip => |y, g| B::float_neg(B::float_mul(g, square::<B>(y)));
        float_tanh => |y, g| B::float_mul(g, one_plus_signed_square::<B>(y, -1.0));
    }

    zero_gradient!(
        float_round,
        float_floor,
        float_ceil,
        float_trunc,
        float_sign
    );

    fn float_atan2(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        // atan2(y, x): dy = x / (x² + y²), dx = -y / (x² + y²).
        let norm = |y: FT<B>, x: FT<B>| B::float_add(square::<B>(y), square::<B>(x));
        binary_op::<B, C>(
            lhs,
            rhs,
            B::float_atan2,
            move |y, x, g| B::float_div(B::float_mul(g, x.clone()), norm(y, x)),
            move |y, x, g| B::float_neg(B::float_div(B::float_mul(g, y.clone()), norm(y, x))),
        )
    }
    fn float_hypot(lhs: AT<B>, rhs: AT<B>) -> AT<B> {
        // h = hypot(a, b): da = a / h, db = b / h (NaN at a = b = 0, as PyTorch).
        binary_op::<B, C>(
            lhs,
            rhs,
            B::float_hypot,
            |a, b, g| B::float_div(B::float_mul(g, a.clone()), B::float_hypot(a, b)),
            |a, b, g| B::float_div(B::float_mul(g, b.clone()), B::float_hypot(a, b)),
        )
    }
    fn float_clamp_min(tensor: AT<B>, min: Scalar) -> AT<B> {
        unary_op::<B, C>(
            tensor,
            move |x| B::float_clamp_min(x, min),
            move |x, g| B::float_mask_fill(g, B::float_lower_elem(x, min), 0.0.into()),
        )
    }
    fn float_clamp_max(tensor: AT<B>, max: Scalar) -> AT<B> {
        unary_op::<B, C>(
            tensor,
            move |x| B::float_clamp_max(x, max),
            move |x, g| B::float_mask_fill(g, B::float_greater_elem(x, max), 0.0.into()),
        )
    }
    fn float_clamp(tensor: AT<B>, min: Scalar, max: Scalar) -> AT<B> {
        unary_op::<B, C>(
            tensor,
            move |x| B::float_clamp(x, min, max),
            move |x, g| {
                let outside = B::bool_or(
                    B::float_lower_elem(x.clone(), min),
                    B::float_greater_elem(x, max),
                );
                B::float_mask_fill(g, outside, 0.0.into())
            },
        )
    }

    // ---- layout and indexing (float_layout.rs) ----------------------------------------------

    fn float_swap_dims(tensor: AT<B>, dim1: usize, dim2: usize) -> AT<B> {
        linear_op::<B, C>(
            tensor,
            move |x| B::float_swap_dims(x, dim1, dim2),
            move |g| B::float_swap_dims(g, dim1, dim2),
        )
    }
    fn float_permute(tensor: AT<B>, axes: &[usize]) -> AT<B> {
        layout::permute::<B, C>(tensor, axes)
    }
    fn float_flip(tensor: AT<B>, axes: &[usize]) -> AT<B> {
        let (forward, backward) = (axes.to_vec(), axes.to_vec());
        linear_op::<B, C>(
            tensor,
            move |x| B::float_flip(x, &forward),
            move |g| B::float_flip(g, &backward),
        )
    }
    fn float_reshape(tensor: AT<B>, shape: Shape) -> AT<B> {
        let from = tensor.shape();
        linear_op::<B, C>(
            tensor,
            move |x| B::float_reshape(x, shape.clone()),
            move |g| B::float_reshape(g, from),
        )
    }
    fn float_expand(tensor: AT<B>, shape: Shape) -> AT<B> {
        let from = tensor.shape();
        linear_op::<B, C>(
            tensor,
            move |x| B::float_expand(x, shape.clone()),
            move |g| super::record::reduce_to_shape::<B>(g, &from),
        )
    }
    fn float_slice(tensor: AT<B>, slices: &[Slice]) -> AT<B> {
        layout::slice::<B, C>(tensor, slices)
    }
    fn float_slice_assign(tensor: AT<B>, slices: &[Slice], value: AT<B>) -> AT<B> {
        layout::slice_assign::<B, C>(tensor, slices, value)
    }
    fn float_cat(tensors: Vec<AT<B>>, dim: usize) -> AT<B> {
        layout::cat::<B>(tensors, dim)
    }
    fn float_gather(dim: usize, tensor: AT<B>, indices: IntTensor<B>) -> AT<B> {
        layout::gather::<B, C>(dim, tensor, indices)
    }
    fn float_scatter(
        dim: usize,
        tensor: AT<B>,
        indices: IntTensor<B>,
        value: AT<B>,
        update: IndexingUpdateOp,
    ) -> AT<B> {
        layout::scatter::<B, C>(dim, tensor, indices, value, update)
    }
    fn float_select(tensor: AT<B>, dim: usize, indices: IntTensor<B>) -> AT<B> {
        layout::select::<B, C>(tensor, dim, indices)
    }
    fn float_select_add(tensor: AT<B>, dim: usize, indices: IntTensor<B>, value: AT<B>) -> AT<B> {
        layout::select_add::<B, C>(tensor, dim, indices, value)
    }
    fn float_mask_where(tensor: AT<B>, mask: BoolTensor<B>, value: AT<B>) -> AT<B> {
        layout::mask_where::<B, C>(tensor, mask, value)
    }
    fn float_mask_fill(tensor: AT<B>, mask: BoolTensor<B>, value: Scalar) -> AT<B> {
        // The mask may broadcast the tensor: its gradient is summed back to its shape.
        let shape = tensor.shape();
        linear_op::<B, C>(
            tensor,
            {
                let mask = mask.clone();
                move |x| B::float_mask_fill(x, mask.clone(), value)
            },
            move |g| {
                super::record::reduce_to_shape::<B>(B::float_mask_fill(g, mask, 0.0.into()), &shape)
            },
        )
    }

    // ---- reductions, scans and sorting (float_reduce.rs) -------------------------------------

    fn float_sum(tensor: AT<B>) -> AT<B> {
        reduce::sum::<B, C>(tensor)
    }
    fn float_sum_dim(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::sum_dim::<B, C>(tensor, dim)
    }
    fn float_mean(tensor: AT<B>) -> AT<B> {
        reduce::mean::<B, C>(tensor)
    }
    fn float_mean_dim(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::mean_dim::<B, C>(tensor, dim)
    }
    fn float_prod_dim(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::prod_dim::<B, C>(tensor, dim)
    }
    fn float_max_dim(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::max_dim_with_indices::<B, C>(tensor, dim, true).0
    }
    fn float_min_dim(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::max_dim_with_indices::<B, C>(tensor, dim, false).0
    }
    fn float_max_dim_with_indices(tensor: AT<B>, dim: usize) -> (AT<B>, IntTensor<B>) {
        reduce::max_dim_with_indices::<B, C>(tensor, dim, true)
    }
    fn float_min_dim_with_indices(tensor: AT<B>, dim: usize) -> (AT<B>, IntTensor<B>) {
        reduce::max_dim_with_indices::<B, C>(tensor, dim, false)
    }
    fn float_cumsum(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::cumsum::<B, C>(tensor, dim)
    }
    fn float_cumprod(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::cumprod::<B, C>(tensor, dim)
    }
    fn float_cummin(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::cumulative_extremum::<B, C>(tensor, dim, false)
    }
    fn float_cummax(tensor: AT<B>, dim: usize) -> AT<B> {
        reduce::cumulative_extremum::<B, C>(tensor, dim, true)
    }
    fn float_sort(tensor: AT<B>, dim: usize, descending: bool) -> AT<B> {
        reduce::sort_with_indices::<B, C>(tensor, dim, descending).0
    }
    fn float_sort_with_indices(
        tensor: AT<B>,
        dim: usize,
        descending: bool,
    ) -> (AT<B>, IntTensor<B>) {
        reduce::sort_with_indices::<B, C>(tensor, dim, descending)
    }

    // ---- no gradient ------------------------------------------------------------------------

    no_gradient! {
        float_into_int(tensor: AT<B> => float, out_dtype: IntDType => val) -> IntTensor<B>;
        float_equal(lhs: AT<B> => float, rhs: AT<B> => float) -> BoolTensor<B>;
        float_equal_elem(lhs: AT<B> => float, rhs: Scalar => val) -> BoolTensor<B>;
        float_not_equal(lhs: AT<B> => float, rhs: AT<B> => float) -> BoolTensor<B>;
        float_not_equal_elem(lhs: AT<B> => float, rhs: Scalar => val) -> BoolTensor<B>;
        float_greater(lhs: AT<B> => float, rhs: AT<B> => float) -> BoolTensor<B>;
        float_greater_elem(lhs: AT<B> => float, rhs: Scalar => val) -> BoolTensor<B>;
        float_greater_equal(lhs: AT<B> => float, rhs: AT<B> => float) -> BoolTensor<B>;
        float_greater_equal_elem(lhs: AT<B> => float, rhs: Scalar => val) -> BoolTensor<B>;
        float_lower(lhs: AT<B> => float, rhs: AT<B> => float) -> BoolTensor<B>;
        float_lower_elem(lhs: AT<B> => float, rhs: Scalar => val) -> BoolTensor<B>;
        float_lower_equal(lhs: AT<B> => float, rhs: AT<B> => float) -> BoolTensor<B>;
        float_lower_equal_elem(lhs: AT<B> => float, rhs: Scalar => val) -> BoolTensor<B>;
        float_argmax(tensor: AT<B> => float, dim: usize => val) -> IntTensor<B>;
        float_argmin(tensor: AT<B> => float, dim: usize => val) -> IntTensor<B>;
        float_argsort(tensor: AT<B> => float, dim: usize => val, descending: bool => val) -> IntTensor<B>;
        float_is_nan(tensor: AT<B> => float) -> BoolTensor<B>;
        float_is_inf(tensor: AT<B> => float) -> BoolTensor<B>;
        float_any(tensor: AT<B> => float) -> BoolTensor<B>;
        float_any_dim(tensor: AT<B> => float, dim: usize => val) -> BoolTensor<B>;
        float_all(tensor: AT<B> => float) -> BoolTensor<B>;
        float_all_dim(tensor: AT<B> => float, dim: usize => val) -> BoolTensor<B>;
    }

    // ---- graph control ----------------------------------------------------------------------

    fn float_detach(tensor: AT<B>) -> AT<B> {
        tensor.detach()
    }
    fn float_set_require_grad(tensor: AT<B>, require_grad: bool) -> AT<B> {
        if require_grad {
            tensor.require_grad()
        } else {
            tensor.detach()
        }
    }
    fn float_is_require_grad(tensor: &AT<B>) -> bool {
        tensor.requirement() == crate::Requirement::Grad
    }
}
