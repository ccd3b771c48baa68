//! Internal shorthands over the public `Backward` API: every built-in rule records through
//! `record`, and the common shapes of rule (element-wise unary, linear, binary with
//! broadcasting) have a helper each.

use super::backward::{Backward, Ops, OpsKind, binary, unary};
use crate::checkpoint::strategy::CheckpointStrategy;
use crate::checkpoint::{Checkpointer, ForwardFn, Saved, SavedInner};
use crate::grads::Gradients;
use crate::tensor::AutodiffTensor;
use burn_backend::{Backend, DType, FloatDType, Shape, TensorMetadata, tensor::FloatTensor};
use core::marker::PhantomData;
use std::sync::Arc;

pub(crate) type AT<B> = AutodiffTensor<B>;
pub(crate) type FT<B> = FloatTensor<B>;

/// A backward rule given as a closure.
struct FnBackward<S, F>(F, PhantomData<fn() -> S>);

impl<B, S, F, const N: usize> Backward<B, N> for FnBackward<S, F>
where
    B: Backend,
    S: Send + 'static,
    F: FnOnce(Ops<S, N>, &mut Gradients, &mut Checkpointer<B>) + Send + 'static,
{
    type State = S;

    fn backward(self, ops: Ops<S, N>, grads: &mut Gradients, checkpointer: &mut Checkpointer<B>) {
        (self.0)(ops, grads, checkpointer)
    }
}

/// Records an operation on `inputs` that produced `output`. `retro`, when given, marks it
/// memory-bound and recomputes it from the inputs; `state` runs only when the result is
/// tracked.
pub(crate) fn record<B, C, S, const N: usize>(
    inputs: [&AT<B>; N],
    output: FT<B>,
    retro: Option<ForwardFn<B>>,
    state: impl FnOnce() -> S,
    backward: impl FnOnce(Ops<S, N>, &mut Gradients, &mut Checkpointer<B>) + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
    S: Send + 'static,
{
    let guards = inputs.map(|t| t.node());
    let mut prep = FnBackward(backward, PhantomData).prepare::<C>(guards);
    prep = match retro {
        Some(forward) => {
            let mut prep = prep.memory_bound();
            prep.set_retro(inputs, forward);
            prep
        }
        None => prep.compute_bound(),
    };
    match prep.stateful() {
        OpsKind::Tracked(prep) => prep.finish(state(), output),
        OpsKind::UnTracked(prep) => prep.finish(output),
    }
}

/// The output of `forward` on `x`, and `forward` as the [`ForwardFn`] that recomputes it.
fn unary_forward<B: Backend>(
    x: &AT<B>,
    forward: impl Fn(FT<B>) -> FT<B> + Send + Sync + 'static,
) -> (FT<B>, ForwardFn<B>) {
    let output = forward(x.primitive().clone());
    let retro: ForwardFn<B> = Arc::new(move |mut v: Vec<FT<B>>| forward(v.remove(0)));
    (output, retro)
}

/// The output of `forward` on `lhs` and `rhs`, and `forward` as the [`ForwardFn`] that
/// recomputes it.
fn binary_forward<B: Backend>(
    lhs: &AT<B>,
    rhs: &AT<B>,
    forward: impl Fn(FT<B>, FT<B>) -> FT<B> + Send + Sync + 'static,
) -> (FT<B>, ForwardFn<B>) {
    let output = forward(lhs.primitive().clone(), rhs.primitive().clone());
    let retro: ForwardFn<B> = Arc::new(move |mut v: Vec<FT<B>>| {
        let rhs = v.pop().expect("two inputs");
        forward(v.pop().expect("two inputs"), rhs)
    });
    (output, retro)
}

/// Records an op on `x` that produced `output`, whose gradient needs no forward value:
/// `dx = backward(dy)`. `retro` as for [`record`] (`None`: compute-bound).
pub(crate) fn record_linear<B, C>(
    x: &AT<B>,
    output: FT<B>,
    retro: Option<ForwardFn<B>>,
    backward: impl FnOnce(FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
{
    record::<B, C, (), 1>(
        [x],
        output,
        retro,
        || (),
        move |ops, grads, _| unary::<B>(ops.parents, ops.node, grads, backward),
    )
}

/// Records an op on `lhs` and `rhs` that produced `output`, whose gradients need no forward
/// value: `dlhs = backward_lhs(dy)`, `drhs = backward_rhs(dy)`. `retro` as for [`record`].
pub(crate) fn record_linear2<B, C>(
    lhs: &AT<B>,
    rhs: &AT<B>,
    output: FT<B>,
    retro: Option<ForwardFn<B>>,
    backward_lhs: impl FnOnce(FT<B>) -> FT<B> + Send + 'static,
    backward_rhs: impl FnOnce(FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
{
    record::<B, C, (), 2>(
        [lhs, rhs],
        output,
        retro,
        || (),
        move |ops, grads, _| binary::<B>(ops.parents, ops.node, grads, backward_lhs, backward_rhs),
    )
}

/// `y = forward(x)`, element-wise, `dx = backward(x, dy)`; memory-bound.
pub(crate) fn unary_op<B, C>(
    x: AT<B>,
    forward: impl Fn(FT<B>) -> FT<B> + Send + Sync + 'static,
    backward: impl FnOnce(FT<B>, FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
{
    let (output, retro) = unary_forward::<B>(&x, forward);
    record::<B, C, Saved<B>, 1>(
        [&x],
        output,
        Some(retro),
        || super::backward::saved::<B, C>(&x),
        move |ops, grads, checkpointer| {
            let x = checkpointer.retrieve(ops.state);
            unary::<B>(ops.parents, ops.node, grads, |grad| backward(x, grad));
        },
    )
}

/// `y = forward(x)`, element-wise, whose gradient is read off the output:
/// `dx = backward(y, dy)`. Memory-bound.
///
/// When the strategy keeps values, the step keeps the output itself (the next operation
/// usually keeps it too, so it costs no extra memory, and nothing is recomputed). When the
/// strategy recomputes memory-bound results, the step saves `x` as `unary_op` does and
/// recomputes `y = forward(x)` in the backward pass.
pub(crate) fn output_op<B: Backend, C: CheckpointStrategy>(
    x: AT<B>,
    forward: impl Fn(FT<B>) -> FT<B> + Clone + Send + Sync + 'static,
    backward: impl FnOnce(FT<B>, FT<B>) -> FT<B> + Send + 'static,
) -> AT<B> {
    let (output, retro) = unary_forward::<B>(&x, forward.clone());
    let recompute = C::recomputes_memory_bound();
    let kept = output.clone();
    record::<B, C, Saved<B>, 1>(
        [&x],
        output,
        Some(retro),
        || {
            if recompute {
                super::backward::saved::<B, C>(&x)
            } else {
                Saved(SavedInner::Value(kept))
            }
        },
        move |ops, grads, checkpointer| {
            unary::<B>(ops.parents, ops.node, grads, |grad| {
                let value = checkpointer.retrieve(ops.state);
                let output = if recompute { forward(value) } else { value };
                backward(output, grad)
            })
        },
    )
}

/// `y = forward(x)` where the gradient needs no forward value (layout ops, scaling):
/// `dx = backward(dy)`; memory-bound.
pub(crate) fn linear_op<B, C>(
    x: AT<B>,
    forward: impl Fn(FT<B>) -> FT<B> + Send + Sync + 'static,
    backward: impl FnOnce(FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
{
    let (output, retro) = unary_forward::<B>(&x, forward);
    record_linear::<B, C>(&x, output, Some(retro), backward)
}

/// `y = forward(lhs, rhs)` with broadcasting, where the gradients need no forward value;
/// each input's gradient is summed back to its shape; memory-bound.
pub(crate) fn binary_linear_op<B, C>(
    lhs: AT<B>,
    rhs: AT<B>,
    forward: impl Fn(FT<B>, FT<B>) -> FT<B> + Send + Sync + 'static,
    backward_lhs: impl FnOnce(FT<B>) -> FT<B> + Send + 'static,
    backward_rhs: impl FnOnce(FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
{
    let (lhs_layout, rhs_layout) = (Layout::of(&lhs), Layout::of(&rhs));
    let (output, retro) = binary_forward::<B>(&lhs, &rhs, forward);
    record_linear2::<B, C>(
        &lhs,
        &rhs,
        output,
        Some(retro),
        move |g| lhs_layout.fit::<B>(backward_lhs(g)),
        move |g| rhs_layout.fit::<B>(backward_rhs(g)),
    )
}

/// `y = forward(lhs, rhs)` with broadcasting, `dlhs = backward_lhs(lhs, rhs, dy)`,
/// `drhs = backward_rhs(lhs, rhs, dy)`, each summed back to its input's shape;
/// memory-bound.
pub(crate) fn binary_op<B, C>(
    lhs: AT<B>,
    rhs: AT<B>,
    forward: impl Fn(FT<B>, FT<B>) -> FT<B> + Send + Sync + 'static,
    backward_lhs: impl FnOnce(FT<B>, FT<B>, FT<B>) -> FT<B> + Send + 'static,
    backward_rhs: impl FnOnce(FT<B>, FT<B>, FT<B>) -> FT<B> + Send + 'static,
) -> AT<B>
where
    B: Backend,
    C: CheckpointStrategy,
{
    let (lhs_layout, rhs_layout) = (Layout::of(&lhs), Layout::of(&rhs));
    let (output, retro) = binary_forward::<B>(&lhs, &rhs, forward);
    record::<B, C, (Saved<B>, Saved<B>), 2>(
        [&lhs, &rhs],
        output,
        Some(retro),
        || {
            (
                super::backward::saved::<B, C>(&lhs),
                super::backward::saved::<B, C>(&rhs),
            )
        },
        move |ops, grads, checkpointer| {
            let (l, r) = ops.state;
            let (l, r) = (checkpointer.retrieve(l), checkpointer.retrieve(r));
            let (l2, r2) = (l.clone(), r.clone());
            binary::<B>(
                ops.parents,
                ops.node,
                grads,
                |g| lhs_layout.fit::<B>(backward_lhs(l, r, g)),
                |g| rhs_layout.fit::<B>(backward_rhs(l2, r2, g)),
            )
        },
    )
}

/// An input's shape and dtype, which its gradient is fitted back to.
pub(crate) struct Layout {
    shape: Shape,
    dtype: DType,
}

impl Layout {
    /// The shape and dtype of `tensor`.
    pub(crate) fn of<B: Backend>(tensor: &AT<B>) -> Self {
        Self {
            shape: tensor.shape(),
            dtype: tensor.dtype(),
        }
    }

    /// `grad` summed back to the input's shape (see [`reduce_to_shape`]) and cast to its
    /// dtype (a binary op on mixed dtypes computes in the wider one).
    pub(crate) fn fit<B: Backend>(&self, grad: FT<B>) -> FT<B> {
        let grad = reduce_to_shape::<B>(grad, &self.shape);
        if grad.dtype() == self.dtype {
            grad
        } else {
            B::float_cast(grad, FloatDType::from_dtype(self.dtype))
        }
    }
}

/// Sums `grad` over the dimensions `shape` broadcast (size 1 there, larger in `grad`), so
/// the gradient of a broadcast input has the input's shape. Adjacent broadcast dimensions are
/// summed as one (a bias of `[d]` added to `[batch, seq, d]`: one sum over `batch · seq` rows,
/// not a sum over the batch into a `[seq, d]` intermediate and another over the sequence).
pub(crate) fn reduce_to_shape<B: Backend>(grad: FT<B>, shape: &Shape) -> FT<B> {
    let grad_shape = grad.shape();
    if grad_shape == *shape {
        return grad;
    }
    let rank = grad_shape.num_dims();
    let offset = rank - shape.num_dims();
    let reduced = |dim: usize| {
        let target = if dim < offset { 1 } else { shape[dim - offset] };
        target == 1 && grad_shape[dim] != 1
    };
    // Maximal runs of summed or kept dims (`(size, summed)`); dims of size 1 drop out.
    let mut groups: Vec<(usize, bool)> = Vec::with_capacity(rank);
    for dim in (0..rank).filter(|&d| grad_shape[d] != 1) {
        match groups.last_mut() {
            Some((size, summed)) if *summed == reduced(dim) => *size *= grad_shape[dim],
            _ => groups.push((grad_shape[dim], reduced(dim))),
        }
    }
    let mut grad = grad;
    if groups.len() < (0..rank).filter(|&d| grad_shape[d] != 1).count() {
        let merged = groups.iter().map(|&(size, _)| size).collect::<Vec<_>>();
        grad = B::float_reshape(grad, Shape::from(merged));
        for (dim, _) in groups.iter().enumerate().filter(|(_, g)| g.1) {
            grad = B::float_sum_dim(grad, dim);
        }
    } else {
        for dim in (0..rank).filter(|&d| reduced(d)) {
            grad = B::float_sum_dim(grad, dim);
        }
    }
    if grad.shape() != *shape {
        grad = B::float_reshape(grad, shape.clone());
    }
    grad
}

/// A step over any number of inputs (for `cat`), written directly on the graph.
struct ManyStep<F>(F);

impl<B, F> crate::graph::Step<B> for ManyStep<F>
where
    B: Backend,
    F: FnOnce(&mut Gradients) + Send,
{
    fn step(self: Box<Self>, grads: &mut Gradients, _checkpointer: &mut Checkpointer<B>) {
        (self.0)(grads)
    }
}

/// Records an operation over a list of inputs; `backward(parents, node, grads)` gets one
/// parent id per input (`None` for untracked ones). Compute-bound (its result is kept).
pub(crate) fn record_many<B: Backend>(
    inputs: &[AT<B>],
    output: FT<B>,
    backward: impl FnOnce(Vec<Option<crate::graph::NodeId>>, crate::graph::NodeId, &mut Gradients)
    + Send
    + 'static,
) -> AT<B> {
    use crate::graph::{Node, NodeId, Requirement, StepSlot};
    if !inputs.iter().any(AutodiffTensor::is_tracked) {
        return AutodiffTensor::new(output);
    }
    let parents: Vec<Option<NodeId>> = inputs
        .iter()
        .map(|t| if t.is_tracked() { t.id() } else { None })
        .collect();
    let parent_refs = inputs
        .iter()
        .filter(|t| t.is_tracked())
        .filter_map(|t| t.node().node)
        .collect();
    let id = NodeId::new();
    let step = ManyStep(move |grads: &mut Gradients| backward(parents, id, grads));
    let node = Node::new(
        id,
        Requirement::GradInBackward,
        parent_refs,
        StepSlot::Pending(Box::new(step)),
        None,
    );
    AutodiffTensor::from_node(output, node)
}

/// Zeros of `shape` on the device and dtype of `like`.
pub(crate) fn zeros<B: Backend>(shape: Shape, like: &FT<B>) -> FT<B> {
    B::float_zeros(
        shape,
        &B::float_device(like),
        FloatDType::from_dtype(like.dtype()),
    )
}
