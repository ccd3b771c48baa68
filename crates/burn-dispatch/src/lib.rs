//! `Dispatch`: the backend that routes every operation to the catalog backend of its device.
//!
//! See the crate README: the enums and routing are generated from the catalog.
#![warn(missing_docs)]

mod autodiff;
mod backend;
pub mod capture;
pub mod extension;
mod routing;
mod tensor;

pub use autodiff::{GradientCheckpointingStrategy, merge_strategies};
#[cfg(feature = "autodiff")]
pub use backend::AutodiffDevice;
pub use backend::{BackendEntry, Dispatch, DispatchDevice, DispatchGraph, DispatchTensor, entries};
/// The autodiff crate, for `Gradients` and the checkpoint strategy types.
#[cfg(feature = "autodiff")]
pub use burn_autodiff;
/// The CubeCL backend crate, for its device type and runtime constructors.
#[cfg(feature = "cube")]
pub use burn_cubecl;
pub use tensor::BackendTensor;

#[cfg(all(test, feature = "flex"))]
mod stub_catalog;

/// Paths the generated routing code names through `$crate`.
#[doc(hidden)]
pub mod __private {
    #[cfg(feature = "autodiff")]
    pub use burn_autodiff::checkpoint::strategy::{BalancedCheckpointing, NoCheckpointing};
    #[cfg(feature = "autodiff")]
    pub use burn_autodiff::{Autodiff, AutodiffTensor};
    pub use burn_backend::quantization::TensorPrimitive;
    pub use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
    pub use burn_backend::{Backend, BackendTypes};
}
