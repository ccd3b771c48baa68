//! `NodeGuard`: a tensor's place in the graph, handed to `Backward::prepare`.

use super::node::{NodeId, NodeRef, Requirement};
use burn_backend::Backend;
use core::marker::PhantomData;

/// A tensor's place in the autodiff graph, from [`AutodiffTensor::node`] or
/// [`AutodiffTensor::into_parts`], to be handed to [`Backward::prepare`].
///
/// A guard keeps its node alive until the step of the result is registered. It is neither
/// `Send` nor `Clone`, so it cannot be stored in a backward state or a checkpoint (both must
/// be `Send`): steps refer to their parents by [`NodeId`] only.
///
/// [`AutodiffTensor::node`]: crate::AutodiffTensor::node
/// [`AutodiffTensor::into_parts`]: crate::AutodiffTensor::into_parts
/// [`Backward::prepare`]: crate::ops::Backward::prepare
pub struct NodeGuard<B: Backend> {
    pub(crate) node: Option<NodeRef<B>>,
    _not_send: PhantomData<*const ()>,
}

impl<B: Backend> NodeGuard<B> {
    pub(crate) fn new(node: Option<NodeRef<B>>) -> Self {
        Self {
            node,
            _not_send: PhantomData,
        }
    }

    /// The node's id; `None` for an untracked tensor (it has no node).
    pub fn id(&self) -> Option<NodeId> {
        self.node.as_ref().map(|n| n.id)
    }

    /// Whether the tensor's gradient is wanted.
    pub fn requirement(&self) -> Requirement {
        self.node
            .as_ref()
            .map_or(Requirement::None, |n| n.requirement)
    }
}

impl<B: Backend> core::fmt::Debug for NodeGuard<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("NodeGuard")
            .field("id", &self.id())
            .field("requirement", &self.requirement())
            .finish()
    }
}
