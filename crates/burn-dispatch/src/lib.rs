//! `Dispatch`: the backend that routes every operation to the catalog backend of its device.
//!
//! See the crate README: the enums and routing are generated from the catalog.
#![warn(missing_docs)]

mod backend;
mod routing;
mod tensor;

pub use backend::{BackendEntry, Dispatch, DispatchDevice, DispatchTensor, entries};
pub use tensor::BackendTensor;

#[cfg(all(test, feature = "flex"))]
mod stub_catalog;

/// Paths the generated routing code names through `$crate`.
#[doc(hidden)]
pub mod __private {
    pub use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor};
    pub use burn_backend::{Backend, BackendTypes};
}
