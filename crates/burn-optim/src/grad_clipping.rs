//! Gradient clipping, by value or by norm, applied to each parameter's gradient before the
//! update (set with `with_grad_clipping` on the optimizer configs).

use crate::validate::require;
use burn::config::Config;
use burn::tensor::Tensor;

/// How to clip gradients (the config of [`GradientClipping`]).
#[derive(Config, Debug, PartialEq)]
pub enum GradientClippingConfig {
    /// Clamp every element of the gradient to `[-threshold, threshold]`.
    Value(f32),
    /// Rescale each parameter's gradient so its L2 norm is at most the given maximum.
    Norm(f32),
}

impl GradientClippingConfig {
    /// The clipping.
    ///
    /// # Panics
    /// If the threshold is not a positive finite number.
    pub fn init(&self) -> GradientClipping {
        let (GradientClippingConfig::Value(threshold) | GradientClippingConfig::Norm(threshold)) =
            self;
        require(
            threshold.is_finite() && *threshold > 0.0,
            "GradientClippingConfig",
            format_args!("the threshold must be a positive finite number, got {threshold}"),
        );
        match *self {
            GradientClippingConfig::Value(threshold) => GradientClipping::Value(threshold),
            GradientClippingConfig::Norm(max_norm) => GradientClipping::Norm(max_norm),
        }
    }
}

/// Gradient clipping, applied to each parameter's gradient on its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GradientClipping {
    /// `g ← clamp(g, −t, t)` element-wise.
    Value(f32),
    /// `g ← g · min(1, max_norm / (‖g‖₂ + 1e-6))`, with `‖g‖₂` the L2 norm of this
    /// parameter's gradient (PyTorch's `clip_grad_norm_` on one tensor).
    Norm(f32),
}

/// Added to the norm before dividing (as PyTorch's `clip_grad_norm_`).
const NORM_EPSILON: f64 = 1e-6;

impl GradientClipping {
    /// The clipped gradient. Computed on the gradient's device, without reading it back.
    pub fn clip_gradient<const D: usize>(&self, grad: Tensor<D>) -> Tensor<D> {
        match *self {
            GradientClipping::Value(threshold) => grad.clamp(-threshold, threshold),
            GradientClipping::Norm(max_norm) => {
                let norm = grad.clone().square().sum().sqrt();
                let scale = norm
                    .add_scalar(NORM_EPSILON)
                    .recip()
                    .mul_scalar(max_norm)
                    .clamp_max(1.0);
                grad * scale.unsqueeze::<D>()
            }
        }
    }
}
