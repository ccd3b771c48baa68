//! `ActivationOps` for `Autodiff<B, C>`: each activation runs `B`'s kernel forward and records
//! an element-wise, memory-bound backward step; the `*_backward` ops run on `B` untracked.

use super::record::{AT, output_op, unary_op};
use crate::backend::Autodiff;
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::Backend;
use burn_backend::Scalar;
use burn_backend::ops::ActivationOps;

impl<B: Backend, C: CheckpointStrategy> ActivationOps<Self> for Autodiff<B, C> {
    /// `relu'(x) = 1` where `x > 0`, else `0` (also at `x = 0`), from the output.
    fn relu(tensor: AT<B>) -> AT<B> {
        output_op::<B, C>(tensor, B::relu, B::relu_backward)
    }

    fn relu_backward(output: AT<B>, grad: AT<B>) -> AT<B> {
        AT::new(B::relu_backward(
            output.into_primitive(),
            grad.into_primitive(),
        ))
    }

    /// The gradient follows the forward's mask: `slope` where `x < 0`, `1` elsewhere
    /// (including `x = 0`).
    fn leaky_relu(tensor: AT<B>, negative_slope: Scalar) -> AT<B> {
        unary_op::<B, C>(
            tensor,
            move |x| B::leaky_relu(x, negative_slope),
            move |x, grad| {
                let negative = B::float_lower_elem(x, 0.0.into());
                let scaled = B::float_mul_scalar(grad.clone(), negative_slope);
                B::float_mask_where(grad, negative, scaled)
            },
        )
    }

    /// `gelu'(x) = Φ(x) + x·φ(x)`, through `B::gelu_backward`.
    fn gelu(tensor: AT<B>) -> AT<B> {
        unary_op::<B, C>(tensor, B::gelu, B::gelu_backward)
    }

    fn gelu_backward(x: AT<B>, grad: AT<B>) -> AT<B> {
        AT::new(B::gelu_backward(x.into_primitive(), grad.into_primitive()))
    }

    /// `sigmoid'(x) = s·(1 - s)`, from the output through `B::sigmoid_backward`.
    fn sigmoid(tensor: AT<B>) -> AT<B> {
        output_op::<B, C>(tensor, B::sigmoid, B::sigmoid_backward)
    }

    fn sigmoid_backward(output: AT<B>, grad: AT<B>) -> AT<B> {
        AT::new(B::sigmoid_backward(
            output.into_primitive(),
            grad.into_primitive(),
        ))
    }

    /// `alpha` where the forward takes the linear value (`0 <= alpha·x + beta <= 1`, the
    /// bounds included, as the forward's clamp passes them through), `0` where it clamps.
    fn hard_sigmoid(tensor: AT<B>, alpha: Scalar, beta: Scalar) -> AT<B> {
        unary_op::<B, C>(
            tensor,
            move |x| B::hard_sigmoid(x, alpha, beta),
            move |x, grad| {
                let linear = B::float_add_scalar(B::float_mul_scalar(x, alpha), beta);
                let below = B::float_lower_elem(linear.clone(), 0.0.into());
                let above = B::float_greater_elem(linear, 1.0.into());
                let grad = B::float_mul_scalar(grad, alpha);
                let grad = B::float_mask_fill(grad, below, 0.0.into());
                B::float_mask_fill(grad, above, 0.0.into())
            },
        )
    }

    /// `d/dx ln(sigmoid(x)) = 1 - sigmoid(x) = sigmoid(-x)`, stable in both tails.
    fn log_sigmoid(tensor: AT<B>) -> AT<B> {
        unary_op::<B, C>(tensor, B::log_sigmoid, |x, grad| {
            B::float_mul(grad, B::sigmoid(B::float_neg(x)))
        })
    }
    /// `dx = s · (g - Σ g·s)` along `dim`, from the output through `B::softmax_backward`.
    fn softmax(tensor: AT<B>, dim: usize) -> AT<B> {
        output_op::<B, C>(
            tensor,
            move |x| B::softmax(x, dim),
            move |s, grad| B::softmax_backward(s, grad, dim),
        )
    }

    fn softmax_backward(output: AT<B>, grad: AT<B>, dim: usize) -> AT<B> {
        AT::new(B::softmax_backward(
            output.into_primitive(),
            grad.into_primitive(),
            dim,
        ))
    }

    /// `dx = g - e^y · Σ g` along `dim`, from the output through `B::log_softmax_backward`.
    fn log_softmax(tensor: AT<B>, dim: usize) -> AT<B> {
        output_op::<B, C>(
            tensor,
            move |x| B::log_softmax(x, dim),
            move |y, grad| B::log_softmax_backward(y, grad, dim),
        )
    }

    fn log_softmax_backward(output: AT<B>, grad: AT<B>, dim: usize) -> AT<B> {
        AT::new(B::log_softmax_backward(
            output.into_primitive(),
            grad.into_primitive(),
            dim,
        ))
    }
}
