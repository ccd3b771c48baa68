//! AdaGrad (Duchi et al., 2011), with learning-rate decay and L2 weight decay (PyTorch's
//! rule).

use crate::LearningRate;
use crate::adaptor::{OptimizerAdaptor, adapt};
use crate::decay::{WeightDecay, WeightDecayConfig, decayed};
use crate::grad_clipping::GradientClippingConfig;
use crate::optimizer::SimpleOptimizer;
use crate::state::ParamState;
use crate::validate::non_negative;
use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

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

    /// The AdaGrad optimizer for modules of type `M`.
    ///
    /// # Panics
    /// As [`build`](Self::build), or on an invalid clipping threshold.
    pub fn init<M: Module>(&self) -> OptimizerAdaptor<AdaGrad, M> {
        adapt(self.build(), self.grad_clipping.as_ref())
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

impl SimpleOptimizer for AdaGrad {
    const NAME: &'static str = "AdaGrad";

    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        param: Tensor<D>,
        grad: Tensor<D>,
        state: &mut ParamState,
    ) -> Tensor<D> {
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
