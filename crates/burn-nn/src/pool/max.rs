//! `MaxPool1d` and `MaxPool2d`: the largest value of each window.

use crate::{PaddingConfig1d, PaddingConfig2d};
use burn::config::Config;
use burn::module::{Ignored, Module};
use burn::tensor::Tensor;
use burn::tensor::ops::MaxPoolOptions;

/// Configuration of a [`MaxPool2d`] layer.
#[derive(Config, Debug)]
pub struct MaxPool2dConfig {
    /// `[kernel_height, kernel_width]`.
    pub kernel_size: [usize; 2],
    /// The strides. Default: the kernel size.
    #[config(default = "kernel_size")]
    pub strides: [usize; 2],
    /// The padding (padded positions count as -∞). Default: `Valid`.
    #[config(default = "PaddingConfig2d::Valid")]
    pub padding: PaddingConfig2d,
    /// The spacing between window taps. Default: `[1, 1]`.
    #[config(default = "[1, 1]")]
    pub dilation: [usize; 2],
    /// Whether the output size rounds up (a last, partial window). Default: false.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 2-d max pooling of `x [batch, channels, h, w]`, as `torch.nn.MaxPool2d`:
///
/// `y[n, c, i, j] = max_{p, q} x[n, c, i·s₀ + p·d₀ - pad₀, j·s₁ + q·d₁ - pad₁]`
#[derive(Module, Debug)]
pub struct MaxPool2d {
    /// The strides.
    pub stride: [usize; 2],
    /// The window size.
    pub kernel_size: [usize; 2],
    /// The padding.
    pub padding: Ignored<PaddingConfig2d>,
    /// The spacing between window taps.
    pub dilation: [usize; 2],
    /// Whether the output size rounds up.
    pub ceil_mode: bool,
}

impl MaxPool2dConfig {
    /// The layer.
    pub fn init(&self) -> MaxPool2d {
        MaxPool2d {
            stride: self.strides,
            kernel_size: self.kernel_size,
            padding: Ignored(self.padding.clone()),
            dilation: self.dilation,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl MaxPool2d {
    /// Pools `input [batch, channels, h, w]`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let [_, _, h, w] = input.dims();
        let pairs = self
            .padding
            .pairs([h, w], self.kernel_size, self.stride, self.dilation);
        let options = MaxPoolOptions::new(self.kernel_size)
            .with_stride(self.stride)
            .with_padding_pairs(pairs)
            .with_dilation(self.dilation)
            .with_ceil_mode(self.ceil_mode);
        burn::tensor::module::max_pool2d(input, options)
    }
}

/// Configuration of a [`MaxPool1d`] layer.
#[derive(Config, Debug)]
pub struct MaxPool1dConfig {
    /// The window length.
    pub kernel_size: usize,
    /// The stride. Default: the kernel size.
    #[config(default = "kernel_size")]
    pub stride: usize,
    /// The padding (padded positions count as -∞). Default: `Valid`.
    #[config(default = "PaddingConfig1d::Valid")]
    pub padding: PaddingConfig1d,
    /// The spacing between window taps. Default: 1.
    #[config(default = 1)]
    pub dilation: usize,
    /// Whether the output length rounds up. Default: false.
    #[config(default = false)]
    pub ceil_mode: bool,
}

/// 1-d max pooling of `x [batch, channels, length]`, as `torch.nn.MaxPool1d`:
/// `y[n, c, i] = max_p x[n, c, i·stride + p·dilation - pad]`.
#[derive(Module, Debug)]
pub struct MaxPool1d {
    /// The stride.
    pub stride: usize,
    /// The window length.
    pub kernel_size: usize,
    /// The padding.
    pub padding: Ignored<PaddingConfig1d>,
    /// The spacing between window taps.
    pub dilation: usize,
    /// Whether the output length rounds up.
    pub ceil_mode: bool,
}

impl MaxPool1dConfig {
    /// The layer.
    pub fn init(&self) -> MaxPool1d {
        MaxPool1d {
            stride: self.stride,
            kernel_size: self.kernel_size,
            padding: Ignored(self.padding.clone()),
            dilation: self.dilation,
            ceil_mode: self.ceil_mode,
        }
    }
}

impl MaxPool1d {
    /// Pools `input [batch, channels, length]`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let [_, _, length] = input.dims();
        let pair = self
            .padding
            .pair(length, self.kernel_size, self.stride, self.dilation);
        let options = MaxPoolOptions::new([self.kernel_size])
            .with_stride([self.stride])
            .with_padding_pairs([pair])
            .with_dilation([self.dilation])
            .with_ceil_mode(self.ceil_mode);
        burn::tensor::module::max_pool1d(input, options)
    }
}
