//! `Reduction`: how an element-wise loss becomes one number.

use burn::config::Config;
use burn::tensor::Tensor;

/// How the element-wise losses are combined.
#[derive(Config, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// The mean of every element.
    Mean,
    /// The sum of every element.
    Sum,
    /// The loss's default: the mean.
    Auto,
}

impl Reduction {
    /// Reduces `losses` to shape `[1]`.
    pub fn apply<const D: usize>(&self, losses: Tensor<D>) -> Tensor<1> {
        match self {
            Reduction::Mean | Reduction::Auto => losses.mean(),
            Reduction::Sum => losses.sum(),
        }
    }
}
