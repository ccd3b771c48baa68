//! `StoreError`: why a module could not be saved or loaded.

use burn_core::tensor::DType;
use core::fmt;

/// Why saving or loading failed. Every variant names the source or destination (`file`: a
/// path, or `<memory>` for an in-memory store, `<snapshots>` for
/// [`ModuleSnapshot::apply`](crate::ModuleSnapshot::apply)) and, where one is at fault, the
/// tensor key.
///
/// A load that fails leaves the module exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreError {
    /// The file could not be read or written (missing, unreadable, a directory …).
    Io {
        /// The file.
        file: String,
        /// The kind of I/O failure.
        kind: std::io::ErrorKind,
        /// What the system said.
        message: String,
    },
    /// An in-memory store was asked to load before anything was saved into it.
    NoData {
        /// The store (`<memory>`).
        file: String,
    },
    /// The bytes are not a valid safetensors file: a truncated or cut file, a header that is
    /// not JSON, offsets outside the data, …
    Corrupt {
        /// The file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// A parameter of the module has no tensor in the file (after key remapping).
    MissingKey {
        /// The file.
        file: String,
        /// The module path of the first parameter without a tensor.
        key: String,
        /// How many parameters have no tensor, this one included.
        total_missing: usize,
    },
    /// The tensor for a parameter has another shape than the parameter.
    ShapeMismatch {
        /// The file.
        file: String,
        /// The module path.
        key: String,
        /// The parameter's shape.
        expected: Vec<usize>,
        /// The tensor's shape in the file.
        found: Vec<usize>,
    },
    /// The file stores a tensor in a dtype this crate cannot read (e.g. `F8_E4M3`, or a
    /// quantization scheme this build does not implement), or the device of the parameter
    /// cannot hold the dtype it would be loaded in.
    UnsupportedDType {
        /// The file.
        file: String,
        /// The module path (on load) or the tensor key (on save).
        key: String,
        /// The dtype, as the file or the module names it.
        dtype: String,
    },
    /// The tensor's dtype is of another kind than the parameter (an int tensor for a float
    /// parameter, …). Conversions are only made within a kind.
    KindMismatch {
        /// The file.
        file: String,
        /// The module path.
        key: String,
        /// The parameter's kind (`"Float"`, `"Int"`, `"Bool"`).
        expected: &'static str,
        /// The dtype in the file.
        found: DType,
    },
    /// Two tensors of the file map to the same module path after key remapping, or two
    /// parameters of the module share a path on save.
    DuplicateKey {
        /// The file.
        file: String,
        /// The key both map to.
        key: String,
        /// The two original keys.
        sources: [String; 2],
    },
    /// The file holds tensors the module has no parameter for, and the load does not allow
    /// unused tensors ([`LoadOptions::allow_unused`](crate::LoadOptions::allow_unused)).
    UnusedKeys {
        /// The file.
        file: String,
        /// The unused keys, as stored in the file, sorted.
        keys: Vec<String>,
    },
    /// A parameter's value could not be read from its device while saving.
    Execution {
        /// The file.
        file: String,
        /// The module path.
        key: String,
        /// What the device reported.
        message: String,
    },
    /// A quantized tensor cannot be read: its `burn.qscheme.<key>` or
    /// `burn.qshape.<key>` metadata is missing, is not valid JSON or names no tensor, its
    /// entry is not 1-D `U8` bytes, or its byte count is not what its scheme and shape call
    /// for (see [`SafetensorsStore`](crate::SafetensorsStore); snapshots are checked for the
    /// byte count).
    InvalidQuantized {
        /// The file.
        file: String,
        /// The tensor: its key in the file, or the module path when loading snapshots.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// The tensors could not be encoded as safetensors.
    Encode {
        /// The file.
        file: String,
        /// What the encoder said.
        reason: String,
    },
}

impl StoreError {
    /// The file (or `<memory>`, `<snapshots>`) the error is about.
    pub fn file(&self) -> &str {
        match self {
            StoreError::Io { file, .. }
            | StoreError::NoData { file }
            | StoreError::Corrupt { file, .. }
            | StoreError::MissingKey { file, .. }
            | StoreError::ShapeMismatch { file, .. }
            | StoreError::UnsupportedDType { file, .. }
            | StoreError::KindMismatch { file, .. }
            | StoreError::DuplicateKey { file, .. }
            | StoreError::UnusedKeys { file, .. }
            | StoreError::Execution { file, .. }
            | StoreError::InvalidQuantized { file, .. }
            | StoreError::Encode { file, .. } => file,
        }
    }

    /// The key at fault, when one is (the first one for [`UnusedKeys`](Self::UnusedKeys)).
    pub fn key(&self) -> Option<&str> {
        match self {
            StoreError::MissingKey { key, .. }
            | StoreError::ShapeMismatch { key, .. }
            | StoreError::UnsupportedDType { key, .. }
            | StoreError::KindMismatch { key, .. }
            | StoreError::DuplicateKey { key, .. }
            | StoreError::Execution { key, .. }
            | StoreError::InvalidQuantized { key, .. } => Some(key),
            StoreError::UnusedKeys { keys, .. } => keys.first().map(String::as_str),
            StoreError::Io { .. }
            | StoreError::NoData { .. }
            | StoreError::Corrupt { .. }
            | StoreError::Encode { .. } => None,
        }
    }

    /// An I/O error on `file`.
    pub(crate) fn io(file: &str, error: &std::io::Error) -> Self {
        StoreError::Io {
            file: file.to_string(),
            kind: error.kind(),
            message: error.to_string(),
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { file, message, .. } => write!(f, "{file}: {message}"),
            StoreError::NoData { file } => {
                write!(
                    f,
                    "{file}: nothing to load (no bytes were saved into the store)"
                )
            }
            StoreError::Corrupt { file, reason } => {
                write!(f, "{file}: not a valid safetensors file: {reason}")
            }
            StoreError::MissingKey {
                file,
                key,
                total_missing,
            } => {
                write!(f, "{file}: no tensor for parameter `{key}`")?;
                if *total_missing > 1 {
                    write!(f, " (and {} other parameters)", total_missing - 1)?;
                }
                Ok(())
            }
            StoreError::ShapeMismatch {
                file,
                key,
                expected,
                found,
            } => write!(
                f,
                "{file}: tensor `{key}` has shape {found:?}, the parameter has shape {expected:?}"
            ),
            StoreError::UnsupportedDType { file, key, dtype } => {
                write!(f, "{file}: tensor `{key}` has unsupported dtype {dtype}")
            }
            StoreError::KindMismatch {
                file,
                key,
                expected,
                found,
            } => write!(
                f,
                "{file}: tensor `{key}` holds {found}, the parameter is of kind {expected}"
            ),
            StoreError::DuplicateKey { file, key, sources } => write!(
                f,
                "{file}: `{}` and `{}` both map to `{key}`",
                sources[0], sources[1]
            ),
            StoreError::UnusedKeys { file, keys } => {
                write!(f, "{file}: {} tensors match no parameter: ", keys.len())?;
                let shown: Vec<&str> = keys.iter().take(8).map(String::as_str).collect();
                write!(f, "{}", shown.join(", "))?;
                if keys.len() > shown.len() {
                    write!(f, ", …")?;
                }
                Ok(())
            }
            StoreError::Execution { file, key, message } => {
                write!(f, "{file}: could not read parameter `{key}`: {message}")
            }
            StoreError::InvalidQuantized { file, key, reason } => {
                write!(
                    f,
                    "{file}: quantized tensor `{key}` cannot be read: {reason}"
                )
            }
            StoreError::Encode { file, reason } => {
                write!(f, "{file}: could not encode the tensors: {reason}")
            }
        }
    }
}

impl std::error::Error for StoreError {}
