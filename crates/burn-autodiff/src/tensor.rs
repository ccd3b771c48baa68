//! `AutodiffTensor`: an inner float primitive and, when tracked, its node in the graph.

use crate::grads::Gradients;
use crate::graph::{self, BackwardError, Node, NodeGuard, NodeId, NodeRef, Requirement};
use burn_backend::{Backend, DType, Shape, TensorMetadata, tensor::FloatTensor};

/// The float primitive of `Autodiff<B, C>`: `B`'s primitive plus its graph node. Untracked
/// tensors (constants, results of untracked inputs) carry no node and cost nothing extra.
pub struct AutodiffTensor<B: Backend> {
    primitive: FloatTensor<B>,
    node: Option<NodeRef<B>>,
}

impl<B: Backend> Clone for AutodiffTensor<B> {
    fn clone(&self) -> Self {
        Self {
            primitive: self.primitive.clone(),
            node: self.node.clone(),
        }
    }
}

impl<B: Backend> core::fmt::Debug for AutodiffTensor<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AutodiffTensor")
            .field("primitive", &self.primitive)
            .field("node", &self.node)
            .finish()
    }
}

impl<B: Backend> TensorMetadata for AutodiffTensor<B> {
    fn dtype(&self) -> DType {
        self.primitive.dtype()
    }
    fn shape(&self) -> Shape {
        self.primitive.shape()
    }
    fn rank(&self) -> usize {
        self.primitive.rank()
    }
    fn dims_into(&self, out: &mut [usize]) {
        self.primitive.dims_into(out)
    }
}

impl<B: Backend> AutodiffTensor<B> {
    /// An untracked tensor (a constant for the graph).
    pub fn new(primitive: FloatTensor<B>) -> Self {
        Self {
            primitive,
            node: None,
        }
    }

    pub(crate) fn from_node(primitive: FloatTensor<B>, node: NodeRef<B>) -> Self {
        Self {
            primitive,
            node: Some(node),
        }
    }

    /// The inner primitive.
    pub fn primitive(&self) -> &FloatTensor<B> {
        &self.primitive
    }

    /// The inner primitive, leaving the graph.
    pub fn into_primitive(self) -> FloatTensor<B> {
        self.primitive
    }

    /// The tensor's place in the graph, for [`Backward::prepare`](crate::ops::Backward::prepare).
    pub fn node(&self) -> NodeGuard<B> {
        NodeGuard::new(self.node.clone())
    }

    /// The primitive and the tensor's place in the graph.
    pub fn into_parts(self) -> (FloatTensor<B>, NodeGuard<B>) {
        (self.primitive, NodeGuard::new(self.node))
    }

    /// The node id; `None` for an untracked tensor.
    pub fn id(&self) -> Option<NodeId> {
        self.node.as_ref().map(|n| n.id)
    }

    /// Whether the tensor's gradient is wanted.
    pub fn requirement(&self) -> Requirement {
        self.node
            .as_ref()
            .map_or(Requirement::None, |n| n.requirement)
    }

    /// Whether operations on this tensor record backward steps.
    pub fn is_tracked(&self) -> bool {
        self.requirement() != Requirement::None
    }

    /// Marks this tensor as a leaf whose gradient is wanted.
    ///
    /// # Panics
    /// If the tensor is the result of tracked operations (not a leaf): `detach` it first.
    pub fn require_grad(self) -> Self {
        match self.requirement() {
            Requirement::Grad => self,
            Requirement::GradInBackward => panic!(
                "require_grad: the tensor is the result of tracked operations, not a leaf; \
                 call `detach()` first to make it a leaf of its own"
            ),
            Requirement::None => {
                let node = Node::leaf(crate::graph::NodeId::new(), Requirement::Grad);
                Self::from_node(self.primitive, node)
            }
        }
    }

    /// The same values, cut off from the graph.
    pub fn detach(self) -> Self {
        Self::new(self.primitive)
    }

    /// Runs the backward pass from this tensor (its gradient seeded with ones).
    ///
    /// # Panics
    /// If a step the pass needs was consumed by an earlier backward pass
    /// ([`try_backward`](Self::try_backward) returns that as an error).
    pub fn backward(&self) -> Gradients {
        self.try_backward().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Runs the backward pass, or says why it cannot (consuming nothing then).
    pub fn try_backward(&self) -> Result<Gradients, BackwardError> {
        match &self.node {
            Some(node) => graph::backward::<B>(node, &self.primitive),
            None => Ok(Gradients::new()),
        }
    }

    /// This tensor's gradient in `grads`.
    pub fn grad(&self, grads: &Gradients) -> Option<FloatTensor<B>> {
        self.id().and_then(|id| grads.get::<B>(id))
    }

    /// Removes and returns this tensor's gradient from `grads`.
    pub fn grad_remove(&self, grads: &mut Gradients) -> Option<FloatTensor<B>> {
        self.id().and_then(|id| grads.remove::<B>(id))
    }

    /// Sets this tensor's gradient in `grads` (nothing for an untracked tensor).
    pub fn grad_replace(&self, grads: &mut Gradients, grad: FloatTensor<B>) {
        if let Some(id) = self.id() {
            grads.replace::<B>(id, grad);
        }
    }
}
