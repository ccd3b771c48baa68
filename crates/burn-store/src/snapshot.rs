//! `TensorSnapshot`: a parameter's key and values on the host, and the visitor that collects
//! them from a module.

use crate::StoreError;
use burn_core::module::{ModuleVisitor, Param, Parameter};
use burn_core::tensor::{BasicOps, Bool, BoolStore, DType, Int, Tensor, TensorData};

/// One parameter of a module: its key (the module path, field names joined with `.`, e.g.
/// `layers.0.weight`) and its values on the host, in the parameter's dtype (bools always in
/// native one-byte storage).
#[derive(Clone, Debug)]
pub struct TensorSnapshot {
    /// The module path.
    pub key: String,
    /// The values.
    pub data: TensorData,
}

impl TensorSnapshot {
    /// A snapshot of `data` under `key`.
    pub fn new(key: impl Into<String>, data: TensorData) -> Self {
        Self {
            key: key.into(),
            data,
        }
    }

    /// The shape.
    pub fn shape(&self) -> &[usize] {
        &self.data.shape.dims
    }

    /// The dtype.
    pub fn dtype(&self) -> DType {
        self.data.dtype
    }
}

/// The path of the sub-module being visited, kept from `enter_module`/`exit_module`.
#[derive(Debug, Default)]
pub(crate) struct PathStack {
    segments: Vec<String>,
}

impl PathStack {
    /// Enters the sub-module `name`.
    pub(crate) fn enter(&mut self, name: &str) {
        self.segments.push(name.to_string());
    }

    /// Leaves the current sub-module.
    pub(crate) fn exit(&mut self) {
        self.segments.pop();
    }

    /// The current path, segments joined with `.`.
    pub(crate) fn current(&self) -> String {
        self.segments.join(".")
    }
}

/// `data` with bool values in native storage (one byte, 0 or 1), whatever store the device
/// used; other dtypes unchanged.
pub(crate) fn native_bools(data: TensorData) -> TensorData {
    let width = match data.dtype {
        DType::Bool(BoolStore::Native) => return data,
        DType::Bool(store) => DType::Bool(store).size(),
        _ => return data,
    };
    let values: Vec<bool> = data
        .as_bytes()
        .chunks_exact(width)
        .map(|word| word.iter().any(|b| *b != 0))
        .collect();
    TensorData::new(values, data.shape.clone())
}

/// Reads every parameter of a module into snapshots (initializing lazy parameters).
pub(crate) struct Collector {
    file: String,
    path: PathStack,
    pub(crate) snapshots: Vec<TensorSnapshot>,
    pub(crate) error: Option<StoreError>,
}

impl Collector {
    /// A collector reporting errors against `file`.
    pub(crate) fn new(file: &str) -> Self {
        Self {
            file: file.to_string(),
            path: PathStack::default(),
            snapshots: Vec::new(),
            error: None,
        }
    }

    fn read<const D: usize, K: BasicOps>(&mut self, param: &Param<Tensor<D, K>>)
    where
        Tensor<D, K>: Parameter,
    {
        if self.error.is_some() {
            return;
        }
        let key = self.path.current();
        match param.val().try_into_data() {
            Ok(data) => self
                .snapshots
                .push(TensorSnapshot::new(key, native_bools(data))),
            Err(e) => {
                self.error = Some(StoreError::Execution {
                    file: self.file.clone(),
                    key,
                    message: e.to_string(),
                })
            }
        }
    }
}

impl ModuleVisitor for Collector {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.read(param);
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.read(param);
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.read(param);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bools_of_any_store_become_native() {
        let words: Vec<u8> = [1u32, 0, 7].iter().flat_map(|w| w.to_le_bytes()).collect();
        let data = TensorData::from_bytes_slice(&words, [3], DType::Bool(BoolStore::U32));
        let native = native_bools(data);
        assert_eq!(native.dtype, DType::Bool(BoolStore::Native));
        assert_eq!(native.to_vec::<bool>().unwrap(), vec![true, false, true]);
        let floats = TensorData::from([1.0f32, 2.0]);
        assert_eq!(native_bools(floats.clone()), floats);
    }

    #[test]
    fn paths_join_segments_with_dots() {
        let mut path = PathStack::default();
        path.enter("layers");
        path.enter("0");
        path.enter("weight");
        assert_eq!(path.current(), "layers.0.weight");
        path.exit();
        path.exit();
        assert_eq!(path.current(), "layers");
    }
}
