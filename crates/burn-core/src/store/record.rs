//! [`ModuleRecord`]: a module's parameters by path, saved as and loaded from burnpack.

use super::burnpack::{self, PackEntry};
use crate::module::{Module, ModuleMapper, ModuleVisitor, Param, ParamGroup, ParamId, Parameter};
use burn_tensor::{Bool, DType, Float, Int, Tensor, TensorData};
use std::collections::{BTreeMap, HashMap};

/// How a parameter's dtype is chosen when a [`ModuleRecord`] is loaded into a module.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DTypePolicy {
    /// The parameter takes the record's dtype (the data is loaded as it is stored). Default.
    #[default]
    FromRecord,
    /// The record's data is cast to the dtype the parameter has now.
    CastToModule,
}

/// Why a record could not be saved, read or applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordError {
    /// Reading or writing failed (the file is missing, unreadable, not burnpack).
    Io(String),
    /// The record does not fit the module (a shape differs, a tensor is missing or unused),
    /// or the file's contents are inconsistent.
    Validation(String),
}

impl core::fmt::Display for RecordError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            RecordError::Io(message) => write!(f, "Record I/O error: {message}"),
            RecordError::Validation(message) => write!(f, "Record validation error: {message}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One recorded parameter.
#[derive(Clone)]
struct RecordTensor {
    path: String,
    id: ParamId,
    data: TensorData,
}

/// A module's parameters, each under its path in the module tree (`"encoder.0.weight"`) with
/// its [`ParamId`] and values. Take one with [`Module::into_record`], save it with
/// [`save`](ModuleRecord::save) or [`into_bytes`](ModuleRecord::into_bytes), and apply it
/// with [`Module::load_record`]; the builder methods configure loading.
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn::store::ModuleRecord;
/// use burn::tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Scale {
///     factor: Param<Tensor<1>>,
/// }
///
/// let device = Device::default();
/// let trained = Scale { factor: Param::from_data([2.0], &device) };
/// let bytes = trained.into_record().into_bytes().unwrap();
///
/// let fresh = Scale { factor: Param::from_data([0.0], &device) };
/// let loaded = fresh.load_record(ModuleRecord::from_bytes(bytes).unwrap());
/// assert_eq!(loaded.factor.val().into_data().to_vec::<f32>().unwrap(), [2.0]);
/// ```
#[derive(Clone)]
pub struct ModuleRecord {
    tensors: Vec<RecordTensor>,
    dtype_policy: DTypePolicy,
    allow_partial: bool,
    allow_unused: bool,
    validate: bool,
}

impl core::fmt::Debug for ModuleRecord {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ModuleRecord")
            .field("num_tensors", &self.tensors.len())
            .field("dtype_policy", &self.dtype_policy)
            .field("allow_partial", &self.allow_partial)
            .field("allow_unused", &self.allow_unused)
            .field("validate", &self.validate)
            .finish()
    }
}

impl ModuleRecord {
    fn from_tensors(tensors: Vec<RecordTensor>) -> Self {
        Self {
            tensors,
            dtype_policy: DTypePolicy::default(),
            allow_partial: false,
            allow_unused: false,
            validate: true,
        }
    }

    /// The number of recorded tensors.
    pub fn len(&self) -> usize {
        self.tensors.len()
    }

    /// Whether the record holds no tensor.
    pub fn is_empty(&self) -> bool {
        self.tensors.is_empty()
    }

    /// The dtype policy used when loading.
    pub fn with_dtype_policy(mut self, policy: DTypePolicy) -> Self {
        self.dtype_policy = policy;
        self
    }

    /// Loads each tensor in the dtype its parameter has now
    /// ([`DTypePolicy::CastToModule`]).
    pub fn cast_to_module_dtype(self) -> Self {
        self.with_dtype_policy(DTypePolicy::CastToModule)
    }

    /// Whether loading may leave parameters the record has nothing for unchanged (refused by
    /// default).
    pub fn allow_partial(mut self, allow: bool) -> Self {
        self.allow_partial = allow;
        self
    }

    /// Whether loading may ignore recorded tensors no parameter matches (refused by default:
    /// such a record was most likely taken from another module).
    pub fn allow_unused(mut self, allow: bool) -> Self {
        self.allow_unused = allow;
        self
    }

    /// Whether loading refuses a shape mismatch (on by default; when off, a mismatched
    /// parameter keeps its value).
    pub fn validate(mut self, validate: bool) -> Self {
        self.validate = validate;
        self
    }

    /// The record as a burnpack container in memory.
    pub fn into_bytes(self) -> Result<burn_tensor::Bytes, RecordError> {
        burnpack::encode(&self.into_entries(), &BTreeMap::new())
    }

    /// The record held by a burnpack container in memory.
    pub fn from_bytes(bytes: burn_tensor::Bytes) -> Result<Self, RecordError> {
        Ok(Self::from_entries(burnpack::decode(&bytes)?.0))
    }

    /// Writes the record to a burnpack file at `path` (`path.bpk` when `path` has no
    /// extension). The file is replaced whole or not at all.
    pub fn save<P: AsRef<std::path::Path>>(self, path: P) -> Result<(), RecordError> {
        let bytes = burnpack::encode(&self.into_entries(), &BTreeMap::new())?;
        burnpack::write_atomically(&burnpack::write_path(path.as_ref()), &bytes)
    }

    /// Reads a record from the burnpack file at `path` (or `path.bpk` when `path` has no
    /// extension and does not exist).
    pub fn load<P: AsRef<std::path::Path>>(path: P) -> Result<Self, RecordError> {
        let path = burnpack::read_path(path.as_ref());
        let bytes = std::fs::read(&path)
            .map_err(|e| RecordError::Io(format!("cannot read {}: {e}", path.display())))?;
        let (entries, _) = burnpack::decode(&bytes).map_err(|error| match error {
            RecordError::Validation(message) => {
                RecordError::Io(format!("{}: {message}", path.display()))
            }
            other => other,
        })?;
        Ok(Self::from_entries(entries))
    }

    fn into_entries(self) -> Vec<PackEntry> {
        self.tensors
            .into_iter()
            .map(|tensor| PackEntry {
                name: tensor.path,
                param_id: Some(tensor.id.val()),
                data: tensor.data,
            })
            .collect()
    }

    fn from_entries(entries: Vec<PackEntry>) -> Self {
        Self::from_tensors(
            entries
                .into_iter()
                .map(|entry| RecordTensor {
                    path: entry.name,
                    id: entry.param_id.map_or_else(ParamId::new, ParamId::from),
                    data: entry.data,
                })
                .collect(),
        )
    }

    /// The parameters of `module` (backs [`Module::into_record`]).
    pub(crate) fn from_module<M: Module>(module: M, group: Option<ParamGroup>) -> Self {
        let mut collector = Collector {
            group,
            ..Collector::default()
        };
        module.visit(&mut collector);
        Self::from_tensors(collector.tensors)
    }

    /// `module` with the recorded values (backs [`Module::try_load_record`]).
    pub(crate) fn apply<M: Module>(self, module: M) -> Result<M, RecordError> {
        let (validate, allow_partial, allow_unused) =
            (self.validate, self.allow_partial, self.allow_unused);
        let mut loader = Loader::new(self);
        let module = module.map(&mut loader);
        if validate && !loader.errors.is_empty() {
            return Err(RecordError::Validation(format!(
                "the record does not fit the module: {}",
                loader.errors.join("; ")
            )));
        }
        if !allow_partial && !loader.missing.is_empty() {
            return Err(RecordError::Validation(format!(
                "the record has no tensor for {:?} (allow_partial(true) keeps their values)",
                loader.missing
            )));
        }
        let unused = loader.unused();
        if !allow_unused && !unused.is_empty() {
            return Err(RecordError::Validation(format!(
                "no parameter of the module is named {unused:?} (allow_unused(true) ignores them)"
            )));
        }
        Ok(module)
    }
}

/// Collects every parameter (of the group, when given) under its dotted path.
#[derive(Default)]
struct Collector {
    path: Vec<String>,
    group: Option<ParamGroup>,
    tensors: Vec<RecordTensor>,
}

impl Collector {
    /// Records `param`, reading its values only when the group selects it.
    fn record<T: Parameter>(&mut self, param: &Param<T>, data: impl FnOnce() -> TensorData) {
        let path = self.path.join(".");
        if let Some(group) = &self.group
            && !group.matches(&param.id, Some(&path))
        {
            return;
        }
        self.tensors.push(RecordTensor {
            path,
            id: param.id,
            data: data(),
        });
    }
}

impl ModuleVisitor for Collector {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.record(param, || param.saved_value().into_data());
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.record(param, || param.saved_value().into_data());
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.record(param, || param.saved_value().into_data());
    }
}

/// Replaces each parameter by the recorded tensor of the same path, keeping its device and
/// gradient requirement and taking the recorded id (so optimizer state keyed by it follows).
struct Loader {
    path: Vec<String>,
    tensors: HashMap<String, (ParamId, TensorData)>,
    dtype_policy: DTypePolicy,
    missing: Vec<String>,
    errors: Vec<String>,
}

impl Loader {
    fn new(record: ModuleRecord) -> Self {
        Self {
            path: Vec::new(),
            tensors: record
                .tensors
                .into_iter()
                .map(|t| (t.path, (t.id, t.data)))
                .collect(),
            dtype_policy: record.dtype_policy,
            missing: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// The recorded paths no parameter took, sorted.
    fn unused(&self) -> Vec<&str> {
        let mut unused: Vec<&str> = self.tensors.keys().map(String::as_str).collect();
        unused.sort_unstable();
        unused
    }

    /// The recorded data for the current path, checked against the parameter's shape, with
    /// the dtype to load it in; `None` (noting why) leaves the parameter as it is.
    fn take<T: Parameter>(
        &mut self,
        param: &Param<T>,
        module_dtype: impl FnOnce() -> DType,
    ) -> Option<(ParamId, TensorData, DType)> {
        let path = self.path.join(".");
        let Some((id, data)) = self.tensors.remove(&path) else {
            self.missing.push(path);
            return None;
        };
        let expected = param.lazy_shape();
        if data.shape != expected {
            self.errors.push(format!(
                "'{path}' has shape {:?} in the record but {:?} in the module",
                data.shape.dims, expected.dims
            ));
            return None;
        }
        let dtype = match self.dtype_policy {
            DTypePolicy::FromRecord => data.dtype,
            DTypePolicy::CastToModule => module_dtype(),
        };
        Some((id, data, dtype))
    }
}

/// One `ModuleMapper` method per tensor kind; the kinds differ only in the type.
macro_rules! load_kind {
    ($($method:ident => $kind:ty),*) => {$(
        fn $method<const D: usize>(
            &mut self,
            param: Param<Tensor<D, $kind>>,
        ) -> Param<Tensor<D, $kind>> {
            match self.take(&param, || param.val().dtype()) {
                Some((id, data, dtype)) => {
                    let device = param.lazy_device();
                    param.transform_for_load(Tensor::from_data(data, (&device, dtype)), id)
                }
                None => param,
            }
        }
    )*};
}

impl ModuleMapper for Loader {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }
    load_kind!(map_float => Float, map_int => Int, map_bool => Bool);
}
