//! Momentum for SGD, with dampening and Nesterov's variant (PyTorch's rule).

use crate::state::ParamState;
use crate::validate::{non_negative, require};
use burn::config::Config;
use burn::tensor::Tensor;

/// The config of [`Momentum`].
#[derive(Config, Debug, PartialEq)]
pub struct MomentumConfig {
    /// The momentum factor μ.
    #[config(default = 0.9)]
    pub momentum: f64,
    /// The dampening τ: the share of the gradient left out of the buffer.
    #[config(default = 0.1)]
    pub dampening: f64,
    /// Whether to use Nesterov momentum (Sutskever et al., 2013).
    #[config(default = false)]
    pub nesterov: bool,
}

impl MomentumConfig {
    /// The momentum.
    ///
    /// # Panics
    /// If `momentum` is negative or `dampening` is out of `[0, 1]`.
    pub fn init(&self) -> Momentum {
        non_negative("MomentumConfig", "momentum", self.momentum);
        require(
            (0.0..=1.0).contains(&self.dampening),
            "MomentumConfig",
            format_args!("`dampening` must be in [0, 1], got {}", self.dampening),
        );
        Momentum {
            momentum: self.momentum,
            dampening: self.dampening,
            nesterov: self.nesterov,
        }
    }
}

/// Momentum, transforming a gradient `g` with the buffer `b` of the parameter's state:
///
/// - first update: `b ← g`; later ones: `b ← μ·b + (1 − τ)·g`;
/// - the update direction is `g + μ·b` with Nesterov, `b` otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Momentum {
    momentum: f64,
    dampening: f64,
    nesterov: bool,
}

/// The name of the buffer in the state.
pub(crate) const BUFFER: &str = "momentum_buffer";

impl Momentum {
    /// The momentum of `config`.
    pub fn new(config: &MomentumConfig) -> Self {
        config.init()
    }

    /// The update direction from `grad`, updating the buffer in `state`.
    pub fn transform<const D: usize>(&self, grad: Tensor<D>, state: &mut ParamState) -> Tensor<D> {
        let buffer = match state.take::<D>(BUFFER) {
            Some(buffer) => {
                buffer.mul_scalar(self.momentum) + grad.clone().mul_scalar(1.0 - self.dampening)
            }
            None => grad.clone(),
        };
        state.set(BUFFER, buffer.clone());
        if self.nesterov {
            grad + buffer.mul_scalar(self.momentum)
        } else {
            buffer
        }
    }
}
