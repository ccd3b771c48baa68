//! Bool tensors.

mod convert;
mod logic;
