//! `LearnerBuilder` and `Learner`: epochs of training and validation, metrics, progress,
//! checkpoints and the chart.

use crate::checkpoint::{
    load_history, load_state, load_weights, save_history, save_state, save_weights, state_path,
    weights_path,
};
use crate::metric::{Accumulator, EpochMetrics, MetricHistory};
use crate::progress::epoch_bar;
use crate::step::{MetricItem, TrainStep, ValidStep};
use burn::module::Module;
use burn_data::dataloader::DataLoader;
use burn_optim::Optimizer;
use burn_optim::lr_scheduler::LrScheduler;
use std::path::PathBuf;
use std::time::Instant;

/// Configures a [`Learner`]: where it writes, how many epochs, checkpoints, progress.
#[derive(Debug, Clone)]
pub struct LearnerBuilder {
    artifact_dir: PathBuf,
    num_epochs: usize,
    checkpoint_every: Option<usize>,
    resume: Option<usize>,
    progress: bool,
    chart: bool,
    log: bool,
}

impl LearnerBuilder {
    /// A builder writing into `artifact_dir`: 1 epoch, no checkpoints, progress bar, chart
    /// and per-epoch log lines on.
    pub fn new(artifact_dir: impl Into<PathBuf>) -> Self {
        Self {
            artifact_dir: artifact_dir.into(),
            num_epochs: 1,
            checkpoint_every: None,
            resume: None,
            progress: true,
            chart: true,
            log: true,
        }
    }

    /// The number of epochs.
    pub fn num_epochs(mut self, num_epochs: usize) -> Self {
        self.num_epochs = num_epochs;
        self
    }

    /// Saves a checkpoint every `every` epochs: the weights
    /// (`checkpoint/model-<epoch>.safetensors`) and the optimizer and schedule state
    /// (`checkpoint/state-<epoch>.json`).
    pub fn checkpoint(mut self, every: usize) -> Self {
        assert!(
            every > 0,
            "LearnerBuilder::checkpoint: expected a positive period, got 0"
        );
        self.checkpoint_every = Some(every);
        self
    }

    /// Resumes from the checkpoint of `epoch` (weights, optimizer and schedule state, and the
    /// history so far) and trains the remaining epochs.
    pub fn resume(mut self, epoch: usize) -> Self {
        self.resume = Some(epoch);
        self
    }

    /// Whether to draw a progress bar (hidden anyway when stderr is not a terminal).
    pub fn with_progress(mut self, progress: bool) -> Self {
        self.progress = progress;
        self
    }

    /// Whether to write `training.png` at the end.
    pub fn with_chart(mut self, chart: bool) -> Self {
        self.chart = chart;
        self
    }

    /// Whether to print one line of metrics per epoch.
    pub fn with_log(mut self, log: bool) -> Self {
        self.log = log;
        self
    }

    /// The learner for `model`, trained with `optimizer` at the rates of `scheduler`.
    pub fn build<M, O, S>(self, model: M, optimizer: O, scheduler: S) -> Learner<M, O, S> {
        Learner {
            model,
            optimizer,
            scheduler,
            config: self,
        }
    }
}

/// A model, its optimizer and learning-rate schedule, ready to [`fit`](Learner::fit).
pub struct Learner<M, O, S> {
    model: M,
    optimizer: O,
    scheduler: S,
    config: LearnerBuilder,
}

/// What a run produced: the trained model (on its training device) and the metrics.
#[derive(Debug)]
pub struct TrainingResult<M> {
    /// The trained model.
    pub model: M,
    /// One entry per epoch.
    pub history: MetricHistory,
    /// Where the chart was written, if it was.
    pub chart: Option<PathBuf>,
}

impl<M, O, S> Learner<M, O, S>
where
    M: Module,
    O: Optimizer<M>,
    S: LrScheduler,
{
    /// Trains for the configured epochs: each epoch runs every training batch (step,
    /// gradients, optimizer update) then every validation batch on `model.valid()`.
    pub fn fit<TI, TB, TO, VI, VB, VO>(
        mut self,
        train: &DataLoader<TI, TB>,
        valid: &DataLoader<VI, VB>,
    ) -> Result<TrainingResult<M>, String>
    where
        M: TrainStep<TB, TO> + ValidStep<VB, VO>,
        TO: MetricItem,
        VO: MetricItem,
    {
        let config = self.config.clone();
        std::fs::create_dir_all(&config.artifact_dir)
            .map_err(|e| format!("creating {}: {e}", config.artifact_dir.display()))?;
        let mut history = MetricHistory::default();
        let mut first_epoch = 1;
        if let Some(epoch) = config.resume {
            load_weights(&mut self.model, &weights_path(&config.artifact_dir, epoch))?;
            let (optimizer, scheduler) =
                load_state::<M, S::Record>(&self.model, &state_path(&config.artifact_dir, epoch))?;
            self.optimizer = self.optimizer.load_record(optimizer);
            self.scheduler = self.scheduler.load_record(scheduler);
            history = load_history(&config.artifact_dir.join("history.json"))?;
            history.epochs.truncate(epoch);
            first_epoch = epoch + 1;
        }
        for epoch in first_epoch..=config.num_epochs {
            let start = Instant::now();
            let bar = epoch_bar(
                config.progress,
                epoch,
                config.num_epochs,
                train.num_batches(),
            );
            let mut train_metrics = Accumulator::default();
            let mut learning_rate = 0.0;
            for batch in train.iter_epoch(epoch as u64 - 1) {
                learning_rate = self.scheduler.step();
                let output = TrainStep::step(&self.model, batch);
                train_metrics.add(output.item.metrics());
                self.model = self.optimizer.step(learning_rate, self.model, output.grads);
                bar.set_message(format!("loss {:.4}", train_metrics.loss()));
                bar.inc(1);
            }
            bar.finish_and_clear();

            let valid_model = self.model.valid();
            let mut valid_metrics = Accumulator::default();
            for batch in valid.iter_epoch(0) {
                valid_metrics.add(ValidStep::step(&valid_model, batch).metrics());
            }

            let metrics = EpochMetrics {
                epoch,
                train_loss: train_metrics.loss(),
                train_accuracy: train_metrics.accuracy(),
                valid_loss: valid_metrics.loss(),
                valid_accuracy: valid_metrics.accuracy(),
                learning_rate,
                seconds: start.elapsed().as_secs_f64(),
            };
            if config.log {
                println!("{metrics}");
            }
            history.epochs.push(metrics);
            if config
                .checkpoint_every
                .is_some_and(|every| epoch % every == 0)
            {
                save_weights(&self.model, &weights_path(&config.artifact_dir, epoch))?;
                save_state(
                    &self.model,
                    epoch,
                    self.optimizer.to_record(),
                    &self.scheduler.to_record(),
                    &state_path(&config.artifact_dir, epoch),
                )?;
                // The history so far, so a resumed run continues its curves.
                save_history(&history, &config.artifact_dir.join("history.json"))?;
            }
        }
        save_history(&history, &config.artifact_dir.join("history.json"))?;
        let chart = if config.chart {
            let path = config.artifact_dir.join("training.png");
            crate::chart::plot_history(&history, &path)?;
            Some(path)
        } else {
            None
        };
        Ok(TrainingResult {
            model: self.model,
            history,
            chart,
        })
    }
}
