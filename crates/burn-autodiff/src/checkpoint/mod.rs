//! Checkpointing: which forward values backward steps keep, and how dropped ones come back.

mod checkpointer;
mod saved;
pub mod strategy;

pub use checkpointer::Checkpointer;
pub use saved::Saved;
pub(crate) use saved::{ForwardFn, RetroForward, SavedInner};
