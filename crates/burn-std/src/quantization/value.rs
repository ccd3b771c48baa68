//! What a quantized value is (`QuantValue`), how values are stored (`QuantStore`) and how they map
//! to floats (`QuantMode`).

use core::fmt;
use serde::{Deserialize, Serialize};

/// The logical type of one quantized value: an integer code of some width, or a minifloat code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum QuantValue {
    /// 8-bit integer over the full range `[-128, 127]`.
    Q8F,
    /// 8-bit float code, e5m2 (`±57344`).
    E5M2,
    /// 8-bit float code, e4m3 (`±448`).
    E4M3,
    /// 4-bit integer over the full range `[-8, 7]`.
    Q4F,
    /// 4-bit float code, e2m1 (`±6`).
    E2M1,
    /// 2-bit integer over the full range `[-2, 1]`.
    Q2F,
    /// 8-bit integer over the symmetric range `[-127, 127]`.
    Q8S,
    /// 4-bit integer over the symmetric range `[-7, 7]`.
    Q4S,
    /// 2-bit integer over the symmetric range `[-1, 1]`.
    Q2S,
}

impl QuantValue {
    /// Bits of one value.
    pub const fn size_bits(&self) -> usize {
        match self {
            QuantValue::Q8F | QuantValue::Q8S | QuantValue::E5M2 | QuantValue::E4M3 => 8,
            QuantValue::Q4F | QuantValue::Q4S | QuantValue::E2M1 => 4,
            QuantValue::Q2F | QuantValue::Q2S => 2,
        }
    }

    /// How many values a device's native type for this value holds together (2 for e2m1, whose
    /// native type is a byte of two codes; 1 otherwise).
    pub const fn native_packing(&self) -> usize {
        match self {
            QuantValue::E2M1 => 2,
            _ => 1,
        }
    }

    /// The smallest and largest value a code stands for, as `(min, max)`.
    pub const fn range(&self) -> (f32, f32) {
        match self {
            QuantValue::Q8F => (-128.0, 127.0),
            QuantValue::Q4F => (-8.0, 7.0),
            QuantValue::Q2F => (-2.0, 1.0),
            QuantValue::Q8S => (-127.0, 127.0),
            QuantValue::Q4S => (-7.0, 7.0),
            QuantValue::Q2S => (-1.0, 1.0),
            QuantValue::E4M3 => (-448.0, 448.0),
            QuantValue::E5M2 => (-57344.0, 57344.0),
            QuantValue::E2M1 => (-6.0, 6.0),
        }
    }

    /// Whether the codes are minifloats (their bits do not order as the values they stand for).
    pub const fn is_float(&self) -> bool {
        matches!(self, QuantValue::E4M3 | QuantValue::E5M2 | QuantValue::E2M1)
    }

    /// Whether this is one of the integer codes whose range is symmetric around zero (`Q*S`).
    pub const fn is_symmetric(&self) -> bool {
        matches!(self, QuantValue::Q8S | QuantValue::Q4S | QuantValue::Q2S)
    }

    /// The short lowercase name (`"q8s"`, `"e2m1"` …).
    pub const fn name(&self) -> &'static str {
        match self {
            QuantValue::Q8F => "q8f",
            QuantValue::E5M2 => "e5m2",
            QuantValue::E4M3 => "e4m3",
            QuantValue::Q4F => "q4f",
            QuantValue::E2M1 => "e2m1",
            QuantValue::Q2F => "q2f",
            QuantValue::Q8S => "q8s",
            QuantValue::Q4S => "q4s",
            QuantValue::Q2S => "q2s",
        }
    }
}

impl fmt::Display for QuantValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the values of a quantized tensor are laid out in memory.
///
/// The argument of the packed stores is the packed axis counted **from the innermost** one:
/// `0` is the last dim of the tensor, `1` the one before it, and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum QuantStore {
    /// One byte per value, whatever its width.
    Native,
    /// Values packed along an axis into little-endian `u32` words, `32 / bits` to a word.
    PackedU32(usize),
    /// Values packed along an axis into the device's native packed type (two e2m1 codes to a
    /// byte); one value per native element for the other values.
    PackedNative(usize),
}

impl QuantStore {
    /// Bits of one stored element holding `value`s.
    pub const fn size_bits(&self, value: &QuantValue) -> usize {
        match self {
            QuantStore::Native => value.size_bits(),
            QuantStore::PackedU32(_) => 32,
            QuantStore::PackedNative(_) => value.size_bits() * value.native_packing(),
        }
    }

    /// The packed axis, counted from the innermost; `None` for [`QuantStore::Native`].
    pub const fn packing_dim(&self) -> Option<usize> {
        match self {
            QuantStore::Native => None,
            QuantStore::PackedU32(dim) | QuantStore::PackedNative(dim) => Some(*dim),
        }
    }
}

impl fmt::Display for QuantStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuantStore::Native => f.write_str("native"),
            QuantStore::PackedU32(dim) => write!(f, "u32({dim})"),
            QuantStore::PackedNative(dim) => write!(f, "packed-native({dim})"),
        }
    }
}

/// How a code maps back to a float.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum QuantMode {
    /// `x = code · scale`: no zero point.
    Symmetric,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_follow_the_width_and_symmetry() {
        assert_eq!(QuantValue::Q8F.range(), (-128.0, 127.0));
        assert_eq!(QuantValue::Q8S.range(), (-127.0, 127.0));
        assert_eq!(QuantValue::Q4F.range(), (-8.0, 7.0));
        assert_eq!(QuantValue::Q4S.range(), (-7.0, 7.0));
        assert_eq!(QuantValue::Q2F.range(), (-2.0, 1.0));
        assert_eq!(QuantValue::Q2S.range(), (-1.0, 1.0));
        assert_eq!(QuantValue::E4M3.range(), (-448.0, 448.0));
        assert_eq!(QuantValue::E5M2.range(), (-57344.0, 57344.0));
        assert_eq!(QuantValue::E2M1.range(), (-6.0, 6.0));
    }

    #[test]
    fn integer_ranges_fit_their_bits() {
        for value in [
            QuantValue::Q8F,
            QuantValue::Q4F,
            QuantValue::Q2F,
            QuantValue::Q8S,
            QuantValue::Q4S,
            QuantValue::Q2S,
        ] {
            let half = 1i32 << (value.size_bits() - 1);
            let (min, max) = value.range();
            assert!(min as i32 >= -half && (max as i32) < half, "{value}");
            assert!(!value.is_float());
            assert_eq!(value.is_symmetric(), min == -max, "{value}");
        }
        assert!(QuantValue::E2M1.is_float() && !QuantValue::E2M1.is_symmetric());
    }

    #[test]
    fn store_widths() {
        assert_eq!(QuantStore::Native.size_bits(&QuantValue::Q4S), 4);
        assert_eq!(QuantStore::PackedU32(0).size_bits(&QuantValue::Q4S), 32);
        assert_eq!(QuantStore::PackedNative(0).size_bits(&QuantValue::E2M1), 8);
        assert_eq!(QuantStore::PackedNative(1).packing_dim(), Some(1));
        assert_eq!(QuantStore::Native.packing_dim(), None);
    }
}
