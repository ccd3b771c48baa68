//! Stochastic gradient descent, with L2 weight decay and (Nesterov) momentum.

use crate::decay::{WeightDecay, WeightDecayConfig, decayed};
use crate::grad_clipping::GradientClippingConfig;
use crate::momentum::{Momentum, MomentumConfig};
use crate::optimizer::simple_optimizer;
use burn::config::Config;

/// The config of [`Sgd`].
#[derive(Config, Debug, PartialEq)]
pub struct SgdConfig {
    /// L2 weight decay, added to the gradient.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Momentum.
    pub momentum: Option<MomentumConfig>,
    /// Gradient clipping, before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl SgdConfig {
    /// The same as [`with_grad_clipping`](Self::with_grad_clipping) (Burn's name for SGD).
    pub fn with_gradient_clipping(self, clipping: Option<GradientClippingConfig>) -> Self {
        self.with_grad_clipping(clipping)
    }

    /// The update rule.
    ///
    /// # Panics
    /// If the weight decay or momentum config is invalid.
    pub fn build(&self) -> Sgd {
        Sgd {
            weight_decay: self.weight_decay.as_ref().map(WeightDecay::new),
            momentum: self.momentum.as_ref().map(Momentum::new),
        }
    }
}

/// SGD (PyTorch's rule): for a parameter θ with gradient `g`,
///
/// 1. `g ← g + λ·θ` with L2 weight decay λ;
/// 2. with momentum μ and dampening τ: `b ← g` on the first update, `b ← μ·b + (1 − τ)·g`
///    after; then `g ← g + μ·b` with Nesterov, `g ← b` without;
/// 3. `θ ← θ − lr·g`.
///
/// State: `momentum_buffer` (with momentum only).
#[derive(Clone, Debug, PartialEq)]
pub struct Sgd {
    weight_decay: Option<WeightDecay>,
    momentum: Option<Momentum>,
}

simple_optimizer! {
    "SGD": SgdConfig => Sgd;
    const NAME = "Sgd";
    fn step(&self, lr, param, grad, state) {
        let grad = decayed(self.weight_decay.as_ref(), grad, &param);
        let grad = match &self.momentum {
            Some(momentum) => momentum.transform(grad, state),
            None => grad,
        };
        param - grad.mul_scalar(lr)
    }
}
