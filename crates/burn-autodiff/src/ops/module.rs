//! `ModuleOps` for `Autodiff<B, C>`: convolutions, embedding, attention and layer and batch
//! normalization here, pooling and interpolation in `module_pool`. Every forward runs `B`'s kernel; the backward steps use
//! `B`'s backward kernels and are compute-bound (never recomputed). The `*_backward` ops
//! themselves run on `B` untracked: there are no second-order gradients through them.

use super::backward::saved;
use super::module_pool as pool;
use super::record::{AT, FT, record};
use crate::backend::Autodiff;
use crate::checkpoint::strategy::CheckpointStrategy;
use crate::checkpoint::{Checkpointer, Saved};
use crate::grads::Gradients;
use crate::graph::NodeId;
use burn_backend::ops::{
    AttentionModuleOptions, BatchNormOutput, ConvOptions, ConvTransposeOptions, InterpolateOptions,
    MaxPool1dWithIndices, MaxPool2dWithIndices, ModuleOps, NormGrads,
};
use burn_backend::tensor::{BoolTensor, IntTensor};
use burn_backend::{Backend, Shape, TensorMetadata};

/// `[n, c, l]` → `[n, c, 1, l]`: a 1-d tensor (input, weight or gradient) as a 2-d one of
/// height 1.
pub(super) fn unsqueeze<B: Backend>(tensor: FT<B>) -> FT<B> {
    let shape = tensor.shape();
    B::float_reshape(tensor, Shape::new([shape[0], shape[1], 1, shape[2]]))
}

/// `[n, c, 1, l]` → `[n, c, l]`.
pub(super) fn squeeze<B: Backend>(tensor: FT<B>) -> FT<B> {
    let shape = tensor.shape();
    B::float_reshape(tensor, Shape::new([shape[0], shape[1], shape[3]]))
}

/// The 2-d options (height 1, no padding there) equivalent to 1-d convolution options.
fn conv_options_2d(options: ConvOptions<1>) -> ConvOptions<2> {
    ConvOptions::new_with_padding(
        [1, options.stride[0]],
        [(0, 0), options.padding[0]],
        [1, options.dilation[0]],
        options.groups,
    )
}

/// The 2-d options equivalent to 1-d transposed-convolution options.
fn conv_transpose_options_2d(options: ConvTransposeOptions<1>) -> ConvTransposeOptions<2> {
    ConvTransposeOptions::new(
        [1, options.stride[0]],
        [0, options.padding[0]],
        [0, options.padding_out[0]],
        [1, options.dilation[0]],
        options.groups,
    )
}

/// Which of a convolution's inputs (`x`, `weight`, `bias`) want a gradient.
type Wanted = [bool; 3];

/// Records a convolution of `x` by `weight` (plus `bias`, when given), or any operation of an
/// input, a weight and an optional bias of that shape (layer normalization), that produced
/// `output`; compute-bound. The step saves `x` and `weight`; `backward(x, weight, grad,
/// wanted)` returns the gradients of the inputs flagged in `wanted` (the others `None`).
fn record_conv<B, C, F>(
    x: &AT<B>,
    weight: &AT<B>,
    bias: Option<&AT<B>>,
    output: FT<B>,
    backward: F,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
    F: FnOnce(FT<B>, FT<B>, FT<B>, Wanted) -> [Option<FT<B>>; 3] + Send + 'static,
{
    let state = || (saved::<B, C>(x), saved::<B, C>(weight));
    // The gradients of the wanted parents, registered.
    let run = move |parents: [Option<NodeId>; 3],
                    (x, w): (Saved<B>, Saved<B>),
                    grad: FT<B>,
                    grads: &mut Gradients,
                    checkpointer: &mut Checkpointer<B>| {
        let (x, w) = (checkpointer.retrieve(x), checkpointer.retrieve(w));
        let computed = backward(x, w, grad, parents.map(|p| p.is_some()));
        for (parent, grad) in parents.into_iter().zip(computed) {
            if let (Some(parent), Some(grad)) = (parent, grad) {
                grads.register::<B>(parent, grad);
            }
        }
    };
    match bias {
        Some(bias) => record::<B, C, _, 3>(
            [x, weight, bias],
            output,
            None,
            state,
            move |ops, grads, checkpointer| {
                if let Some(grad) = grads.remove::<B>(ops.node) {
                    run(ops.parents, ops.state, grad, grads, checkpointer);
                }
            },
        ),
        None => record::<B, C, _, 2>(
            [x, weight],
            output,
            None,
            state,
            move |ops, grads, checkpointer| {
                if let Some(grad) = grads.remove::<B>(ops.node) {
                    let [px, pw] = ops.parents;
                    run([px, pw, None], ops.state, grad, grads, checkpointer);
                }
            },
        ),
    }
}

/// The gradients of a normalization's input, scale and shift that are `wanted`.
fn wanted_norm_grads<B: Backend>(grads: NormGrads<B>, [gx, gg, gb]: Wanted) -> [Option<FT<B>>; 3] {
    [
        gx.then_some(grads.x_grad),
        gg.then_some(grads.gamma_grad),
        gb.then_some(grads.beta_grad),
    ]
}

/// The options of a 2-d convolution (`ConvOptions<2>`) or transposed convolution
/// (`ConvTransposeOptions<2>`), with `B`'s backward kernels of that kind.
trait Conv2dKind: Copy + Send + 'static {
    /// The gradient of the input `x`.
    fn x_backward<B: Backend>(self, x: FT<B>, w: FT<B>, grad: FT<B>) -> FT<B>;
    /// The gradient of the weight `w`.
    fn weight_backward<B: Backend>(self, x: FT<B>, w: FT<B>, grad: FT<B>) -> FT<B>;
}

impl Conv2dKind for ConvOptions<2> {
    fn x_backward<B: Backend>(self, x: FT<B>, w: FT<B>, grad: FT<B>) -> FT<B> {
        B::conv2d_x_backward(x, w, grad, self)
    }
    fn weight_backward<B: Backend>(self, x: FT<B>, w: FT<B>, grad: FT<B>) -> FT<B> {
        B::conv2d_weight_backward(x, w, grad, self)
    }
}

impl Conv2dKind for ConvTransposeOptions<2> {
    fn x_backward<B: Backend>(self, _x: FT<B>, w: FT<B>, grad: FT<B>) -> FT<B> {
        B::conv_transpose2d_x_backward(w, grad, self)
    }
    fn weight_backward<B: Backend>(self, x: FT<B>, w: FT<B>, grad: FT<B>) -> FT<B> {
        B::conv_transpose2d_weight_backward(x, w, grad, self)
    }
}

/// The wanted gradients of a 2-d (transposed) convolution through `B`'s backward kernels.
fn conv2d_grads<B: Backend, O: Conv2dKind>(
    x: FT<B>,
    w: FT<B>,
    grad: FT<B>,
    options: O,
    [gx, gw, gb]: Wanted,
) -> [Option<FT<B>>; 3] {
    [
        gx.then(|| options.x_backward::<B>(x.clone(), w.clone(), grad.clone())),
        gw.then(|| options.weight_backward::<B>(x, w, grad.clone())),
        gb.then(|| B::conv_bias_backward(grad)),
    ]
}

/// The 1-d gradients from the 2-d ones `grads_2d` computes on height-1 views (`x`, `weight`
/// and the output gradient unsqueezed; the `x` and `weight` gradients squeezed back, the
/// bias gradient has no height).
fn grads_on_height_1<B: Backend>(
    x: FT<B>,
    w: FT<B>,
    grad: FT<B>,
    wanted: Wanted,
    grads_2d: impl FnOnce(FT<B>, FT<B>, FT<B>, Wanted) -> [Option<FT<B>>; 3],
) -> [Option<FT<B>>; 3] {
    let (x, w, grad) = (unsqueeze::<B>(x), unsqueeze::<B>(w), unsqueeze::<B>(grad));
    let [gx, gw, gb] = grads_2d(x, w, grad, wanted);
    [gx.map(squeeze::<B>), gw.map(squeeze::<B>), gb]
}

/// Runs `forward(x, weight, bias)` on the primitives and records it as a convolution (see
/// [`record_conv`]) whose gradients are those of the 2-d kind `options`, computed on height-1
/// views (see [`grads_on_height_1`]) for a 1-d convolution (`height_1`).
fn conv<B, C, O>(
    x: AT<B>,
    weight: AT<B>,
    bias: Option<AT<B>>,
    forward: impl FnOnce(FT<B>, FT<B>, Option<FT<B>>) -> FT<B>,
    options: O,
    height_1: bool,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
    O: Conv2dKind,
{
    let bias_primitive = bias.as_ref().map(|b| b.primitive().clone());
    let output = forward(
        x.primitive().clone(),
        weight.primitive().clone(),
        bias_primitive,
    );
    let grads_2d = move |x, w, g, wanted| conv2d_grads::<B, O>(x, w, g, options, wanted);
    record_conv::<B, C, _>(
        &x,
        &weight,
        bias.as_ref(),
        output,
        move |x, w, g, wanted| {
            if height_1 {
                grads_on_height_1::<B>(x, w, g, wanted, grads_2d)
            } else {
                grads_2d(x, w, g, wanted)
            }
        },
    )
}

impl<B: Backend, C: CheckpointStrategy> ModuleOps<Self> for Autodiff<B, C> {
    // ---- convolutions ----------------------------------------------------------------------

    fn conv2d(x: AT<B>, weight: AT<B>, bias: Option<AT<B>>, options: ConvOptions<2>) -> AT<B> {
        let forward = |x, w, b| B::conv2d(x, w, b, options);
        conv::<B, C, _>(x, weight, bias, forward, options, false)
    }

    fn conv_transpose2d(
        x: AT<B>,
        weight: AT<B>,
        bias: Option<AT<B>>,
        options: ConvTransposeOptions<2>,
    ) -> AT<B> {
        let forward = |x, w, b| B::conv_transpose2d(x, w, b, options);
        conv::<B, C, _>(x, weight, bias, forward, options, false)
    }

    /// Forward with `B::conv1d`; backward through the 2-d backward ops on height-1 views.
    fn conv1d(x: AT<B>, weight: AT<B>, bias: Option<AT<B>>, options: ConvOptions<1>) -> AT<B> {
        let forward = |x, w, b| B::conv1d(x, w, b, options);
        let options_2d = conv_options_2d(options);
        conv::<B, C, _>(x, weight, bias, forward, options_2d, true)
    }

    /// Forward with `B::conv_transpose1d`; backward through the 2-d backward ops on height-1
    /// views.
    fn conv_transpose1d(
        x: AT<B>,
        weight: AT<B>,
        bias: Option<AT<B>>,
        options: ConvTransposeOptions<1>,
    ) -> AT<B> {
        let forward = |x, w, b| B::conv_transpose1d(x, w, b, options);
        let options_2d = conv_transpose_options_2d(options);
        conv::<B, C, _>(x, weight, bias, forward, options_2d, true)
    }

    // ---- pooling and interpolation (module_pool) --------------------------------------------

    delegate! {
        to pool::PoolRules<B, C>;
        fn avg_pool2d(x: AT<B>, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], count_include_pad: bool, ceil_mode: bool) -> AT<B>;
        fn avg_pool1d(x: AT<B>, kernel_size: usize, stride: usize, padding: usize, count_include_pad: bool, ceil_mode: bool) -> AT<B>;
        fn adaptive_avg_pool2d(x: AT<B>, output_size: [usize; 2]) -> AT<B>;
        fn adaptive_avg_pool1d(x: AT<B>, output_size: usize) -> AT<B>;
        fn max_pool2d_with_indices(x: AT<B>, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], dilation: [usize; 2], ceil_mode: bool) -> MaxPool2dWithIndices<Self>;
        /// Untracked, `B::max_pool2d`; tracked, through the indices of the maxima.
        fn max_pool2d(x: AT<B>, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], dilation: [usize; 2], ceil_mode: bool) -> AT<B>;
        fn max_pool1d_with_indices(x: AT<B>, kernel_size: usize, stride: usize, padding: usize, dilation: usize, ceil_mode: bool) -> MaxPool1dWithIndices<Self>;
        /// Untracked, `B::max_pool1d`; tracked, through the indices of the maxima.
        fn max_pool1d(x: AT<B>, kernel_size: usize, stride: usize, padding: usize, dilation: usize, ceil_mode: bool) -> AT<B>;
        fn interpolate(x: AT<B>, output_size: [usize; 2], options: InterpolateOptions) -> AT<B>;
    }

    // ---- backward ops, untracked ----------------------------------------------------------

    untracked! {
        fn conv2d_x_backward(x, weight, output_grad; options: ConvOptions<2>);
        fn conv2d_weight_backward(x, weight, output_grad; options: ConvOptions<2>);
        fn conv_bias_backward(output_grad;);
        fn conv_transpose2d_x_backward(weight, output_grad; options: ConvTransposeOptions<2>);
        fn conv_transpose2d_weight_backward(x, weight, output_grad; options: ConvTransposeOptions<2>);
        fn avg_pool2d_backward(x, grad; kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], count_include_pad: bool, ceil_mode: bool);
        fn adaptive_avg_pool2d_backward(x, grad;);
        fn max_pool2d_with_indices_backward(x, grad; indices: IntTensor<B>);
        fn interpolate_backward(x, grad; output_size: [usize; 2], options: InterpolateOptions);
        fn embedding_backward(weights, output_grad; indices: IntTensor<B>);
    }

    // ---- embedding and attention -----------------------------------------------------------

    /// Gradient for the weights through `B::embedding_backward`; the int indices get none.
    fn embedding(weights: AT<B>, indices: IntTensor<B>) -> AT<B> {
        let output = B::embedding(weights.primitive().clone(), indices.clone());
        record::<B, C, _, 1>(
            [&weights],
            output,
            None,
            || (saved::<B, C>(&weights), indices),
            move |ops, grads, checkpointer| {
                let (weights, indices) = ops.state;
                super::backward::unary::<B>(ops.parents, ops.node, grads, |grad| {
                    B::embedding_backward(checkpointer.retrieve(weights), grad, indices)
                });
            },
        )
    }

    /// With no tracked input, `B::attention` (possibly a fused kernel) runs untracked.
    /// Otherwise attention is [`attention_fallback`](burn_backend::ops::attention_fallback)
    /// on this backend: matmuls, scaling, masking and a stable softmax, each a
    /// differentiable op of `Autodiff`, so the gradients of `query`, `key`, `value` and the
    /// bias flow through the composition (no fused backward kernel). The mask gets no gradient.
    fn attention(
        query: AT<B>,
        key: AT<B>,
        value: AT<B>,
        mask: Option<BoolTensor<B>>,
        attn_bias: Option<AT<B>>,
        options: AttentionModuleOptions,
    ) -> AT<B> {
        let bias_tracked = attn_bias.as_ref().is_some_and(|b| b.is_tracked());
        if !(query.is_tracked() || key.is_tracked() || value.is_tracked() || bias_tracked) {
            return AT::new(B::attention(
                query.into_primitive(),
                key.into_primitive(),
                value.into_primitive(),
                mask,
                attn_bias.map(AT::into_primitive),
                options,
            ));
        }
        burn_backend::ops::attention_fallback::<Self>(query, key, value, mask, attn_bias, options)
    }

    // ---- normalization ---------------------------------------------------------------------

    /// Forward with `B::layer_norm`; the gradients of the tracked inputs (input, scale, shift)
    /// from one `B::layer_norm_backward`, which recomputes the row statistics from `x`.
    fn layer_norm(x: AT<B>, gamma: AT<B>, beta: Option<AT<B>>, epsilon: f64) -> AT<B> {
        let output = B::layer_norm(
            x.primitive().clone(),
            gamma.primitive().clone(),
            beta.as_ref().map(|b| b.primitive().clone()),
            epsilon,
        );
        record_conv::<B, C, _>(
            &x,
            &gamma,
            beta.as_ref(),
            output,
            move |x, gamma, grad, wanted| {
                wanted_norm_grads(B::layer_norm_backward(x, gamma, grad, epsilon), wanted)
            },
        )
    }

    /// Forward with `B::batch_norm`; the gradients of the tracked inputs from one
    /// `B::batch_norm_backward` (through the batch statistics). The returned statistics are
    /// constants: they feed the running averages, not the loss.
    fn batch_norm(x: AT<B>, gamma: AT<B>, beta: AT<B>, epsilon: f64) -> BatchNormOutput<Self> {
        let out = B::batch_norm(
            x.primitive().clone(),
            gamma.primitive().clone(),
            beta.primitive().clone(),
            epsilon,
        );
        let output = record_conv::<B, C, _>(
            &x,
            &gamma,
            Some(&beta),
            out.output,
            move |x, gamma, grad, wanted| {
                wanted_norm_grads(B::batch_norm_backward(x, gamma, grad, epsilon), wanted)
            },
        );
        BatchNormOutput {
            output,
            mean: AT::new(out.mean),
            var: AT::new(out.var),
        }
    }

    /// Forward with `B::group_norm`; the gradients of the tracked inputs from one
    /// `B::group_norm_backward` (through the group statistics).
    fn group_norm(x: AT<B>, gamma: AT<B>, beta: AT<B>, groups: usize, epsilon: f64) -> AT<B> {
        let output = B::group_norm(
            x.primitive().clone(),
            gamma.primitive().clone(),
            beta.primitive().clone(),
            groups,
            epsilon,
        );
        record_conv::<B, C, _>(
            &x,
            &gamma,
            Some(&beta),
            output,
            move |x, gamma, grad, wanted| {
                let grads = B::group_norm_backward(x, gamma, grad, groups, epsilon);
                wanted_norm_grads(grads, wanted)
            },
        )
    }
}
