//! `Conv1d`: 1-d convolution.

use super::{check_groups, init_kernels};
use crate::padding::apply_padding;
use crate::{Initializer, PaddingConfig1d};
use burn::config::Config;
use burn::module::{Ignored, Module, Param};
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Device, Tensor};

/// Configuration of a [`Conv1d`] layer.
#[derive(Config, Debug)]
pub struct Conv1dConfig {
    /// The number of input channels.
    pub channels_in: usize,
    /// The number of output channels.
    pub channels_out: usize,
    /// The kernel length.
    pub kernel_size: usize,
    /// The stride. Default: 1.
    #[config(default = 1)]
    pub stride: usize,
    /// The spacing between kernel taps. Default: 1.
    #[config(default = 1)]
    pub dilation: usize,
    /// The number of channel groups. Default: 1.
    #[config(default = 1)]
    pub groups: usize,
    /// The padding. Default: `Valid`.
    #[config(default = "PaddingConfig1d::Valid")]
    pub padding: PaddingConfig1d,
    /// Whether to add a bias. Default: true.
    #[config(default = true)]
    pub bias: bool,
    /// How the weight and bias are initialized, with `fan_in = channels_in / groups · k` and
    /// `fan_out = channels_out / groups · k`. Default:
    /// `KaimingUniform { gain: 1/√3, fan_out_only: false }`.
    #[config(
        default = "Initializer::KaimingUniform { gain: 1.0 / 3.0f64.sqrt(), fan_out_only: false }"
    )]
    pub initializer: Initializer,
}

/// A 1-d convolution of `x [batch, channels_in, length]`:
///
/// `y[n, o, i] = b[o] + Σ_{c ∈ group(o), p} W[o, c, p] · x[n, c, i·stride + p·dilation - pad]`
///
/// (zero outside the input), as `torch.nn.Conv1d`.
#[derive(Module, Debug)]
pub struct Conv1d {
    /// The kernels, `[channels_out, channels_in / groups, kernel_size]`.
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
    /// The padding.
    pub padding: Ignored<PaddingConfig1d>,
}

impl Conv1dConfig {
    /// The layer, with lazily initialized parameters on `device`. Panics unless both channel
    /// counts are divisible by `groups`.
    pub fn init(&self, device: &Device) -> Conv1d {
        let (c_in, c_out) = (self.channels_in, self.channels_out);
        check_groups("Conv1dConfig", [c_in, c_out], self.groups);
        let (weight, bias) = init_kernels(
            &self.initializer,
            [c_out, c_in],
            self.groups,
            &[self.kernel_size],
            self.bias.then_some(c_out),
            device,
        );
        Conv1d {
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

impl Conv1d {
    /// Convolves `input [batch, channels_in, length]` into `[batch, channels_out, length']`.
    pub fn forward(&self, input: Tensor<3>) -> Tensor<3> {
        let [_, _, length] = input.dims();
        let pair = self
            .padding
            .pair(length, self.kernel_size, self.stride, self.dilation);
        let (input, [padding]) = apply_padding(input, [pair], 0.0);
        burn::tensor::module::conv1d(
            input,
            self.weight.val(),
            self.bias.as_ref().map(|b| b.val()),
            ConvOptions::new([self.stride], [padding], [self.dilation], self.groups),
        )
    }
}
