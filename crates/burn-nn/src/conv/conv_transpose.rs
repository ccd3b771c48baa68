//! `ConvTranspose1d` and `ConvTranspose2d`: transposed (fractionally strided) convolutions.

use super::{check_groups, init_kernels};
use crate::Initializer;
use burn::config::Config;
use burn::module::{Module, Param};
use burn::tensor::ops::ConvTransposeOptions;
use burn::tensor::{Device, Tensor};

/// Configuration of a [`ConvTranspose2d`] layer.
#[derive(Config, Debug)]
pub struct ConvTranspose2dConfig {
    /// `[channels_in, channels_out]`.
    pub channels: [usize; 2],
    /// `[kernel_height, kernel_width]`.
    pub kernel_size: [usize; 2],
    /// The stride. Default: `[1, 1]`.
    #[config(default = "[1, 1]")]
    pub stride: [usize; 2],
    /// The spacing between kernel taps. Default: `[1, 1]`.
    #[config(default = "[1, 1]")]
    pub dilation: [usize; 2],
    /// The padding of the matching forward convolution. Default: `[0, 0]`.
    #[config(default = "[0, 0]")]
    pub padding: [usize; 2],
    /// Extra size added to the bottom / right of the output. Default: `[0, 0]`.
    #[config(default = "[0, 0]")]
    pub padding_out: [usize; 2],
    /// The number of channel groups. Default: 1.
    #[config(default = 1)]
    pub groups: usize,
    /// Whether to add a bias. Default: true.
    #[config(default = true)]
    pub bias: bool,
    /// How the weight and bias are initialized, with `fan_in = channels_out / groups · kh · kw`
    /// (PyTorch's fan of the transposed weight) and `fan_out = channels_in / groups · kh · kw`.
    /// Default: `KaimingUniform { gain: 1/√3, fan_out_only: false }`.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 2-d transposed convolution of `x [batch, channels_in, h, w]`, the gradient of
/// [`Conv2d`](super::Conv2d) with respect to its input, as `torch.nn.ConvTranspose2d`:
///
/// `y[n, o, i·s₀ + p·d₀ - pad₀, j·s₁ + q·d₁ - pad₁] += W[c, o, p, q] · x[n, c, i, j]`, plus `b[o]`,
///
/// giving `h' = (h - 1)·s₀ - 2·pad₀ + d₀·(kh - 1) + padding_out₀ + 1` (and likewise `w'`).
#[derive(Module, Debug)]
pub struct ConvTranspose2d {
    /// The kernels, `[channels_in, channels_out / groups, kh, kw]`.
    pub weight: Param<Tensor<4>>,
    /// The bias, `[channels_out]`.
    pub bias: Option<Param<Tensor<1>>>,
    /// The stride.
    pub stride: [usize; 2],
    /// The kernel size.
    pub kernel_size: [usize; 2],
    /// The spacing between kernel taps.
    pub dilation: [usize; 2],
    /// The number of channel groups.
    pub groups: usize,
    /// The padding of the matching forward convolution.
    pub padding: [usize; 2],
    /// Extra output size.
    pub padding_out: [usize; 2],
}

impl ConvTranspose2dConfig {
    /// The layer, with lazily initialized parameters on `device`. Panics unless both channel
    /// counts are divisible by `groups`.
    pub fn init(&self, device: &Device) -> ConvTranspose2d {
        check_groups("ConvTranspose2dConfig", self.channels, self.groups);
        let [c_in, c_out] = self.channels;
        let (weight, bias) = init_kernels(
            &self.initializer,
            [c_in, c_out],
            self.groups,
            &self.kernel_size,
            self.bias.then_some(c_out),
            device,
        );
        ConvTranspose2d {
            weight,
            bias,
            stride: self.stride,
            kernel_size: self.kernel_size,
            dilation: self.dilation,
            groups: self.groups,
            padding: self.padding,
            padding_out: self.padding_out,
        }
    }
}

impl ConvTranspose2d {
    /// Applies the layer to `input [batch, channels_in, h, w]`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        burn::tensor::module::conv_transpose2d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(|b| b.val()),
            ConvTransposeOptions::new(
                self.stride,
                self.padding,
                self.padding_out,
                self.dilation,
                self.groups,
            ),
        )
    }
}

/// Configuration of a [`ConvTranspose1d`] layer.
#[derive(Config, Debug)]
pub struct ConvTranspose1dConfig {
    /// `[channels_in, channels_out]`.
    pub channels: [usize; 2],
    /// The kernel length.
    pub kernel_size: usize,
    /// The stride. Default: 1.
    #[config(default = 1)]
    pub stride: usize,
    /// The spacing between kernel taps. Default: 1.
    #[config(default = 1)]
    pub dilation: usize,
    /// The padding of the matching forward convolution. Default: 0.
    #[config(default = 0)]
    pub padding: usize,
    /// Extra size added to the end of the output. Default: 0.
    #[config(default = 0)]
    pub padding_out: usize,
    /// The number of channel groups. Default: 1.
    #[config(default = 1)]
    pub groups: usize,
    /// Whether to add a bias. Default: true.
    #[config(default = true)]
    pub bias: bool,
    /// How the weight and bias are initialized (fans as for [`ConvTranspose2dConfig`]).
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 1-d transposed convolution of `x [batch, channels_in, length]`, as
/// `torch.nn.ConvTranspose1d`: `l' = (l - 1)·stride - 2·pad + dilation·(k - 1) + padding_out + 1`.
#[derive(Module, Debug)]
pub struct ConvTranspose1d {
    /// The kernels, `[channels_in, channels_out / groups, kernel_size]`.
    pub weight: Param<Tensor<3>>,
    /// The bias, `[channels_out]`.
    pub bias: Option<Param<Tensor<1>>>,
    /// The stride.
    pub stride: usize,
    /// The kernel length.
    pub kernel_size: usize,
    /// The spacing between kernel taps.
    pub dilation: usize,
    /// The number of channel groups.
    pub groups: usize,
    /// The padding of the matching forward convolution.
    pub padding: usize,
    /// Extra output size.
    pub padding_out: usize,
}

impl ConvTranspose1dConfig {
    /// The layer, with lazily initialized parameters on `device`. Panics unless both channel
    /// counts are divisible by `groups`.
    pub fn init(&self, device: &Device) -> ConvTranspose1d {
        check_groups("ConvTranspose1dConfig", self.channels, self.groups);
        let [c_in, c_out] = self.channels;
        let (weight, bias) = init_kernels(
            &self.initializer,
            [c_in, c_out],
            self.groups,
            &[self.kernel_size],
            self.bias.then_some(c_out),
            device,
        );
        ConvTranspose1d {
            weight,
            bias,
            stride: self.stride,
            kernel_size: self.kernel_size,
            dilation: self.dilation,
            groups: self.groups,
            padding: self.padding,
            padding_out: self.padding_out,
        }
    }
}

impl ConvTranspose1d {
    /// Applies the layer to `input [batch, channels_in, length]`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        burn::tensor::module::conv_transpose1d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(|b| b.val()),
            ConvTransposeOptions::new(
                [self.stride],
                [self.padding],
                [self.padding_out],
                [self.dilation],
                self.groups,
            ),
        )
    }
}
