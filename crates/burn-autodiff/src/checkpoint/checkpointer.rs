//! `Checkpointer`: hands backward steps the forward values they saved, recomputing the ones
//! balanced checkpointing dropped.

use super::saved::{Saved, SavedInner};
use crate::graph::{NodeId, NodeRef, lock};
use burn_backend::{Backend, tensor::FloatTensor};
use std::collections::HashMap;

/// Gives backward steps their saved values during one backward pass. Values recomputed from
/// the graph are cached for the rest of the pass, so each is computed at most once.
pub struct Checkpointer<B: Backend> {
    cache: HashMap<NodeId, FloatTensor<B>>,
}

impl<B: Backend> Checkpointer<B> {
    pub(crate) fn new() -> Self {
        Self {
            cache: HashMap::new(),
        }
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
                        SavedInner::Recompute(n) => self.cache[&n.id].clone(),
                    })
                    .collect();
                let value = (retro.forward)(inputs);
                self.cache.insert(node.id, value);
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
        self.cache[&target.id].clone()
    }
}
