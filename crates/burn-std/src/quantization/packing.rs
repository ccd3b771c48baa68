//! Packing values into words along an axis, and the stored order of a tensor packed along an
//! outer axis.
//!
//! A store packed along axis `a` (`PackedU32(d)` with `a = rank - 1 - d`) stores the tensor as if
//! `a` were **swapped** with the last axis: the tensor with those two dims swapped, read
//! row-major, so each line along `a` is contiguous. Each line is packed into little-endian words
//! (value `k` of a word at bit `k * bits`, two's-complement fields) and padded to whole words.
//! The block scales of such a tensor are stored in the same swapped order.

use super::{QuantScheme, QuantStore};

/// The row-major positions of a tensor of `dims`, in the order it is stored when axis `axis`
/// is swapped with the last one; `None` when that is row-major already (`axis` is the last).
pub(crate) fn stored_order(dims: &[usize], axis: usize) -> Option<Vec<usize>> {
    let rank = dims.len();
    if rank == 0 || axis == rank - 1 {
        return None;
    }
    let mut strides = crate::Shape::from(dims).contiguous_strides();
    let mut swapped = dims.to_vec();
    strides.swap(axis, rank - 1);
    swapped.swap(axis, rank - 1);

    let count: usize = dims.iter().product();
    let mut positions = Vec::with_capacity(count);
    let mut index = vec![0; rank];
    let mut position = 0;
    for _ in 0..count {
        positions.push(position);
        // Odometer over the swapped dims, keeping `position` in step.
        for d in (0..rank).rev() {
            index[d] += 1;
            position += strides[d];
            if index[d] < swapped[d] {
                break;
            }
            position -= strides[d] * swapped[d];
            index[d] = 0;
        }
    }
    Some(positions)
}

/// How a scheme lays out the values of one tensor: lines along the packed axis, each packed into
/// words of `word_bytes` bytes holding `per_word` values.
#[derive(Debug, Clone)]
pub(crate) struct ValuePacking {
    dims: Vec<usize>,
    axis: usize,
    bits: usize,
    per_word: usize,
    word_bytes: usize,
    /// Minifloat codes are kept as their bits, integers are sign-extended.
    float_codes: bool,
}

impl ValuePacking {
    /// The packing of a tensor of `dims` under `scheme` (a rank-0 tensor is one line of one
    /// value); an error when the packed axis is outside the rank.
    pub(crate) fn new(dims: &[usize], scheme: &QuantScheme) -> Result<Self, String> {
        let dims = if dims.is_empty() {
            vec![1]
        } else {
            dims.to_vec()
        };
        let rank = dims.len();
        let axis = match scheme.store {
            QuantStore::Native => rank - 1,
            QuantStore::PackedU32(d) | QuantStore::PackedNative(d) => {
                rank.checked_sub(d + 1).ok_or_else(|| {
                    format!(
                        "the store {} packs dim {d} from the innermost, outside rank {rank}",
                        scheme.store
                    )
                })?
            }
        };
        Ok(Self {
            dims,
            axis,
            bits: scheme.size_bits_value(),
            per_word: scheme.num_quants(),
            word_bytes: scheme.size_bits_stored().div_ceil(8),
            float_codes: scheme.value.is_float(),
        })
    }

    fn line_len(&self) -> usize {
        self.dims[self.axis]
    }

    fn num_lines(&self) -> usize {
        self.dims.iter().product::<usize>() / self.line_len().max(1)
    }

    fn words_per_line(&self) -> usize {
        self.line_len().div_ceil(self.per_word)
    }

    /// Bytes the packed values take (before any alignment padding).
    pub(crate) fn byte_len(&self) -> usize {
        self.num_lines() * self.words_per_line() * self.word_bytes
    }

    /// The stored order of the values (`None`: row-major).
    fn order(&self) -> Option<Vec<usize>> {
        stored_order(&self.dims, self.axis)
    }

    /// Packs row-major `values` (one per element, each fitting the value's bits).
    pub(crate) fn pack(&self, values: &[i8]) -> Vec<u8> {
        let order = self.order();
        let value_at = |i: usize| match &order {
            Some(positions) => values[positions[i]],
            None => values[i],
        };
        let (len, words_per_line) = (self.line_len(), self.words_per_line());
        let mask = field_mask(self.bits);
        let mut bytes = Vec::with_capacity(self.byte_len());
        for line in 0..self.num_lines() {
            for word_index in 0..words_per_line {
                let start = word_index * self.per_word;
                let mut word = 0u32;
                for k in start..(start + self.per_word).min(len) {
                    let field = value_at(line * len + k) as u8 as u32 & mask;
                    word |= field << ((k - start) * self.bits);
                }
                bytes.extend_from_slice(&word.to_le_bytes()[..self.word_bytes]);
            }
        }
        bytes
    }

    /// The row-major values packed in `bytes` (at least [`byte_len`](Self::byte_len) long).
    pub(crate) fn unpack(&self, bytes: &[u8]) -> Vec<i8> {
        let (len, words_per_line) = (self.line_len(), self.words_per_line());
        let mask = field_mask(self.bits);
        let shift = 8 - self.bits as u32;
        let mut stored = Vec::with_capacity(self.num_lines() * len);
        for (index, chunk) in bytes[..self.byte_len()]
            .chunks_exact(self.word_bytes)
            .enumerate()
        {
            let mut le = [0u8; 4];
            le[..self.word_bytes].copy_from_slice(chunk);
            let word = u32::from_le_bytes(le);
            let start = index % words_per_line * self.per_word;
            for k in 0..(len - start).min(self.per_word) {
                let field = (word >> (k * self.bits) & mask) as u8;
                stored.push(if self.float_codes {
                    field as i8
                } else {
                    ((field << shift) as i8) >> shift
                });
            }
        }
        match self.order() {
            None => stored,
            Some(positions) => {
                let mut values = vec![0; stored.len()];
                for (&position, value) in positions.iter().zip(stored) {
                    values[position] = value;
                }
                values
            }
        }
    }
}

/// The low `bits` bits set.
fn field_mask(bits: usize) -> u32 {
    (1u32 << bits) - 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantization::QuantValue;

    fn scheme(value: QuantValue, store: QuantStore) -> QuantScheme {
        QuantScheme::default().with_value(value).with_store(store)
    }

    fn words(bytes: &[u8]) -> Vec<u32> {
        bytes
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect()
    }

    #[test]
    fn pack_vectors() {
        // Memo §3: bytes 0x80, 0x02, 0xFD, 0x7F, little-endian.
        let q8 = ValuePacking::new(&[4], &scheme(QuantValue::Q8F, QuantStore::PackedU32(0)));
        let q8 = q8.unwrap();
        assert_eq!(words(&q8.pack(&[-128, 2, -3, 127])), [0x7FFD_0280]);
        let q4 = ValuePacking::new(&[8], &scheme(QuantValue::Q4F, QuantStore::PackedU32(0)));
        let q4 = q4.unwrap();
        assert_eq!(words(&q4.pack(&[0, 1, 2, 3, 4, 5, 6, 7])), [0x7654_3210]);
        assert_eq!(words(&q4.pack(&[-1; 8])), [0xFFFF_FFFF]);
        assert_eq!(
            q4.unpack(&0xFFFF_FFF8u32.to_le_bytes()),
            [-8, -1, -1, -1, -1, -1, -1, -1]
        );
        let q2 = ValuePacking::new(&[5], &scheme(QuantValue::Q2F, QuantStore::PackedU32(0)));
        // -2 = 0b10, 1 = 0b01, -1 = 0b11, 0, -2.
        assert_eq!(
            words(&q2.unwrap().pack(&[-2, 1, -1, 0, -2])),
            [0b10_00_11_01_10]
        );
    }

    #[test]
    fn each_line_is_padded_to_whole_words() {
        let q4 = scheme(QuantValue::Q4S, QuantStore::PackedU32(0));
        let packing = ValuePacking::new(&[3, 3], &q4).unwrap();
        assert_eq!(packing.byte_len(), 12, "a [3, 3] Q4 tensor takes 3 words");
        let packed = packing.pack(&[1, 2, 3, 4, 5, 6, -7, -6, -5]);
        assert_eq!(words(&packed), [0x321, 0x654, 0xBA9]);
        let native = ValuePacking::new(&[3, 3], &q4.with_store(QuantStore::Native)).unwrap();
        assert_eq!(native.byte_len(), 9);
    }

    #[test]
    fn an_outer_axis_is_swapped_innermost() {
        // A [2, 3] tensor packed along dim 0 stores its transpose [3, 2] row-major.
        assert_eq!(stored_order(&[2, 3], 0), Some(vec![0, 3, 1, 4, 2, 5]));
        // At rank 3, axis 0 is swapped with axis 2 (not moved last): [4, 2, 3] -> [3, 2, 4].
        let order = stored_order(&[4, 2, 3], 0).unwrap();
        assert_eq!(&order[..6], [0, 6, 12, 18, 3, 9]);
        assert_eq!(stored_order(&[4, 2, 3], 2), None);

        let q8 = scheme(QuantValue::Q8S, QuantStore::PackedU32(1));
        let packing = ValuePacking::new(&[2, 3], &q8).unwrap();
        assert_eq!(
            words(&packing.pack(&[1, 2, 3, 4, 5, 6])),
            [0x0401, 0x0502, 0x0603]
        );
    }

    #[test]
    fn values_round_trip_along_every_axis() {
        let dims = [3, 5, 7];
        for value in [
            QuantValue::Q8S,
            QuantValue::Q8F,
            QuantValue::Q4S,
            QuantValue::Q4F,
        ] {
            round_trip(&dims, value);
        }
        round_trip(&dims, QuantValue::Q2S);
        round_trip(&dims, QuantValue::Q2F);
        round_trip(&[], QuantValue::Q4S);
        round_trip(&[0, 3], QuantValue::Q4S);
    }

    fn round_trip(dims: &[usize], value: QuantValue) {
        let (min, max) = value.range();
        let span = (max - min) as i32 + 1;
        let count: usize = dims.iter().product();
        let values: Vec<i8> = (0..count as i32)
            .map(|i| (min as i32 + (i * 5 + i / 3) % span) as i8)
            .collect();
        let mut stores = vec![QuantStore::Native];
        stores.extend((0..dims.len().max(1)).map(QuantStore::PackedU32));
        for store in stores {
            let packing = ValuePacking::new(dims, &scheme(value, store)).unwrap();
            let packed = packing.pack(&values);
            assert_eq!(packed.len(), packing.byte_len());
            assert_eq!(packing.unpack(&packed), values, "{value} {store} {dims:?}");
        }
    }

    #[test]
    fn float_codes_keep_their_bits() {
        let e2m1 = scheme(QuantValue::E2M1, QuantStore::PackedNative(0));
        let packing = ValuePacking::new(&[3], &e2m1).unwrap();
        let packed = packing.pack(&[0x1, 0xF, 0x6]);
        assert_eq!(packed, [0xF1, 0x06]);
        assert_eq!(packing.unpack(&packed), [0x1, 0xF, 0x6]);
    }

    #[test]
    fn a_packed_dim_outside_the_rank_is_an_error() {
        let q8 = scheme(QuantValue::Q8S, QuantStore::PackedU32(2));
        let error = ValuePacking::new(&[4, 4], &q8).unwrap_err();
        assert!(error.contains("outside rank 2"), "{error}");
    }
}
