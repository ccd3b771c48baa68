//! Reverse-mode automatic differentiation as a backend decorator: `Autodiff<B, C>`.
//!
//! Every float operation runs on the inner backend `B`; when an input is tracked, the result
//! also gets a node in the graph holding a backward step. The graph is owned by the tensors:
//! a node holds its parents, and a step is consumed by the backward pass that runs it. See
//! the crate README for the layout, and [`ops`] for writing the backward of a custom
//! operation.
#![warn(missing_docs)]

mod backend;
pub mod checkpoint;
pub mod grads;
pub mod graph;
pub mod ops;
mod tensor;

pub use backend::Autodiff;
pub use grads::Gradients;
pub use graph::{BackwardError, NodeGuard, NodeId, Requirement, live_node_count};
pub use tensor::AutodiffTensor;
