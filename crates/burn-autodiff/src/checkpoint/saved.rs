//! `Saved`: a value a backward step needs, kept or to be recomputed; `RetroForward`: how a
//! memory-bound result is recomputed from its inputs.

use crate::graph::NodeRef;
use burn_backend::{Backend, tensor::FloatTensor};
use std::sync::Arc;

/// A forward value a backward step needs: either kept, or recomputed on demand from the
/// graph (balanced checkpointing). Get one from `TrackedPrep::checkpoint`, read it with
/// `Checkpointer::retrieve`.
pub struct Saved<B: Backend>(pub(crate) SavedInner<B>);

pub(crate) enum SavedInner<B: Backend> {
    /// The value itself.
    Value(FloatTensor<B>),
    /// The node whose retro-forward recomputes the value.
    Recompute(NodeRef<B>),
}

impl<B: Backend> Clone for Saved<B> {
    fn clone(&self) -> Self {
        Saved(match &self.0 {
            SavedInner::Value(t) => SavedInner::Value(t.clone()),
            SavedInner::Recompute(n) => SavedInner::Recompute(n.clone()),
        })
    }
}

impl<B: Backend> core::fmt::Debug for Saved<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match &self.0 {
            SavedInner::Value(_) => f.write_str("Saved::Value"),
            SavedInner::Recompute(n) => write!(f, "Saved::Recompute({:?})", n.id),
        }
    }
}

/// The forward computation of a result, as a function of its inputs' values.
pub(crate) type ForwardFn<B> =
    Arc<dyn Fn(Vec<FloatTensor<B>>) -> FloatTensor<B> + Send + Sync + 'static>;

/// How to recompute a node's value: its inputs and the forward function.
pub(crate) struct RetroForward<B: Backend> {
    pub(crate) inputs: Vec<Saved<B>>,
    pub(crate) forward: ForwardFn<B>,
}

impl<B: Backend> RetroForward<B> {
    /// The nodes this recipe holds alive (for an iterative drop).
    pub(crate) fn into_node_refs(self) -> impl Iterator<Item = NodeRef<B>> {
        self.inputs.into_iter().filter_map(|s| match s.0 {
            SavedInner::Recompute(node) => Some(node),
            SavedInner::Value(_) => None,
        })
    }
}
