//! L2 weight decay added to the gradient (`g ← g + λ·θ`), as used by SGD, Adam, RmsProp and
//! AdaGrad. AdamW decouples it instead (see [`AdamW`](crate::AdamW)).

use crate::validate::non_negative;
use burn::config::Config;
use burn::tensor::Tensor;

/// The config of [`WeightDecay`].
#[derive(Config, Debug, PartialEq)]
pub struct WeightDecayConfig {
    /// The L2 penalty λ.
    pub penalty: f32,
}

impl WeightDecayConfig {
    /// The weight decay.
    ///
    /// # Panics
    /// If the penalty is negative or not finite.
    pub fn init(&self) -> WeightDecay {
        non_negative("WeightDecayConfig", "penalty", self.penalty.into());
        WeightDecay {
            penalty: self.penalty,
        }
    }
}

/// L2 weight decay: the gradient plus `penalty` times the parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WeightDecay {
    penalty: f32,
}

impl WeightDecay {
    /// The weight decay of `config`.
    pub fn new(config: &WeightDecayConfig) -> Self {
        config.init()
    }

    /// The penalty λ.
    pub fn penalty(&self) -> f32 {
        self.penalty
    }

    /// `grad + λ·param`.
    pub fn transform<const D: usize>(&self, grad: Tensor<D>, param: Tensor<D>) -> Tensor<D> {
        grad + param.mul_scalar(self.penalty)
    }
}

/// Applies an optional weight decay.
pub(crate) fn decayed<const D: usize>(
    decay: Option<&WeightDecay>,
    grad: Tensor<D>,
    param: &Tensor<D>,
) -> Tensor<D> {
    match decay {
        Some(decay) => decay.transform(grad, param.clone()),
        None => grad,
    }
}
