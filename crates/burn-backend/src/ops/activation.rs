//! Activation functions, all composed from float ops by default.

use crate::Backend;
use crate::tensor::FloatTensor;

/// Activation functions and the backward rules autodiff uses. Every method has a default body
/// built from float ops; a backend overrides the ones it can fuse into one kernel.
pub trait ActivationOps<B: Backend> {
    /// `max(x, 0)` (NaN stays NaN).
    fn relu(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let mask = B::float_lower_equal_elem(tensor.clone(), 0.0.into());
        B::float_mask_fill(tensor, mask, 0.0.into())
    }
    /// The gradient of `relu` given its output.
    fn relu_backward(output: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        let mask = B::float_lower_equal_elem(output, 0.0.into());
        B::float_mask_fill(grad, mask, 0.0.into())
    }
    /// `x` for `x >= 0`, `slope * x` otherwise.
    fn leaky_relu(tensor: FloatTensor<B>, negative_slope: burn_std::Scalar) -> FloatTensor<B> {
        let mask = B::float_lower_elem(tensor.clone(), 0.0.into());
        let scaled = B::float_mul_scalar(tensor.clone(), negative_slope);
        B::float_mask_where(tensor, mask, scaled)
    }
    /// `x · Φ(x)` with the exact normal CDF (`0.5 · (1 + erf(x / √2))`).
    fn gelu(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let cdf = B::float_mul_scalar(
            B::float_add_scalar(
                B::float_erf(B::float_mul_scalar(
                    tensor.clone(),
                    core::f64::consts::FRAC_1_SQRT_2.into(),
                )),
                1.0.into(),
            ),
            0.5.into(),
        );
        B::float_mul(tensor, cdf)
    }
    /// The gradient of `gelu` given its input: `Φ(x) + x · φ(x)`.
    fn gelu_backward(x: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        let cdf = B::float_mul_scalar(
            B::float_add_scalar(
                B::float_erf(B::float_mul_scalar(
                    x.clone(),
                    core::f64::consts::FRAC_1_SQRT_2.into(),
                )),
                1.0.into(),
            ),
            0.5.into(),
        );
        let pdf = B::float_mul_scalar(
            B::float_exp(B::float_mul_scalar(
                B::float_mul(x.clone(), x.clone()),
                (-0.5).into(),
            )),
            (1.0 / (2.0 * core::f64::consts::PI).sqrt()).into(),
        );
        let derivative = B::float_add(cdf, B::float_mul(x, pdf));
        B::float_mul(grad, derivative)
    }
    /// `1 / (1 + e^-x)`, as `exp(-log1p(exp(-x)))` so neither tail overflows.
    fn sigmoid(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let softplus_neg = B::float_log1p(B::float_exp(B::float_neg(tensor)));
        B::float_exp(B::float_neg(softplus_neg))
    }
    /// The gradient of `sigmoid` given its output: `grad · s · (1 - s)`.
    fn sigmoid_backward(output: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B> {
        let one_minus = B::float_add_scalar(B::float_neg(output.clone()), 1.0.into());
        B::float_mul(grad, B::float_mul(output, one_minus))
    }
    /// `clamp(alpha · x + beta, 0, 1)`.
    fn hard_sigmoid(
        tensor: FloatTensor<B>,
        alpha: burn_std::Scalar,
        beta: burn_std::Scalar,
    ) -> FloatTensor<B> {
        let linear = B::float_add_scalar(B::float_mul_scalar(tensor, alpha), beta);
        B::float_clamp(linear, 0.0.into(), 1.0.into())
    }
    /// `ln(sigmoid(x)) = -(max(-x, 0) + ln(1 + e^-|x|))`, stable for large `|x|`.
    fn log_sigmoid(tensor: FloatTensor<B>) -> FloatTensor<B> {
        let neg = B::float_neg(tensor.clone());
        let max_part = B::float_clamp_min(neg, 0.0.into());
        let tail = B::float_log1p(B::float_exp(B::float_neg(B::float_abs(tensor))));
        B::float_neg(B::float_add(max_part, tail))
    }
    /// Softmax along `dim`: `e^(x - max) / Σ e^(x - max)` (the maximum taken per line so no
    /// exponential overflows).
    fn softmax(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        let max = B::float_max_dim(tensor.clone(), dim);
        let exp = B::float_exp(B::float_sub(tensor, max));
        let sum = B::float_sum_dim(exp.clone(), dim);
        B::float_div(exp, sum)
    }
    /// The gradient of `softmax` along `dim` given its output `s`: `s · (g - Σ g·s)`.
    fn softmax_backward(
        output: FloatTensor<B>,
        grad: FloatTensor<B>,
        dim: usize,
    ) -> FloatTensor<B> {
        let dot = B::float_sum_dim(B::float_mul(grad.clone(), output.clone()), dim);
        B::float_mul(output, B::float_sub(grad, dot))
    }
    /// Log-softmax along `dim`: `x - max - ln Σ e^(x - max)`.
    fn log_softmax(tensor: FloatTensor<B>, dim: usize) -> FloatTensor<B> {
        let max = B::float_max_dim(tensor.clone(), dim);
        let shifted = B::float_sub(tensor, max);
        let log_sum = B::float_log(B::float_sum_dim(B::float_exp(shifted.clone()), dim));
        B::float_sub(shifted, log_sum)
    }
    /// The gradient of `log_softmax` along `dim` given its output `y`: `g - e^y · Σ g`.
    fn log_softmax_backward(
        output: FloatTensor<B>,
        grad: FloatTensor<B>,
        dim: usize,
    ) -> FloatTensor<B> {
        let total = B::float_sum_dim(grad.clone(), dim);
        B::float_sub(grad, B::float_mul(B::float_exp(output), total))
    }
}
