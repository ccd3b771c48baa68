//! What a load reads from: named tensors as bytes with a dtype and a shape, borrowed from a
//! parsed file or from snapshots, and their keys remapped into module paths.

use crate::{KeyRemapper, StoreError, TensorSnapshot};
use burn_core::tensor::{DType, TensorData};
use std::collections::BTreeMap;
use std::collections::btree_map::Entry;

/// One stored tensor, not decoded yet.
#[derive(Clone, Debug)]
pub(crate) struct SourceTensor<'a> {
    /// The dtype, or the stored name of one this crate cannot read.
    pub(crate) dtype: Result<DType, String>,
    /// The shape (the logical shape of quantized data).
    pub(crate) shape: Vec<usize>,
    /// The row-major little-endian bytes (bools: one byte each; quantized data: its byte
    /// format).
    pub(crate) bytes: &'a [u8],
}

impl SourceTensor<'_> {
    /// The values as tensor data in the stored dtype; `dtype` must be `Ok` and the bytes
    /// must match the shape (the parsers check both for plain dtypes, the planner for
    /// quantized data). Quantized data keeps its dtype, `shape` being its logical shape.
    pub(crate) fn decode(&self, dtype: DType) -> TensorData {
        match dtype {
            DType::Bool(_) => {
                let values: Vec<bool> = self.bytes.iter().map(|b| *b != 0).collect();
                TensorData::new(values, self.shape.clone())
            }
            _ => TensorData::from_bytes_slice(self.bytes, self.shape.clone(), dtype),
        }
    }
}

/// The named tensors a load reads, with the name of where they came from.
#[derive(Debug)]
pub(crate) struct Source<'a> {
    /// The file, `<memory>` or `<snapshots>`.
    pub(crate) file: String,
    /// The tensors under their stored keys.
    pub(crate) tensors: Vec<(String, SourceTensor<'a>)>,
}

impl<'a> Source<'a> {
    /// The tensors of `snapshots`.
    pub(crate) fn from_snapshots(file: &str, snapshots: &'a [TensorSnapshot]) -> Self {
        let tensors = snapshots
            .iter()
            .map(|snapshot| {
                let tensor = SourceTensor {
                    dtype: Ok(snapshot.data.dtype),
                    shape: snapshot.data.shape.to_vec(),
                    bytes: snapshot.data.as_bytes(),
                };
                (snapshot.key.clone(), tensor)
            })
            .collect();
        Self {
            file: file.to_string(),
            tensors,
        }
    }

    /// The tensors under the module paths `remapper` gives their keys; an error when two
    /// keys map to the same path.
    pub(crate) fn remap(self, remapper: &KeyRemapper) -> Result<Remapped<'a>, StoreError> {
        let mut by_path: BTreeMap<String, (String, SourceTensor<'a>)> = BTreeMap::new();
        for (key, tensor) in self.tensors {
            let path = remapper.remap(&key);
            match by_path.entry(path) {
                Entry::Vacant(slot) => {
                    slot.insert((key, tensor));
                }
                Entry::Occupied(slot) => {
                    let mut sources = [slot.get().0.clone(), key];
                    sources.sort();
                    return Err(StoreError::DuplicateKey {
                        file: self.file,
                        key: slot.key().clone(),
                        sources,
                    });
                }
            }
        }
        Ok(Remapped {
            file: self.file,
            by_path,
        })
    }
}

/// Tensors keyed by the module path they load into.
#[derive(Debug)]
pub(crate) struct Remapped<'a> {
    /// The file, `<memory>` or `<snapshots>`.
    pub(crate) file: String,
    /// Module path → (stored key, tensor).
    pub(crate) by_path: BTreeMap<String, (String, SourceTensor<'a>)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remapping_collisions_name_both_keys() {
        let snapshots = vec![
            TensorSnapshot::new("a.w", TensorData::from([1.0f32])),
            TensorSnapshot::new("b.w", TensorData::from([2.0f32])),
        ];
        let source = Source::from_snapshots("<snapshots>", &snapshots);
        let remapper = KeyRemapper::new().prefix("a.", "").prefix("b.", "");
        let err = source.remap(&remapper).unwrap_err();
        assert_eq!(
            err,
            StoreError::DuplicateKey {
                file: "<snapshots>".into(),
                key: "w".into(),
                sources: ["a.w".into(), "b.w".into()],
            }
        );
    }

    #[test]
    fn decoding_keeps_values_and_reads_bools_bytewise() {
        let bytes = [0u8, 1, 2];
        let tensor = SourceTensor {
            dtype: Ok(DType::Bool(Default::default())),
            shape: vec![3],
            bytes: &bytes,
        };
        let data = tensor.decode(DType::Bool(Default::default()));
        assert_eq!(data.to_vec::<bool>().unwrap(), vec![false, true, true]);
        let ints = TensorData::from([3i32, -4]);
        let tensor = SourceTensor {
            dtype: Ok(DType::I32),
            shape: vec![2],
            bytes: ints.as_bytes(),
        };
        assert_eq!(tensor.decode(DType::I32), ints);
    }
}
