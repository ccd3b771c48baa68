//! Gradients of the convolutions, composed from forward ops (the default bodies of
//! `ModuleOps::conv*_backward`), public so that a backend with kernels for some cases can fall
//! back to them and tests can compare the two.

use crate::tensor::FloatTensor;
use crate::{Backend, TensorMetadata};
use burn_std::{ConvOptions, ConvTransposeOptions, Shape, Slice};

/// The output padding that makes a transposed convolution of `grad` reproduce `x`'s size.
fn padding_out(x: &Shape, weight: &Shape, grad: &Shape, options: &ConvOptions<2>) -> [usize; 2] {
    let mut out = [0; 2];
    for i in 0..2 {
        let (input, kernel, output) = (x[2 + i], weight[2 + i], grad[2 + i]);
        let reached = (output - 1) * options.stride[i] + options.dilation[i] * (kernel - 1) + 1;
        out[i] = input + 2 * options.symmetric_padding()[i] - reached;
    }
    out
}

/// `∂L/∂x` of `conv2d`: the transposed convolution of the output gradient.
pub fn conv2d_x_backward<B: Backend>(
    x: FloatTensor<B>,
    weight: FloatTensor<B>,
    output_grad: FloatTensor<B>,
    options: ConvOptions<2>,
) -> FloatTensor<B> {
    let padding_out = padding_out(&x.shape(), &weight.shape(), &output_grad.shape(), &options);
    let transposed = ConvTransposeOptions::new(
        options.stride,
        options.symmetric_padding(),
        padding_out,
        options.dilation,
        options.groups,
    );
    B::conv_transpose2d(output_grad, weight, None, transposed)
}

/// `∂L/∂weight` of `conv2d`: per group, a convolution of the input (batch as channels) by the
/// output gradient, with stride and dilation exchanged.
pub fn conv2d_weight_backward<B: Backend>(
    x: FloatTensor<B>,
    weight: FloatTensor<B>,
    output_grad: FloatTensor<B>,
    options: ConvOptions<2>,
) -> FloatTensor<B> {
    let (x_shape, w_shape) = (x.shape(), weight.shape());
    let groups = options.groups;
    let (in_per_group, out_per_group) = (x_shape[1] / groups, w_shape[0] / groups);
    let swapped = ConvOptions::new(
        options.dilation,
        options.symmetric_padding(),
        options.stride,
        1,
    );
    let channel_slice = |start: usize, len: usize| {
        [
            Slice::full(),
            Slice::new(start as isize, Some((start + len) as isize), 1),
        ]
    };
    let per_group: Vec<FloatTensor<B>> = (0..groups)
        .map(|g| {
            let xg = B::float_slice(x.clone(), &channel_slice(g * in_per_group, in_per_group));
            let gg = B::float_slice(
                output_grad.clone(),
                &channel_slice(g * out_per_group, out_per_group),
            );
            // [c_in_g, n, h, w] convolved by [c_out_g, n, oh, ow] → [c_in_g, c_out_g, kh', kw'].
            let xt = B::float_swap_dims(xg, 0, 1);
            let gt = B::float_swap_dims(gg, 0, 1);
            let grad = B::float_swap_dims(B::conv2d(xt, gt, None, swapped), 0, 1);
            let kernel = [
                Slice::full(),
                Slice::full(),
                Slice::new(0, Some(w_shape[2] as isize), 1),
                Slice::new(0, Some(w_shape[3] as isize), 1),
            ];
            B::float_slice(grad, &kernel)
        })
        .collect();
    if per_group.len() == 1 {
        per_group.into_iter().next().expect("one group")
    } else {
        B::float_cat(per_group, 0)
    }
}

/// `∂L/∂bias` of any convolution: the output gradient summed over every dim but channels.
pub fn conv_bias_backward<B: Backend>(output_grad: FloatTensor<B>) -> FloatTensor<B> {
    let rank = output_grad.rank();
    let channels = output_grad.shape()[1];
    let mut grad = output_grad;
    for dim in (0..rank).rev().filter(|&d| d != 1) {
        grad = B::float_sum_dim(grad, dim);
    }
    B::float_reshape(grad, Shape::new([channels]))
}

/// `∂L/∂weight` of `conv_transpose2d`: the weight gradient of the adjoint convolution, with
/// the output gradient as its input and `x` as its output gradient.
pub fn conv_transpose2d_weight_backward<B: Backend>(
    x: FloatTensor<B>,
    weight: FloatTensor<B>,
    output_grad: FloatTensor<B>,
    options: ConvTransposeOptions<2>,
) -> FloatTensor<B> {
    let forward = ConvOptions::new(
        options.stride,
        options.padding,
        options.dilation,
        options.groups,
    );
    conv2d_weight_backward::<B>(output_grad, weight, x, forward)
}
