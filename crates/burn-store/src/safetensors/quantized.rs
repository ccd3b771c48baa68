//! How quantized tensors are stored in a safetensors file (our own format; safetensors has
//! no quantized dtypes).
//!
//! A tensor of dtype `QFloat(scheme)` and logical shape `shape` is written as:
//!
//! - a `U8` entry under its key, 1-D, holding its quantized bytes exactly as
//!   `TensorData::as_bytes` gives them (values packed as the scheme's store says, zero padding
//!   to 4 bytes, then the scales; see `burn_std::quantization::QuantizedBytes`), so its
//!   length is the byte count;
//! - `__metadata__` entry `burn.qscheme.<key>`: the scheme as JSON (its serde form, e.g.
//!   `{"value":"Q8S","store":{"PackedU32":0},"mode":"Symmetric","tensor":null,"block":null}`);
//! - `__metadata__` entry `burn.qshape.<key>`: the logical shape as a JSON array, e.g. `[64,16]`.
//!
//! On load, an entry with both metadata keys is read back as that `QFloat` data. Both keys
//! must be present, valid JSON, and name a 1-D `U8` entry whose length is what the scheme and
//! shape call for; anything else is [`StoreError::InvalidQuantized`]. A scheme this build
//! cannot hold is read as an unsupported dtype, refused only if a parameter loads it. Other
//! readers (PyTorch) see plain `U8` tensors.

use crate::StoreError;
use crate::quantized::check_quantized_bytes;
use burn_core::tensor::DType;
use burn_core::tensor::quantization::QuantScheme;
use std::collections::BTreeMap;

/// The metadata key prefix of a quantized tensor's scheme.
pub(crate) const SCHEME_PREFIX: &str = "burn.qscheme.";
/// The metadata key prefix of a quantized tensor's logical shape.
pub(crate) const SHAPE_PREFIX: &str = "burn.qshape.";

/// Whether `key` is a metadata key this format writes (users may not set them).
pub(crate) fn is_reserved(key: &str) -> bool {
    key.starts_with(SCHEME_PREFIX) || key.starts_with(SHAPE_PREFIX)
}

/// Adds the metadata entries describing the quantized tensor `key` to `metadata`.
pub(crate) fn describe(
    metadata: &mut BTreeMap<String, String>,
    key: &str,
    scheme: &QuantScheme,
    shape: &[usize],
) -> Result<(), String> {
    let scheme = serde_json::to_string(scheme).map_err(|e| e.to_string())?;
    let shape = serde_json::to_string(shape).map_err(|e| e.to_string())?;
    metadata.insert(format!("{SCHEME_PREFIX}{key}"), scheme);
    metadata.insert(format!("{SHAPE_PREFIX}{key}"), shape);
    Ok(())
}

/// A quantized tensor as the metadata describes it.
#[derive(Debug)]
pub(crate) struct Described {
    /// `QFloat(scheme)`, or its description when the scheme is not supported here.
    pub(crate) dtype: Result<DType, String>,
    /// The logical shape.
    pub(crate) shape: Vec<usize>,
}

/// Reads the quantized tensors `metadata` describes, by tensor key. An error names the
/// tensor and says what is wrong.
pub(crate) fn described(
    file: &str,
    metadata: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Described>, StoreError> {
    let invalid = |key: &str, reason: String| StoreError::InvalidQuantized {
        file: file.to_string(),
        key: key.to_string(),
        reason,
    };
    let mut out = BTreeMap::new();
    for (entry, json) in metadata {
        if let Some(key) = entry.strip_prefix(SHAPE_PREFIX) {
            if !metadata.contains_key(&format!("{SCHEME_PREFIX}{key}")) {
                return Err(invalid(
                    key,
                    format!("`{entry}` without `{SCHEME_PREFIX}{key}`"),
                ));
            }
            continue;
        }
        let Some(key) = entry.strip_prefix(SCHEME_PREFIX) else {
            continue;
        };
        let shape_entry = format!("{SHAPE_PREFIX}{key}");
        let shape_json = metadata
            .get(&shape_entry)
            .ok_or_else(|| invalid(key, format!("`{entry}` without `{shape_entry}`")))?;
        let scheme: QuantScheme = serde_json::from_str(json)
            .map_err(|e| invalid(key, format!("`{entry}` is not a scheme: {e}")))?;
        let shape: Vec<usize> = serde_json::from_str(shape_json)
            .map_err(|e| invalid(key, format!("`{shape_entry}` is not a shape: {e}")))?;
        let dtype = match scheme.unsupported_reason() {
            None => Ok(DType::QFloat(scheme)),
            Some(reason) => Err(format!("qfloat {scheme} ({reason})")),
        };
        out.insert(key.to_string(), Described { dtype, shape });
    }
    Ok(out)
}

/// Checks the stored entry of the quantized tensor `key` against its description: a 1-D
/// `U8` entry whose length is the byte count its scheme and shape call for.
pub(crate) fn check_entry(
    file: &str,
    key: &str,
    described: &Described,
    stored_dtype: ::safetensors::Dtype,
    stored_shape: &[usize],
    len: usize,
) -> Result<(), StoreError> {
    let invalid = |reason: String| StoreError::InvalidQuantized {
        file: file.to_string(),
        key: key.to_string(),
        reason,
    };
    if stored_dtype != ::safetensors::Dtype::U8 || stored_shape.len() != 1 {
        return Err(invalid(format!(
            "stored as {stored_dtype} of shape {stored_shape:?}, expected 1-D U8 bytes"
        )));
    }
    match described.dtype {
        Ok(DType::QFloat(scheme)) => {
            check_quantized_bytes(&scheme, &described.shape, len).map_err(invalid)
        }
        _ => Ok(()), // unsupported: refused if loaded
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_core::tensor::quantization::{QuantValue, ScaleDtype};

    fn q8s() -> QuantScheme {
        QuantScheme::default().with_value(QuantValue::Q8S)
    }

    fn metadata(entries: &[(&str, &str)]) -> BTreeMap<String, String> {
        entries
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn described_tensors_read_back() {
        let mut map = metadata(&[("format", "pt")]);
        describe(&mut map, "layer.weight", &q8s(), &[4, 16]).unwrap();
        assert!(is_reserved("burn.qscheme.layer.weight"));
        assert!(!is_reserved("burn.other"));
        let read = described("f", &map).unwrap();
        assert_eq!(read.len(), 1);
        let weight = &read["layer.weight"];
        assert_eq!(weight.dtype, Ok(DType::QFloat(q8s())));
        assert_eq!(weight.shape, [4, 16]);
    }

    #[test]
    fn malformed_descriptions_name_the_tensor() {
        let scheme = serde_json::to_string(&q8s()).unwrap();
        for (entries, wanted) in [
            (vec![("burn.qscheme.w", "{nope")], "without `burn.qshape.w`"),
            (vec![("burn.qshape.w", "[2]")], "without `burn.qscheme.w`"),
            (
                vec![("burn.qscheme.w", "{nope"), ("burn.qshape.w", "[2]")],
                "is not a scheme",
            ),
            (
                vec![("burn.qscheme.w", &scheme), ("burn.qshape.w", "[-2]")],
                "is not a shape",
            ),
        ] {
            let error = described("f", &metadata(&entries)).unwrap_err();
            assert_eq!(error.key(), Some("w"));
            assert!(error.to_string().contains(wanted), "{error}");
        }
    }

    #[test]
    fn unsupported_schemes_are_described_not_refused() {
        let e4m3 = q8s()
            .with_value(QuantValue::E4M3)
            .per_tensor(ScaleDtype::F32);
        let mut map = BTreeMap::new();
        describe(&mut map, "w", &e4m3, &[4]).unwrap();
        let read = described("f", &map).unwrap();
        let reason = read["w"].dtype.clone().unwrap_err();
        assert!(reason.starts_with("qfloat e4m3/tensor"), "{reason}");
        check_entry("f", "w", &read["w"], ::safetensors::Dtype::U8, &[7], 7).unwrap();
    }

    #[test]
    fn entries_must_be_one_dimensional_bytes_of_the_right_length() {
        let mut map = BTreeMap::new();
        describe(&mut map, "w", &q8s(), &[4]).unwrap();
        let read = described("f", &map).unwrap();
        let w = &read["w"];
        check_entry("f", "w", w, ::safetensors::Dtype::U8, &[8], 8).unwrap();
        let error = check_entry("f", "w", w, ::safetensors::Dtype::F32, &[2], 8).unwrap_err();
        assert!(error.to_string().contains("expected 1-D U8"), "{error}");
        let error = check_entry("f", "w", w, ::safetensors::Dtype::U8, &[2, 4], 8).unwrap_err();
        assert!(error.to_string().contains("expected 1-D U8"), "{error}");
        let error = check_entry("f", "w", w, ::safetensors::Dtype::U8, &[9], 9).unwrap_err();
        assert!(error.to_string().contains("9 bytes"), "{error}");
    }
}
