//! Loss functions over tensors.

use crate::Tensor;
use crate::activation::log_softmax;
use crate::tensor::check;

/// Cross entropy between `logits [batch, classes]` and target probabilities of the same shape,
/// averaged over the batch: `mean(-Σ target · log_softmax(logits))`.
pub fn cross_entropy_with_logits<const D: usize>(
    logits: Tensor<D>,
    target_probs: Tensor<D>,
) -> Tensor<1> {
    check::same_shape(
        "cross_entropy_with_logits",
        &logits.shape(),
        &target_probs.shape(),
    );
    let log_probs = log_softmax(logits, D - 1);
    let per_item = log_probs.mul(target_probs).sum_dim(D - 1).neg();
    per_item.mean()
}

/// Mean squared error, averaged over every element.
pub fn mse_loss<const D: usize>(prediction: Tensor<D>, target: Tensor<D>) -> Tensor<1> {
    check::same_shape("mse_loss", &prediction.shape(), &target.shape());
    prediction.sub(target).square().mean()
}

/// Mean absolute error, averaged over every element.
pub fn l1_loss<const D: usize>(prediction: Tensor<D>, target: Tensor<D>) -> Tensor<1> {
    check::same_shape("l1_loss", &prediction.shape(), &target.shape());
    prediction.sub(target).abs().mean()
}

/// Binary cross entropy on logits, averaged: `mean(max(x, 0) - x·t + ln(1 + e^-|x|))`.
pub fn binary_cross_entropy_with_logits<const D: usize>(
    logits: Tensor<D>,
    targets: Tensor<D>,
) -> Tensor<1> {
    check::same_shape(
        "binary_cross_entropy_with_logits",
        &logits.shape(),
        &targets.shape(),
    );
    let tail = logits.clone().abs().neg().exp().log1p();
    logits
        .clone()
        .clamp_min(0.0)
        .sub(logits.mul(targets))
        .add(tail)
        .mean()
}
