//! What a model provides to the loop: a training step (loss, gradients) and a validation
//! step, and what their outputs tell the metrics.

use burn::module::Module;
use burn::tensor::{Gradients, Int, Tensor};
use burn_optim::GradientsParams;

/// A training step's result: the gradients of the model's parameters and an item for the
/// metrics.
pub struct TrainOutput<T> {
    /// The gradients, keyed by parameter.
    pub grads: GradientsParams,
    /// What the metrics read.
    pub item: T,
}

impl<T> TrainOutput<T> {
    /// The output of a step of `module` whose backward pass gave `grads`.
    pub fn new<M: Module>(module: &M, grads: Gradients, item: T) -> Self {
        Self {
            grads: GradientsParams::from_grads(grads, module),
            item,
        }
    }
}

/// One optimization step's forward and backward pass on a batch (on an autodiff device).
pub trait TrainStep<Batch, Item> {
    /// Computes the loss on `batch` and its gradients.
    fn step(&self, batch: Batch) -> TrainOutput<Item>;
}

/// One validation step on a batch (the model is on the inner device, no autodiff).
pub trait ValidStep<Batch, Item> {
    /// Computes the outputs on `batch`.
    fn step(&self, batch: Batch) -> Item;
}

/// The output of a classifier on a batch.
#[derive(Debug, Clone)]
pub struct ClassificationOutput {
    /// The mean loss over the batch, shape `[1]`.
    pub loss: Tensor<1>,
    /// The logits, `[batch, classes]`.
    pub output: Tensor<2>,
    /// The target classes, `[batch]`.
    pub targets: Tensor<1, Int>,
}

impl ClassificationOutput {
    /// The output of a classifier.
    pub fn new(loss: Tensor<1>, output: Tensor<2>, targets: Tensor<1, Int>) -> Self {
        Self {
            loss,
            output,
            targets,
        }
    }
}

/// What a step's output contributes to the epoch's metrics.
pub trait MetricItem {
    /// The batch's loss, size and (for classifiers) number of correct predictions.
    fn metrics(&self) -> crate::BatchMetrics;
}

impl MetricItem for ClassificationOutput {
    fn metrics(&self) -> crate::BatchMetrics {
        let batch_size = self.targets.dims()[0];
        let predicted = self.output.clone().argmax(1).reshape([batch_size]);
        let correct = predicted
            .equal(self.targets.clone())
            .int()
            .sum()
            .into_scalar::<i64>() as usize;
        crate::BatchMetrics {
            loss: self.loss.clone().into_scalar::<f64>(),
            batch_size,
            correct: Some(correct),
        }
    }
}
