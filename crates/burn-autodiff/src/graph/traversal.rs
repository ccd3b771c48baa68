//! The backward pass: every step reachable from the root runs once, children before parents.

use super::node::{NodeId, NodeRef, Requirement, StepSlot, lock};
use crate::checkpoint::Checkpointer;
use crate::grads::Gradients;
use burn_backend::{Backend, FloatDType, TensorMetadata, tensor::FloatTensor};
use std::collections::HashSet;

/// Why a backward pass was refused. Nothing is consumed when it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BackwardError {
    /// A step the pass needs already ran in an earlier backward pass.
    AlreadyConsumed {
        /// The node whose step is gone.
        node: NodeId,
    },
}

impl core::fmt::Display for BackwardError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BackwardError::AlreadyConsumed { node } => write!(
                f,
                "backward: the graph of this tensor was already consumed by an earlier backward \
                 pass (node {node:?} has no step left); run the forward pass again from the \
                 leaves to build a fresh graph"
            ),
        }
    }
}

impl std::error::Error for BackwardError {}

/// Runs every step reachable from `root` (a node holding `value`), seeding its gradient with
/// ones. Returns the gradients of the leaves that asked for one.
pub(crate) fn backward<B: Backend>(
    root: &NodeRef<B>,
    value: &FloatTensor<B>,
) -> Result<Gradients, BackwardError> {
    let nodes = reachable(root);
    // Claim every pending step before running any: a step consumed earlier (or claimed by a
    // concurrent pass) refuses the whole pass, and the steps claimed so far are put back.
    let mut steps = Vec::with_capacity(nodes.len());
    for node in &nodes {
        let mut slot = lock(&node.step);
        match std::mem::replace(&mut *slot, StepSlot::Consumed) {
            StepSlot::Pending(step) => steps.push(Some(step)),
            StepSlot::Leaf => {
                *slot = StepSlot::Leaf;
                steps.push(None);
            }
            StepSlot::Consumed => {
                drop(slot);
                for (node, step) in nodes.iter().zip(steps) {
                    if let Some(step) = step {
                        *lock(&node.step) = StepSlot::Pending(step);
                    }
                }
                return Err(BackwardError::AlreadyConsumed { node: node.id });
            }
        }
    }

    let mut grads = Gradients::new();
    let ones = B::float_ones(
        value.shape(),
        &B::float_device(value),
        FloatDType::from_dtype(value.dtype()),
    );
    grads.register::<B>(root.id, ones);

    let mut checkpointer = Checkpointer::new();
    for (node, step) in nodes.iter().zip(steps) {
        if let Some(step) = step {
            checkpointer.evict_from(node.order);
            step.step(&mut grads, &mut checkpointer);
            node.release();
        }
    }

    let leaves: HashSet<NodeId> = nodes
        .iter()
        .filter(|n| n.requirement == Requirement::Grad)
        .map(|n| n.id)
        .collect();
    grads.retain(|id| leaves.contains(id));
    Ok(grads)
}

/// Every node reachable from `root` through parents, children before parents.
fn reachable<B: Backend>(root: &NodeRef<B>) -> Vec<NodeRef<B>> {
    let mut seen = HashSet::new();
    let mut nodes = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(node) = stack.pop() {
        if seen.insert(node.id) {
            stack.extend(node.parents());
            nodes.push(node);
        }
    }
    nodes.sort_by_key(|n| std::cmp::Reverse(n.order));
    nodes
}
