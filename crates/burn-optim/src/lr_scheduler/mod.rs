//! Learning-rate schedulers: each [`step`](LrScheduler::step) yields the learning rate of the
//! next optimizer step (the first call yields the initial rate), with the formulas of PyTorch's
//! schedulers of the same names.
//!
//! ```
//! use burn_optim::lr_scheduler::{LrScheduler, step::StepLrSchedulerConfig};
//! let mut scheduler = StepLrSchedulerConfig::new(0.1, 2).with_gamma(0.5).init().unwrap();
//! let lrs: Vec<f64> = (0..5).map(|_| scheduler.step()).collect();
//! assert_eq!(lrs, [0.1, 0.1, 0.05, 0.05, 0.025]);
//! ```

pub mod constant;
pub mod cosine;
pub mod exponential;
pub mod linear;
pub mod noam;
pub mod step;

use crate::LearningRate;

/// Yields a learning rate per optimizer step.
pub trait LrScheduler: Send {
    /// The scheduler's progress, serializable (for checkpoints).
    type Record: Clone
        + core::fmt::Debug
        + PartialEq
        + Send
        + serde::Serialize
        + serde::de::DeserializeOwned;

    /// The learning rate of the next optimizer step; advances the schedule.
    fn step(&mut self) -> LearningRate;

    /// The progress of the schedule.
    fn to_record(&self) -> Self::Record;

    /// The scheduler resumed at `record` (from a scheduler of the same config).
    fn load_record(self, record: Self::Record) -> Self
    where
        Self: Sized;
}

/// A plain learning rate is a constant schedule.
impl LrScheduler for LearningRate {
    type Record = ();

    fn step(&mut self) -> LearningRate {
        *self
    }

    fn to_record(&self) {}

    fn load_record(self, _record: ()) -> Self {
        self
    }
}

/// `LrScheduler` for a scheduler whose rate is a function `lr_at(t)` of the number `t` of
/// steps taken before (from 0); its record is that count.
macro_rules! counted_scheduler {
    ($($scheduler:ty),* $(,)?) => {$(
        impl $crate::lr_scheduler::LrScheduler for $scheduler {
            /// The number of steps taken.
            type Record = u64;

            fn step(&mut self) -> $crate::LearningRate {
                let lr = self.lr_at(self.iteration);
                self.iteration += 1;
                lr
            }

            fn to_record(&self) -> u64 {
                self.iteration
            }

            fn load_record(mut self, record: u64) -> Self {
                self.iteration = record;
                self
            }
        }
    )*};
}
pub(crate) use counted_scheduler;

/// `Err(message)` unless `ok`: the configs' argument checks.
pub(crate) fn check(ok: bool, message: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(message()) }
}

/// Checks that a learning rate `name` is finite and positive.
pub(crate) fn check_positive(name: &str, value: f64) -> Result<(), String> {
    check(value.is_finite() && value > 0.0, || {
        format!("{name} must be a positive finite number, got {value}")
    })
}

/// Checks that a count `name` is at least 1.
pub(crate) fn check_count(name: &str, value: usize) -> Result<(), String> {
    check(value >= 1, || {
        format!("{name} must be at least 1, got {value}")
    })
}
