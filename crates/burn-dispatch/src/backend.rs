//! The catalog expanded: `Dispatch`, `DispatchDevice`, `DispatchTensor` and their routing.

burn_backend_extension::backend_catalog!(crate::define_dispatch);

#[path = "ops/mod.rs"]
mod ops;
