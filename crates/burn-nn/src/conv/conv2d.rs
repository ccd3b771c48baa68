//! `Conv2d`: 2-d convolution.

use super::{check_groups, init_kernels};
use crate::padding::apply_padding;
use crate::{Initializer, PaddingConfig2d};
use burn::config::Config;
use burn::module::{Ignored, Module, Param};
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Tensor};

/// Configuration of a [`Conv2d`] layer.
#[derive(Config, Debug)]
pub struct Conv2dConfig {
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
    /// The number of channel groups. Default: 1.
    #[config(default = 1)]
    pub groups: usize,
    /// The padding. Default: `Valid`.
    #[config(default = "PaddingConfig2d::Valid")]
    pub padding: PaddingConfig2d,
    /// Whether to add a bias. Default: true.
    #[config(default = true)]
    pub bias: bool,
    /// How the weight and bias are initialized, with `fan_in = channels_in / groups · kh · kw`
    /// and `fan_out = channels_out / groups · kh · kw`. Default:
    /// `KaimingUniform { gain: 1/√3, fan_out_only: false }` (PyTorch's `U(-1/√fan_in, 1/√fan_in)`).
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 2-d convolution of `x [batch, channels_in, h, w]`:
///
/// `y[n, o, i, j] = b[o] + Σ_{c ∈ group(o), p, q} W[o, c, p, q] · x[n, c, i·s₀ + p·d₀ - pad₀, j·s₁ + q·d₁ - pad₁]`
///
/// (zero outside the input), as `torch.nn.Conv2d`.
#[derive(Module, Debug)]
pub struct Conv2d {
    /// The kernels, `[channels_out, channels_in / groups, kh, kw]`.
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
    /// The padding.
    pub padding: Ignored<PaddingConfig2d>,
}

impl Conv2dConfig {
    /// The layer, with lazily initialized parameters on `device`. Panics unless both channel
    /// counts are divisible by `groups`.
    pub fn init(&self, device: &Device) -> Conv2d {
        check_groups("Conv2dConfig", self.channels, self.groups);
        let [c_in, c_out] = self.channels;
        let (weight, bias) = init_kernels(
            &self.initializer,
            [c_out, c_in],
            self.groups,
            &self.kernel_size,
            self.bias.then_some(c_out),
            device,
        );
        Conv2d {
            weight,
            bias,
            stride: self.stride,
            kernel_size: self.kernel_size,
            dilation: self.dilation,
            groups: self.groups,
            padding: Ignored(self.padding.clone()),
        }
    }
}

impl Conv2d {
    /// Convolves `input [batch, channels_in, h, w]` into `[batch, channels_out, h', w']`.
    pub fn forward(&self, input: Tensor<4>) -> Tensor<4> {
        let [_, _, h, w] = input.dims();
        let pairs = self
            .padding
            .pairs([h, w], self.kernel_size, self.stride, self.dilation);
        let (input, padding) = apply_padding(input, pairs, 0.0);
        burn::tensor::module::conv2d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(|b| b.val()),
            ConvOptions::new(self.stride, padding, self.dilation, self.groups),
        )
    }
}
