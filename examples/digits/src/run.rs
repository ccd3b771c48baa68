//! Training a model and evaluating its saved weights.

use crate::data::{self, DigitBatch, DigitBatcher, SEED};
use crate::model::{Cnn, Mlp};
use burn::data::dataloader::{DataLoader, DataLoaderBuilder};
use burn::module::{Module, Quantizer};
use burn::optim::AdamConfig;
use burn::optim::lr_scheduler::cosine::CosineAnnealingLrSchedulerConfig;
use burn::store::RecordError;
use burn::tensor::Device;
use burn::tensor::quantization::{Calibration, QuantScheme, QuantValue, ScaleDtype};
use burn::train::{
    ClassificationOutput, LearnerBuilder, MetricHistory, MetricItem, TrainStep, ValidStep,
};
use std::path::Path;
use std::time::Instant;

/// Which model to train or evaluate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModelKind {
    /// The multilayer perceptron.
    Mlp,
    /// The convolutional network.
    Cnn,
}

impl ModelKind {
    fn name(self) -> &'static str {
        match self {
            ModelKind::Mlp => "mlp",
            ModelKind::Cnn => "cnn",
        }
    }

    fn default_epochs(self) -> usize {
        match self {
            ModelKind::Mlp => 30,
            ModelKind::Cnn => 15,
        }
    }
}

type Loader = DataLoader<data::DigitItem, DigitBatch>;

/// The training and validation loaders; batches are built on the inner (plain) device:
/// inputs are constants of the graph.
fn loaders(device: &Device) -> (Loader, Loader) {
    let (train, valid) = data::split();
    let train = DataLoaderBuilder::new(DigitBatcher)
        .batch_size(32)
        .shuffle(SEED)
        .set_device(device.inner())
        .build(train);
    let valid = DataLoaderBuilder::new(DigitBatcher)
        .batch_size(256)
        .set_device(device.inner())
        .build(valid);
    (train, valid)
}

/// Trains `kind` on `device` (with autodiff) and writes its artifacts under
/// `artifacts/<kind>/`.
pub fn train(
    kind: ModelKind,
    device: &Device,
    epochs: Option<usize>,
    artifacts: &Path,
) -> Result<(), String> {
    device.seed(SEED);
    let epochs = epochs.unwrap_or(kind.default_epochs());
    let dir = artifacts.join(kind.name());
    let autodiff = device.autodiff();
    println!("training the {} for {epochs} epochs", kind.name());
    match kind {
        ModelKind::Mlp => fit(Mlp::new(&autodiff), device, epochs, &dir),
        ModelKind::Cnn => fit(Cnn::new(&autodiff), device, epochs, &dir),
    }
}

fn fit<M>(model: M, device: &Device, epochs: usize, dir: &Path) -> Result<(), String>
where
    M: Module
        + TrainStep<DigitBatch, ClassificationOutput>
        + ValidStep<DigitBatch, ClassificationOutput>,
{
    let start = Instant::now();
    let (train, valid) = loaders(device);
    println!(
        "{} parameters; {} training and {} validation images",
        model.num_params(),
        train.num_items(),
        valid.num_items()
    );
    let steps = epochs * train.num_batches();
    let scheduler = CosineAnnealingLrSchedulerConfig::new(3e-3, steps)
        .with_min_lr(1e-5)
        .init()
        .map_err(|e| format!("learning-rate schedule: {e}"))?;
    let result = LearnerBuilder::new(dir)
        .num_epochs(epochs)
        .checkpoint(5)
        .build(model, AdamConfig::new().init(), scheduler)
        .fit(&train, &valid)?;

    let weights = dir.join("weights.bpk");
    result
        .model
        .save_file(&weights)
        .map_err(|e| format!("saving {}: {e}", weights.display()))?;
    let last = result.history.last().expect("at least one epoch");
    println!(
        "done in {:.1} s: validation accuracy {:.2}%; wrote {}, {}",
        start.elapsed().as_secs_f64(),
        last.valid_accuracy.unwrap_or(0.0),
        weights.display(),
        result
            .chart
            .map(|p| p.display().to_string())
            .unwrap_or_default()
    );
    Ok(())
}

/// Reloads the weights of `kind` saved under `artifacts/<kind>/` into a freshly built
/// model on `device` and reports its validation accuracy next to the one training reported,
/// then the accuracy with the weights quantized to int8 (an error when it loses more than
/// [`INT8_MAX_LOSS`] points).
pub fn evaluate(kind: ModelKind, device: &Device, artifacts: &Path) -> Result<(), String> {
    let dir = artifacts.join(kind.name());
    let weights = dir.join("weights.bpk");
    let history_path = dir.join("history.json");
    let history: MetricHistory = std::fs::read_to_string(&history_path)
        .map_err(|e| format!("reading {}: {e} (train first)", history_path.display()))
        .and_then(|text| {
            serde_json_history(&text).map_err(|e| format!("{}: {e}", history_path.display()))
        })?;
    let reported = history
        .last()
        .and_then(|m| m.valid_accuracy)
        .ok_or("the history has no validation accuracy")?;
    let loading = |e: RecordError| format!("loading {}: {e}", weights.display());
    let (accuracy, int8) = match kind {
        ModelKind::Mlp => {
            let model = Mlp::new(device).try_load_file(&weights).map_err(loading)?;
            (accuracy(&model, device), int8_accuracy(model, device))
        }
        ModelKind::Cnn => {
            let model = Cnn::new(device).try_load_file(&weights).map_err(loading)?;
            (accuracy(&model, device), int8_accuracy(model, device))
        }
    };
    println!(
        "{}: reloaded {}: validation accuracy {accuracy:.2}% (training reported {reported:.2}%)",
        kind.name(),
        weights.display()
    );
    if (accuracy - reported).abs() > 1e-6 {
        return Err(format!(
            "the reloaded model scores {accuracy:.4}%, training reported {reported:.4}%"
        ));
    }
    println!(
        "{}: with int8 weights (symmetric, one scale per tensor): validation accuracy \
         {int8:.2}% ({:+.2} points)",
        kind.name(),
        int8 - accuracy
    );
    if accuracy - int8 > INT8_MAX_LOSS {
        return Err(format!(
            "int8 weights lose {:.2} points of validation accuracy (at most {INT8_MAX_LOSS})",
            accuracy - int8
        ));
    }
    Ok(())
}

/// The validation accuracy int8 weights may lose, in points.
const INT8_MAX_LOSS: f64 = 1.0;

/// The validation accuracy of `model` with every parameter quantized to symmetric int8 (one
/// scale per tensor): `Module::quantize_weights`.
fn int8_accuracy<M>(model: M, device: &Device) -> f64
where
    M: Module + ValidStep<DigitBatch, ClassificationOutput>,
{
    let mut quantizer = Quantizer::new(
        Calibration::MinMax,
        QuantScheme::default()
            .with_value(QuantValue::Q8S)
            .per_tensor(ScaleDtype::F32),
    );
    accuracy(&model.quantize_weights(&mut quantizer), device)
}

/// The validation accuracy of `model` in percent.
fn accuracy<M: ValidStep<DigitBatch, ClassificationOutput>>(model: &M, device: &Device) -> f64 {
    let (_, valid) = loaders(device);
    let (mut correct, mut total) = (0, 0);
    for batch in valid.iter() {
        let metrics = model.step(batch).metrics();
        correct += metrics.correct.unwrap_or(0);
        total += metrics.batch_size;
    }
    100.0 * correct as f64 / total as f64
}

/// Parses a history written by the learner.
fn serde_json_history(text: &str) -> Result<MetricHistory, String> {
    MetricHistory::from_json(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trained_mlp_reloads_and_keeps_its_accuracy_with_int8_weights() {
        let dir = std::env::temp_dir().join(format!("digits-test-{}", std::process::id()));
        let device = Device::flex();
        train(ModelKind::Mlp, &device, Some(5), &dir).unwrap();
        // Reloads, checks the reported accuracy, and fails when int8 weights lose more than
        // INT8_MAX_LOSS points.
        evaluate(ModelKind::Mlp, &device, &dir).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
