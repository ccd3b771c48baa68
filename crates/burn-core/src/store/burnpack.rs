//! The burnpack container, Burn 0.23's file format for module parameters: what
//! [`ModuleRecord`](super::ModuleRecord) is written as and read from.
//!
//! ```text
//! header    10 bytes   magic u32 = 0x4255524E ("BURN"), version u16 = 1, metadata size u32
//! metadata  CBOR       { tensors: { name: { dtype, shape: [u64], data_offsets: (start, end),
//!                                          param_id?: u64 } },
//!                        metadata?: { string: string }, scalars?: { string: scalar } }
//! padding   zeros      up to the next 256-byte boundary of the file
//! data      bytes      each tensor at a 256-byte aligned offset of this section,
//!                      little-endian, row-major; offsets are relative to its start
//! ```
//!
//! Integers are little-endian. The layout is Burn 0.23's byte for byte, so a file written by
//! either framework loads in the other. Reading validates before allocating: the header, the
//! metadata size, the tensor count, and that every tensor's range lies in the file and holds
//! exactly its shape times its dtype's size.

use super::RecordError;
use burn_tensor::{DType, TensorData};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// "BURN" read as a little-endian `u32`.
const MAGIC_NUMBER: u32 = 0x4255_524E;
/// The container version written; readers accept it and older ones.
const FORMAT_VERSION: u16 = 1;
/// Magic (4) + version (2) + metadata size (4).
const HEADER_SIZE: usize = 10;
/// The alignment of the data section and of every tensor in it.
const TENSOR_ALIGNMENT: usize = 256;
/// The largest metadata blob read (100 MiB).
const MAX_METADATA_SIZE: usize = 100 * 1024 * 1024;
/// The most tensors a file may hold.
const MAX_TENSOR_COUNT: usize = 100_000;
/// The deepest CBOR nesting read (a stack-overflow guard).
const MAX_CBOR_DEPTH: usize = 128;

/// The canonical extension of burnpack files (no dot).
pub const EXTENSION: &str = "bpk";

/// A typed scalar stored beside the tensors (read so such files load; not produced here).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
enum StoredScalar {
    Int(i64),
    UInt(u64),
    Float(f64),
    Bool(bool),
}

/// Where one tensor lies and what it is.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct TensorDescriptor {
    dtype: DType,
    shape: Vec<u64>,
    data_offsets: (u64, u64),
    #[serde(default, skip_serializing_if = "Option::is_none")]
    param_id: Option<u64>,
}

/// The CBOR metadata blob.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Metadata {
    tensors: BTreeMap<String, TensorDescriptor>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    metadata: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    scalars: BTreeMap<String, StoredScalar>,
}

/// One named tensor of a container.
#[derive(Debug, Clone)]
pub(crate) struct PackEntry {
    /// The parameter's path in the module tree (`"encoder.linear.weight"`).
    pub name: String,
    /// The persisted parameter id, when the writer recorded one.
    pub param_id: Option<u64>,
    /// The values.
    pub data: TensorData,
}

fn align(offset: usize) -> usize {
    offset.div_ceil(TENSOR_ALIGNMENT) * TENSOR_ALIGNMENT
}

fn invalid(message: impl Into<String>) -> RecordError {
    RecordError::Validation(message.into())
}

/// The byte length a tensor of `dtype` and `shape` needs, or `None` for quantized data
/// (whose packed layout carries its own length) and on overflow.
fn byte_len(dtype: DType, shape: &[u64]) -> Option<u64> {
    if matches!(dtype, DType::QFloat(_)) {
        return None;
    }
    shape
        .iter()
        .try_fold(dtype.size() as u64, |total, &dim| total.checked_mul(dim))
}

/// The container holding `entries` (in that order in the data section) and `metadata`.
/// Errors on a duplicate name.
pub(crate) fn encode(
    entries: &[PackEntry],
    metadata: &BTreeMap<String, String>,
) -> Result<burn_tensor::Bytes, RecordError> {
    let mut tensors = BTreeMap::new();
    let mut offsets = Vec::with_capacity(entries.len());
    let mut end = 0usize;
    for entry in entries {
        let start = align(end);
        end = start + entry.data.as_bytes().len();
        offsets.push(start);
        let descriptor = TensorDescriptor {
            dtype: entry.data.dtype,
            shape: entry.data.shape.dims.iter().map(|&d| d as u64).collect(),
            data_offsets: (start as u64, end as u64),
            param_id: entry.param_id,
        };
        if tensors.insert(entry.name.clone(), descriptor).is_some() {
            return Err(invalid(format!(
                "burnpack: two tensors are named '{}'",
                entry.name
            )));
        }
    }
    let blob = Metadata {
        tensors,
        metadata: metadata.clone(),
        scalars: BTreeMap::new(),
    };
    let mut meta = Vec::new();
    ciborium::ser::into_writer(&blob, &mut meta)
        .map_err(|e| RecordError::Io(format!("burnpack: cannot encode the metadata: {e}")))?;
    let meta_size =
        u32::try_from(meta.len()).map_err(|_| invalid("burnpack: the metadata exceeds 4 GiB"))?;

    let data_start = align(HEADER_SIZE + meta.len());
    // Built in place in aligned storage: `into_bytes` hands it out without another copy.
    let mut out = burn_tensor::Bytes::zeroed(data_start + end);
    out[0..4].copy_from_slice(&MAGIC_NUMBER.to_le_bytes());
    out[4..6].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    out[6..10].copy_from_slice(&meta_size.to_le_bytes());
    out[HEADER_SIZE..HEADER_SIZE + meta.len()].copy_from_slice(&meta);
    for (entry, offset) in entries.iter().zip(offsets) {
        let bytes = entry.data.as_bytes();
        let at = data_start + offset;
        out[at..at + bytes.len()].copy_from_slice(bytes);
    }
    Ok(out)
}

/// The tensors (sorted by name) and string metadata of a container, validated.
pub(crate) fn decode(
    bytes: &[u8],
) -> Result<(Vec<PackEntry>, BTreeMap<String, String>), RecordError> {
    if bytes.len() < HEADER_SIZE {
        return Err(invalid(format!(
            "burnpack: {} bytes are too few for the 10-byte header",
            bytes.len()
        )));
    }
    let word = |range: core::ops::Range<usize>| {
        let mut buf = [0u8; 4];
        buf[..range.len()].copy_from_slice(&bytes[range]);
        u32::from_le_bytes(buf)
    };
    if word(0..4) != MAGIC_NUMBER {
        return Err(invalid(
            "burnpack: not a burnpack file (wrong magic number)",
        ));
    }
    let version = word(4..6);
    if version > FORMAT_VERSION as u32 {
        return Err(invalid(format!(
            "burnpack: format version {version} is newer than the {FORMAT_VERSION} read here"
        )));
    }
    let meta_size = word(6..10) as usize;
    if meta_size > MAX_METADATA_SIZE {
        return Err(invalid(format!(
            "burnpack: metadata of {meta_size} bytes exceeds the {MAX_METADATA_SIZE}-byte limit"
        )));
    }
    let meta_end = HEADER_SIZE + meta_size;
    let meta_bytes = bytes.get(HEADER_SIZE..meta_end).ok_or_else(|| {
        invalid(format!(
            "burnpack: truncated: {} bytes, the metadata ends at {meta_end}",
            bytes.len()
        ))
    })?;
    let blob: Metadata = ciborium::de::from_reader_with_recursion_limit(meta_bytes, MAX_CBOR_DEPTH)
        .map_err(|e| invalid(format!("burnpack: cannot decode the metadata: {e}")))?;
    if blob.tensors.len() > MAX_TENSOR_COUNT {
        return Err(invalid(format!(
            "burnpack: {} tensors exceed the limit of {MAX_TENSOR_COUNT}",
            blob.tensors.len()
        )));
    }

    let data_start = align(meta_end);
    let mut entries = Vec::with_capacity(blob.tensors.len());
    for (name, descriptor) in blob.tensors {
        let (start, end) = descriptor.data_offsets;
        let range = (start <= end)
            .then(|| {
                let start = data_start.checked_add(usize::try_from(start).ok()?)?;
                let end = data_start.checked_add(usize::try_from(end).ok()?)?;
                Some(start..end)
            })
            .flatten()
            .ok_or_else(|| invalid(format!("burnpack: tensor '{name}' has a bad byte range")))?;
        if let Some(expected) = byte_len(descriptor.dtype, &descriptor.shape)
            && expected != (range.end - range.start) as u64
        {
            return Err(invalid(format!(
                "burnpack: tensor '{name}' holds {} bytes but shape {:?} of {:?} needs {expected}",
                range.end - range.start,
                descriptor.shape,
                descriptor.dtype
            )));
        }
        let raw = bytes.get(range.clone()).ok_or_else(|| {
            invalid(format!(
                "burnpack: truncated: tensor '{name}' ends at byte {} of a {}-byte file",
                range.end,
                bytes.len()
            ))
        })?;
        let shape = descriptor
            .shape
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| invalid(format!("burnpack: tensor '{name}' is too large")))?;
        let data =
            TensorData::try_from_bytes(burn_tensor::Bytes::from(raw), shape, descriptor.dtype)
                .map_err(|e| invalid(format!("burnpack: tensor '{name}': {e}")))?;
        entries.push(PackEntry {
            name,
            param_id: descriptor.param_id,
            data,
        });
    }
    Ok((entries, blob.metadata))
}

/// `path`, or `path.bpk` when `path` has no extension (Burn 0.23's rule for writing).
pub(crate) fn write_path(path: &std::path::Path) -> std::path::PathBuf {
    if path.extension().is_none() {
        path.with_extension(EXTENSION)
    } else {
        path.to_path_buf()
    }
}

/// `path`, or `path.bpk` when `path` has no extension and does not exist (the rule for reading).
pub(crate) fn read_path(path: &std::path::Path) -> std::path::PathBuf {
    if path.extension().is_none() && !path.exists() {
        path.with_extension(EXTENSION)
    } else {
        path.to_path_buf()
    }
}

/// Writes `bytes` to `path` without ever leaving a partial file there: the bytes go to a
/// sibling scratch file, synced, then renamed over `path`.
pub(crate) fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<(), RecordError> {
    use std::io::Write;
    let io = |what: &str, e: std::io::Error| {
        RecordError::Io(format!("cannot {what} {}: {e}", path.display()))
    };
    let mut scratch = path.as_os_str().to_owned();
    scratch.push(format!(".{}.tmp", std::process::id()));
    let scratch = std::path::PathBuf::from(scratch);
    let result = (|| {
        let mut file =
            std::fs::File::create(&scratch).map_err(|e| io("create a file beside", e))?;
        file.write_all(bytes).map_err(|e| io("write", e))?;
        file.sync_all().map_err(|e| io("sync", e))?;
        std::fs::rename(&scratch, path).map_err(|e| io("replace", e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&scratch);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, values: Vec<f32>, shape: Vec<usize>) -> PackEntry {
        PackEntry {
            name: name.into(),
            param_id: Some(7),
            data: TensorData::new(values, shape),
        }
    }

    fn sample() -> Vec<u8> {
        let entries = [
            entry("b.weight", vec![1.0, 2.0, 3.0], vec![3]),
            entry("a.bias", vec![4.0; 70], vec![7, 10]),
        ];
        let metadata = BTreeMap::from([("producer".to_string(), "test".to_string())]);
        encode(&entries, &metadata).unwrap().to_vec()
    }

    #[test]
    fn the_layout_is_burns_header_cbor_and_256_byte_aligned_tensors() {
        let bytes = sample();
        assert_eq!(&bytes[0..4], b"NRUB", "0x4255524E little-endian");
        assert_eq!(u16::from_le_bytes([bytes[4], bytes[5]]), 1);
        let meta_size = u32::from_le_bytes(bytes[6..10].try_into().unwrap()) as usize;
        let data_start = align(HEADER_SIZE + meta_size);
        assert_eq!(data_start % TENSOR_ALIGNMENT, 0);
        // The first tensor written starts the data section, the second the next boundary.
        let first = &bytes[data_start..data_start + 12];
        let expected: Vec<u8> = [1.0f32, 2.0, 3.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        assert_eq!(first, expected);
        let second = data_start + TENSOR_ALIGNMENT;
        assert_eq!(&bytes[second..second + 4], 4.0f32.to_le_bytes());
        assert_eq!(bytes.len(), second + 280);
    }

    #[test]
    fn decoding_gives_the_tensors_sorted_with_ids_and_metadata() {
        let (entries, metadata) = decode(&sample()).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["a.bias", "b.weight"]);
        assert_eq!(entries[1].data.to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0]);
        assert_eq!(entries[0].data.shape.dims[..], [7, 10]);
        assert_eq!(entries[0].param_id, Some(7));
        assert_eq!(metadata["producer"], "test");
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let bytes = sample();
        let reason = |bytes: &[u8]| match decode(bytes) {
            Err(RecordError::Validation(message)) => message,
            other => panic!("expected a validation error, got {other:?}"),
        };
        assert!(reason(&bytes[..4]).contains("header"));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert!(reason(&magic).contains("magic"));
        let mut version = bytes.clone();
        version[4] = 9;
        assert!(reason(&version).contains("version 9"));
        assert!(reason(&bytes[..bytes.len() - 1]).contains("truncated"));
        let mut metadata = bytes.clone();
        metadata[HEADER_SIZE] = 0xff;
        assert!(reason(&metadata).contains("metadata"));
    }

    #[test]
    fn two_tensors_of_one_name_are_refused() {
        let entries = [
            entry("w", vec![1.0], vec![1]),
            entry("w", vec![2.0], vec![1]),
        ];
        assert!(encode(&entries, &BTreeMap::new()).is_err());
    }

    #[test]
    fn a_path_without_extension_gets_bpk_when_written() {
        use std::path::Path;
        assert_eq!(write_path(Path::new("model")), Path::new("model.bpk"));
        assert_eq!(write_path(Path::new("model.bin")), Path::new("model.bin"));
    }
}
