//! AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, 2019).

use crate::adaptive::AdaptiveMomentum;
use crate::grad_clipping::GradientClippingConfig;
use crate::optimizer::simple_optimizer;
use crate::validate::non_negative;
use burn::config::Config;

/// The config of [`AdamW`].
#[derive(Config, Debug, PartialEq)]
pub struct AdamWConfig {
    /// The decay rate β₁ of the first moment.
    #[config(default = 0.9)]
    pub beta_1: f32,
    /// The decay rate β₂ of the second moment.
    #[config(default = 0.999)]
    pub beta_2: f32,
    /// ε, added to the root of the second moment for numerical stability.
    #[config(default = 1e-5)]
    pub epsilon: f32,
    /// The decoupled weight decay λ.
    #[config(default = 1e-4)]
    pub weight_decay: f32,
    /// Whether to use the AMSGrad variant (the running maximum of the second moment).
    #[config(default = false)]
    pub amsgrad: bool,
    /// Gradient clipping, before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl AdamWConfig {
    /// The update rule.
    ///
    /// # Panics
    /// If a beta is out of `[0, 1)`, or epsilon or the weight decay is negative.
    pub fn build(&self) -> AdamW {
        non_negative("AdamWConfig", "weight_decay", self.weight_decay.into());
        AdamW {
            moments: AdaptiveMomentum::new(
                "AdamWConfig",
                self.beta_1,
                self.beta_2,
                self.epsilon,
                self.amsgrad,
            ),
            weight_decay: self.weight_decay,
        }
    }
}

/// AdamW: for a parameter θ with gradient `g` at step `t` (counted per parameter, from 1),
///
/// 1. `θ ← θ − lr·λ·θ` (decoupled weight decay; the gradient is left as it is);
/// 2. `m ← β₁·m + (1 − β₁)·g`, `v ← β₂·v + (1 − β₂)·g²` (from 0); with AMSGrad
///    `v̄ ← max(v̄, v)` replaces `v` below;
/// 3. `θ ← θ − lr · m̂ / (√v̂ + ε)`, `m̂ = m / (1 − β₁ᵗ)`, `v̂ = v / (1 − β₂ᵗ)`.
///
/// State: `moment_1`, `moment_2` (and `max_moment_2` with AMSGrad).
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    moments: AdaptiveMomentum,
    weight_decay: f32,
}

simple_optimizer! {
    "AdamW": AdamWConfig => AdamW;
    const NAME = "AdamW";
    fn step(&self, lr, param, grad, state) {
        let decayed = param.mul_scalar(1.0 - lr * f64::from(self.weight_decay));
        let direction = self.moments.direction(grad, state);
        decayed - direction.mul_scalar(lr)
    }
}
