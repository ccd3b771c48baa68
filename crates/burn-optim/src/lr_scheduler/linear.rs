//! Linear interpolation from an initial to a final learning rate (PyTorch's `LinearLR`, with
//! rates instead of factors).

use super::{check, check_count, check_positive, counted_scheduler};
use crate::LearningRate;
use burn::config::Config;

/// The config of [`LinearLrScheduler`].
#[derive(Config, Debug, PartialEq)]
pub struct LinearLrSchedulerConfig {
    /// The learning rate of the first step.
    pub initial_lr: LearningRate,
    /// The learning rate reached after `num_iters` steps, and kept.
    pub final_lr: LearningRate,
    /// The number of steps from the initial to the final learning rate.
    pub num_iters: usize,
}

impl LinearLrSchedulerConfig {
    /// The scheduler, or why the arguments are invalid (`initial_lr` not positive and finite,
    /// `final_lr` negative or not finite, `num_iters` zero).
    pub fn init(&self) -> Result<LinearLrScheduler, String> {
        check_positive("LinearLrSchedulerConfig: initial_lr", self.initial_lr)?;
        check(self.final_lr.is_finite() && self.final_lr >= 0.0, || {
            format!(
                "LinearLrSchedulerConfig: final_lr must be a finite number at least 0, got {}",
                self.final_lr
            )
        })?;
        check_count("LinearLrSchedulerConfig: num_iters", self.num_iters)?;
        Ok(LinearLrScheduler {
            initial_lr: self.initial_lr,
            final_lr: self.final_lr,
            num_iters: self.num_iters as u64,
            iteration: 0,
        })
    }
}

/// Linear schedule: the `t`-th step (from 0) has rate
/// `initial_lr + (final_lr − initial_lr)·min(t, num_iters) / num_iters`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearLrScheduler {
    initial_lr: LearningRate,
    final_lr: LearningRate,
    num_iters: u64,
    iteration: u64,
}

impl LinearLrScheduler {
    fn lr_at(&self, t: u64) -> LearningRate {
        let progress = t.min(self.num_iters) as f64 / self.num_iters as f64;
        self.initial_lr + (self.final_lr - self.initial_lr) * progress
    }
}

counted_scheduler!(LinearLrScheduler);
