//! Saving and loading a module's parameters: [`ModuleRecord`] (taken with
//! [`Module::into_record`](crate::module::Module::into_record), applied with
//! [`Module::load_record`](crate::module::Module::load_record)) written as burnpack, Burn
//! 0.23's file format. `Module::save_file` / `load_file` go through it. The safetensors and
//! PyTorch stores, key remapping and filtering live in `burn-store`.

mod burnpack;
mod record;

pub use burnpack::EXTENSION;
pub use record::{DTypePolicy, ModuleRecord, RecordError};
