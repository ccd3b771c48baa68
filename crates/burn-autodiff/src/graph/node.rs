//! Nodes of the autodiff graph: one per tracked tensor, owning its backward step and holding
//! its parents alive. The graph is owned by the tensors themselves: dropping the last handle
//! of a result frees every step only it could reach, so no registry can leak.

use super::step::Step;
use crate::checkpoint::RetroForward;
use burn_backend::Backend;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The unique id of a graph node; gradients are keyed by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u64);

impl NodeId {
    /// A fresh id, never handed out before in this process.
    pub(crate) fn new() -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        NodeId(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// Whether a node's gradient is wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Requirement {
    /// A leaf whose gradient the user asked for (`require_grad`): kept in `Gradients`.
    Grad,
    /// An intermediate result of tracked inputs: its gradient flows through during backward
    /// and is then dropped.
    GradInBackward,
    /// Nothing tracked depends on it.
    None,
}

impl Requirement {
    /// The requirement of a result computed from nodes with these requirements.
    pub(crate) fn of_result(inputs: impl IntoIterator<Item = Requirement>) -> Requirement {
        if inputs.into_iter().any(|r| r != Requirement::None) {
            Requirement::GradInBackward
        } else {
            Requirement::None
        }
    }
}

/// What a node's step slot holds.
pub(crate) enum StepSlot<B: Backend> {
    /// A leaf: nothing to run.
    Leaf,
    /// A step waiting for the backward pass.
    Pending(Box<dyn Step<B>>),
    /// The step already ran in a backward pass.
    Consumed,
}

/// How many nodes are alive in this process (every backend together).
static LIVE_NODES: AtomicUsize = AtomicUsize::new(0);

/// The number of autodiff graph nodes alive in this process: a flat figure across training
/// steps means nothing of a finished graph stays alive.
pub fn live_node_count() -> usize {
    LIVE_NODES.load(Ordering::Relaxed)
}

/// One node of the graph.
pub(crate) struct Node<B: Backend> {
    pub(crate) id: NodeId,
    /// One more than the largest order of its parents: children run before parents.
    pub(crate) order: usize,
    pub(crate) requirement: Requirement,
    /// The parents that require a gradient (strong references: the graph lives as long as
    /// its results do).
    pub(crate) parents: Mutex<Vec<NodeRef<B>>>,
    pub(crate) step: Mutex<StepSlot<B>>,
    /// How to recompute this node's value from its parents (balanced checkpointing only).
    pub(crate) retro: Mutex<Option<RetroForward<B>>>,
}

/// A shared handle on a node.
pub(crate) type NodeRef<B> = Arc<Node<B>>;

impl<B: Backend> Node<B> {
    pub(crate) fn new(
        id: NodeId,
        requirement: Requirement,
        parents: Vec<NodeRef<B>>,
        step: StepSlot<B>,
        retro: Option<RetroForward<B>>,
    ) -> NodeRef<B> {
        let order = parents.iter().map(|p| p.order + 1).max().unwrap_or(0);
        LIVE_NODES.fetch_add(1, Ordering::Relaxed);
        Arc::new(Node {
            id,
            order,
            requirement,
            parents: Mutex::new(parents),
            step: Mutex::new(step),
            retro: Mutex::new(retro),
        })
    }

    /// A leaf node.
    pub(crate) fn leaf(id: NodeId, requirement: Requirement) -> NodeRef<B> {
        Self::new(id, requirement, Vec::new(), StepSlot::Leaf, None)
    }

    /// The parents, cloned out of the lock.
    pub(crate) fn parents(&self) -> Vec<NodeRef<B>> {
        lock(&self.parents).clone()
    }

    /// Runs after this node's step: the node forgets its step, its recompute recipe and its
    /// parents, so a consumed graph keeps no tensor alive.
    pub(crate) fn release(&self) {
        let parents = std::mem::take(&mut *lock(&self.parents));
        let retro = lock(&self.retro).take();
        drop_iteratively(parents, retro);
    }

    /// Moves everything this node owns out of it (for an iterative drop).
    fn take_owned(&mut self) -> (Vec<NodeRef<B>>, Option<RetroForward<B>>) {
        let step = std::mem::replace(
            self.step.get_mut().unwrap_or_else(|e| e.into_inner()),
            StepSlot::Consumed,
        );
        drop(step);
        let parents = std::mem::take(self.parents.get_mut().unwrap_or_else(|e| e.into_inner()));
        let retro = self
            .retro
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        (parents, retro)
    }
}

/// Locks a mutex, going on after a panic elsewhere (the data stays consistent: every
/// critical section is a single move).
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// Drops node references without recursion: a chain of 100,000 nodes must not overflow the
/// stack when its last handle goes.
fn drop_iteratively<B: Backend>(parents: Vec<NodeRef<B>>, retro: Option<RetroForward<B>>) {
    let mut stack = parents;
    if let Some(retro) = retro {
        stack.extend(retro.into_node_refs());
    }
    while let Some(node) = stack.pop() {
        if let Some(mut node) = Arc::into_inner(node) {
            let (parents, retro) = node.take_owned();
            stack.extend(parents);
            if let Some(retro) = retro {
                stack.extend(retro.into_node_refs());
            }
        }
    }
}

impl<B: Backend> Drop for Node<B> {
    fn drop(&mut self) {
        LIVE_NODES.fetch_sub(1, Ordering::Relaxed);
        let (parents, retro) = self.take_owned();
        drop_iteratively(parents, retro);
    }
}

impl<B: Backend> core::fmt::Debug for Node<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id)
            .field("order", &self.order)
            .field("requirement", &self.requirement)
            .finish()
    }
}
