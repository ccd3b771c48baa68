//! Neural-network operations: convolution, pooling, interpolation, embedding, attention, layer
//! normalization.

use crate::tensor::{BoolTensor, FloatTensor, IntTensor};
use crate::{Backend, TensorMetadata};
use burn_std::{
    AttentionModuleOptions, ConvOptions, ConvTransposeOptions, InterpolateOptions, Shape,
};

/// The output of a 2-d max pooling that also returns where each maximum came from.
#[derive(Debug, Clone)]
pub struct MaxPool2dWithIndices<B: Backend> {
    /// The pooled values `[batch, channels, out_h, out_w]`.
    pub output: FloatTensor<B>,
    /// The flat index `h * width + w` of each maximum in its input plane.
    pub indices: IntTensor<B>,
}

/// The output of a 1-d max pooling that also returns where each maximum came from.
#[derive(Debug, Clone)]
pub struct MaxPool1dWithIndices<B: Backend> {
    /// The pooled values `[batch, channels, out_len]`.
    pub output: FloatTensor<B>,
    /// The index of each maximum in its input row.
    pub indices: IntTensor<B>,
}

/// Neural-network operations. Layouts are channels-first (`NCL`, `NCHW`); weights follow
/// PyTorch (`[out, in / groups, k…]`, transposed: `[in, out / groups, k…]`).
pub trait ModuleOps<B: Backend> {
    /// 2-d convolution of `x [n, c_in, h, w]` with `weight [c_out, c_in / groups, kh, kw]`.
    fn conv2d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvOptions<2>,
    ) -> FloatTensor<B>;
    /// 2-d transposed convolution with `weight [c_in, c_out / groups, kh, kw]`.
    fn conv_transpose2d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvTransposeOptions<2>,
    ) -> FloatTensor<B>;
    /// 2-d average pooling.
    fn avg_pool2d(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<B>;
    /// The gradient of `avg_pool2d` with respect to `x`.
    #[allow(clippy::too_many_arguments)]
    fn avg_pool2d_backward(
        x: FloatTensor<B>,
        grad: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<B>;
    /// 2-d adaptive average pooling to `output_size`.
    fn adaptive_avg_pool2d(x: FloatTensor<B>, output_size: [usize; 2]) -> FloatTensor<B>;
    /// The gradient of `adaptive_avg_pool2d` with respect to `x`.
    fn adaptive_avg_pool2d_backward(x: FloatTensor<B>, grad: FloatTensor<B>) -> FloatTensor<B>;
    /// 2-d max pooling and the index of each maximum.
    fn max_pool2d_with_indices(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> MaxPool2dWithIndices<B>;
    /// The gradient of `max_pool2d` with respect to `x`, from the indices of the maxima.
    fn max_pool2d_with_indices_backward(
        x: FloatTensor<B>,
        grad: FloatTensor<B>,
        indices: IntTensor<B>,
    ) -> FloatTensor<B>;
    /// Resizes `x [n, c, h, w]` to `output_size`.
    fn interpolate(
        x: FloatTensor<B>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FloatTensor<B>;
    /// The gradient of `interpolate` with respect to `x`.
    fn interpolate_backward(
        x: FloatTensor<B>,
        grad: FloatTensor<B>,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> FloatTensor<B>;

    // ---- defaults ---------------------------------------------------------------------------

    /// Rows of `weights [n, d]` picked by `indices [..]`: shape `[.., d]`.
    fn embedding(weights: FloatTensor<B>, indices: IntTensor<B>) -> FloatTensor<B> {
        let mut out_shape = indices.shape();
        let d = weights.shape()[1];
        let count = out_shape.num_elements();
        let flat = B::int_reshape(indices, Shape::new([count]));
        out_shape.dims.push(d);
        B::float_reshape(B::float_select(weights, 0, flat), out_shape)
    }
    /// The gradient of `embedding` with respect to the weights.
    fn embedding_backward(
        weights: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        indices: IntTensor<B>,
    ) -> FloatTensor<B> {
        let shape = weights.shape();
        let count = indices.shape().num_elements();
        let zeros = B::float_zeros(
            shape.clone(),
            &B::float_device(&weights),
            burn_std::FloatDType::from_dtype(weights.dtype()),
        );
        let flat = B::int_reshape(indices, Shape::new([count]));
        let grad = B::float_reshape(output_grad, Shape::new([count, shape[1]]));
        B::float_select_add(zeros, 0, flat, grad)
    }
    /// 1-d convolution of `x [n, c_in, l]`, through `conv2d` with height 1.
    fn conv1d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvOptions<1>,
    ) -> FloatTensor<B> {
        let options = ConvOptions::new_with_padding(
            [1, options.stride[0]],
            [(0, 0), options.padding[0]],
            [1, options.dilation[0]],
            options.groups,
        );
        let out = B::conv2d(unsqueeze2::<B>(x), unsqueeze2::<B>(weight), bias, options);
        squeeze2::<B>(out)
    }
    /// 1-d transposed convolution, through `conv_transpose2d` with height 1.
    fn conv_transpose1d(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        bias: Option<FloatTensor<B>>,
        options: ConvTransposeOptions<1>,
    ) -> FloatTensor<B> {
        let options = ConvTransposeOptions::new(
            [1, options.stride[0]],
            [0, options.padding[0]],
            [0, options.padding_out[0]],
            [1, options.dilation[0]],
            options.groups,
        );
        let out = B::conv_transpose2d(unsqueeze2::<B>(x), unsqueeze2::<B>(weight), bias, options);
        squeeze2::<B>(out)
    }
    /// 2-d max pooling.
    fn max_pool2d(
        x: FloatTensor<B>,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> FloatTensor<B> {
        B::max_pool2d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode).output
    }
    /// 1-d max pooling and the index of each maximum.
    fn max_pool1d_with_indices(
        x: FloatTensor<B>,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> MaxPool1dWithIndices<B> {
        let out = B::max_pool2d_with_indices(
            unsqueeze2::<B>(x),
            [1, kernel_size],
            [1, stride],
            [0, padding],
            [1, dilation],
            ceil_mode,
        );
        let indices = out.indices;
        let shape = indices.shape();
        let squeezed = Shape::new([shape[0], shape[1], shape[3]]);
        MaxPool1dWithIndices {
            output: squeeze2::<B>(out.output),
            indices: B::int_reshape(indices, squeezed),
        }
    }
    /// 1-d max pooling.
    fn max_pool1d(
        x: FloatTensor<B>,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> FloatTensor<B> {
        B::max_pool1d_with_indices(x, kernel_size, stride, padding, dilation, ceil_mode).output
    }
    /// 1-d average pooling.
    fn avg_pool1d(
        x: FloatTensor<B>,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> FloatTensor<B> {
        let out = B::avg_pool2d(
            unsqueeze2::<B>(x),
            [1, kernel_size],
            [1, stride],
            [0, padding],
            count_include_pad,
            ceil_mode,
        );
        squeeze2::<B>(out)
    }
    /// 1-d adaptive average pooling.
    fn adaptive_avg_pool1d(x: FloatTensor<B>, output_size: usize) -> FloatTensor<B> {
        squeeze2::<B>(B::adaptive_avg_pool2d(unsqueeze2::<B>(x), [1, output_size]))
    }
    /// The gradient of `conv2d` with respect to `x`.
    fn conv2d_x_backward(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        options: ConvOptions<2>,
    ) -> FloatTensor<B> {
        super::conv_grad::conv2d_x_backward::<B>(x, weight, output_grad, options)
    }
    /// The gradient of `conv2d` with respect to the weight.
    fn conv2d_weight_backward(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        options: ConvOptions<2>,
    ) -> FloatTensor<B> {
        super::conv_grad::conv2d_weight_backward::<B>(x, weight, output_grad, options)
    }
    /// The gradient of any convolution with respect to its bias.
    fn conv_bias_backward(output_grad: FloatTensor<B>) -> FloatTensor<B> {
        super::conv_grad::conv_bias_backward::<B>(output_grad)
    }
    /// The gradient of `conv_transpose2d` with respect to `x`: the forward convolution of the
    /// output gradient.
    fn conv_transpose2d_x_backward(
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
        B::conv2d(output_grad, weight, None, forward)
    }
    /// The gradient of `conv_transpose2d` with respect to the weight.
    fn conv_transpose2d_weight_backward(
        x: FloatTensor<B>,
        weight: FloatTensor<B>,
        output_grad: FloatTensor<B>,
        options: ConvTransposeOptions<2>,
    ) -> FloatTensor<B> {
        super::conv_grad::conv_transpose2d_weight_backward::<B>(x, weight, output_grad, options)
    }
    /// Scaled dot-product attention: `softmax(softcap(q·kᵀ·scale) masked + attn_bias) · v`, where
    /// `mask` marks the positions that may *not* be attended (set to -∞ before the bias is
    /// added), `attn_bias` (ALiBi, relative positions) broadcasts to the scores
    /// `[batch, heads, seq_q, seq_k]`, and key/value may have fewer heads than the query
    /// (grouped-query attention). By default [`attention_fallback`](super::attention_fallback).
    fn attention(
        query: FloatTensor<B>,
        key: FloatTensor<B>,
        value: FloatTensor<B>,
        mask: Option<BoolTensor<B>>,
        attn_bias: Option<FloatTensor<B>>,
        options: AttentionModuleOptions,
    ) -> FloatTensor<B> {
        super::defaults::attention_fallback::<B>(query, key, value, mask, attn_bias, options)
    }
    /// Layer normalization over the last dim of `x [..., d]`: `(x - mean) / √(var + ε) · γ + β`
    /// with the biased variance, `gamma` and `beta` of shape `[d]`. By default
    /// [`layer_norm_fallback`](super::layer_norm_fallback).
    fn layer_norm(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        beta: Option<FloatTensor<B>>,
        epsilon: f64,
    ) -> FloatTensor<B> {
        super::norm::layer_norm_fallback::<B>(x, gamma, beta, epsilon)
    }
    /// The gradients of [`layer_norm`](ModuleOps::layer_norm) for the output gradient `grad`
    /// (the shift's gradient whether or not there is one). By default
    /// [`layer_norm_backward_fallback`](super::layer_norm_backward_fallback).
    fn layer_norm_backward(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        grad: FloatTensor<B>,
        epsilon: f64,
    ) -> super::NormGrads<B> {
        super::norm::layer_norm_backward_fallback::<B>(x, gamma, grad, epsilon)
    }
    /// Batch normalization of `x [n, c, ...]` with its batch statistics (training mode):
    /// `(x - mean) / √(var + ε) · γ + β` per channel, `gamma` and `beta` of shape `[c]`; returns
    /// the output and the per-channel mean and biased variance. By default
    /// [`batch_norm_fallback`](super::batch_norm_fallback).
    fn batch_norm(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        beta: FloatTensor<B>,
        epsilon: f64,
    ) -> super::BatchNormOutput<B> {
        super::norm::batch_norm_fallback::<B>(x, gamma, beta, epsilon)
    }
    /// The gradients of [`batch_norm`](ModuleOps::batch_norm)'s output for the output gradient
    /// `grad`, through the batch statistics. By default
    /// [`batch_norm_backward_fallback`](super::batch_norm_backward_fallback).
    fn batch_norm_backward(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        grad: FloatTensor<B>,
        epsilon: f64,
    ) -> super::NormGrads<B> {
        super::norm::batch_norm_backward_fallback::<B>(x, gamma, grad, epsilon)
    }
    /// Group normalization of `x [n, c, ...]`: the channels split into `groups` consecutive
    /// groups, each (sample, group) normalized over its channels and spatial positions with the
    /// biased variance, then `· γ + β` per channel, `gamma` and `beta` of shape `[c]`. By default
    /// [`group_norm_fallback`](super::group_norm_fallback).
    fn group_norm(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        beta: FloatTensor<B>,
        groups: usize,
        epsilon: f64,
    ) -> FloatTensor<B> {
        super::norm::group_norm_fallback::<B>(x, gamma, beta, groups, epsilon)
    }
    /// The gradients of [`group_norm`](ModuleOps::group_norm) for the output gradient `grad`,
    /// through the group statistics. By default
    /// [`group_norm_backward_fallback`](super::group_norm_backward_fallback).
    fn group_norm_backward(
        x: FloatTensor<B>,
        gamma: FloatTensor<B>,
        grad: FloatTensor<B>,
        groups: usize,
        epsilon: f64,
    ) -> super::NormGrads<B> {
        super::norm::group_norm_backward_fallback::<B>(x, gamma, grad, groups, epsilon)
    }
}

/// `[n, c, l]` → `[n, c, 1, l]`.
fn unsqueeze2<B: Backend>(tensor: FloatTensor<B>) -> FloatTensor<B> {
    let shape = tensor.shape();
    B::float_reshape(tensor, Shape::new([shape[0], shape[1], 1, shape[2]]))
}

/// `[n, c, 1, l]` → `[n, c, l]`.
fn squeeze2<B: Backend>(tensor: FloatTensor<B>) -> FloatTensor<B> {
    let shape = tensor.shape();
    B::float_reshape(tensor, Shape::new([shape[0], shape[1], shape[3]]))
}
