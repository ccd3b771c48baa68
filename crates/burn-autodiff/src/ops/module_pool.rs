//! The pooling and interpolation rules of `Autodiff`'s `ModuleOps`: forward with `B`'s
//! kernel, backward with `B`'s `*_backward` kernel; compute-bound. The 1-d ops run their own
//! forward kernel and go through the 2-d backward kernels on height-1 views.

use super::backward::{saved, unary};
use super::module::{squeeze, unsqueeze};
use super::record::{AT, FT, record};
use crate::checkpoint::Saved;
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::ops::{InterpolateOptions, MaxPool1dWithIndices, MaxPool2dWithIndices};
use burn_backend::tensor::IntTensor;
use burn_backend::{Backend, Shape, TensorMetadata};

/// Records a one-input op that produced `output` from `x`; compute-bound. The step saves `x`
/// and `extra()`, and maps the output gradient with `backward(x, extra, grad)`.
fn record_pool<B, C, S>(
    x: &AT<B>,
    output: FT<B>,
    extra: impl FnOnce() -> S,
    backward: impl FnOnce(FT<B>, S, FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
    S: Send + 'static,
{
    record::<B, C, (Saved<B>, S), 1>(
        [x],
        output,
        None,
        || (saved::<B, C>(x), extra()),
        move |ops, grads, checkpointer| {
            let (x, extra) = ops.state;
            unary::<B>(ops.parents, ops.node, grads, |grad| {
                backward(checkpointer.retrieve(x), extra, grad)
            });
        },
    )
}

pub(super) fn avg_pool2d<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> AT<B> {
    let output = B::avg_pool2d(
        x.primitive().clone(),
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    );
    record_pool::<B, C, ()>(
        &x,
        output,
        || (),
        move |x, (), grad| {
            B::avg_pool2d_backward(
                x,
                grad,
                kernel_size,
                stride,
                padding,
                count_include_pad,
                ceil_mode,
            )
        },
    )
}

pub(super) fn avg_pool1d<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    count_include_pad: bool,
    ceil_mode: bool,
) -> AT<B> {
    let output = B::avg_pool1d(
        x.primitive().clone(),
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    );
    record_pool::<B, C, ()>(
        &x,
        output,
        || (),
        move |x, (), grad| {
            squeeze::<B>(B::avg_pool2d_backward(
                unsqueeze::<B>(x),
                unsqueeze::<B>(grad),
                [1, kernel_size],
                [1, stride],
                [0, padding],
                count_include_pad,
                ceil_mode,
            ))
        },
    )
}

pub(super) fn adaptive_avg_pool2d<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    output_size: [usize; 2],
) -> AT<B> {
    let output = B::adaptive_avg_pool2d(x.primitive().clone(), output_size);
    record_pool::<B, C, ()>(
        &x,
        output,
        || (),
        |x, (), grad| B::adaptive_avg_pool2d_backward(x, grad),
    )
}

/// Backward through the 2-d kernel: a height-1 input pooled to height 1 averages the same
/// windows as the 1-d pooling.
pub(super) fn adaptive_avg_pool1d<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    output_size: usize,
) -> AT<B> {
    let output = B::adaptive_avg_pool1d(x.primitive().clone(), output_size);
    record_pool::<B, C, ()>(
        &x,
        output,
        || (),
        |x, (), grad| {
            squeeze::<B>(B::adaptive_avg_pool2d_backward(
                unsqueeze::<B>(x),
                unsqueeze::<B>(grad),
            ))
        },
    )
}

/// The pooled values (tracked) and the indices of the maxima; the gradient goes to each
/// window's maximum through `B::max_pool2d_with_indices_backward`.
pub(super) fn max_pool2d_with_indices<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> (AT<B>, IntTensor<B>) {
    let MaxPool2dWithIndices { output, indices } = B::max_pool2d_with_indices(
        x.primitive().clone(),
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    );
    let output = record_pool::<B, C, IntTensor<B>>(
        &x,
        output,
        || indices.clone(),
        |x, indices, grad| B::max_pool2d_with_indices_backward(x, grad, indices),
    );
    (output, indices)
}

/// Untracked, `B::max_pool2d`; tracked, through the indices of the maxima.
pub(super) fn max_pool2d<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> AT<B> {
    if x.is_tracked() {
        max_pool2d_with_indices::<B, C>(x, kernel_size, stride, padding, dilation, ceil_mode).0
    } else {
        let x = x.into_primitive();
        AT::new(B::max_pool2d(
            x,
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
        ))
    }
}

/// As the 2-d pooling; the backward views the input, the gradient and the indices as
/// height 1 (an index into a row is also the flat index `0 * width + w` of its plane).
pub(super) fn max_pool1d_with_indices<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> (AT<B>, IntTensor<B>) {
    let MaxPool1dWithIndices { output, indices } = B::max_pool1d_with_indices(
        x.primitive().clone(),
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    );
    let output = record_pool::<B, C, IntTensor<B>>(
        &x,
        output,
        || indices.clone(),
        |x, indices, grad| {
            let shape = indices.shape();
            let indices = B::int_reshape(indices, Shape::new([shape[0], shape[1], 1, shape[2]]));
            squeeze::<B>(B::max_pool2d_with_indices_backward(
                unsqueeze::<B>(x),
                unsqueeze::<B>(grad),
                indices,
            ))
        },
    );
    (output, indices)
}

pub(super) fn interpolate<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> AT<B> {
    let output = B::interpolate(x.primitive().clone(), output_size, options);
    record_pool::<B, C, ()>(
        &x,
        output,
        || (),
        move |x, (), grad| B::interpolate_backward(x, grad, output_size, options),
    )
}

/// Untracked, `B::max_pool1d`; tracked, through the indices of the maxima.
pub(super) fn max_pool1d<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> AT<B> {
    if x.is_tracked() {
        max_pool1d_with_indices::<B, C>(x, kernel_size, stride, padding, dilation, ceil_mode).0
    } else {
        let x = x.into_primitive();
        AT::new(B::max_pool1d(
            x,
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
        ))
    }
}
