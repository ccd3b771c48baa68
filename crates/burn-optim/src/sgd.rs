//! Stochastic gradient descent, with L2 weight decay and (Nesterov) momentum.

use crate::LearningRate;
use crate::adaptor::{OptimizerAdaptor, adapt};
use crate::decay::{WeightDecay, WeightDecayConfig, decayed};
use crate::grad_clipping::GradientClippingConfig;
use crate::momentum::{Momentum, MomentumConfig};
use crate::optimizer::SimpleOptimizer;
use crate::state::ParamState;
use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

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

    /// The SGD optimizer for modules of type `M`.
    ///
    /// # Panics
    /// As [`build`](Self::build), or on an invalid clipping threshold.
    pub fn init<M: Module>(&self) -> OptimizerAdaptor<Sgd, M> {
        adapt(self.build(), self.grad_clipping.as_ref())
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

impl SimpleOptimizer for Sgd {
    const NAME: &'static str = "Sgd";

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        param: Tensor<D>,
        grad: Tensor<D>,
        state: &mut ParamState,
    ) -> Tensor<D> {
        let grad = decayed(self.weight_decay.as_ref(), grad, &param);
        let grad = match &self.momentum {
            Some(momentum) => momentum.transform(grad, state),
            None => grad,
        };
        param - grad.mul_scalar(lr)
    }
}
