//! `Step`: one recorded backward computation, stored in the node of the tensor it produced.

use crate::checkpoint::Checkpointer;
use crate::grads::Gradients;
use burn_backend::Backend;

/// A backward computation waiting in the graph: reads the gradient of its node from `grads`
/// and registers the gradients of its parents.
pub(crate) trait Step<B: Backend>: Send {
    /// Runs the step, consuming it.
    fn step(self: Box<Self>, grads: &mut Gradients, checkpointer: &mut Checkpointer<B>);
}
