//! Encoding snapshots as safetensors bytes and parsing safetensors bytes into a load source.

use super::quantized;
use crate::snapshot::native_bools;
use crate::source::{Source, SourceTensor};
use crate::{StoreDTypePolicy, StoreError, TensorSnapshot};
use ::safetensors::tensor::{Dtype, SafeTensors, View};
use burn_core::tensor::{BoolStore, DType};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The safetensors dtype of `dtype` (`None` for quantized data, which is stored as `U8`
/// bytes described in the metadata).
pub(crate) fn to_file_dtype(dtype: DType) -> Option<Dtype> {
    Some(match dtype {
        DType::F64 => Dtype::F64,
        DType::F32 => Dtype::F32,
        DType::F16 => Dtype::F16,
        DType::BF16 => Dtype::BF16,
        DType::I64 => Dtype::I64,
        DType::I32 => Dtype::I32,
        DType::I16 => Dtype::I16,
        DType::I8 => Dtype::I8,
        DType::U64 => Dtype::U64,
        DType::U32 => Dtype::U32,
        DType::U16 => Dtype::U16,
        DType::U8 => Dtype::U8,
        DType::Bool(_) => Dtype::BOOL,
        DType::QFloat(_) => return None,
    })
}

/// The dtype of a safetensors dtype, or its name when there is none (8-bit and smaller
/// floats).
pub(crate) fn from_file_dtype(dtype: Dtype) -> Result<DType, String> {
    Ok(match dtype {
        Dtype::F64 => DType::F64,
        Dtype::F32 => DType::F32,
        Dtype::F16 => DType::F16,
        Dtype::BF16 => DType::BF16,
        Dtype::I64 => DType::I64,
        Dtype::I32 => DType::I32,
        Dtype::I16 => DType::I16,
        Dtype::I8 => DType::I8,
        Dtype::U64 => DType::U64,
        Dtype::U32 => DType::U32,
        Dtype::U16 => DType::U16,
        Dtype::U8 => DType::U8,
        Dtype::BOOL => DType::Bool(BoolStore::Native),
        other => return Err(other.to_string()),
    })
}

/// A tensor ready to be written.
struct Encoded {
    dtype: Dtype,
    shape: Vec<usize>,
    bytes: burn_core::tensor::Bytes,
}

impl View for &Encoded {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(&self.bytes)
    }
    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

/// `snapshots` as a safetensors file, floats converted by `policy`, with `metadata`.
/// Quantized tensors are stored as their bytes, described in the metadata (see the
/// `quantized` module); `metadata` may not use the keys that format reserves.
pub(crate) fn encode(
    file: &str,
    snapshots: Vec<TensorSnapshot>,
    policy: StoreDTypePolicy,
    metadata: &BTreeMap<String, String>,
) -> Result<Vec<u8>, StoreError> {
    if let Some(key) = metadata.keys().find(|key| quantized::is_reserved(key)) {
        return Err(StoreError::Encode {
            file: file.to_string(),
            reason: format!("metadata key `{key}` is reserved for quantized tensors"),
        });
    }
    let mut metadata = metadata.clone();
    let mut seen = BTreeSet::new();
    let mut tensors = Vec::with_capacity(snapshots.len());
    for TensorSnapshot { key, data } in snapshots {
        if !seen.insert(key.clone()) {
            return Err(StoreError::DuplicateKey {
                file: file.to_string(),
                sources: [key.clone(), key.clone()],
                key,
            });
        }
        let data = match data.dtype {
            dtype if dtype.is_float() => data.convert_dtype(policy.float_dtype(dtype)),
            _ => native_bools(data),
        };
        let encoded = match data.dtype {
            DType::QFloat(scheme) => {
                quantized::describe(&mut metadata, &key, &scheme, &data.shape.dims).map_err(
                    |reason| StoreError::Encode {
                        file: file.to_string(),
                        reason: format!("the scheme of `{key}`: {reason}"),
                    },
                )?;
                let bytes = data.into_bytes();
                Encoded {
                    dtype: Dtype::U8,
                    shape: vec![bytes.len()],
                    bytes,
                }
            }
            dtype => {
                let Some(file_dtype) = to_file_dtype(dtype) else {
                    return Err(StoreError::UnsupportedDType {
                        file: file.to_string(),
                        key,
                        dtype: dtype.to_string(),
                    });
                };
                Encoded {
                    dtype: file_dtype,
                    shape: data.shape.to_vec(),
                    bytes: data.into_bytes(),
                }
            }
        };
        tensors.push((key, encoded));
    }
    let metadata: HashMap<String, String> = metadata.into_iter().collect();
    ::safetensors::serialize(
        tensors.iter().map(|(key, tensor)| (key.as_str(), tensor)),
        Some(metadata),
    )
    .map_err(|e| StoreError::Encode {
        file: file.to_string(),
        reason: e.to_string(),
    })
}

/// A parsed safetensors file: its tensors, borrowed, and its metadata.
pub(crate) struct Parsed<'a> {
    /// The tensors, sorted by key.
    pub(crate) source: Source<'a>,
    /// The string-to-string metadata of the header.
    pub(crate) metadata: BTreeMap<String, String>,
}

/// Parses `bytes` (the whole file), checking the header, every tensor's offsets and size,
/// that the data covers the file exactly, and the description of every quantized tensor.
pub(crate) fn parse<'a>(file: &str, bytes: &'a [u8]) -> Result<Parsed<'a>, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        file: file.to_string(),
        reason,
    };
    let (header_len, header) =
        SafeTensors::read_metadata(bytes).map_err(|e| corrupt(e.to_string()))?;
    let data = bytes
        .get(8 + header_len..)
        .ok_or_else(|| corrupt("data section missing".into()))?;
    let metadata: BTreeMap<String, String> = header
        .metadata()
        .clone()
        .unwrap_or_default()
        .into_iter()
        .collect();
    let mut described = quantized::described(file, &metadata)?;
    let mut tensors = Vec::new();
    for (key, info) in header.tensors() {
        let (start, end) = info.data_offsets;
        let bytes = data
            .get(start..end)
            .ok_or_else(|| corrupt(format!("offsets of `{key}` are outside the data")))?;
        let tensor = match described.remove(&key) {
            Some(q) => {
                quantized::check_entry(file, &key, &q, info.dtype, &info.shape, bytes.len())?;
                SourceTensor {
                    dtype: q.dtype,
                    shape: q.shape,
                    bytes,
                }
            }
            None => SourceTensor {
                dtype: from_file_dtype(info.dtype),
                shape: info.shape.clone(),
                bytes,
            },
        };
        tensors.push((key, tensor));
    }
    if let Some(key) = described.into_keys().next() {
        return Err(StoreError::InvalidQuantized {
            file: file.to_string(),
            key,
            reason: "its metadata names no tensor of the file".into(),
        });
    }
    tensors.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Parsed {
        source: Source {
            file: file.to_string(),
            tensors,
        },
        metadata,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_core::tensor::TensorData;

    #[test]
    fn every_plain_dtype_maps_both_ways() {
        for dtype in [
            DType::F64,
            DType::F32,
            DType::F16,
            DType::BF16,
            DType::I64,
            DType::I32,
            DType::I16,
            DType::I8,
            DType::U64,
            DType::U32,
            DType::U16,
            DType::U8,
            DType::Bool(BoolStore::Native),
        ] {
            let file = to_file_dtype(dtype).unwrap();
            assert_eq!(from_file_dtype(file), Ok(dtype));
        }
        assert_eq!(from_file_dtype(Dtype::F8_E4M3), Err("F8_E4M3".to_string()));
    }

    #[test]
    fn encoded_bytes_parse_back_with_metadata() {
        let snapshots = vec![
            TensorSnapshot::new("w", TensorData::new(vec![1.5f32, -2.0], [2, 1])),
            TensorSnapshot::new("n", TensorData::from([3i64])),
        ];
        let metadata = BTreeMap::from([("k".to_string(), "v".to_string())]);
        let bytes = encode("<memory>", snapshots, StoreDTypePolicy::Keep, &metadata).unwrap();
        let parsed = parse("<memory>", &bytes).unwrap();
        assert_eq!(parsed.metadata, metadata);
        let keys: Vec<&str> = parsed.source.tensors.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(keys, ["n", "w"]);
        let w = &parsed.source.tensors[1].1;
        assert_eq!(w.shape, [2, 1]);
        assert_eq!(
            w.decode(DType::F32).to_vec::<f32>().unwrap(),
            vec![1.5, -2.0]
        );
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let snapshots = vec![
            TensorSnapshot::new("w", TensorData::from([1.0f32])),
            TensorSnapshot::new("w", TensorData::from([2.0f32])),
        ];
        let err = encode("f", snapshots, StoreDTypePolicy::Keep, &BTreeMap::new()).unwrap_err();
        assert!(matches!(err, StoreError::DuplicateKey { .. }), "{err}");
    }
}
