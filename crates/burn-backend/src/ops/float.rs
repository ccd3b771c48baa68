//! Operations on float tensors.

use super::defaults;
use crate::tensor::{BoolTensor, Device, FloatTensor, IntTensor};
use crate::{Backend, TensorMetadata, get_device_settings};
use burn_std::{
    Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape, Slice,
    TensorData,
};
use core::future::Future;

/// Operations on float tensors. Semantics follow the public `Tensor` methods of the same name.
pub trait FloatTensorOps<B: Backend> {
    // ---- creation and transfer --------------------------------------------------------------

    /// A tensor holding `data` (converted to a float dtype the device supports if needed).
    fn float_from_data(data: TensorData, device: &Device<B>) -> FloatTensor<B>;
    /// A tensor of values sampled from `distribution`.
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &Device<B>,
        dtype: FloatDType,
    ) -> FloatTensor<B>;
    /// A tensor with unspecified values.
    fn float_empty(shape: Shape, device: &Device<B>, dtype: FloatDType) -> FloatTensor<B>;
    /// Reads the values back to the host.
    fn float_into_data(
        tensor: FloatTensor<B>,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send;
    /// The device the tensor lives on.
    fn float_device(tensor: &FloatTensor<B>) -> Device<B>;
    /// The tensor moved to `device`.
    fn float_to_device(tensor: FloatTensor<B>, device: &Device<B>) -> FloatTensor<B>;
    /// The values truncated toward zero into an int tensor of `out_dtype`.
    fn float_into_int(tensor: FloatTensor<B>, out_dtype: IntDType) -> IntTensor<B>;
    /// The values rounded to another float dtype.
    fn float_cast(tensor: FloatTensor<B>, dtype: FloatDType) -> FloatTensor<B>;

    // ---- arithmetic (broadcasting) ----------------------------------------------------------

    /// `lhs + rhs`.
    fn float_add(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs + rhs` for a scalar `rhs`.
    fn float_add_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs - rhs`.
    fn float_sub(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs - rhs` for a scalar `rhs`.
    fn float_sub_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs * rhs`.
    fn float_mul(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs * rhs` for a scalar `rhs`.
    fn float_mul_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs / rhs`.
    fn float_div(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs / rhs` for a scalar `rhs`.
    fn float_div_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// The remainder with the sign of the divisor (PyTorch's `remainder`).
    fn float_remainder(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// The remainder by a scalar, with the sign of the divisor.
    fn float_remainder_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// `lhs ^ rhs` element-wise.
    fn float_powf(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;
    /// `lhs ^ rhs` for a scalar exponent.
    fn float_powf_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B>;
    /// Batched matrix product over the last two dims; batch dims broadcast.
    fn float_matmul(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B>;

    // ---- element-wise math ------------------------------------------------------------------

    /// `1 / x`.
    fn float_recip(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// `e^x`.
    fn float_exp(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Natural logarithm.
    fn float_log(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// `ln(1 + x)`, accurate near zero.
    fn float_log1p(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Square root.
    fn float_sqrt(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Absolute value.
    fn float_abs(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Cosine.
    fn float_cos(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Sine.
    fn float_sin(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Hyperbolic tangent.
    fn float_tanh(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// The error function.
    fn float_erf(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Round half to even.
    fn float_round(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Round down.
    fn float_floor(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Round up.
    fn float_ceil(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// Round toward zero.
    fn float_trunc(tensor: FloatTensor<B>) -> FloatTensor<B>;

    // ---- layout -----------------------------------------------------------------------------

    /// Exchanges two dims.
    fn float_swap_dims(tensor: FloatTensor<B>, dim1: usize, dim2: usize) -> FloatTensor<B>;
    /// Reorders the dims: output dim `i` is input dim `axes[i]`.
    fn float_permute(tensor: FloatTensor<B>, axes: &[usize]) -> FloatTensor<B>;
    /// Reverses the order along each of `axes`.
    fn float_flip(tensor: FloatTensor<B>, axes: &[usize]) -> FloatTensor<B>;
    /// The same values in row-major order with another shape of as many elements.
    fn float_reshape(tensor: FloatTensor<B>, shape: Shape) -> FloatTensor<B>;
    /// Broadcasts size-1 dims (and new leading dims) to `shape`.
    fn float_expand(tensor: FloatTensor<B>, shape: Shape) -> FloatTensor<B>;
    /// The sub-tensor selected by one slice per leading dim.
    fn float_slice(tensor: FloatTensor<B>, slices: &[Slice]) -> FloatTensor<B>;
    /// The tensor with the sub-tensor at `slices` replaced by `value`.
    fn float_slice_assign(
        tensor: FloatTensor<B>,
        slices: &[Slice],
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;

    // ---- indexing ---------------------------------------------------------------------------

    /// `out[i][j][k] = tensor[i][indices[i][j][k]][k]` for `dim = 1` (and likewise for others).
    fn float_gather(dim: usize, tensor: FloatTensor<B>, indices: IntTensor<B>) -> FloatTensor<B>;
    /// Combines `value` into `tensor` at `indices` along `dim` with `update`.
    fn float_scatter(
        dim: usize,
        tensor: FloatTensor<B>,
        indices: IntTensor<B>,
        value: FloatTensor<B>,
        update: IndexingUpdateOp,
    ) -> FloatTensor<B>;
    /// The slices at `indices` (1-D) along `dim`.
    fn float_select(tensor: FloatTensor<B>, dim: usize, indices: IntTensor<B>) -> FloatTensor<B>;
    /// Adds the slices of `value` into `tensor` at `indices` along `dim`.
    fn float_select_add(
        tensor: FloatTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;
    /// `value` where `mask` is true, else `tensor` (broadcasting).
    fn float_mask_where(
        tensor: FloatTensor<B>,
        mask: BoolTensor<B>,
        value: FloatTensor<B>,
    ) -> FloatTensor<B>;
    /// `value` where `mask` is true, else `tensor`.
    fn float_mask_fill(
        tensor: FloatTensor<B>,
        mask: BoolTensor<B>,
        value: Scalar,
    ) -> FloatTensor<B>;

    // ---- comparison (broadcasting; bool output of the device's default bool dtype) ----------

    /// `lhs == rhs`.
    fn float_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs == rhs` for a scalar.
    fn float_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs > rhs`.
    fn float_greater(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs > rhs` for a scalar.
    fn float_greater_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs >= rhs`.
    fn float_greater_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs >= rhs` for a scalar.
    fn float_greater_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs < rhs`.
    fn float_lower(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs < rhs` for a scalar.
    fn float_lower_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;
    /// `lhs <= rhs`.
    fn float_lower_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B>;
    /// `lhs <= rhs` for a scalar.
    fn float_lower_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B>;

    // ---- reductions and scans ---------------------------------------------------------------

    /// The sum of all elements, shape `[1]`.
    fn float_sum(tensor: FloatTensor<B>) -> FloatTensor<B>;
    /// The sum along `dim`, kept with size 1.
    fn float_sum_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// The product along `dim`, kept with size 1.
    fn float_prod_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// The mean along `dim`, kept with size 1.
    fn float_mean_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// The index of the largest value along `dim` (first on ties), kept with size 1.
    fn float_argmax(tensor: FloatTensor<B>, dim: usize) -> IntTensor<B>;
    /// The index of the smallest value along `dim` (first on ties), kept with size 1.
    fn float_argmin(tensor: FloatTensor<B>, dim: usize) -> IntTensor<B>;
    /// Running sum along `dim`.
    fn float_cumsum(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Running product along `dim`.
    fn float_cumprod(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Running minimum along `dim`.
    fn float_cummin(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;
    /// Running maximum along `dim`.
    fn float_cummax(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B>;

    // ---- defaults ---------------------------------------------------------------------------

    /// Zeros.
    fn float_zeros(shape: Shape, device: &Device<B>, dtype: FloatDType) -> FloatTensor<B> {
        B::float_full(shape, 0.0.into(), device, dtype)
    }
    /// Ones.
    fn float_ones(shape: Shape, device: &Device<B>, dtype: FloatDType) -> FloatTensor<B> {
        B::float_full(shape, 1.0.into(), device, dtype)
    }
    /// Every element `value`.
    fn float_full(
        shape: Shape,
        value: Scalar,
        device: &Device<B>,
        dtype: FloatDType,
    ) -> FloatTensor<B> {
        B::float_from_data(TensorData::full_dtype(shape, value, dtype.into()), device)
    }
    /// `-x`.
    fn float_neg(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_mul_scalar(tensor, (-1.0).into())
    }
    /// `x ^ n` for an int tensor `n`.
    fn float_powi(lhs: FloatTensor<B>, rhs: IntTensor<B>) -> FloatTensor<B> {
        let dtype = FloatDType::from_dtype(lhs.dtype());
        B::float_powf(lhs, B::int_into_float(rhs, dtype))
    }
    /// `x ^ n` for an integer scalar `n`.
    fn float_powi_scalar(lhs: FloatTensor<B>, rhs: Scalar) -> FloatTensor<B> {
        B::float_powf_scalar(lhs, Scalar::Float(rhs.to_i64() as f64))
    }
    /// Tangent.
    fn float_tan(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_div(B::float_sin(tensor.clone()), B::float_cos(tensor))
    }
    /// Hyperbolic cosine.
    fn float_cosh(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let e = B::float_exp(tensor.clone());
        let inv = B::float_exp(B::float_neg(tensor));
        B::float_mul_scalar(B::float_add(e, inv), 0.5.into())
    }
    /// Hyperbolic sine.
    fn float_sinh(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let e = B::float_exp(tensor.clone());
        let inv = B::float_exp(B::float_neg(tensor));
        B::float_mul_scalar(B::float_sub(e, inv), 0.5.into())
    }
    /// Arc sine.
    fn float_asin(tensor: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_unary::<B>(tensor, f64::asin)
    }
    /// Arc cosine.
    fn float_acos(tensor: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_unary::<B>(tensor, f64::acos)
    }
    /// Arc tangent.
    fn float_atan(tensor: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_unary::<B>(tensor, f64::atan)
    }
    /// Inverse hyperbolic sine.
    fn float_asinh(tensor: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_unary::<B>(tensor, f64::asinh)
    }
    /// Inverse hyperbolic cosine.
    fn float_acosh(tensor: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_unary::<B>(tensor, f64::acosh)
    }
    /// Inverse hyperbolic tangent.
    fn float_atanh(tensor: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_unary::<B>(tensor, f64::atanh)
    }
    /// `atan2(lhs, rhs)` element-wise.
    fn float_atan2(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_host_binary::<B>("float_atan2", lhs, rhs, f64::atan2)
    }
    /// `sqrt(lhs² + rhs²)` element-wise (broadcasting), without overflow or underflow in the
    /// squares; infinite where either operand is infinite, even against a NaN (as IEEE 754's
    /// `hypot`). The default factors out the larger magnitude `m`: `m * sqrt(1 + (s / m)²)`.
    fn float_hypot(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> FloatTensor<B> {
        defaults::float_hypot_fallback::<B>(lhs, rhs)
    }
    /// -1, 0 or 1 by the sign (0 for ±0, NaN for NaN).
    fn float_sign(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let positive = B::bool_into_float(
            B::float_greater_elem(tensor.clone(), 0.0.into()),
            FloatDType::from_dtype(tensor.dtype()),
        );
        let negative = B::bool_into_float(
            B::float_lower_elem(tensor.clone(), 0.0.into()),
            FloatDType::from_dtype(tensor.dtype()),
        );
        let sign = B::float_sub(positive, negative);
        let nan = B::float_is_nan(tensor);
        B::float_mask_fill(sign, nan, f64::NAN.into())
    }
    /// Whether each value is NaN.
    fn float_is_nan(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::float_equal(tensor.clone(), tensor))
    }
    /// Whether each value is ±infinity.
    fn float_is_inf(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::float_equal_elem(B::float_abs(tensor), f64::INFINITY.into())
    }
    /// Values below `min` raised to `min`.
    fn float_clamp_min(tensor: FloatTensor<B>, min: Scalar) -> FloatTensor<B> {
        let mask = B::float_lower_elem(tensor.clone(), min);
        B::float_mask_fill(tensor, mask, min)
    }
    /// Values above `max` lowered to `max`.
    fn float_clamp_max(tensor: FloatTensor<B>, max: Scalar) -> FloatTensor<B> {
        let mask = B::float_greater_elem(tensor.clone(), max);
        B::float_mask_fill(tensor, mask, max)
    }
    /// Values clamped to `[min, max]`.
    fn float_clamp(tensor: FloatTensor<B>, min: Scalar, max: Scalar) -> FloatTensor<B> {
        B::float_clamp_max(B::float_clamp_min(tensor, min), max)
    }
    /// `lhs != rhs`.
    fn float_not_equal(lhs: FloatTensor<B>, rhs: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::float_equal(lhs, rhs))
    }
    /// `lhs != rhs` for a scalar.
    fn float_not_equal_elem(lhs: FloatTensor<B>, rhs: Scalar) -> BoolTensor<B> {
        B::bool_not(B::float_equal_elem(lhs, rhs))
    }
    /// Swaps the last two dims.
    fn float_transpose(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let rank = tensor.rank();
        if rank < 2 {
            return tensor;
        }
        B::float_swap_dims(tensor, rank - 2, rank - 1)
    }
    /// Concatenates along `dim`.
    fn float_cat(tensors: Vec<FloatTensor<B>>, dim: usize) -> FloatTensor<B> {
        let first = &tensors[0];
        let (device, dtype) = (
            B::float_device(first),
            FloatDType::from_dtype(first.dtype()),
        );
        defaults::cat_with_slice_assign(
            tensors,
            dim,
            |shape| B::float_empty(shape, &device, dtype),
            B::float_slice_assign,
        )
    }
    /// Repeats the tensor `times` times along `dim`.
    fn float_repeat_dim(tensor: FloatTensor<B>, dim: usize, times: usize) -> FloatTensor<B> {
        B::float_cat(vec![tensor; times], dim)
    }
    /// The sum of all elements divided by their count, shape `[1]`.
    fn float_mean(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let count = tensor.shape().num_elements();
        B::float_div_scalar(B::float_sum(tensor), (count as f64).into())
    }
    /// The product of all elements, shape `[1]`.
    fn float_prod(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let count = tensor.shape().num_elements();
        B::float_prod_dim(B::float_reshape(tensor, Shape::new([count])), 0)
    }
    /// The largest value along `dim`, kept with size 1.
    fn float_max_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        B::float_max_dim_with_indices(tensor, dim).0
    }
    /// The smallest value along `dim`, kept with size 1.
    fn float_min_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        B::float_min_dim_with_indices(tensor, dim).0
    }
    /// The largest value along `dim` and its index.
    fn float_max_dim_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let indices = B::float_argmax(tensor.clone(), dim);
        (B::float_gather(dim, tensor, indices.clone()), indices)
    }
    /// The smallest value along `dim` and its index.
    fn float_min_dim_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let indices = B::float_argmin(tensor.clone(), dim);
        (B::float_gather(dim, tensor, indices.clone()), indices)
    }
    /// The largest value, shape `[1]`.
    fn float_max(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let count = tensor.shape().num_elements();
        B::float_max_dim(B::float_reshape(tensor, Shape::new([count])), 0)
    }
    /// The smallest value, shape `[1]`.
    fn float_min(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let count = tensor.shape().num_elements();
        B::float_min_dim(B::float_reshape(tensor, Shape::new([count])), 0)
    }
    /// The largest absolute value, shape `[1]`.
    fn float_max_abs(tensor: FloatTensor<B>) -> FloatTensor<B> {
        B::float_max(B::float_abs(tensor))
    }
    /// The largest absolute value along `dim`, kept with size 1.
    fn float_max_abs_dim(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        B::float_max_dim(B::float_abs(tensor), dim)
    }
    /// Whether any element is non-zero, shape `[1]`.
    fn float_any(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_any(B::float_not_equal_elem(tensor, 0.0.into()))
    }
    /// Whether any element along `dim` is non-zero, kept with size 1.
    fn float_any_dim(tensor: FloatTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_any_dim(B::float_not_equal_elem(tensor, 0.0.into()), dim)
    }
    /// Whether every element is non-zero, shape `[1]`.
    fn float_all(tensor: FloatTensor<B>) -> BoolTensor<B> {
        B::bool_all(B::float_not_equal_elem(tensor, 0.0.into()))
    }
    /// Whether every element along `dim` is non-zero, kept with size 1.
    fn float_all_dim(tensor: FloatTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_all_dim(B::float_not_equal_elem(tensor, 0.0.into()), dim)
    }
    /// Sorted along `dim` (stable; NaN last when ascending).
    fn float_sort(tensor: FloatTensor<B>, dim: usize, descending: bool) -> FloatTensor<B> {
        B::float_sort_with_indices(tensor, dim, descending).0
    }
    /// Sorted along `dim` and the indices that sort it.
    fn float_sort_with_indices(
        tensor: FloatTensor<B>,
        dim: usize,
        descending: bool,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let indices = B::float_argsort(tensor.clone(), dim, descending);
        (B::float_gather(dim, tensor, indices.clone()), indices)
    }
    /// The `k` largest values along `dim`, largest first (ties in index order, NaN largest), and
    /// their indices: the first `k` of a descending stable sort. A backend may select them
    /// without sorting the whole line.
    fn float_topk_with_indices(
        tensor: FloatTensor<B>,
        k: usize,
        dim: usize,
    ) -> (FloatTensor<B>, IntTensor<B>) {
        let (values, indices) = B::float_sort_with_indices(tensor, dim, true);
        let slices = defaults::first_along(dim, k, &values.shape());
        (
            B::float_slice(values, &slices),
            B::int_slice(indices, &slices),
        )
    }
    /// The indices that sort the tensor along `dim`.
    fn float_argsort(tensor: FloatTensor<B>, dim: usize, descending: bool) -> IntTensor<B> {
        let device = B::float_device(&tensor);
        let data = crate::read_sync(B::float_into_data(tensor))
            .unwrap_or_else(|e| panic!("float_argsort: reading the tensor failed: {e}"));
        let int_dtype = get_device_settings::<B>(&device).int_dtype;
        B::int_from_data(
            defaults::argsort_host(&data, dim, descending).convert_dtype(int_dtype.into()),
            &device,
        )
    }
    /// The tensor cut off from the autodiff graph (identity without autodiff).
    fn float_detach(tensor: FloatTensor<B>) -> FloatTensor<B> {
        tensor
    }
    /// Marks the tensor as a leaf that needs a gradient (identity without autodiff).
    fn float_set_require_grad(tensor: FloatTensor<B>, _require_grad: bool) -> FloatTensor<B> {
        tensor
    }
    /// Whether the tensor needs a gradient (false without autodiff).
    fn float_is_require_grad(_tensor: &FloatTensor<B>) -> bool {
        false
    }
}
