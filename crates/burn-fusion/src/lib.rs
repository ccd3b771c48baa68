//! `Fusion<B>`: a lazy backend decorator.
//!
//! Every operation on a `Fusion<B>` tensor is recorded as IR ([`burn_ir::OperationIr`]) into a
//! per-thread stream instead of running. When something needs the values (a read, `sync`,
//! `flush`, `seed`, an operation whose output shape is data-dependent, another stream using a
//! pending tensor, or a long queue), the stream's queue runs: the [`plan`] module splits it into
//! blocks that a backend [`Fuser`] can run as one kernel and single operations that run through
//! `B` unchanged. The split of a queue is cached under the queue's relative key
//! ([`burn_ir::RelativeKey`]), so a repeated training step is planned once.
//!
//! A backend opts in by implementing [`FusionBackend`]: with no fusers it still works (every
//! operation runs through `B`, lazily), which is how the decorator's bookkeeping is tested on
//! the CPU backend.

mod backend;
mod client;
mod extension;
mod ops;
pub mod plan;
mod server;
mod tensor;

pub use backend::{Fusion, FusionBackend};
pub use burn_ir::{ExecutionContext, Handle};
pub use client::{FusionStats, stats};
pub use plan::{FusedExecution, Fuser};
pub use tensor::FusionTensor;

#[cfg(test)]
mod tests;
