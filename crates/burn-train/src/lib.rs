//! The training loop: epochs over a [`burn_data`] loader, a model that knows its own
//! [`TrainStep`] / [`ValidStep`], an optimizer and a learning-rate schedule; per-epoch
//! metrics (loss, accuracy, learning rate) on a progress bar, checkpoints every N epochs,
//! and a PNG chart of the curves next to the weights.
#![warn(missing_docs)]

extern crate burn_core as burn;

mod chart;
mod checkpoint;
mod learner;
mod metric;
mod progress;
mod step;

pub use chart::plot_history;
pub use learner::{Learner, LearnerBuilder, TrainingResult};
pub use metric::{BatchMetrics, EpochMetrics, MetricHistory};
pub use step::{ClassificationOutput, MetricItem, TrainOutput, TrainStep, ValidStep};
