//! AdamW: Adam with decoupled weight decay (Loshchilov & Hutter, 2019).

use crate::LearningRate;
use crate::adaptive::AdaptiveMomentum;
use crate::adaptor::{OptimizerAdaptor, adapt};
use crate::grad_clipping::GradientClippingConfig;
use crate::optimizer::SimpleOptimizer;
use crate::state::ParamState;
use crate::validate::non_negative;
use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

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
        let moments = AdaptiveMomentum {
            beta_1: self.beta_1,
            beta_2: self.beta_2,
            epsilon: self.epsilon,
            amsgrad: self.amsgrad,
        };
        AdamW {
            moments: moments.validated("AdamWConfig"),
            weight_decay: self.weight_decay,
        }
    }

    /// The AdamW optimizer for modules of type `M`.
    ///
    /// # Panics
    /// As [`build`](Self::build), or on an invalid clipping threshold.
    pub fn init<M: Module>(&self) -> OptimizerAdaptor<AdamW, M> {
        adapt(self.build(), self.grad_clipping.as_ref())
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

impl SimpleOptimizer for AdamW {
    const NAME: &'static str = "AdamW";

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        param: Tensor<D>,
        grad: Tensor<D>,
        state: &mut ParamState,
    ) -> Tensor<D> {
        let decayed = param.mul_scalar(1.0 - lr * f64::from(self.weight_decay));
        let direction = self.moments.direction(grad, state);
        decayed - direction.mul_scalar(lr)
    }
}
