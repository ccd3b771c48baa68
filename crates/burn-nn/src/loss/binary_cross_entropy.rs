//! `BinaryCrossEntropyLoss`: binary and multi-label cross entropy, on probabilities or logits.

use super::{check_same_dims, check_smoothing, weights_tensor};
use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::activation::log_sigmoid;
use burn::tensor::{Device, Int, Tensor};

/// Configuration of a [`BinaryCrossEntropyLoss`].
#[derive(Config, Debug)]
pub struct BinaryCrossEntropyLossConfig {
    /// Per-class weights: for 1-d inputs `[w_0, w_1]` picked by each target; for `[..., C]`
    /// inputs one weight per class of the last dim.
    pub weights: Option<Vec<f32>>,
    /// Label smoothing `α`: targets become `t·(1 - α) + α / C` (`C` = size of the last dim, or
    /// 2 for 1-d inputs).
    pub smoothing: Option<f32>,
    /// Whether the inputs are logits (a sigmoid is applied inside, stably) instead of
    /// probabilities. Default: false.
    #[config(default = false)]
    pub logits: bool,
}

/// Binary cross entropy averaged over every element (`torch.nn.BCELoss`, or
/// `BCEWithLogitsLoss` with `logits`):
///
/// `ℓ = -w · (t · ln p + (1 - t) · ln(1 - p))`, each log clamped at -100 as in PyTorch;
/// on logits `x`: `ℓ = w · ((1 - t) · x - ln σ(x))`.
#[derive(Module, Debug)]
pub struct BinaryCrossEntropyLoss {
    /// The class weights.
    pub weights: Ignored<Option<Tensor<1>>>,
    /// The label smoothing factor.
    pub smoothing: Option<f32>,
    /// Whether the inputs are logits.
    pub logits: bool,
}

impl BinaryCrossEntropyLossConfig {
    /// The loss, with its weights on `device`. Panics on a smoothing factor outside `[0, 1]`
    /// or a non-positive weight.
    pub fn init(&self, device: &Device) -> BinaryCrossEntropyLoss {
        check_smoothing("BinaryCrossEntropyLossConfig", self.smoothing);
        let weights = self
            .weights
            .as_ref()
            .map(|w| weights_tensor("BinaryCrossEntropyLossConfig", w, device));
        BinaryCrossEntropyLoss {
            weights: Ignored(weights),
            smoothing: self.smoothing,
            logits: self.logits,
        }
    }
}

impl BinaryCrossEntropyLoss {
    /// The mean loss of `logits` (or probabilities) against 0/1 `targets` of the same shape.
    pub fn forward<const D: usize>(&self, logits: Tensor<D>, targets: Tensor<D, Int>) -> Tensor<1> {
        let dims = targets.dims();
        check_same_dims("BinaryCrossEntropyLoss", logits.dims(), dims);
        let mut t = targets.clone().float();
        if let Some(alpha) = self.smoothing {
            let classes = if D > 1 { dims[D - 1] } else { 2 };
            t = t
                .mul_scalar(1.0 - alpha as f64)
                .add_scalar(alpha as f64 / classes as f64);
        }
        let one_minus_t = t.clone().neg().add_scalar(1.0);
        let mut loss = if self.logits {
            one_minus_t.mul(logits.clone()).sub(log_sigmoid(logits))
        } else {
            let log_p = logits.clone().log().clamp_min(-100.0);
            let log_not_p = logits.neg().log1p().clamp_min(-100.0);
            t.mul(log_p).add(one_minus_t.mul(log_not_p)).neg()
        };
        if let Some(weights) = self.weights.0.as_ref() {
            let weights = weights.clone().to_device(&loss.device());
            let count = weights.dims()[0];
            loss = if D > 1 {
                if count != dims[D - 1] {
                    panic!(
                        "BinaryCrossEntropyLoss: {count} class weights for inputs of shape {dims:?}"
                    );
                }
                loss.mul(weights.unsqueeze())
            } else {
                if count != 2 {
                    panic!("BinaryCrossEntropyLoss: 1-d inputs need 2 weights, got {count}");
                }
                let picked = weights.select(0, targets.reshape([-1]));
                loss.mul(picked.reshape(dims))
            };
        }
        loss.mean()
    }
}
