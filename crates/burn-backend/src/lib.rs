//! The backend contract: what a backend provides and what it may leave to default bodies.
//!
//! See the crate README for the layering. Ops are associated functions taking primitives by
//! value, so a backend may reuse a uniquely owned buffer in place.
#![warn(missing_docs)]

mod backend;
mod device;
mod metadata;
pub mod ops;
pub mod quantization;
mod read;
mod settings;
pub mod tensor;

pub use backend::{AutodiffBackend, Backend, BackendTypes, DTypeUsage, GraphUnsupported};
pub use burn_std::*;
pub use device::{DeviceId, DeviceOps, HardwareKind};
pub use metadata::TensorMetadata;
pub use read::read_sync;
pub use settings::{
    DeviceError, SettingsError, get_device_settings, set_device_settings, settings_locked,
};
