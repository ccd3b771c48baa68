//! Saving a module to a file and loading it back through a recorder: the `FileRecorder`
//! contract that `Module::save_file` / `Module::load_file` use. The recorders themselves
//! (safetensors files at full or half precision) live in `burn-store` and are re-exported by
//! the facade as `burn::record`.

use crate::module::Module;
use std::path::Path;

/// Writes a module's parameters to a file and reads them back.
pub trait FileRecorder: Send + Sync {
    /// The extension `save_file` / `load_file` append to the path (without the dot).
    fn file_extension() -> &'static str
    where
        Self: Sized;

    /// Writes the parameters of `module` to `path`.
    fn save_module<M: Module>(&self, module: &M, path: &Path) -> Result<(), RecorderError>
    where
        Self: Sized;

    /// Loads the parameters stored at `path` into `module`; on error the module is lost to
    /// the caller only through the `Err` (it is not half-updated: recorders validate first).
    fn load_module<M: Module>(&self, module: M, path: &Path) -> Result<M, RecorderError>
    where
        Self: Sized;
}

/// Why a module could not be saved or loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecorderError {
    /// The file does not exist or cannot be opened.
    FileNotFound(String),
    /// The file exists but does not hold what the module needs (corrupt, truncated, a
    /// missing key, a wrong shape).
    DeserializeError(String),
    /// Anything else (writing failed, a device error).
    Unknown(String),
}

impl core::fmt::Display for RecorderError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecorderError::FileNotFound(message) => write!(f, "file not found: {message}"),
            RecorderError::DeserializeError(message) => write!(f, "cannot load: {message}"),
            RecorderError::Unknown(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for RecorderError {}

/// `path` with the recorder's extension appended (as Burn does: `model` → `model.ext`).
pub fn with_extension<R: FileRecorder>(path: &Path) -> std::path::PathBuf {
    let mut file = path.as_os_str().to_owned();
    file.push(".");
    file.push(R::file_extension());
    file.into()
}
