//! AdaGrad (Duchi et al., 2011), with learning-rate decay and L2 weight decay (PyTorch's
//! rule).

use crate::decay::{WeightDecay, WeightDecayConfig, decayed};
use crate::grad_clipping::GradientClippingConfig;
use crate::optimizer::simple_optimizer;
use crate::validate::non_negative;
use burn::config::Config;

/// The config of [`AdaGrad`].
#[derive(Config, Debug, PartialEq)]
pub struct AdaGradConfig {
    /// The learning-rate decay η: step `t` uses `lr / (1 + (t − 1)·η)`.
    #[config(default = 0.0)]
    pub lr_decay: f64,
    /// ε, added to the root of the sum for numerical stability.
    #[config(default = 1e-5)]
    pub epsilon: f32,
    /// L2 weight decay, added to the gradient.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Gradient clipping, before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl AdaGradConfig {
    /// The update rule.
    ///
    /// # Panics
    /// If the learning-rate decay, epsilon or the weight decay is negative.
    pub fn build(&self) -> AdaGrad {
        non_negative("AdaGradConfig", "lr_decay", self.lr_decay);
        non_negative("AdaGradConfig", "epsilon", self.epsilon.into());
        AdaGrad {
            lr_decay: self.lr_decay,
            epsilon: self.epsilon,
            weight_decay: self.weight_decay.as_ref().map(WeightDecay::new),
        }
    }
}

/// AdaGrad: for a parameter θ with gradient `g` at step `t` (counted per parameter, from 1),
///
/// 1. `g ← g + λ·θ` with L2 weight decay λ;
/// 2. `s ← s + g²` (from 0);
/// 3. `θ ← θ − lr_t · g / (√s + ε)` with `lr_t = lr / (1 + (t − 1)·η)`.
///
/// State: `sum`.
#[derive(Clone, Debug, PartialEq)]
pub struct AdaGrad {
    lr_decay: f64,
    epsilon: f32,
    weight_decay: Option<WeightDecay>,
}

/// The name of the sum of squared gradients in the state.
const SUM: &str = "sum";

simple_optimizer! {
    "AdaGrad": AdaGradConfig => AdaGrad;
    const NAME = "AdaGrad";
    fn step(&self, lr, param, grad, state) {
        let grad = decayed(self.weight_decay.as_ref(), grad, &param);
        let square = grad.clone().square();
        let sum = match state.take::<D>(SUM) {
            Some(sum) => sum + square,
            None => square,
        };
        state.set(SUM, sum.clone());
        let lr = lr / (1.0 + state.step().saturating_sub(1) as f64 * self.lr_decay);
        param - (grad / sum.sqrt().add_scalar(self.epsilon)).mul_scalar(lr)
    }
}
