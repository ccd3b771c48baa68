//! Burn's file recorders, writing safetensors: `Module::save_file` / `load_file` with
//! `DefaultRecorder` (full precision) or `CompactRecorder` (floats stored as f16). The names
//! are Burn's, for source compatibility; every recorder here writes a `.safetensors` file.

use crate::{DTypePolicy, ModuleSnapshot, SafetensorsStore, StoreError};
use burn_core::module::Module;
use burn_core::record::{FileRecorder, RecorderError};
use burn_core::tensor::FloatDType;
use core::marker::PhantomData;
use std::path::Path;

/// How floats are stored in a file.
pub trait PrecisionSettings: Send + Sync + Default + Clone + core::fmt::Debug + 'static {
    /// The stored float dtype (`None`: each parameter's own).
    const FLOAT: Option<FloatDType>;
}

/// Floats stored with their own dtype.
#[derive(Debug, Clone, Copy, Default)]
pub struct FullPrecisionSettings;

impl PrecisionSettings for FullPrecisionSettings {
    const FLOAT: Option<FloatDType> = None;
}

/// Floats stored as f16 (half the size; loaded back into each parameter's dtype).
#[derive(Debug, Clone, Copy, Default)]
pub struct HalfPrecisionSettings;

impl PrecisionSettings for HalfPrecisionSettings {
    const FLOAT: Option<FloatDType> = Some(FloatDType::F16);
}

/// A recorder writing parameters by name as safetensors with precision `S` (Burn's
/// `NamedMpkFileRecorder` name, a safetensors file here).
#[derive(Debug, Clone, Default)]
pub struct NamedMpkFileRecorder<S: PrecisionSettings = FullPrecisionSettings> {
    _settings: PhantomData<S>,
}

impl<S: PrecisionSettings> NamedMpkFileRecorder<S> {
    /// A recorder.
    pub fn new() -> Self {
        Self {
            _settings: PhantomData,
        }
    }
}

/// Full precision.
pub type DefaultRecorder = NamedMpkFileRecorder<FullPrecisionSettings>;
/// Floats as f16.
pub type CompactRecorder = NamedMpkFileRecorder<HalfPrecisionSettings>;

/// A store error as the recorder error Burn's API returns.
fn recorder_error(error: StoreError) -> RecorderError {
    match error {
        StoreError::Io { .. } | StoreError::NoData { .. } => {
            RecorderError::FileNotFound(error.to_string())
        }
        StoreError::Encode { .. } | StoreError::Execution { .. } => {
            RecorderError::Unknown(error.to_string())
        }
        other => RecorderError::DeserializeError(other.to_string()),
    }
}

impl<S: PrecisionSettings> FileRecorder for NamedMpkFileRecorder<S> {
    fn file_extension() -> &'static str {
        "safetensors"
    }

    fn save_module<M: Module>(&self, module: &M, path: &Path) -> Result<(), RecorderError> {
        let policy = S::FLOAT.map_or(DTypePolicy::Keep, DTypePolicy::Floats);
        let mut store = SafetensorsStore::from_file(path).with_dtype_policy(policy);
        module.save_into(&mut store).map_err(recorder_error)
    }

    fn load_module<M: Module>(&self, module: M, path: &Path) -> Result<M, RecorderError> {
        let mut module = module;
        module
            .load_from(&mut SafetensorsStore::from_file(path))
            .map_err(recorder_error)?;
        Ok(module)
    }
}
