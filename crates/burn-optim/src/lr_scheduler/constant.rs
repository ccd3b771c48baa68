//! A constant learning rate.

use super::LrScheduler;
use crate::LearningRate;

/// The same learning rate at every step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConstantLr {
    lr: LearningRate,
}

impl ConstantLr {
    /// The constant schedule of `lr`.
    ///
    /// # Panics
    /// If `lr` is negative or not finite.
    pub fn new(lr: LearningRate) -> Self {
        assert!(
            lr.is_finite() && lr >= 0.0,
            "ConstantLr: the learning rate must be a finite number at least 0, got {lr}"
        );
        Self { lr }
    }
}

impl From<LearningRate> for ConstantLr {
    fn from(lr: LearningRate) -> Self {
        Self::new(lr)
    }
}

impl LrScheduler for ConstantLr {
    type Record = ();

    fn step(&mut self) -> LearningRate {
        self.lr
    }

    fn to_record(&self) {}

    fn load_record(self, _record: ()) -> Self {
        self
    }
}
