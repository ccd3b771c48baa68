//! Exponential decay: the rate is multiplied by γ every step (PyTorch's `ExponentialLR`).

use super::{check, check_positive, counted_scheduler};
use crate::LearningRate;
use burn::config::Config;

/// The config of [`ExponentialLrScheduler`].
#[derive(Config, Debug, PartialEq)]
pub struct ExponentialLrSchedulerConfig {
    /// The learning rate of the first step.
    pub initial_lr: LearningRate,
    /// The factor γ applied at each step.
    pub gamma: f64,
}

impl ExponentialLrSchedulerConfig {
    /// The scheduler, or why the arguments are invalid (`initial_lr` not positive and finite,
    /// `gamma` out of `(0, 1]`).
    pub fn init(&self) -> Result<ExponentialLrScheduler, String> {
        check_positive("ExponentialLrSchedulerConfig: initial_lr", self.initial_lr)?;
        check(self.gamma > 0.0 && self.gamma <= 1.0, || {
            format!(
                "ExponentialLrSchedulerConfig: gamma must be in (0, 1], got {}",
                self.gamma
            )
        })?;
        Ok(ExponentialLrScheduler {
            initial_lr: self.initial_lr,
            gamma: self.gamma,
            iteration: 0,
        })
    }
}

/// Exponential decay: the `t`-th step (from 0) has rate `initial_lr · γᵗ`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExponentialLrScheduler {
    initial_lr: LearningRate,
    gamma: f64,
    iteration: u64,
}

impl ExponentialLrScheduler {
    fn lr_at(&self, t: u64) -> LearningRate {
        self.initial_lr * self.gamma.powf(t as f64)
    }
}

counted_scheduler!(ExponentialLrScheduler);
