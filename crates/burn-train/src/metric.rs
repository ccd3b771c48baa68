//! Metrics: per batch, accumulated per epoch, and the history of a run.

/// What one batch contributes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BatchMetrics {
    /// The batch's mean loss.
    pub loss: f64,
    /// The number of items.
    pub batch_size: usize,
    /// Correct predictions (classifiers).
    pub correct: Option<usize>,
}

/// Sums batch metrics over an epoch.
#[derive(Debug, Default, Clone)]
pub(crate) struct Accumulator {
    loss_sum: f64,
    items: usize,
    correct: Option<usize>,
}

impl Accumulator {
    pub(crate) fn add(&mut self, batch: BatchMetrics) {
        self.loss_sum += batch.loss * batch.batch_size as f64;
        self.items += batch.batch_size;
        if let Some(correct) = batch.correct {
            *self.correct.get_or_insert(0) += correct;
        }
    }

    /// The mean loss per item so far.
    pub(crate) fn loss(&self) -> f64 {
        self.loss_sum / self.items.max(1) as f64
    }

    /// The accuracy in percent so far (classifiers).
    pub(crate) fn accuracy(&self) -> Option<f64> {
        self.correct
            .map(|c| 100.0 * c as f64 / self.items.max(1) as f64)
    }
}

/// One epoch's figures.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EpochMetrics {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Mean training loss.
    pub train_loss: f64,
    /// Training accuracy in percent (classifiers).
    pub train_accuracy: Option<f64>,
    /// Mean validation loss.
    pub valid_loss: f64,
    /// Validation accuracy in percent (classifiers).
    pub valid_accuracy: Option<f64>,
    /// The learning rate of the epoch's last step.
    pub learning_rate: f64,
    /// Wall-clock seconds of the epoch.
    pub seconds: f64,
}

impl core::fmt::Display for EpochMetrics {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let accuracy = |a: Option<f64>| a.map(|a| format!(" acc {a:6.2}%")).unwrap_or_default();
        write!(
            f,
            "epoch {:3}  train loss {:.4}{}  valid loss {:.4}{}  lr {:.2e}  ({:.2} s)",
            self.epoch,
            self.train_loss,
            accuracy(self.train_accuracy),
            self.valid_loss,
            accuracy(self.valid_accuracy),
            self.learning_rate,
            self.seconds
        )
    }
}

/// Every epoch of a run.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MetricHistory {
    /// The epochs, in order.
    pub epochs: Vec<EpochMetrics>,
}

impl MetricHistory {
    /// The last epoch's figures.
    pub fn last(&self) -> Option<&EpochMetrics> {
        self.epochs.last()
    }

    /// The history as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("<unserializable: {e}>"))
    }

    /// A history written by [`to_json`](Self::to_json).
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("not a metric history: {e}"))
    }
}
