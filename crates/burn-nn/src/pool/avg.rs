//! `AvgPool1d` and `AvgPool2d`: the mean of each window.

use crate::{PaddingConfig1d, PaddingConfig2d};
use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::Tensor;
use burn::tensor::ops::AvgPoolOptions;

/// Configuration of an [`AvgPool2d`] layer.
#[derive(Config, Debug)]
pub struct AvgPool2dConfig {
    /// `[kernel_height, kernel_width]`.
    pub kernel_size: [usize; 2],
    /// The strides. Default: the kernel size.
    #[config(default = "kernel_size")]
    pub strides: [usize; 2],
    /// The padding (zeros). Default: `Valid`.
    #[config(default = "PaddingConfig2d::Valid")]
    pub padding: PaddingConfig2d,
    /// Whether padded zeros count in the mean's divisor. Default: true.
    #[config(default = true)]
    pub count_include_pad: bool,
    /// Whether the output size rounds up. Default: false.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 2-d average pooling of `x [batch, channels, h, w]`, as `torch.nn.AvgPool2d`:
/// `y[n, c, i, j] = Σ_{window} x / count`, where `count` is the window size, or only its
/// positions inside the input when `count_include_pad` is false.
#[derive(Module, Debug)]
pub struct AvgPool2d {
    /// The strides.
    pub stride: [usize; 2],
    /// The window size.
    pub kernel_size: [usize; 2],
    /// The padding.
    pub padding: Ignored<PaddingConfig2d>,
    /// Whether padded zeros count in the divisor.
    pub count_include_pad: bool,
    /// Whether the output size rounds up.
    pub ceil_mode: bool,
}

impl AvgPool2dConfig {
    /// The layer.
    pub fn init(&self) -> AvgPool2d {
        AvgPool2d {
            stride: self.strides,
            kernel_size: self.kernel_size,
            padding: Ignored(self.padding.clone()),
            count_include_pad: self.count_include_pad,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl AvgPool2d {
    /// Pools `input [batch, channels, h, w]`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let [_, _, h, w] = input.dims();
        let pairs = self
            .padding
            .pairs([h, w], self.kernel_size, self.stride, [1, 1]);
        let options = AvgPoolOptions::new(self.kernel_size)
            .with_stride(self.stride)
            .with_padding_pairs(pairs)
            .with_count_include_pad(self.count_include_pad)
            .with_ceil_mode(self.ceil_mode);
        burn::tensor::module::avg_pool2d(input, options)
    }
}

/// Configuration of an [`AvgPool1d`] layer.
#[derive(Config, Debug)]
pub struct AvgPool1dConfig {
    /// The window length.
    pub kernel_size: usize,
    /// The stride. Default: the kernel size.
    #[config(default = "kernel_size")]
    pub stride: usize,
    /// The padding (zeros). Default: `Valid`.
    #[config(default = "PaddingConfig1d::Valid")]
    pub padding: PaddingConfig1d,
    /// Whether padded zeros count in the mean's divisor. Default: true.
    #[config(default = true)]
    pub count_include_pad: bool,
    /// Whether the output length rounds up. Default: false.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 1-d average pooling of `x [batch, channels, length]`, as `torch.nn.AvgPool1d`.
#[derive(Module, Debug)]
pub struct AvgPool1d {
    /// The stride.
    pub stride: usize,
    /// The window length.
    pub kernel_size: usize,
    /// The padding.
    pub padding: Ignored<PaddingConfig1d>,
    /// Whether padded zeros count in the divisor.
    pub count_include_pad: bool,
    /// Whether the output length rounds up.
    pub ceil_mode: bool,
}

impl AvgPool1dConfig {
    /// The layer.
    pub fn init(&self) -> AvgPool1d {
        AvgPool1d {
            stride: self.stride,
            kernel_size: self.kernel_size,
            padding: Ignored(self.padding.clone()),
            count_include_pad: self.count_include_pad,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl AvgPool1d {
    /// Pools `input [batch, channels, length]`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let [_, _, length] = input.dims();
        let pair = self.padding.pair(length, self.kernel_size, self.stride, 1);
        let options = AvgPoolOptions::new([self.kernel_size])
            .with_stride([self.stride])
            .with_padding_pairs([pair])
            .with_count_include_pad(self.count_include_pad)
            .with_ceil_mode(self.ceil_mode);
        burn::tensor::module::avg_pool1d(input, options)
    }
}
