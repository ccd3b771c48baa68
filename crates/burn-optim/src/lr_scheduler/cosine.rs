//! Cosine annealing with restarts (SGDR, Loshchilov & Hutter, 2017, without period growth):
//! PyTorch's `CosineAnnealingLR` over one period, restarted after it.

use super::{check, check_count, check_positive, counted_scheduler};
use crate::LearningRate;
use burn::config::Config;

/// The config of [`CosineAnnealingLrScheduler`].
#[derive(Config, Debug, PartialEq)]
pub struct CosineAnnealingLrSchedulerConfig {
    /// The learning rate at the start of each period.
    pub initial_lr: LearningRate,
    /// The number of steps from the initial to the minimum learning rate.
    pub num_iters: usize,
    /// The learning rate at the end of each period.
    #[config(default = 0.0)]
    pub min_lr: LearningRate,
}

impl CosineAnnealingLrSchedulerConfig {
    /// The scheduler, or why the arguments are invalid (`initial_lr` not positive and finite,
    /// `min_lr` out of `[0, initial_lr]`, `num_iters` zero).
    pub fn init(&self) -> Result<CosineAnnealingLrScheduler, String> {
        check_positive(
            "CosineAnnealingLrSchedulerConfig: initial_lr",
            self.initial_lr,
        )?;
        check(self.min_lr >= 0.0 && self.min_lr <= self.initial_lr, || {
            format!(
                "CosineAnnealingLrSchedulerConfig: min_lr must be in [0, initial_lr = {}], \
                     got {}",
                self.initial_lr, self.min_lr
            )
        })?;
        check_count(
            "CosineAnnealingLrSchedulerConfig: num_iters",
            self.num_iters,
        )?;
        Ok(CosineAnnealingLrScheduler {
            initial_lr: self.initial_lr,
            min_lr: self.min_lr,
            num_iters: self.num_iters as u64,
            iteration: 0,
        })
    }
}

/// Cosine annealing: the `t`-th step (from 0) has rate
/// `min_lr + ½·(initial_lr − min_lr)·(1 + cos(π·t′ / num_iters))` with
/// `t′ = t mod (num_iters + 1)`: from `initial_lr` down to `min_lr` in `num_iters` steps, then
/// back to `initial_lr`.
#[derive(Clone, Debug, PartialEq)]
pub struct CosineAnnealingLrScheduler {
    initial_lr: LearningRate,
    min_lr: LearningRate,
    num_iters: u64,
    iteration: u64,
}

impl CosineAnnealingLrScheduler {
    fn lr_at(&self, t: u64) -> LearningRate {
        let phase = (t % (self.num_iters + 1)) as f64 / self.num_iters as f64;
        let cosine = (core::f64::consts::PI * phase).cos();
        self.min_lr + 0.5 * (self.initial_lr - self.min_lr) * (1.0 + cosine)
    }
}

counted_scheduler!(CosineAnnealingLrScheduler);
