//! Convolutions, transposed convolutions, unfold/fold and their output sizes.
//!
//! Backends convolve with the same padding on both sides; asymmetric padding is materialized
//! here (zeros on the side that pads more) before the backend runs with the rest.

use crate::tensor::check;
use crate::{Shape, Tensor};
use burn_backend::ops::{ConvOptions, ConvTransposeOptions, ModuleOps, PadMode, UnfoldOptions};
use burn_dispatch::Dispatch;

/// Checks the channels of a convolution: input channels must equal the weight's in-channels
/// times `groups`, and a bias has one value per output channel.
pub(super) fn check_conv<const D: usize>(
    op: &str,
    x: &Tensor<D>,
    w: &Tensor<D>,
    bias: Option<&Tensor<1>>,
    groups: usize,
    transposed: bool,
) {
    let (x, w) = (x.dims(), w.dims());
    if groups == 0 {
        check::fail(op, "groups must be positive");
    }
    let (in_channels, expected) = match transposed {
        true => (x[1], w[0]),
        false => (x[1], w[1] * groups),
    };
    if in_channels != expected || !w[0].is_multiple_of(groups) {
        check::fail(
            op,
            format_args!(
                "input {x:?} and weight {w:?} do not agree for groups = {groups} (expected {expected} input channels)"
            ),
        );
    }
    let out_channels = match transposed {
        true => w[1] * groups,
        false => w[0],
    };
    if let Some(bias) = bias
        && bias.dims() != [out_channels]
    {
        check::fail(
            op,
            format_args!(
                "expected a bias of shape [{out_channels}] for weight {w:?}, got {:?}",
                bias.dims()
            ),
        );
    }
}

/// `x` and options the backend can run: where a dimension pads its sides differently, `x` is
/// padded with zeros for the difference and the options keep the smaller side on both.
fn symmetric<const D: usize, const N: usize>(
    x: Tensor<D>,
    options: ConvOptions<N>,
) -> (Tensor<D>, ConvOptions<N>) {
    if !options.is_asymmetric() {
        return (x, options);
    }
    let mut extra = [(0, 0); D];
    let mut padding = options.padding;
    for (i, (begin, end)) in options.padding.into_iter().enumerate() {
        let common = begin.min(end);
        extra[D - N + i] = (begin - common, end - common);
        padding[i] = (common, common);
    }
    let x = x.pad_dims(extra, PadMode::Constant(0.0));
    (x, ConvOptions { padding, ..options })
}

/// 1-d convolution of `x [batch, c_in, length]` by `weight [c_out, c_in / groups, kernel]`,
/// plus `bias [c_out]`; padding may differ between the two ends.
pub fn conv1d(
    x: Tensor<3>,
    weight: Tensor<3>,
    bias: Option<Tensor<1>>,
    options: impl Into<ConvOptions<1>>,
) -> Tensor<3> {
    let options = options.into();
    check_conv("conv1d", &x, &weight, bias.as_ref(), options.groups, false);
    let (x, options) = symmetric(x, options);
    Tensor::from_primitive(Dispatch::conv1d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 2-d convolution of `x [batch, c_in, h, w]` by `weight [c_out, c_in / groups, kh, kw]`, plus
/// `bias [c_out]`; padding may differ between the two ends of each dimension.
pub fn conv2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    bias: Option<Tensor<1>>,
    options: impl Into<ConvOptions<2>>,
) -> Tensor<4> {
    let options = options.into();
    check_conv("conv2d", &x, &weight, bias.as_ref(), options.groups, false);
    let (x, options) = symmetric(x, options);
    Tensor::from_primitive(Dispatch::conv2d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 1-d transposed convolution: `weight [c_in, c_out / groups, kernel]`.
pub fn conv_transpose1d(
    x: Tensor<3>,
    weight: Tensor<3>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<1>,
) -> Tensor<3> {
    let op = "conv_transpose1d";
    check_conv(op, &x, &weight, bias.as_ref(), options.groups, true);
    Tensor::from_primitive(Dispatch::conv_transpose1d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 2-d transposed convolution: `weight [c_in, c_out / groups, kh, kw]`.
pub fn conv_transpose2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<2>,
) -> Tensor<4> {
    let op = "conv_transpose2d";
    check_conv(op, &x, &weight, bias.as_ref(), options.groups, true);
    Tensor::from_primitive(Dispatch::conv_transpose2d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// The gradient of `weight` through a 2-d convolution (symmetric padding) of `x` whose output
/// gradient is `output_grad`.
pub fn conv2d_weight_backward(
    x: Tensor<4>,
    weight: Tensor<4>,
    output_grad: Tensor<4>,
    options: ConvOptions<2>,
) -> Tensor<4> {
    Tensor::from_primitive(Dispatch::conv2d_weight_backward(
        x.into_primitive(),
        weight.into_primitive(),
        output_grad.into_primitive(),
        options,
    ))
}

/// The one-hot weight `[channels · kh · kw, 1, kh, kw]` that copies each tap of a block to its
/// own channel (channel `c · kh · kw + i · kw + j` holds tap `(i, j)` of channel `c`, PyTorch's
/// order), in `like`'s dtype and on its device.
fn one_hot_taps(like: &Tensor<3>, channels: usize, [kh, kw]: [usize; 2]) -> Tensor<4> {
    let taps = kh * kw;
    Tensor::<2>::eye(taps, &like.device())
        .cast(like.dtype())
        .reshape([taps, 1, kh, kw])
        .repeat_dim(0, channels)
}

/// The sliding blocks of `x [batch, channels, h, w]` as columns (PyTorch's `nn.Unfold`, im2col):
/// `[batch, channels · kh · kw, blocks]`, blocks in row-major order. A convolution by a one-hot
/// weight, so it differentiates like one.
pub fn unfold4d(x: Tensor<4>, kernel_size: [usize; 2], options: UnfoldOptions) -> Tensor<3> {
    let [batch, channels, _, _] = x.dims();
    let taps = kernel_size[0] * kernel_size[1];
    let like: Tensor<3> = x.clone().flatten(2, 3);
    let weight = one_hot_taps(&like, channels, kernel_size);
    let conv = ConvOptions::new(options.stride, options.padding, options.dilation, channels);
    let out = conv2d(x, weight, None, conv);
    let [_, _, oh, ow] = out.dims();
    out.reshape([batch, channels * taps, oh * ow])
}

/// The inverse of [`unfold4d`] (PyTorch's `nn.Fold`, col2im): columns
/// `[batch, channels · kh · kw, blocks]` summed into `[batch, channels, h, w]` of
/// `output_size`, overlapping taps adding up. A transposed convolution by the one-hot weight.
pub fn fold4d(
    x: Tensor<3>,
    output_size: [usize; 2],
    kernel_size: [usize; 2],
    options: UnfoldOptions,
) -> Tensor<4> {
    let op = "fold4d";
    let [batch, columns, blocks] = x.dims();
    let taps = kernel_size[0] * kernel_size[1];
    if taps == 0 || !columns.is_multiple_of(taps) {
        check::fail(
            op,
            format_args!(
                "expected columns [batch, channels · {taps}, blocks] for kernel {kernel_size:?}, got {:?}",
                x.dims()
            ),
        );
    }
    let channels = columns / taps;
    let sizes: [Option<usize>; 2] = core::array::from_fn(|i| {
        let extent = options.dilation[i] * (kernel_size[i] - 1) + 1;
        (output_size[i] + 2 * options.padding[i])
            .checked_sub(extent)
            .map(|span| span / options.stride[i] + 1)
    });
    let [Some(oh), Some(ow)] = sizes else {
        check::fail(
            op,
            format_args!("output size {output_size:?} is smaller than the dilated kernel"),
        );
    };
    if oh * ow != blocks {
        check::fail(
            op,
            format_args!(
                "expected {} blocks ({oh} × {ow}) for output size {output_size:?}, got {blocks}",
                oh * ow
            ),
        );
    }
    let weight = one_hot_taps(&x, channels, kernel_size);
    // The output padding that makes the transposed convolution reach `output_size`.
    let padding_out: [usize; 2] = core::array::from_fn(|i| {
        let [o, k] = [[oh, ow][i], kernel_size[i]];
        let reached = (o - 1) * options.stride[i] + options.dilation[i] * (k - 1) + 1;
        output_size[i] + 2 * options.padding[i] - reached
    });
    let transposed = ConvTransposeOptions::new(
        options.stride,
        options.padding,
        padding_out,
        options.dilation,
        channels,
    );
    let x = x.reshape([batch, columns, oh, ow]);
    conv_transpose2d(x, weight, None, transposed)
}

/// The kernel size of a weight `[.., .., k₀, …, k_{N-1}]`, or `None` for another rank.
fn kernel_size<const N: usize>(weight_shape: &Shape) -> Option<[usize; N]> {
    (weight_shape.num_dims() == N + 2).then(|| core::array::from_fn(|i| weight_shape[2 + i]))
}

/// The spatial size of the output `conv1d`/`conv2d` return for an input of spatial size
/// `input_size` and a weight of `weight_shape`, or `None` where it cannot be sized (a weight of
/// another rank, a zero kernel, stride or dilation, or a padded input shorter than the dilated
/// kernel).
pub fn conv_output_size<const N: usize>(
    input_size: [usize; N],
    weight_shape: &Shape,
    options: &ConvOptions<N>,
) -> Option<[usize; N]> {
    let kernel = kernel_size::<N>(weight_shape)?;
    super::every_dim(|i| {
        let (begin, end) = options.padding[i];
        let (stride, dilation) = (options.stride[i], options.dilation[i]);
        if kernel[i] == 0 || stride == 0 || dilation == 0 {
            return None;
        }
        let extent = dilation * (kernel[i] - 1) + 1;
        let span = (input_size[i] + begin + end).checked_sub(extent)?;
        Some(span / stride + 1)
    })
}

/// The spatial size of the output `conv_transpose1d`/`conv_transpose2d` return for an input of
/// spatial size `input_size` and a weight of `weight_shape`, or `None` where it cannot be sized
/// (a weight of another rank, an empty input, a zero kernel, stride or dilation, or padding that
/// crops the whole output).
pub fn conv_transpose_output_size<const N: usize>(
    input_size: [usize; N],
    weight_shape: &Shape,
    options: &ConvTransposeOptions<N>,
) -> Option<[usize; N]> {
    let kernel = kernel_size::<N>(weight_shape)?;
    super::every_dim(|i| {
        let (stride, dilation) = (options.stride[i], options.dilation[i]);
        if input_size[i] == 0 || kernel[i] == 0 || stride == 0 || dilation == 0 {
            return None;
        }
        let full =
            (input_size[i] - 1) * stride + dilation * (kernel[i] - 1) + 1 + options.padding_out[i];
        full.checked_sub(2 * options.padding[i])
            .filter(|&size| size > 0)
    })
}
