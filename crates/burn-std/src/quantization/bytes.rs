//! The bytes of a quantized tensor: `QuantizedBytes`, its length and the scale grid, and the
//! `TensorData` constructors that use them.
//!
//! Layout, in order: the **values** as the store packs them (see the `packing` module), zero
//! padding to a multiple of [`QPARAM_ALIGN`] bytes, then the **scales** encoded at the scheme's
//! [`scale_dtype`](QuantScheme::scale_dtype) (one per tensor, or the block grid of
//! [`params_shape`] row-major — in the swapped order of the values when they are packed along an
//! outer axis), then, for a two-level scheme only, the global f32 scale.

use super::QuantScheme;
use super::packing::{ValuePacking, stored_order};
use crate::{DType, DataError, Shape, TensorData};

/// The alignment, in bytes, of the scales after the values.
pub const QPARAM_ALIGN: usize = 4;

/// The shape of the scales of a tensor of `shape` under `scheme`: `[1]` per tensor, else the
/// block grid (blocks per dim, rounded up).
pub fn params_shape(shape: &Shape, scheme: &QuantScheme) -> Shape {
    match scheme.block_size() {
        Some(block) => Shape::from(block.num_blocks(&shape.dims)),
        None => Shape::new([1]),
    }
}

/// Bytes of the quantized data of a tensor of `shape` under `scheme` (values, padding, scales
/// and, for two-level schemes, the global scale); panics when the packed axis is outside the
/// rank or the block has more dims than the shape.
pub fn quantized_data_len(scheme: &QuantScheme, shape: &Shape) -> usize {
    let packing = ValuePacking::new(&shape.dims, scheme)
        .unwrap_or_else(|reason| panic!("quantized_data_len: {reason}"));
    let num_scales = params_shape(shape, scheme).num_elements();
    let global = if scheme.num_levels() > 1 { 4 } else { 0 };
    packing.byte_len().next_multiple_of(QPARAM_ALIGN)
        + num_scales * scheme.scale_dtype().size_bytes()
        + global
}

/// The scale grid in stored order: `None` when it is row-major (per-tensor scales, or values
/// not packed along an outer axis).
fn scale_order(shape: &Shape, scheme: &QuantScheme) -> Option<Vec<usize>> {
    let (dim, _) = scheme.packing_dim().zip(scheme.block_size())?;
    let grid = params_shape(shape, scheme);
    stored_order(&grid.dims, grid.num_dims().checked_sub(dim + 1)?)
}

/// A quantized tensor's bytes with its scheme and shape (see the module docs for the layout).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuantizedBytes {
    /// The values, the padding and the scales.
    pub bytes: Vec<u8>,
    /// The scheme the bytes follow.
    pub scheme: QuantScheme,
    /// The shape of the tensor.
    pub shape: Shape,
}

impl QuantizedBytes {
    /// Packs row-major `values` (one `i8` per element, within the value's range) and `scales`
    /// (one per tensor, or the block grid row-major) under `scheme`.
    ///
    /// Panics, naming the reason, when the counts do not match the shape, a value is out of
    /// range, the packed axis is outside the rank, or the scheme has two levels (not encoded).
    pub fn new(
        values: Vec<i8>,
        shape: impl Into<Shape>,
        scheme: QuantScheme,
        scales: &[f32],
    ) -> Self {
        let shape = shape.into();
        let fail = |reason: String| -> ! {
            panic!("QuantizedBytes::new: {reason} (scheme {scheme}, shape {shape:?})")
        };
        if scheme.num_levels() > 1 {
            fail("two-level schemes are not supported".into());
        }
        let packing = ValuePacking::new(&shape.dims, &scheme).unwrap_or_else(|r| fail(r));
        if values.len() != shape.num_elements() {
            fail(format!(
                "{} values for {} elements",
                values.len(),
                shape.num_elements()
            ));
        }
        let num_scales = params_shape(&shape, &scheme).num_elements();
        if scales.len() != num_scales {
            fail(format!(
                "{} scales, the scheme takes {num_scales}",
                scales.len()
            ));
        }
        if let Some(value) = values.iter().find(|&&v| !fits(&scheme, v)) {
            fail(format!("the value {value} does not fit {}", scheme.value));
        }

        let mut bytes = packing.pack(&values);
        bytes.resize(bytes.len().next_multiple_of(QPARAM_ALIGN), 0);
        let dtype = scheme.scale_dtype();
        match scale_order(&shape, &scheme) {
            Some(order) => order
                .iter()
                .for_each(|&i| dtype.encode(scales[i], &mut bytes)),
            None => scales.iter().for_each(|&s| dtype.encode(s, &mut bytes)),
        }
        Self {
            bytes,
            scheme,
            shape,
        }
    }

    /// Wraps bytes laid out as [`new`](Self::new) writes them; an error when their length is
    /// not [`quantized_data_len`], the packed axis is outside the rank, or the scheme has two
    /// levels.
    pub fn from_bytes(
        bytes: Vec<u8>,
        shape: impl Into<Shape>,
        scheme: QuantScheme,
    ) -> Result<Self, DataError> {
        let shape = shape.into();
        let error = |reason: String| {
            DataError::CastError(format!(
                "QuantizedBytes::from_bytes: {reason} (scheme {scheme}, shape {shape:?})"
            ))
        };
        if scheme.num_levels() > 1 {
            return Err(error("two-level schemes are not supported".into()));
        }
        ValuePacking::new(&shape.dims, &scheme).map_err(error)?;
        if shape.num_dims() < scheme.block_size().map_or(0, |b| b.as_slice().len()) {
            return Err(error("the block has more dims than the shape".into()));
        }
        let expected = quantized_data_len(&scheme, &shape);
        if bytes.len() != expected {
            return Err(error(format!(
                "expected {expected} bytes, got {}",
                bytes.len()
            )));
        }
        Ok(Self {
            bytes,
            scheme,
            shape,
        })
    }

    /// The row-major values, one `i8` each (integers sign-extended, float codes as their bits).
    pub fn values(&self) -> Vec<i8> {
        self.packing().unpack(&self.bytes)
    }

    /// The decoded scales, row-major over [`params_shape`].
    pub fn scales(&self) -> Vec<f32> {
        let packed_len = self.packing().byte_len().next_multiple_of(QPARAM_ALIGN);
        let dtype = self.scheme.scale_dtype();
        let stored: Vec<f32> = self.bytes[packed_len..]
            .chunks_exact(dtype.size_bytes())
            .take(params_shape(&self.shape, &self.scheme).num_elements())
            .map(|chunk| dtype.decode(chunk))
            .collect();
        match scale_order(&self.shape, &self.scheme) {
            None => stored,
            Some(order) => {
                let mut scales = vec![0.0; stored.len()];
                for (&position, scale) in order.iter().zip(stored) {
                    scales[position] = scale;
                }
                scales
            }
        }
    }

    /// The row-major values and the decoded scales (see [`values`](Self::values) and
    /// [`scales`](Self::scales)).
    pub fn into_vec_i8(self) -> (Vec<i8>, Vec<f32>) {
        (self.values(), self.scales())
    }

    fn packing(&self) -> ValuePacking {
        assert!(
            self.scheme.num_levels() == 1,
            "QuantizedBytes: two-level schemes are not supported ({})",
            self.scheme
        );
        ValuePacking::new(&self.shape.dims, &self.scheme)
            .unwrap_or_else(|reason| panic!("QuantizedBytes: {reason}"))
    }
}

/// Whether `value` is a valid code of the scheme's value type.
fn fits(scheme: &QuantScheme, value: i8) -> bool {
    if scheme.value.is_float() {
        let bits = scheme.size_bits_value();
        bits >= 8 || (value as u8) < (1 << bits)
    } else {
        let (min, max) = scheme.value.range();
        (min..=max).contains(&(value as f32))
    }
}

impl From<QuantizedBytes> for TensorData {
    fn from(quantized: QuantizedBytes) -> Self {
        TensorData::from_bytes_slice(
            &quantized.bytes,
            quantized.shape,
            DType::QFloat(quantized.scheme),
        )
    }
}

impl TensorData {
    /// Quantized data of dtype `QFloat(scheme)` from row-major `values` (one `i8` each, within
    /// the value's range) and `scales` (see [`QuantizedBytes::new`], which panics the same way).
    pub fn quantized(
        values: Vec<i8>,
        shape: impl Into<Shape>,
        scheme: QuantScheme,
        scales: &[f32],
    ) -> TensorData {
        QuantizedBytes::new(values, shape, scheme, scales).into()
    }

    /// The quantized bytes of `QFloat` data; an error for any other dtype or a malformed
    /// length.
    pub fn as_quantized(&self) -> Result<QuantizedBytes, DataError> {
        match self.dtype {
            DType::QFloat(scheme) => {
                QuantizedBytes::from_bytes(self.as_bytes().to_vec(), self.shape.clone(), scheme)
            }
            dtype => Err(DataError::CastError(format!(
                "TensorData::as_quantized: the data holds {dtype}, not a quantized dtype"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantization::{QuantStore, QuantValue, ScaleDtype};

    fn q(value: QuantValue, store: QuantStore) -> QuantScheme {
        QuantScheme::default().with_value(value).with_store(store)
    }

    #[test]
    fn scales_start_aligned_after_the_values() {
        let scheme = q(QuantValue::Q8S, QuantStore::Native);
        let bytes = QuantizedBytes::new(vec![1, 2, 3, 4, 5], [5], scheme, &[0.5]);
        assert_eq!(bytes.bytes.len(), 12);
        assert_eq!(bytes.bytes[..8], [1, 2, 3, 4, 5, 0, 0, 0]);
        assert_eq!(bytes.bytes[8..], 0.5f32.to_le_bytes());
        assert_eq!(quantized_data_len(&scheme, &Shape::new([5])), 12);
        assert_eq!(bytes.into_vec_i8(), (vec![1, 2, 3, 4, 5], vec![0.5]));
    }

    #[test]
    fn params_shape_is_the_block_grid() {
        let shape = Shape::new([4, 70]);
        assert_eq!(
            params_shape(&shape, &QuantScheme::default()),
            Shape::new([1])
        );
        let block = QuantScheme::default().per_block([2, 32], ScaleDtype::F16);
        assert_eq!(params_shape(&shape, &block), Shape::new([2, 3]));
        // 4 rows of 70 bytes padded to 72, then 6 f16 scales.
        assert_eq!(quantized_data_len(&block, &shape), 4 * 72 + 12);
    }

    #[test]
    fn q4_tensor_bytes() {
        let scheme = q(QuantValue::Q4S, QuantStore::PackedU32(0));
        let values = vec![1, 2, 3, 4, 5, 6, -7, -6, -5];
        let bytes = QuantizedBytes::new(values.clone(), [3, 3], scheme, &[2.0]);
        assert_eq!(bytes.bytes.len(), 16, "3 words and one scale");
        assert_eq!(bytes.bytes[..4], 0x321u32.to_le_bytes());
        assert_eq!(bytes.into_vec_i8(), (values, vec![2.0]));
    }

    #[test]
    fn round_trips_on_every_axis_with_block_scales() {
        let shape = Shape::new([3, 4, 6]);
        for value in [
            QuantValue::Q8S,
            QuantValue::Q4S,
            QuantValue::Q2S,
            QuantValue::Q4F,
        ] {
            let (min, max) = value.range();
            let span = (max - min) as i32 + 1;
            let values: Vec<i8> = (0..72).map(|i| (min as i32 + i * 7 % span) as i8).collect();
            for store in [
                QuantStore::Native,
                QuantStore::PackedU32(0),
                QuantStore::PackedU32(1),
                QuantStore::PackedU32(2),
            ] {
                for (scheme, num_scales) in [
                    (q(value, store), 1),
                    (
                        q(value, store).per_block([2, 4], ScaleDtype::F32),
                        3 * 2 * 2,
                    ),
                    (
                        q(value, store).per_block([3, 1, 5], ScaleDtype::BF16),
                        4 * 2,
                    ),
                ] {
                    let scales: Vec<f32> = (0..num_scales).map(|i| 0.25 * (i + 1) as f32).collect();
                    let bytes = QuantizedBytes::new(values.clone(), shape.clone(), scheme, &scales);
                    assert_eq!(bytes.bytes.len(), quantized_data_len(&scheme, &shape));
                    let data = TensorData::from(bytes.clone());
                    assert_eq!(data.dtype, DType::QFloat(scheme));
                    assert_eq!(data.as_quantized().unwrap(), bytes);
                    assert_eq!(bytes.into_vec_i8(), (values.clone(), scales), "{scheme}");
                }
            }
        }
    }

    #[test]
    fn block_scales_follow_the_swapped_values() {
        // A [4, 8] tensor packed along dim 0, blocks [2, 4]: grid [2, 2] stored transposed.
        let scheme =
            q(QuantValue::Q8S, QuantStore::PackedU32(1)).per_block([2, 4], ScaleDtype::F32);
        let bytes = QuantizedBytes::new(vec![0; 32], [4, 8], scheme, &[1.0, 2.0, 3.0, 4.0]);
        let stored: Vec<f32> = bytes.bytes[32..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(stored, [1.0, 3.0, 2.0, 4.0]);
        assert_eq!(bytes.scales(), [1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn from_bytes_checks_the_length() {
        let scheme = q(QuantValue::Q8S, QuantStore::PackedU32(0));
        let error = QuantizedBytes::from_bytes(vec![0; 13], [3, 3], scheme).unwrap_err();
        assert!(
            error.to_string().contains("expected 16 bytes, got 13"),
            "{error}"
        );
        assert!(QuantizedBytes::from_bytes(vec![0; 16], [3, 3], scheme).is_ok());
        let packed_outside = q(QuantValue::Q8S, QuantStore::PackedU32(2));
        assert!(QuantizedBytes::from_bytes(vec![0; 16], [3, 3], packed_outside).is_err());
        assert!(TensorData::from([1.0f32]).as_quantized().is_err());
    }

    #[test]
    #[should_panic(expected = "TensorData::from_bytes: 13 bytes do not hold shape [3, 3]")]
    fn tensor_data_checks_the_quantized_length() {
        let scheme = q(QuantValue::Q8S, QuantStore::PackedU32(0));
        TensorData::from_bytes_slice(&[0; 13], [3, 3], DType::QFloat(scheme));
    }

    #[test]
    #[should_panic(expected = "the value -8 does not fit q4s")]
    fn out_of_range_values_are_refused() {
        let scheme = q(QuantValue::Q4S, QuantStore::PackedU32(0));
        TensorData::quantized(vec![-8], [1], scheme, &[1.0]);
    }

    #[test]
    #[should_panic(expected = "two-level schemes are not supported")]
    fn two_level_schemes_are_not_encoded() {
        let scheme: QuantScheme = serde_json::from_str(
            r#"{"value":"Q8S","store":"Native","mode":"Symmetric",
                "tensor":"F32","block":{"size":[2],"dtype":"F16"}}"#,
        )
        .unwrap();
        QuantizedBytes::new(vec![0, 0], [2], scheme, &[1.0]);
    }
}
