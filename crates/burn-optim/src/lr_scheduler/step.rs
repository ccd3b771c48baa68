//! Step decay: the rate is multiplied by γ every `step_size` steps (PyTorch's `StepLR`).

use super::{check, check_count, check_positive, counted_scheduler};
use crate::LearningRate;
use burn::config::Config;

/// The config of [`StepLrScheduler`].
#[derive(Config, Debug, PartialEq)]
pub struct StepLrSchedulerConfig {
    /// The learning rate of the first steps.
    pub initial_lr: LearningRate,
    /// The number of steps between two decays.
    pub step_size: usize,
    /// The factor γ applied at each decay.
    #[config(default = 0.1)]
    pub gamma: f64,
}

impl StepLrSchedulerConfig {
    /// The scheduler, or why the arguments are invalid (`initial_lr` or `gamma` not positive
    /// and finite, `step_size` zero).
    pub fn init(&self) -> Result<StepLrScheduler, String> {
        check_positive("StepLrSchedulerConfig: initial_lr", self.initial_lr)?;
        check_count("StepLrSchedulerConfig: step_size", self.step_size)?;
        check(self.gamma.is_finite() && self.gamma > 0.0, || {
            format!(
                "StepLrSchedulerConfig: gamma must be a positive finite number, got {}",
                self.gamma
            )
        })?;
        Ok(StepLrScheduler {
            initial_lr: self.initial_lr,
            step_size: self.step_size as u64,
            gamma: self.gamma,
            iteration: 0,
        })
    }
}

/// Step decay: the `t`-th step (from 0) has rate `initial_lr · γ^⌊t / step_size⌋`.
#[derive(Clone, Debug, PartialEq)]
pub struct StepLrScheduler {
    initial_lr: LearningRate,
    step_size: u64,
    gamma: f64,
    iteration: u64,
}

impl StepLrScheduler {
    fn lr_at(&self, t: u64) -> LearningRate {
        self.initial_lr * self.gamma.powf((t / self.step_size) as f64)
    }
}

counted_scheduler!(StepLrScheduler);
