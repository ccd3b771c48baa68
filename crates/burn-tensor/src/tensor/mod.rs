//! The `Tensor` type and its methods, one family per file.

#[macro_use]
mod macros;
mod args;
#[cfg(feature = "autodiff")]
mod autodiff;
mod base;
mod bool;
mod cast;
pub(crate) mod check;
mod dim_iter;
mod display;
mod float;
pub(crate) mod grid_sample;
mod indexing;
mod inner;
mod int;
mod layout;
mod numeric;
mod operators;
mod ordered;
mod pad;
mod promote;
mod quantize;
mod readout;
mod report;
mod select;
mod serde;
mod stats;
mod transaction;
mod triangle;

pub use args::{
    BroadcastArgs, MovedimArgs, ReshapeArgs, TensorCreationOptions, ZeroDimPlaceholders,
};
pub use base::Tensor;
pub use cast::Cast;
pub use dim_iter::DimIter;
pub use display::{PrintOptions, set_print_options};
pub use float::{DEFAULT_ATOL, DEFAULT_RTOL};
pub use pad::IntoPadding;
pub use report::check_closeness;
pub use transaction::Transaction;
