//! Adam (Kingma & Ba, 2015), with L2 weight decay and AMSGrad.

use crate::adaptive::AdaptiveMomentum;
use crate::decay::{WeightDecay, WeightDecayConfig, decayed};
use crate::grad_clipping::GradientClippingConfig;
use crate::optimizer::simple_optimizer;
use burn::config::Config;

/// The config of [`Adam`].
#[derive(Config, Debug, PartialEq)]
pub struct AdamConfig {
    /// The decay rate β₁ of the first moment.
    #[config(default = 0.9)]
    pub beta_1: f32,
    /// The decay rate β₂ of the second moment.
    #[config(default = 0.999)]
    pub beta_2: f32,
    /// ε, added to the root of the second moment for numerical stability.
    #[config(default = 1e-5)]
    pub epsilon: f32,
    /// Whether to use the AMSGrad variant (the running maximum of the second moment).
    #[config(default = false)]
    pub amsgrad: bool,
    /// L2 weight decay, added to the gradient.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Gradient clipping, before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl AdamConfig {
    /// The update rule.
    ///
    /// # Panics
    /// If a beta is out of `[0, 1)`, or epsilon or the weight decay is negative.
    pub fn build(&self) -> Adam {
        Adam {
            moments: AdaptiveMomentum::new(
                "AdamConfig",
                self.beta_1,
                self.beta_2,
                self.epsilon,
                self.amsgrad,
            ),
            weight_decay: self.weight_decay.as_ref().map(WeightDecay::new),
        }
    }
}

/// Adam: for a parameter θ with gradient `g` at step `t` (counted per parameter, from 1),
///
/// 1. `g ← g + λ·θ` with L2 weight decay λ;
/// 2. `m ← β₁·m + (1 − β₁)·g`, `v ← β₂·v + (1 − β₂)·g²` (from 0); with AMSGrad
///    `v̄ ← max(v̄, v)` replaces `v` below;
/// 3. `θ ← θ − lr · m̂ / (√v̂ + ε)`, `m̂ = m / (1 − β₁ᵗ)`, `v̂ = v / (1 − β₂ᵗ)`.
///
/// State: `moment_1`, `moment_2` (and `max_moment_2` with AMSGrad).
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    moments: AdaptiveMomentum,
    weight_decay: Option<WeightDecay>,
}

simple_optimizer! {
    "Adam": AdamConfig => Adam;
    const NAME = "Adam";
    fn step(&self, lr, param, grad, state) {
        let grad = decayed(self.weight_decay.as_ref(), grad, &param);
        let direction = self.moments.direction(grad, state);
        param - direction.mul_scalar(lr)
    }
}
