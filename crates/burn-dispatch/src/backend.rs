//! The catalog expanded: `Dispatch`, `DispatchDevice`, `DispatchTensor` and their routing.

burn_backend_extension::backend_catalog!(crate::define_dispatch);

// The stub test loads the same op files a second time, on purpose.
#[allow(clippy::duplicate_mod)]
#[path = "ops/mod.rs"]
mod ops;

#[cfg(feature = "autodiff")]
pub use ops::AutodiffDevice;
