//! RMSProp (Hinton's lecture 6e), with centering, momentum and L2 weight decay (PyTorch's
//! rule).

use crate::decay::{WeightDecay, WeightDecayConfig, decayed};
use crate::grad_clipping::GradientClippingConfig;
use crate::optimizer::simple_optimizer;
use crate::validate::{non_negative, require};
use burn::config::Config;
use burn::tensor::Tensor;

/// The config of [`RmsProp`].
#[derive(Config, Debug, PartialEq)]
pub struct RmsPropConfig {
    /// The smoothing constant α of the squared-gradient average.
    #[config(default = 0.99)]
    pub alpha: f32,
    /// ε, added to the root of the average for numerical stability.
    #[config(default = 1e-5)]
    pub epsilon: f32,
    /// Whether to normalize by the variance estimate (the average of squares minus the square
    /// of the average gradient) instead of the average of squares.
    #[config(default = false)]
    pub centered: bool,
    /// The momentum factor μ (0: no momentum).
    #[config(default = 0.0)]
    pub momentum: f32,
    /// L2 weight decay, added to the gradient.
    pub weight_decay: Option<WeightDecayConfig>,
    /// Gradient clipping, before the update.
    pub grad_clipping: Option<GradientClippingConfig>,
}

impl RmsPropConfig {
    /// The update rule.
    ///
    /// # Panics
    /// If `alpha` is out of `[0, 1]`, or epsilon, the momentum or the weight decay is
    /// negative.
    pub fn build(&self) -> RmsProp {
        require(
            (0.0..=1.0).contains(&self.alpha),
            "RmsPropConfig",
            format_args!("`alpha` must be in [0, 1], got {}", self.alpha),
        );
        non_negative("RmsPropConfig", "epsilon", self.epsilon.into());
        non_negative("RmsPropConfig", "momentum", self.momentum.into());
        RmsProp {
            alpha: self.alpha.into(),
            epsilon: self.epsilon,
            centered: self.centered,
            momentum: self.momentum.into(),
            weight_decay: self.weight_decay.as_ref().map(WeightDecay::new),
        }
    }
}

/// RMSProp: for a parameter θ with gradient `g` (buffers start at 0),
///
/// 1. `g ← g + λ·θ` with L2 weight decay λ;
/// 2. `s ← α·s + (1 − α)·g²`;
/// 3. centered: `ḡ ← α·ḡ + (1 − α)·g` and `d = √(s − ḡ²) + ε`; otherwise `d = √s + ε`;
/// 4. with momentum μ > 0: `b ← μ·b + g/d` and `θ ← θ − lr·b`; otherwise `θ ← θ − lr·g/d`.
///
/// State: `square_avg`, `grad_avg` (centered), `momentum_buffer` (μ > 0).
#[derive(Clone, Debug, PartialEq)]
pub struct RmsProp {
    alpha: f64,
    epsilon: f32,
    centered: bool,
    momentum: f64,
    weight_decay: Option<WeightDecay>,
}

/// Names of the state tensors.
const SQUARE_AVG: &str = "square_avg";
const GRAD_AVG: &str = "grad_avg";
const BUFFER: &str = "momentum_buffer";

impl RmsProp {
    /// `alpha·avg + (1 − alpha)·value`, from `value·(1 − alpha)` for a missing average.
    fn smooth<const D: usize>(&self, avg: Option<Tensor<D>>, value: Tensor<D>) -> Tensor<D> {
        let value = value.mul_scalar(1.0 - self.alpha);
        match avg {
            Some(avg) => avg.mul_scalar(self.alpha) + value,
            None => value,
        }
    }
}

simple_optimizer! {
    "RMSProp": RmsPropConfig => RmsProp;
    const NAME = "RmsProp";
    fn step(&self, lr, param, grad, state) {
        let grad = decayed(self.weight_decay.as_ref(), grad, &param);
        let square_avg = self.smooth(state.take::<D>(SQUARE_AVG), grad.clone().square());
        state.set(SQUARE_AVG, square_avg.clone());
        let variance = if self.centered {
            let grad_avg = self.smooth(state.take::<D>(GRAD_AVG), grad.clone());
            state.set(GRAD_AVG, grad_avg.clone());
            square_avg - grad_avg.square()
        } else {
            square_avg
        };
        let direction = grad / variance.sqrt().add_scalar(self.epsilon);
        let direction = if self.momentum > 0.0 {
            let buffer = match state.take::<D>(BUFFER) {
                Some(buffer) => buffer.mul_scalar(self.momentum) + direction,
                None => direction,
            };
            state.set(BUFFER, buffer.clone());
            buffer
        } else {
            direction
        };
        param - direction.mul_scalar(lr)
    }
}
