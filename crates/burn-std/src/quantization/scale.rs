//! `ScaleDtype`: the type quantization scales are stored in, its grid and its byte codec.

use core::fmt;
use half::{bf16, f16};
use serde::{Deserialize, Serialize};

/// The type a level of quantization scales is stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ScaleDtype {
    /// 32-bit float.
    F32,
    /// 16-bit IEEE half float.
    F16,
    /// 16-bit brain float.
    BF16,
    /// Unsigned power of two, one byte: `2^(b - 127)`, `b` in `0..=254` (255 is NaN).
    UE8M0,
    /// Unsigned e4m3 float, one byte (the sign bit of e4m3 is always 0): up to 448.
    UE4M3,
}

/// 2^-127, the smallest ue8m0 value (subnormal in f32).
const UE8M0_MIN: f32 = f32::from_bits(0x0040_0000);
/// 2^127, the largest ue8m0 value.
const UE8M0_MAX: f32 = f32::from_bits(0x7F00_0000);
/// The largest finite ue4m3 code (`0x7F` is NaN).
const UE4M3_MAX_CODE: u8 = 0x7E;

impl ScaleDtype {
    /// Bytes of one stored scale.
    pub const fn size_bytes(&self) -> usize {
        match self {
            ScaleDtype::F32 => 4,
            ScaleDtype::F16 | ScaleDtype::BF16 => 2,
            ScaleDtype::UE8M0 | ScaleDtype::UE4M3 => 1,
        }
    }

    /// The largest finite value of the type.
    pub fn max_representable(&self) -> f32 {
        match self {
            ScaleDtype::F32 => f32::MAX,
            ScaleDtype::F16 => f16::MAX.to_f32(),
            ScaleDtype::BF16 => bf16::MAX.to_f32(),
            ScaleDtype::UE8M0 => UE8M0_MAX,
            ScaleDtype::UE4M3 => ue4m3_to_f32(UE4M3_MAX_CODE),
        }
    }

    /// The smallest positive normal value of the type (ue8m0 has no subnormals: its smallest
    /// value, 2^-127). Quantization uses it in place of a zero or non-finite scale.
    pub fn min_positive(&self) -> f32 {
        match self {
            ScaleDtype::F32 => f32::MIN_POSITIVE,
            ScaleDtype::F16 => f16::MIN_POSITIVE.to_f32(),
            ScaleDtype::BF16 => bf16::MIN_POSITIVE.to_f32(),
            ScaleDtype::UE8M0 => UE8M0_MIN,
            ScaleDtype::UE4M3 => ue4m3_to_f32(0x08),
        }
    }

    /// The smallest value of the type that is not below `x`: a scale is stored rounded up, so
    /// the largest value of its block still fits the code range (rounding down would clip it).
    ///
    /// `F32` returns `x` itself. Above the type's largest finite value the answer saturates to
    /// [`max_representable`](Self::max_representable); NaN stays NaN. The unsigned types
    /// return their smallest value for `x` at or below it (ue4m3: 0; ue8m0: 2^-127).
    pub fn round_up(&self, x: f32) -> f32 {
        if x.is_nan() || *self == ScaleDtype::F32 {
            return x;
        }
        if x >= self.max_representable() {
            return self.max_representable();
        }
        match self {
            ScaleDtype::F32 => x,
            ScaleDtype::F16 => round_up_16(
                x,
                |v| f16::from_f32(v).to_bits(),
                |b| f16::from_bits(b).to_f32(),
            ),
            ScaleDtype::BF16 => round_up_16(
                x,
                |v| bf16::from_f32(v).to_bits(),
                |b| bf16::from_bits(b).to_f32(),
            ),
            ScaleDtype::UE8M0 => ue8m0_to_f32(ue8m0_round_up(x)),
            ScaleDtype::UE4M3 => ue4m3_to_f32(ue4m3_round_up(x)),
        }
    }

    /// Appends `x` to `out` in this type, rounded up onto its grid as
    /// [`round_up`](Self::round_up) does (exact for scales already on the grid); floats are
    /// little-endian, the one-byte types are their code.
    pub fn encode(&self, x: f32, out: &mut Vec<u8>) {
        match self {
            ScaleDtype::F32 => out.extend_from_slice(&x.to_le_bytes()),
            ScaleDtype::F16 => {
                out.extend_from_slice(&f16::from_f32(self.round_up(x)).to_bits().to_le_bytes())
            }
            ScaleDtype::BF16 => {
                out.extend_from_slice(&bf16::from_f32(self.round_up(x)).to_bits().to_le_bytes())
            }
            ScaleDtype::UE8M0 => out.push(if x.is_nan() {
                0xFF
            } else {
                ue8m0_round_up(x.min(UE8M0_MAX))
            }),
            ScaleDtype::UE4M3 => out.push(if x.is_nan() {
                0x7F
            } else {
                ue4m3_round_up(x.min(448.0))
            }),
        }
    }

    /// The value of one scale stored as [`encode`](Self::encode) writes it; `bytes` holds
    /// exactly [`size_bytes`](Self::size_bytes) bytes.
    pub fn decode(&self, bytes: &[u8]) -> f32 {
        match self {
            ScaleDtype::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            ScaleDtype::F16 => f16::from_bits(u16::from_le_bytes([bytes[0], bytes[1]])).to_f32(),
            ScaleDtype::BF16 => bf16::from_bits(u16::from_le_bytes([bytes[0], bytes[1]])).to_f32(),
            ScaleDtype::UE8M0 => ue8m0_to_f32(bytes[0]),
            ScaleDtype::UE4M3 => ue4m3_to_f32(bytes[0]),
        }
    }

    /// The short lowercase name (`"f32"`, `"ue8m0"` …).
    pub const fn name(&self) -> &'static str {
        match self {
            ScaleDtype::F32 => "f32",
            ScaleDtype::F16 => "f16",
            ScaleDtype::BF16 => "bf16",
            ScaleDtype::UE8M0 => "ue8m0",
            ScaleDtype::UE4M3 => "ue4m3",
        }
    }
}

impl fmt::Display for ScaleDtype {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Rounds `x` (below the type's maximum, not NaN) up onto a 16-bit float grid: convert to
/// nearest, then step one unit up when that landed below `x`.
fn round_up_16(x: f32, to_bits: impl Fn(f32) -> u16, from_bits: impl Fn(u16) -> f32) -> f32 {
    let bits = to_bits(x);
    let nearest = from_bits(bits);
    if nearest >= x {
        return nearest;
    }
    // `nearest < x`: a positive value (or a zero) steps up by growing its magnitude, a negative
    // one by shrinking it.
    if nearest > 0.0 || (nearest == 0.0 && x > 0.0) {
        from_bits((bits & 0x7FFF) + 1)
    } else {
        from_bits(bits - 1)
    }
}

/// The ue8m0 code of the smallest power of two not below `x` (saturating at both ends).
fn ue8m0_round_up(x: f32) -> u8 {
    if x <= UE8M0_MIN {
        return 0;
    }
    if x >= UE8M0_MAX {
        return 254;
    }
    if x < f32::MIN_POSITIVE {
        // Between 2^-127 and 2^-126 (an f32 subnormal): 2^-126 is code 1.
        return 1;
    }
    let bits = x.to_bits();
    let exponent = (bits >> 23) as u8;
    if bits & 0x007F_FFFF == 0 {
        exponent
    } else {
        exponent + 1
    }
}

/// The value of a ue8m0 code: `2^(code - 127)`, NaN for 255.
fn ue8m0_to_f32(code: u8) -> f32 {
    match code {
        0 => UE8M0_MIN,
        0xFF => f32::NAN,
        code => f32::from_bits((code as u32) << 23),
    }
}

/// The value of a ue4m3 code: 4 exponent bits (bias 7) and 3 mantissa bits; codes with the top
/// bit set, and `0x7F`, are NaN.
fn ue4m3_to_f32(code: u8) -> f32 {
    if code > UE4M3_MAX_CODE {
        return f32::NAN;
    }
    let exponent = (code >> 3) as i32;
    let mantissa = (code & 0x07) as f32;
    if exponent == 0 {
        mantissa * 2f32.powi(-9)
    } else {
        (1.0 + mantissa / 8.0) * 2f32.powi(exponent - 7)
    }
}

/// The code of the smallest ue4m3 value not below `x` (saturating at 448): the codes increase
/// with their values, so the first one that reaches `x`.
fn ue4m3_round_up(x: f32) -> u8 {
    (0..=UE4M3_MAX_CODE)
        .find(|&code| ue4m3_to_f32(code) >= x)
        .unwrap_or(UE4M3_MAX_CODE)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [ScaleDtype; 5] = [
        ScaleDtype::F32,
        ScaleDtype::F16,
        ScaleDtype::BF16,
        ScaleDtype::UE8M0,
        ScaleDtype::UE4M3,
    ];

    #[test]
    fn round_up_is_the_smallest_value_not_below() {
        assert_eq!(ScaleDtype::F32.round_up(0.1), 0.1);
        // 0.1 in f16 rounds to nearest 0.0999755859375 (below); one step up is 0.10003662109375.
        assert_eq!(ScaleDtype::F16.round_up(0.1), 0.100_036_62);
        assert!(ScaleDtype::BF16.round_up(0.1) >= 0.1);
        assert_eq!(ScaleDtype::UE8M0.round_up(0.1), 0.125);
        assert_eq!(ScaleDtype::UE8M0.round_up(0.25), 0.25);
        // ue4m3 around 0.1: 0.09375 (1.5·2^-4) then 0.1015625 (1.625·2^-4).
        assert_eq!(ScaleDtype::UE4M3.round_up(0.1), 0.101_562_5);
        for dtype in ALL {
            for x in [1e-3f32, 0.3, 1.0, 7.7, 300.0] {
                let up = dtype.round_up(x);
                assert!(up >= x, "{dtype}: {up} < {x}");
                assert_eq!(dtype.round_up(up), up, "{dtype}: {up} is on the grid");
                let mut bytes = Vec::new();
                dtype.encode(up, &mut bytes);
                assert_eq!(bytes.len(), dtype.size_bytes());
                assert_eq!(dtype.decode(&bytes), up, "{dtype} codec");
            }
        }
    }

    #[test]
    fn round_up_saturates_and_handles_the_ends() {
        for dtype in ALL {
            assert_eq!(dtype.round_up(f32::MAX), dtype.max_representable());
            assert!(dtype.min_positive() > 0.0);
            assert_eq!(dtype.round_up(dtype.min_positive()), dtype.min_positive());
        }
        assert_eq!(ScaleDtype::F16.max_representable(), 65504.0);
        assert_eq!(ScaleDtype::UE4M3.max_representable(), 448.0);
        assert_eq!(ScaleDtype::UE8M0.max_representable(), 2f32.powi(127));
        assert_eq!(ScaleDtype::UE8M0.round_up(0.0), 2f32.powi(-127));
        assert_eq!(ScaleDtype::UE4M3.round_up(0.0), 0.0);
        assert_eq!(ScaleDtype::F16.round_up(1e-9), 2f32.powi(-24));
        assert_eq!(ScaleDtype::F16.round_up(-0.1), -0.099_975_586);
        assert!(ScaleDtype::BF16.round_up(f32::NAN).is_nan());
    }

    #[test]
    fn ue8m0_codes_are_biased_exponents() {
        let mut bytes = Vec::new();
        ScaleDtype::UE8M0.encode(1.0, &mut bytes);
        ScaleDtype::UE8M0.encode(3.0, &mut bytes);
        ScaleDtype::UE8M0.encode(f32::NAN, &mut bytes);
        assert_eq!(bytes, [127, 129, 255]);
        assert!(ScaleDtype::UE8M0.decode(&[255]).is_nan());
    }
}
