//! The custom-backward API: `Backward`, `OpsPrep`, `OpsKind`, `Ops`, and the `unary` /
//! `binary` helpers. Every built-in rule of this crate is written against it too.

use crate::checkpoint::strategy::CheckpointStrategy;
use crate::checkpoint::{Checkpointer, ForwardFn, RetroForward, Saved, SavedInner};
use crate::grads::Gradients;
use crate::graph::{Node, NodeGuard, NodeId, NodeRef, Requirement, Step, StepSlot, lock};
use crate::tensor::AutodiffTensor;
use burn_backend::{Backend, tensor::FloatTensor};
use core::marker::PhantomData;
use std::sync::Arc;

/// What a backward step receives: the ids of its parents that want a gradient (`None` for
/// the others), its own node id (whose gradient it reads), and the state saved at forward
/// time.
#[derive(Debug)]
pub struct Ops<S, const N: usize> {
    /// The parents that want a gradient, in the order given to `prepare`.
    pub parents: [Option<NodeId>; N],
    /// The node of the result.
    pub node: NodeId,
    /// The state saved at forward time.
    pub state: S,
}

/// The backward rule of an operation with `N` float inputs.
///
/// Implement it on a (usually empty) type; `prepare` it with the inputs' [`NodeGuard`]s,
/// then save a [`State`](Backward::State) and finish with the forward result. The state must
/// be `Send`: guards cannot be stored in it, and values are saved as [`Saved`] through
/// [`TrackedPrep::checkpoint`] so that checkpointing may recompute them instead.
pub trait Backward<B: Backend, const N: usize>: Sized + Send + 'static {
    /// What the backward step needs from the forward pass.
    type State: Send + 'static;

    /// Reads the gradient of `ops.node` and registers the parents' gradients.
    fn backward(
        self,
        ops: Ops<Self::State, N>,
        grads: &mut Gradients,
        checkpointer: &mut Checkpointer<B>,
    );

    /// Starts recording this operation on the inputs `nodes` under strategy `C`.
    fn prepare<C: CheckpointStrategy>(self, nodes: [NodeGuard<B>; N]) -> OpsPrep<B, Self, C, N> {
        OpsPrep {
            backward: self,
            nodes,
            memory_bound: false,
            retro: None,
            _strategy: PhantomData,
        }
    }
}

/// An operation being recorded: say whether it is compute- or memory-bound (and how to
/// recompute it), then [`stateful`](Self::stateful) or [`stateless`](Self::stateless).
pub struct OpsPrep<B: Backend, T, C, const N: usize> {
    backward: T,
    nodes: [NodeGuard<B>; N],
    memory_bound: bool,
    retro: Option<RetroForward<B>>,
    _strategy: PhantomData<C>,
}

/// Whether the result is tracked: record a step, or just wrap the result.
pub enum OpsKind<B: Backend, T, C, const N: usize> {
    /// Some input is tracked: save a state and record the step.
    Tracked(TrackedPrep<B, T, C, N>),
    /// No input is tracked: the result is a constant.
    UnTracked(UntrackedPrep<B>),
}

/// A tracked operation waiting for its state and result.
pub struct TrackedPrep<B: Backend, T, C, const N: usize> {
    prep: OpsPrep<B, T, C, N>,
}

/// An untracked operation waiting for its result.
pub struct UntrackedPrep<B: Backend> {
    _backend: PhantomData<B>,
}

impl<B: Backend, T: Backward<B, N>, C: CheckpointStrategy, const N: usize> OpsPrep<B, T, C, N> {
    /// The operation does much arithmetic per byte (matmul, convolution): its result is kept
    /// when a later step needs it. The default.
    pub fn compute_bound(mut self) -> Self {
        self.memory_bound = false;
        self
    }

    /// The operation moves more bytes than it computes (element-wise maps, layout): under
    /// balanced checkpointing its result is recomputed, if a
    /// [`retro_forward`](Self::retro_forward) is given.
    pub fn memory_bound(mut self) -> Self {
        self.memory_bound = true;
        self
    }

    /// How to recompute the result from `inputs` (used by balanced checkpointing for
    /// memory-bound operations; ignored otherwise).
    pub fn retro_forward<const M: usize>(
        mut self,
        inputs: [&AutodiffTensor<B>; M],
        forward: impl Fn(Vec<FloatTensor<B>>) -> FloatTensor<B> + Send + Sync + 'static,
    ) -> Self {
        self.set_retro(inputs, Arc::new(forward));
        self
    }

    pub(crate) fn set_retro<const M: usize>(
        &mut self,
        inputs: [&AutodiffTensor<B>; M],
        forward: ForwardFn<B>,
    ) {
        if C::recomputes_memory_bound() && self.is_tracked() {
            // Only the prepared inputs may be recomputed (their steps run after this one's).
            let inputs = inputs
                .iter()
                .map(|t| {
                    let is_input = t
                        .id()
                        .is_some_and(|id| self.nodes.iter().any(|n| n.id() == Some(id)));
                    if is_input {
                        saved::<B, C>(t)
                    } else {
                        Saved(SavedInner::Value(t.primitive().clone()))
                    }
                })
                .collect();
            self.retro = Some(RetroForward { inputs, forward });
        }
    }

    fn is_tracked(&self) -> bool {
        Requirement::of_result(self.nodes.iter().map(NodeGuard::requirement)) != Requirement::None
    }

    /// Splits on whether the result is tracked.
    pub fn stateful(self) -> OpsKind<B, T, C, N> {
        if self.is_tracked() {
            OpsKind::Tracked(TrackedPrep { prep: self })
        } else {
            OpsKind::UnTracked(UntrackedPrep {
                _backend: PhantomData,
            })
        }
    }
}

impl<B: Backend, T, C, const N: usize> OpsPrep<B, T, C, N>
where
    T: Backward<B, N, State = ()>,
    C: CheckpointStrategy,
{
    /// Records the operation (when tracked) with no state, and returns its result.
    pub fn stateless(self, output: FloatTensor<B>) -> AutodiffTensor<B> {
        match self.stateful() {
            OpsKind::Tracked(prep) => prep.finish((), output),
            OpsKind::UnTracked(prep) => prep.finish(output),
        }
    }
}

impl<B: Backend, T: Backward<B, N>, C: CheckpointStrategy, const N: usize> TrackedPrep<B, T, C, N> {
    /// Saves `tensor`'s value for the backward step: kept, or (balanced checkpointing, for
    /// a memory-bound result among the inputs given to `prepare`) recomputed when the step
    /// runs. Any other tensor is kept by value.
    pub fn checkpoint(&mut self, tensor: &AutodiffTensor<B>) -> Saved<B> {
        let is_input = tensor
            .id()
            .is_some_and(|id| self.prep.nodes.iter().any(|n| n.id() == Some(id)));
        if is_input {
            saved::<B, C>(tensor)
        } else {
            Saved(SavedInner::Value(tensor.primitive().clone()))
        }
    }

    /// Records the step with `state` and returns the tracked result.
    pub fn finish(self, state: T::State, output: FloatTensor<B>) -> AutodiffTensor<B> {
        let OpsPrep {
            backward,
            nodes,
            retro,
            memory_bound,
            ..
        } = self.prep;
        let retro = retro.filter(|_| memory_bound);
        let parents: [Option<NodeId>; N] = core::array::from_fn(|i| match &nodes[i].node {
            Some(node) if node.requirement != Requirement::None => Some(node.id),
            _ => None,
        });
        let parent_refs: Vec<NodeRef<B>> = nodes
            .iter()
            .filter_map(|g| g.node.clone())
            .filter(|n| n.requirement != Requirement::None)
            .collect();
        let id = NodeId::new();
        let step = OpsStep::<B, T, N> {
            backward,
            ops: Ops {
                parents,
                node: id,
                state,
            },
            _backend: PhantomData,
        };
        let node = Node::new(
            id,
            Requirement::GradInBackward,
            parent_refs,
            StepSlot::Pending(Box::new(step)),
            retro,
        );
        // The guards live until here: the parents stay alive through registration.
        drop(nodes);
        AutodiffTensor::from_node(output, node)
    }
}

impl<B: Backend> UntrackedPrep<B> {
    /// The result, untracked.
    pub fn finish(self, output: FloatTensor<B>) -> AutodiffTensor<B> {
        AutodiffTensor::new(output)
    }
}

/// How `tensor`'s value is saved under strategy `C`.
pub(crate) fn saved<B: Backend, C: CheckpointStrategy>(tensor: &AutodiffTensor<B>) -> Saved<B> {
    if C::recomputes_memory_bound()
        && let Some(node) = tensor.node().node
        && lock(&node.retro).is_some()
    {
        return Saved(SavedInner::Recompute(node));
    }
    Saved(SavedInner::Value(tensor.primitive().clone()))
}

struct OpsStep<B: Backend, T: Backward<B, N>, const N: usize> {
    backward: T,
    ops: Ops<T::State, N>,
    _backend: PhantomData<fn() -> B>,
}

impl<B: Backend, T: Backward<B, N>, const N: usize> Step<B> for OpsStep<B, T, N> {
    fn step(self: Box<Self>, grads: &mut Gradients, checkpointer: &mut Checkpointer<B>) {
        let this = *self;
        this.backward.backward(this.ops, grads, checkpointer);
    }
}

/// The backward of a one-input operation: `grad_input = f(grad_output)`, registered when
/// the parent wants it. Nothing happens when no gradient reached the node.
pub fn unary<B: Backend>(
    parents: [Option<NodeId>; 1],
    node: NodeId,
    grads: &mut Gradients,
    f: impl FnOnce(FloatTensor<B>) -> FloatTensor<B>,
) {
    let Some(grad) = grads.remove::<B>(node) else {
        return;
    };
    if let [Some(parent)] = parents {
        grads.register::<B>(parent, f(grad));
    }
}

/// The backward of a two-input operation: `f_lhs` and `f_rhs` map the output gradient to
/// each input's, each run only when that parent wants a gradient.
pub fn binary<B: Backend>(
    parents: [Option<NodeId>; 2],
    node: NodeId,
    grads: &mut Gradients,
    f_lhs: impl FnOnce(FloatTensor<B>) -> FloatTensor<B>,
    f_rhs: impl FnOnce(FloatTensor<B>) -> FloatTensor<B>,
) {
    let Some(grad) = grads.remove::<B>(node) else {
        return;
    };
    match parents {
        [Some(lhs), Some(rhs)] => {
            let grad_lhs = f_lhs(grad.clone());
            grads.register::<B>(lhs, grad_lhs);
            grads.register::<B>(rhs, f_rhs(grad));
        }
        [Some(lhs), None] => grads.register::<B>(lhs, f_lhs(grad)),
        [None, Some(rhs)] => grads.register::<B>(rhs, f_rhs(grad)),
        [None, None] => {}
    }
}
