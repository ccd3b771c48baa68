//! The pooling and interpolation rules of `Autodiff`'s `ModuleOps`: forward with `B`'s
//! kernel, backward with `B`'s `*_backward` kernel; compute-bound. The 1-d ops run their own
//! forward kernel and go through the 2-d backward kernels on height-1 views.

use super::backward::{saved, unary};
use super::module::{squeeze, unsqueeze};
use super::record::{AT, FT, record};
use crate::backend::Autodiff;
use crate::checkpoint::Saved;
use crate::checkpoint::strategy::CheckpointStrategy;
use burn_backend::ops::{InterpolateOptions, MaxPool1dWithIndices, MaxPool2dWithIndices};
use burn_backend::tensor::IntTensor;
use burn_backend::{Backend, Shape, TensorMetadata};
use core::marker::PhantomData;

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

/// `backward_2d` (a 2-d backward kernel) run on height-1 views of a 1-d input `x` and
/// gradient `grad`, its result squeezed back to 1-d.
fn on_height_1<B: Backend>(
    x: FT<B>,
    grad: FT<B>,
    backward_2d: impl FnOnce(FT<B>, FT<B>) -> FT<B>,
) -> FT<B> {
    squeeze::<B>(backward_2d(unsqueeze::<B>(x), unsqueeze::<B>(grad)))
}

/// Writes one rule per line: `fn op(args) => |x, grad| backward`, a function
/// `op(x, args)` that runs `B::op(x, args)` and records it, mapping the output
/// gradient back to `x` with `backward` (the saved input and the output gradient).
macro_rules! pool_rules {
    ($(
        $(#[$doc:meta])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => |$x:ident, $grad:ident| $backward:expr;
    )*) => {$(
        $(#[$doc])*
        pub(super) fn $name(x: AT<B>, $($arg: $ty),*) -> AT<B> {
            let output = B::$name(x.primitive().clone(), $($arg),*);
            record_pool::<B, C, ()>(&x, output, || (), move |$x, (), $grad| $backward)
        }
    )*};
}

/// Writes, per line `fn op_with_indices / op(args) -> Output => |x, grad, indices| backward`,
/// the rule `op_with_indices(x, args)`: `B`'s pooled values (tracked; the step keeps the
/// indices of the maxima for `backward`) and indices; and `op(x, args)`:
/// untracked, `B::op`; tracked, the values of `op_with_indices`.
macro_rules! max_pool_rules {
    ($(
        $(#[$doc:meta])*
        fn $with_indices:ident / $plain:ident($($arg:ident: $ty:ty),* $(,)?) -> $result:ident
            => |$x:ident, $grad:ident, $indices:ident| $backward:expr;
    )*) => {$(
        $(#[$doc])*
        pub(super) fn $with_indices(x: AT<B>, $($arg: $ty),*) -> $result<Autodiff<B, C>> {
            let $result { output, indices } = B::$with_indices(x.primitive().clone(), $($arg),*);
            let output = record_pool::<B, C, IntTensor<B>>(
                &x,
                output,
                || indices.clone(),
                |$x, $indices, $grad| $backward,
            );
            $result { output, indices }
        }

        #[doc = concat!(
            "Untracked, `B::", stringify!($plain), "`; tracked, through the indices of the maxima."
        )]
        pub(super) fn $plain(x: AT<B>, $($arg: $ty),*) -> AT<B> {
            if x.is_tracked() {
                Self::$with_indices(x, $($arg),*).output
            } else {
                AT::new(B::$plain(x.into_primitive(), $($arg),*))
            }
        }
    )*};
}

/// The pooling and interpolation rules of `Autodiff<B, C>`, for its `ModuleOps`.
pub(super) struct PoolRules<B, C>(PhantomData<fn() -> (B, C)>);

impl<B: Backend, C: CheckpointStrategy> PoolRules<B, C> {
    pool_rules! {
        fn avg_pool2d(
            kernel_size: [usize; 2],
            stride: [usize; 2],
            padding: [usize; 2],
            count_include_pad: bool,
            ceil_mode: bool,
        ) => |x, grad| {
            B::avg_pool2d_backward(
                x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode,
            )
        };

        fn avg_pool1d(
            kernel_size: usize,
            stride: usize,
            padding: usize,
            count_include_pad: bool,
            ceil_mode: bool,
        ) => |x, grad| on_height_1::<B>(x, grad, |x, grad| {
            let (kernel_size, stride, padding) = ([1, kernel_size], [1, stride], [0, padding]);
            B::avg_pool2d_backward(
                x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode,
            )
        });

        fn adaptive_avg_pool2d(output_size: [usize; 2])
            => |x, grad| B::adaptive_avg_pool2d_backward(x, grad);

        /// Backward through the 2-d kernel: a height-1 input pooled to height 1 averages the same
        /// windows as the 1-d pooling.
        fn adaptive_avg_pool1d(output_size: usize)
            => |x, grad| on_height_1::<B>(x, grad, B::adaptive_avg_pool2d_backward);

        fn interpolate(output_size: [usize; 2], options: InterpolateOptions)
            => |x, grad| B::interpolate_backward(x, grad, output_size, options);
    }

    max_pool_rules! {
        /// The pooled values (tracked) and the indices of the maxima; the gradient goes to each
        /// window's maximum through `B::max_pool2d_with_indices_backward`.
        fn max_pool2d_with_indices / max_pool2d(
            kernel_size: [usize; 2],
            stride: [usize; 2],
            padding: [usize; 2],
            dilation: [usize; 2],
            ceil_mode: bool,
        ) -> MaxPool2dWithIndices
            => |x, grad, indices| B::max_pool2d_with_indices_backward(x, grad, indices);

        /// As the 2-d pooling; the backward views the input, the gradient and the indices as
        /// height 1 (an index into a row is also the flat index `0 * width + w` of its plane).
        fn max_pool1d_with_indices / max_pool1d(
            kernel_size: usize,
            stride: usize,
            padding: usize,
            dilation: usize,
            ceil_mode: bool,
        ) -> MaxPool1dWithIndices
            => |x, grad, indices| {
                let shape = indices.shape();
                let height_1 = Shape::new([shape[0], shape[1], 1, shape[2]]);
                let indices = B::int_reshape(indices, height_1);
                on_height_1::<B>(x, grad, |x, grad| {
                    B::max_pool2d_with_indices_backward(x, grad, indices)
                })
            };
    }
}
