//! Flex: the native CPU backend.
//!
//! Tensors are `Arc`-shared typed buffers with a strided layout, so transposes, permutations,
//! slices, flips and expansions are views that copy nothing. An operation writes into its input's
//! buffer when the handle owns it uniquely (copy-on-write otherwise). Matrix products go through
//! the `gemm` crate; large work is shared between cores by [`parallel`]: Flex's own spinning
//! team, or rayon inside rayon's workers.

#![warn(missing_docs)]

#[macro_use]
mod macros;

pub mod backend;
pub mod element;
pub mod fuse;
pub mod kernels;
pub mod ops;
pub mod parallel;
pub mod simd;
pub mod stream;
pub mod tensor;

pub use backend::{Flex, FlexDevice};
pub use tensor::FlexTensor;
