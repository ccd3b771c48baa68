//! `AdaptiveAvgPool1d` and `AdaptiveAvgPool2d`: average pooling to a fixed output size.

use burn::config::Config;
use burn::module::Module;
use burn::tensor::Tensor;

/// Configuration of an [`AdaptiveAvgPool2d`] layer.
#[derive(Config, Debug)]
pub struct AdaptiveAvgPool2dConfig {
    /// `[height, width]` of the output.
    pub output_size: [usize; 2],
}

/// Adaptive 2-d average pooling, as `torch.nn.AdaptiveAvgPool2d`: output cell `(i, j)` is the
/// mean of rows `⌊i·h/oh⌋ .. ⌈(i+1)·h/oh⌉` and columns `⌊j·w/ow⌋ .. ⌈(j+1)·w/ow⌉`.
#[derive(Module, Debug)]
pub struct AdaptiveAvgPool2d {
    /// `[height, width]` of the output.
    pub output_size: [usize; 2],
}

impl AdaptiveAvgPool2dConfig {
    /// The layer.
    pub fn init(&self) -> AdaptiveAvgPool2d {
        AdaptiveAvgPool2d {
            output_size: self.output_size,
        }
    }
}

impl AdaptiveAvgPool2d {
    /// Pools `input [batch, channels, h, w]` to `[batch, channels, oh, ow]`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        burn::tensor::module::adaptive_avg_pool2d(input, self.output_size)
    }
}

/// Configuration of an [`AdaptiveAvgPool1d`] layer.
#[derive(Config, Debug)]
pub struct AdaptiveAvgPool1dConfig {
    /// The output length.
    pub output_size: usize,
}

/// Adaptive 1-d average pooling, as `torch.nn.AdaptiveAvgPool1d`: output `i` is the mean of
/// positions `⌊i·l/o⌋ .. ⌈(i+1)·l/o⌉`.
#[derive(Module, Debug)]
pub struct AdaptiveAvgPool1d {
    /// The output length.
    pub output_size: usize,
}

impl AdaptiveAvgPool1dConfig {
    /// The layer.
    pub fn init(&self) -> AdaptiveAvgPool1d {
        AdaptiveAvgPool1d {
            output_size: self.output_size,
        }
    }
}

impl AdaptiveAvgPool1d {
    /// Pools `input [batch, channels, length]` to `[batch, channels, output_size]`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        burn::tensor::module::adaptive_avg_pool1d(input, self.output_size)
    }
}
