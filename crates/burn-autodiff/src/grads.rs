//! `Gradients`: the result of a backward pass, one gradient per leaf that asked for one.

use crate::graph::NodeId;
use burn_backend::{Backend, TensorMetadata, tensor::FloatTensor};
use std::any::Any;
use std::collections::HashMap;

/// The gradients computed by a backward pass, keyed by graph node.
///
/// Holds tensors of any backend (the public `Dispatch` backend uses one `Gradients` for all
/// of them); each is read back as the backend it was written with.
#[derive(Default)]
pub struct Gradients {
    map: HashMap<NodeId, Box<dyn Any + Send>>,
}

impl Gradients {
    /// No gradients.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of gradients held.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// Whether no gradient is held.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The gradient of `node`, if any (a cheap clone of the primitive).
    pub fn get<B: Backend>(&self, node: NodeId) -> Option<FloatTensor<B>> {
        self.map.get(&node).map(|g| downcast_ref::<B>(g).clone())
    }

    /// Removes and returns the gradient of `node`.
    pub fn remove<B: Backend>(&mut self, node: NodeId) -> Option<FloatTensor<B>> {
        self.map.remove(&node).map(downcast::<B>)
    }

    /// Adds `grad` to the gradient of `node` (sets it when there is none yet): a node reached
    /// along several paths gets the sum.
    pub fn register<B: Backend>(&mut self, node: NodeId, grad: FloatTensor<B>) {
        let grad = match self.remove::<B>(node) {
            Some(previous) => {
                debug_assert_eq!(
                    previous.shape(),
                    grad.shape(),
                    "Gradients: two gradients of node {node:?} have different shapes"
                );
                B::float_add(previous, grad)
            }
            None => grad,
        };
        self.map.insert(node, Box::new(grad));
    }

    /// Sets the gradient of `node`, replacing any.
    pub fn replace<B: Backend>(&mut self, node: NodeId, grad: FloatTensor<B>) {
        self.map.insert(node, Box::new(grad));
    }

    /// Keeps only the gradients whose node passes `keep`.
    pub(crate) fn retain(&mut self, keep: impl Fn(&NodeId) -> bool) {
        self.map.retain(|id, _| keep(id));
    }
}

fn downcast_ref<B: Backend>(grad: &Box<dyn Any + Send>) -> &FloatTensor<B> {
    grad.downcast_ref::<FloatTensor<B>>()
        .unwrap_or_else(|| panic!("Gradients: a gradient was read as another backend's tensor"))
}

fn downcast<B: Backend>(grad: Box<dyn Any + Send>) -> FloatTensor<B> {
    *grad
        .downcast::<FloatTensor<B>>()
        .unwrap_or_else(|_| panic!("Gradients: a gradient was read as another backend's tensor"))
}

impl core::fmt::Debug for Gradients {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Gradients")
            .field("len", &self.map.len())
            .finish()
    }
}
