//! Loss functions as modules: cross entropy (with label smoothing, class weights and padding),
//! binary cross entropy, mean squared error and Huber.

mod binary_cross_entropy;
mod cross_entropy;
mod huber;
mod mse;
mod reduction;

pub use binary_cross_entropy::{BinaryCrossEntropyLoss, BinaryCrossEntropyLossConfig};
pub use cross_entropy::{CrossEntropyLoss, CrossEntropyLossConfig};
pub use huber::{HuberLoss, HuberLossConfig};
pub use mse::MseLoss;
pub use reduction::Reduction;

use burn::tensor::Tensor;

/// Panics unless `a` and `b` have the same shape; `op` names the loss.
pub(crate) fn check_same_dims<const D: usize>(op: &str, a: [usize; D], b: [usize; D]) {
    if a != b {
        panic!("{op}: predictions {a:?} and targets {b:?} must have the same shape");
    }
}

/// A float tensor of class weights on `device`, checked to be positive; `op` names the loss.
pub(crate) fn weights_tensor(
    op: &str,
    weights: &[f32],
    device: &burn::tensor::Device,
) -> Tensor<1> {
    if let Some(w) = weights.iter().find(|w| w.is_nan() || **w <= 0.0) {
        panic!("{op}: class weights must be positive, got {w}");
    }
    Tensor::from_floats(weights, device)
}

/// Panics unless a label-smoothing factor lies in `[0, 1]`; `op` names the loss.
pub(crate) fn check_smoothing(op: &str, smoothing: Option<f32>) {
    if let Some(alpha) = smoothing
        && !(0.0..=1.0).contains(&alpha)
    {
        panic!("{op}: the label smoothing factor must be in [0, 1], got {alpha}");
    }
}
