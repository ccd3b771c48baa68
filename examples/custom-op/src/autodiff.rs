//! The backward of the fused operation, written once for every backend: with
//! `y = relu(x · w + b)` and `g` the gradient of `y` masked where `y > 0`,
//! `dx = g · wᵀ`, `dw = xᵀ · g`, `db = Σ_rows g`.
//!
//! `linear` is not implemented here: the trait's default body (matmul, reshape, add) runs on
//! `Autodiff<B, C>` and is differentiated through those operations.

use crate::ops::FusedOps;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::checkpoint::{Checkpointer, Saved};
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::autodiff::{Autodiff, Gradients};
use burn::backend::tensor::FloatTensor;
use burn::backend::{Backend, TensorMetadata};
use burn::tensor::Shape;

/// The backward step of `linear_relu`, over three inputs.
#[derive(Debug)]
struct LinearReluBackward;

/// What the step keeps: the inputs of the products (checkpointed) and the output, whose sign
/// is the ReLU mask.
type State<B> = (Saved<B>, Saved<B>, FloatTensor<B>);

impl<B: Backend> Backward<B, 3> for LinearReluBackward {
    type State = State<B>;

    fn backward(self, ops: Ops<State<B>, 3>, grads: &mut Gradients, ckp: &mut Checkpointer<B>) {
        let Some(grad) = grads.remove::<B>(ops.node) else {
            return;
        };
        let (x, weight, output) = ops.state;
        let [x_node, weight_node, bias_node] = ops.parents;
        let grad = B::relu_backward(output, grad);
        if let Some(node) = x_node {
            let weight = ckp.retrieve(weight);
            grads.register::<B>(
                node,
                B::float_matmul(grad.clone(), B::float_transpose(weight)),
            );
        }
        if let Some(node) = weight_node {
            let x = ckp.retrieve(x);
            grads.register::<B>(node, B::float_matmul(B::float_transpose(x), grad.clone()));
        }
        if let Some(node) = bias_node {
            let n = grad.shape().dims::<2>()[1];
            let sum = B::float_sum_dim(grad, 0);
            grads.register::<B>(node, B::float_reshape(sum, Shape::new([n])));
        }
    }
}

impl<B: Backend + FusedOps, C: CheckpointStrategy> FusedOps for Autodiff<B, C> {
    fn linear_relu(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        // The forward is the inner backend's fused kernel.
        let output = B::linear_relu(
            x.primitive().clone(),
            weight.primitive().clone(),
            bias.primitive().clone(),
        );
        match LinearReluBackward
            .prepare::<C>([x.node(), weight.node(), bias.node()])
            .compute_bound()
            .stateful()
        {
            OpsKind::Tracked(mut prep) => {
                let state = (
                    prep.checkpoint(&x),
                    prep.checkpoint(&weight),
                    output.clone(),
                );
                prep.finish(state, output)
            }
            OpsKind::UnTracked(prep) => prep.finish(output),
        }
    }
}
