//! `SafetensorsStore`: module weights in a safetensors file or an in-memory buffer.

use super::format::{encode, parse};
use crate::apply::apply_source;
use crate::traits::collect_snapshots;
use crate::{ApplyResult, KeyRemapper, LoadOptions, ModuleStore, StoreDTypePolicy, StoreError};
use burn_core::module::Module;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the bytes live.
#[derive(Clone, Debug)]
enum Location {
    /// A file, read on load and replaced on save.
    File(PathBuf),
    /// A buffer: what was given, or what was last saved.
    Memory(Option<Vec<u8>>),
}

/// Module weights as [safetensors](https://github.com/huggingface/safetensors): one tensor
/// per parameter under its module path (`layers.0.weight`), in its dtype, with a string map
/// of metadata. Files written here load in PyTorch (`safetensors.torch.load_file`) and the
/// other way around (see [`KeyRemapper`] for renaming).
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn::tensor::{Device, FloatDType, Tensor};
/// use burn_store::{StoreDTypePolicy, ModuleSnapshot, SafetensorsStore};
///
/// #[derive(Module, Debug)]
/// struct Scale {
///     factor: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex();
/// let model = Scale { factor: Param::from_tensor(Tensor::full([4], 0.25, &device)) };
/// let path = std::env::temp_dir().join(format!("scale-{}.safetensors", std::process::id()));
///
/// let mut store = SafetensorsStore::from_file(&path)
///     .with_dtype_policy(StoreDTypePolicy::Floats(FloatDType::F16))
///     .metadata("epoch", "3");
/// model.save_into(&mut store)?;
/// assert_eq!(store.read_metadata()?["epoch"], "3");
///
/// let mut copy = Scale { factor: Param::from_tensor(Tensor::zeros([4], &device)) };
/// copy.load_from(&mut SafetensorsStore::from_file(&path))?;
/// assert_eq!(copy.factor.val().sum().into_scalar::<f32>(), 1.0); // 0.25 is exact in f16
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), burn_store::StoreError>(())
/// ```
///
/// # Quantized tensors
///
/// Safetensors has no quantized dtypes, so a tensor of dtype `QFloat(scheme)` and logical
/// shape `shape` is written in a format of this crate (Burn's own recorders carry
/// `TensorData` as it is instead):
///
/// - under its key, a 1-D `U8` entry holding its quantized bytes exactly as
///   `TensorData::as_bytes` gives them (the values as the scheme's store packs them, zero
///   padding to 4 bytes, then the scales: the layout of
///   [`QuantizedBytes`](burn_core::tensor::quantization::QuantizedBytes)), so its length is the
///   byte count;
/// - metadata `burn.qscheme.<key>`: the scheme as JSON (its serde form, e.g.
///   `{"value":"Q8S","store":{"PackedU32":0},"mode":"Symmetric","tensor":null,"block":null}`);
/// - metadata `burn.qshape.<key>`: the logical shape as a JSON array, e.g. `[64,16]`.
///
/// A [`StoreDTypePolicy`] leaves quantized tensors as they are. On load, an entry described by
/// both metadata keys is read back as that quantized data; a missing half, JSON that does not
/// parse, a description of no tensor, an entry that is not 1-D `U8`, or a byte count other
/// than the scheme and shape call for is a [`StoreError::InvalidQuantized`] naming the
/// tensor, and a scheme this build does not implement is a [`StoreError::UnsupportedDType`]
/// if a parameter loads it. The `burn.qscheme.` and `burn.qshape.` metadata keys are reserved:
/// saving with [`metadata`](Self::metadata) under them is an error. Other readers (PyTorch)
/// see the quantized tensors as plain `U8` tensors.
#[derive(Clone, Debug)]
pub struct SafetensorsStore {
    location: Location,
    policy: StoreDTypePolicy,
    metadata: BTreeMap<String, String>,
    options: LoadOptions,
}

impl SafetensorsStore {
    /// A store backed by the file at `path` (used as given, no extension added). Saving
    /// replaces the file (written to a temporary sibling first, so a failed save leaves the
    /// old file intact); loading reads it.
    pub fn from_file(path: impl AsRef<Path>) -> Self {
        Self::new(Location::File(path.as_ref().to_path_buf()))
    }

    /// A store backed by a buffer: `Some(bytes)` of a safetensors file to load, or `None`
    /// to save into and read back with [`to_bytes`](Self::to_bytes).
    pub fn from_bytes(bytes: Option<Vec<u8>>) -> Self {
        Self::new(Location::Memory(bytes))
    }

    fn new(location: Location) -> Self {
        let metadata = BTreeMap::from([
            ("format".to_string(), "pt".to_string()),
            ("producer".to_string(), "burn".to_string()),
            ("version".to_string(), env!("CARGO_PKG_VERSION").to_string()),
        ]);
        Self {
            location,
            policy: StoreDTypePolicy::Keep,
            metadata,
            options: LoadOptions::default(),
        }
    }

    /// Saves float parameters in the dtype `policy` gives (loading always converts back to
    /// each parameter's dtype). Quantized parameters are saved as they are.
    pub fn with_dtype_policy(mut self, policy: StoreDTypePolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Adds (or replaces) a metadata entry written on save. `format`, `producer` and
    /// `version` are set by default; keys starting with `burn.qscheme.` or `burn.qshape.`
    /// are reserved for quantized tensors (saving fails with them).
    pub fn metadata(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.metadata.insert(key.into(), value.into());
        self
    }

    /// Rewrites the file's keys into module paths on load.
    pub fn with_key_remapper(mut self, remapper: KeyRemapper) -> Self {
        self.options = self.options.with_remapper(remapper);
        self
    }

    /// Allows loading a file that lacks tensors for some parameters; see
    /// [`LoadOptions::allow_partial`].
    pub fn allow_partial(mut self, allow: bool) -> Self {
        self.options = self.options.allow_partial(allow);
        self
    }

    /// Allows (the default) or refuses files with tensors no parameter uses; see
    /// [`LoadOptions::allow_unused`].
    pub fn allow_unused(mut self, allow: bool) -> Self {
        self.options = self.options.allow_unused(allow);
        self
    }

    /// Replaces every load option at once.
    pub fn with_load_options(mut self, options: LoadOptions) -> Self {
        self.options = options;
        self
    }

    /// The load options.
    pub fn load_options(&self) -> &LoadOptions {
        &self.options
    }

    /// The file, for a file store.
    pub fn path(&self) -> Option<&Path> {
        match &self.location {
            Location::File(path) => Some(path),
            Location::Memory(_) => None,
        }
    }

    /// The bytes of the safetensors file: the buffer of an in-memory store (an error when
    /// nothing was saved into it), the file's contents otherwise.
    pub fn to_bytes(&self) -> Result<Vec<u8>, StoreError> {
        match &self.location {
            Location::File(path) => {
                std::fs::read(path).map_err(|e| StoreError::io(&self.label(), &e))
            }
            Location::Memory(Some(bytes)) => Ok(bytes.clone()),
            Location::Memory(None) => Err(StoreError::NoData { file: self.label() }),
        }
    }

    /// The metadata of the stored file (checking that it is a valid safetensors file).
    pub fn read_metadata(&self) -> Result<BTreeMap<String, String>, StoreError> {
        self.with_bytes(|bytes| Ok(parse(&self.label(), bytes)?.metadata))
    }

    /// The keys of the stored tensors, sorted (checking that it is a valid safetensors
    /// file).
    pub fn read_keys(&self) -> Result<Vec<String>, StoreError> {
        self.with_bytes(|bytes| {
            let parsed = parse(&self.label(), bytes)?;
            Ok(parsed
                .source
                .tensors
                .into_iter()
                .map(|(key, _)| key)
                .collect())
        })
    }

    /// What errors name: the file's path, or `<memory>`.
    fn label(&self) -> String {
        match &self.location {
            Location::File(path) => path.display().to_string(),
            Location::Memory(_) => "<memory>".to_string(),
        }
    }

    /// Runs `f` on the stored bytes (borrowed in memory, read from the file otherwise).
    fn with_bytes<T>(
        &self,
        f: impl FnOnce(&[u8]) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        match &self.location {
            Location::Memory(Some(bytes)) => f(bytes),
            _ => f(&self.to_bytes()?),
        }
    }

    /// Writes `bytes` to the store.
    fn write(&mut self, bytes: Vec<u8>) -> Result<(), StoreError> {
        let label = self.label();
        match &mut self.location {
            Location::Memory(buffer) => {
                *buffer = Some(bytes);
                Ok(())
            }
            Location::File(path) => {
                write_replacing(path, &bytes).map_err(|e| StoreError::io(&label, &e))
            }
        }
    }
}

/// Writes `bytes` to a temporary sibling of `path`, then renames it over `path`.
fn write_replacing(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    name.push(format!(".{}-{n}.tmp", std::process::id()));
    let temporary = path.with_file_name(name);
    let written =
        std::fs::write(&temporary, bytes).and_then(|()| std::fs::rename(&temporary, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    written
}

impl ModuleStore for SafetensorsStore {
    fn collect_from<M: Module>(&mut self, module: &M) -> Result<(), StoreError> {
        let label = self.label();
        let snapshots = collect_snapshots(module, &label)?;
        let bytes = encode(&label, snapshots, self.policy, &self.metadata)?;
        self.write(bytes)
    }

    fn apply_to<M: Module>(&mut self, module: &mut M) -> Result<ApplyResult, StoreError> {
        self.with_bytes(|bytes| {
            let parsed = parse(&self.label(), bytes)?;
            apply_source(module, parsed.source, &self.options)
        })
    }
}
