//! `Checkpointer`: hands backward steps the forward values they saved, recomputing the ones
//! balanced checkpointing dropped.

use super::saved::{Saved, SavedInner};
use crate::graph::{NodeId, NodeRef, lock};
use burn_backend::{Backend, tensor::FloatTensor};
use std::collections::HashMap;

/// Gives backward steps their saved values during one backward pass. A value recomputed from
/// the graph is cached until the pass reaches its node's order: every step that could still
/// need it (its consumers, of higher order) has run by then.
pub struct Checkpointer<B: Backend> {
    cache: HashMap<NodeId, (usize, FloatTensor<B>)>,
}

impl<B: Backend> Checkpointer<B> {
    pub(crate) fn new() -> Self {
        Self {
            cache: HashMap::new(),
        }
    }

    /// Drops the cached values of nodes of order `order` or more: the pass runs steps from
    /// the highest order down, and only steps of higher order than a node read its value.
    pub(crate) fn evict_from(&mut self, order: usize) {
        self.cache.retain(|_, (node_order, _)| *node_order < order);
    }

    /// The value `saved` stands for.
    pub fn retrieve(&mut self, saved: Saved<B>) -> FloatTensor<B> {
        match saved.0 {
            SavedInner::Value(value) => value,
            SavedInner::Recompute(node) => self.recompute(&node),
        }
    }

    /// Recomputes `target` and every dropped value it needs, without recursion (a chain of
    /// element-wise ops may be thousands deep).
    fn recompute(&mut self, target: &NodeRef<B>) -> FloatTensor<B> {
        let mut stack = vec![(target.clone(), false)];
        while let Some((node, inputs_ready)) = stack.pop() {
            if self.cache.contains_key(&node.id) {
                continue;
            }
            let retro = lock(&node.retro);
            let retro = retro.as_ref().unwrap_or_else(|| {
                panic!("checkpointing: the value of node {:?} was dropped", node.id)
            });
            if inputs_ready {
                let inputs = retro
                    .inputs
                    .iter()
                    .map(|input| match &input.0 {
                        SavedInner::Value(value) => value.clone(),
                        SavedInner::Recompute(n) => self.cache[&n.id].1.clone(),
                    })
                    .collect();
                let value = (retro.forward)(inputs);
                self.cache.insert(node.id, (node.order, value));
            } else {
                stack.push((node.clone(), true));
                for input in &retro.inputs {
                    if let SavedInner::Recompute(n) = &input.0
                        && !self.cache.contains_key(&n.id)
                    {
                        stack.push((n.clone(), false));
                    }
                }
            }
        }
        self.cache[&target.id].1.clone()
    }
}
