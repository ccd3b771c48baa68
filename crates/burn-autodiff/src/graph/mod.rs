//! The autodiff graph: nodes, their steps, and the backward traversal.

mod guard;
mod node;
mod step;
mod traversal;

pub use guard::NodeGuard;
pub(crate) use node::{Node, NodeRef, StepSlot, lock};
pub use node::{NodeId, Requirement, live_node_count};
pub(crate) use step::Step;
pub use traversal::BackwardError;
pub(crate) use traversal::backward;
