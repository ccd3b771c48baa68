//! `CrossEntropyLoss`: multi-class cross entropy with label smoothing, class weights and
//! padding tokens.

use super::{check_smoothing, weights_tensor};
use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::activation::log_softmax;
use burn::tensor::{Bool, Device, Int, Tensor};

/// Configuration of a [`CrossEntropyLoss`].
#[derive(Config, Debug)]
pub struct CrossEntropyLossConfig {
    /// Target values to ignore (padding): they add nothing to the loss or its normalizer
    /// (PyTorch's `ignore_index`). A batch of only padding gives NaN.
    pub pad_tokens: Option<Vec<usize>>,
    /// A positive weight per class (PyTorch's `weight`).
    pub weights: Option<Vec<f32>>,
    /// Label smoothing `α ∈ [0, 1]`: the target distribution becomes `(1 - α)·one_hot + α/C`.
    pub smoothing: Option<f32>,
    /// Whether the inputs are logits (log-softmax inside) or probabilities. Default: true.
    #[config(default = true)]
    pub logits: bool,
}

/// Cross entropy of `logits [batch, C]` against class indices `targets [batch]`, as
/// `torch.nn.CrossEntropyLoss` with `reduction="mean"`. With `q_i` the (smoothed) target
/// distribution of sample `i`, `w` the class weights (ones by default) and `P` the samples
/// whose target is not a pad token:
///
/// `loss = -Σ_{i∈P} Σ_c w_c · q_ic · log_softmax(x_i)_c / Σ_{i∈P} w_{y_i}`
///
/// which is the plain mean `-1/B · Σ_i log_softmax(x_i)_{y_i}` without weights, smoothing or
/// padding.
#[derive(Module, Debug)]
pub struct CrossEntropyLoss {
    /// Target values to ignore.
    pub pad_tokens: Option<Vec<usize>>,
    /// The class weights.
    pub weights: Ignored<Option<Tensor<1>>>,
    /// The label smoothing factor.
    pub smoothing: Option<f32>,
    /// Whether the inputs are logits.
    pub logits: bool,
}

impl CrossEntropyLossConfig {
    /// The loss, with its weights on `device`. Panics on a smoothing factor outside `[0, 1]`
    /// or a non-positive weight.
    pub fn init(&self, device: &Device) -> CrossEntropyLoss {
        check_smoothing("CrossEntropyLossConfig", self.smoothing);
        let weights = self
            .weights
            .as_ref()
            .map(|w| weights_tensor("CrossEntropyLossConfig", w, device));
        CrossEntropyLoss {
            pad_tokens: self.pad_tokens.clone(),
            weights: Ignored(weights),
            smoothing: self.smoothing,
            logits: self.logits,
        }
    }
}

impl CrossEntropyLoss {
    /// A loss on logits ignoring the target `pad_index`, if any.
    pub fn new(pad_index: Option<usize>, device: &Device) -> Self {
        CrossEntropyLossConfig::new()
            .with_pad_tokens(pad_index.map(|index| vec![index]))
            .init(device)
    }

    /// The mean loss, shape `[1]`, of `logits [batch, classes]` against `targets [batch]`.
    pub fn forward(&self, logits: Tensor<2>, targets: Tensor<1, Int>) -> Tensor<1> {
        let [batch, classes] = logits.dims();
        let [count] = targets.dims();
        if count != batch {
            panic!("CrossEntropyLoss: {count} targets for logits of shape [{batch}, {classes}]");
        }
        let weights = self.weights.0.as_ref().map(|w| {
            let [n] = w.dims();
            if n != classes {
                panic!("CrossEntropyLoss: {n} class weights for {classes} classes");
            }
            w.clone().to_device(&logits.device())
        });
        let mask = self.padding_mask(&targets);
        // Padded targets may be any value: point them at class 0 (their loss is masked).
        let targets = match &mask {
            Some(mask) => targets.mask_fill(mask.clone(), 0),
            None => targets,
        };
        let log_probs = if self.logits {
            log_softmax(logits, 1)
        } else {
            let eps = f32::MIN_POSITIVE.sqrt() as f64;
            logits.clamp_min(eps).log()
        };
        let picked_weights = weights
            .as_ref()
            .map(|w| w.clone().select(0, targets.clone()));
        let per_sample: Tensor<1> = match self.smoothing {
            Some(alpha) => {
                let alpha = alpha as f64;
                let target_dist = targets
                    .one_hot::<2>(classes)
                    .float()
                    .mul_scalar(1.0 - alpha)
                    .add_scalar(alpha / classes as f64);
                let mut terms = log_probs.mul(target_dist);
                if let Some(w) = &weights {
                    terms = terms.mul(w.clone().unsqueeze());
                }
                terms.sum_dim(1).reshape([batch])
            }
            None => {
                let picked = log_probs
                    .gather(1, targets.reshape([batch, 1]))
                    .reshape([batch]);
                match &picked_weights {
                    Some(w) => picked.mul(w.clone()),
                    None => picked,
                }
            }
        };
        if picked_weights.is_none() && mask.is_none() {
            return per_sample.mean().neg();
        }
        let normalizer = picked_weights.unwrap_or_else(|| per_sample.ones_like());
        let (per_sample, normalizer) = match mask {
            Some(mask) => (
                per_sample.mask_fill(mask.clone(), 0.0),
                normalizer.mask_fill(mask, 0.0),
            ),
            None => (per_sample, normalizer),
        };
        per_sample.sum().neg().div(normalizer.sum())
    }

    /// True where the target is a pad token.
    fn padding_mask(&self, targets: &Tensor<1, Int>) -> Option<Tensor<1, Bool>> {
        self.pad_tokens.as_ref().and_then(|tokens| {
            tokens
                .iter()
                .map(|&token| targets.clone().equal_elem(token as i64))
                .reduce(|a, b| a.bool_or(b))
        })
    }
}
