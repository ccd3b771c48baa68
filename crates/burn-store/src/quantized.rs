//! Checks on quantized tensor data before it is built: its bytes must be exactly what its
//! scheme and logical shape call for (values, padding and scales), so that building the
//! tensor cannot panic.

use burn_core::tensor::Shape;
use burn_core::tensor::quantization::QuantScheme;
use burn_std::quantization::quantized_data_len;

/// The most values one byte of quantized data can hold (2-bit values packed in `u32` words).
const MAX_VALUES_PER_BYTE: usize = 4;

/// Checks that `len` bytes are the data of a tensor of logical shape `shape` quantized with
/// `scheme`, which must be supported ([`QuantScheme::is_supported`]); the error says why not.
pub(crate) fn check_quantized_bytes(
    scheme: &QuantScheme,
    shape: &[usize],
    len: usize,
) -> Result<(), String> {
    let rank = shape.len();
    // Bounding the count first keeps the length computation below from overflowing.
    let fits = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .is_some_and(|n| n <= len.saturating_mul(MAX_VALUES_PER_BYTE).max(1));
    if !fits {
        return Err(format!(
            "shape {shape:?} holds more values than {len} bytes can"
        ));
    }
    if let Some(dim) = scheme.packing_dim()
        && dim >= rank.max(1)
    {
        return Err(format!(
            "scheme {scheme} packs dim {dim} from the innermost, outside shape {shape:?}"
        ));
    }
    if let Some(block) = scheme.block_size() {
        if block.as_slice().len() > rank {
            return Err(format!(
                "scheme {scheme} has blocks of more dims than shape {shape:?}"
            ));
        }
        // Devices hold whole blocks only.
        let extents = block.to_dim_vec(rank);
        if extents.iter().zip(shape).any(|(&b, &s)| s % b != 0) {
            return Err(format!(
                "blocks of {extents:?} (scheme {scheme}) do not divide shape {shape:?}"
            ));
        }
    }
    let expected = quantized_data_len(scheme, &Shape::from(shape.to_vec()));
    if len != expected {
        return Err(format!(
            "{len} bytes, but scheme {scheme} on shape {shape:?} takes {expected}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_core::tensor::quantization::{QuantStore, QuantValue, ScaleDtype};

    fn q8s() -> QuantScheme {
        QuantScheme::default().with_value(QuantValue::Q8S)
    }

    #[test]
    fn the_exact_length_passes_and_any_other_is_refused() {
        // 4×4 i8 values, then one f32 scale.
        check_quantized_bytes(&q8s(), &[4, 4], 20).unwrap();
        let error = check_quantized_bytes(&q8s(), &[4, 4], 19).unwrap_err();
        assert_eq!(
            error,
            "19 bytes, but scheme q8s/tensor on shape [4, 4] takes 20"
        );
        // Q4 packed 8 per word: 2 words per row of 16, one f32 scale per block of 16.
        let q4 = QuantScheme::default()
            .with_value(QuantValue::Q4S)
            .with_store(QuantStore::PackedU32(0))
            .per_block([16], ScaleDtype::F32);
        check_quantized_bytes(&q4, &[2, 16], 2 * 8 + 2 * 4).unwrap();
    }

    #[test]
    fn shapes_the_scheme_cannot_describe_are_refused_without_panicking() {
        let outer = q8s().with_store(QuantStore::PackedU32(2));
        let error = check_quantized_bytes(&outer, &[4, 4], 20).unwrap_err();
        assert!(error.contains("packs dim 2"), "{error}");
        let block = q8s().per_block([2, 2], ScaleDtype::F32);
        let error = check_quantized_bytes(&block, &[4], 8).unwrap_err();
        assert!(error.contains("blocks of more dims"), "{error}");
        let error = check_quantized_bytes(&q8s(), &[usize::MAX, 2], 20).unwrap_err();
        assert!(error.contains("more values than 20 bytes"), "{error}");
        let error = check_quantized_bytes(&q8s(), &[1 << 40, 1 << 20], 8).unwrap_err();
        assert!(error.contains("more values"), "{error}");
    }
}
