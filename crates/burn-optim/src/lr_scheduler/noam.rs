//! The Noam schedule of the Transformer (Vaswani et al., 2017): linear warm-up, then decay
//! with the inverse square root of the step.

use super::{check_count, check_positive, counted_scheduler};
use crate::LearningRate;
use burn::config::Config;

/// The config of [`NoamLrScheduler`].
#[derive(Config, Debug, PartialEq)]
pub struct NoamLrSchedulerConfig {
    /// The overall scale of the learning rate.
    pub factor: f64,
    /// The number of warm-up steps (the rate peaks at this step).
    #[config(default = 4000)]
    pub warmup_steps: usize,
    /// The model dimension `d_model`.
    #[config(default = 512)]
    pub model_size: usize,
}

impl NoamLrSchedulerConfig {
    /// The scheduler, or why the arguments are invalid (`factor` not positive and finite,
    /// `warmup_steps` or `model_size` zero).
    pub fn init(&self) -> Result<NoamLrScheduler, String> {
        check_positive("NoamLrSchedulerConfig: factor", self.factor)?;
        check_count("NoamLrSchedulerConfig: warmup_steps", self.warmup_steps)?;
        check_count("NoamLrSchedulerConfig: model_size", self.model_size)?;
        Ok(NoamLrScheduler {
            factor: self.factor,
            warmup_steps: self.warmup_steps as f64,
            model_size: self.model_size as f64,
            iteration: 0,
        })
    }
}

/// Noam: the `t`-th step (from 0), with `s = t + 1`, has rate
/// `factor · d_model^−½ · min(s^−½, s · warmup_steps^−³ᐟ²)`.
#[derive(Clone, Debug, PartialEq)]
pub struct NoamLrScheduler {
    factor: f64,
    warmup_steps: f64,
    model_size: f64,
    iteration: u64,
}

impl NoamLrScheduler {
    fn lr_at(&self, t: u64) -> LearningRate {
        let s = (t + 1) as f64;
        let warmup = s * self.warmup_steps.powf(-1.5);
        self.factor * self.model_size.powf(-0.5) * s.powf(-0.5).min(warmup)
    }
}

counted_scheduler!(NoamLrScheduler);
