//! The natural logarithm for `f32` without a library call, so that loops of it vectorize.
//!
//! `x = 2^e · m` with `m` in `[√½, √2)` (read off the bits, subnormals scaled up first), then
//! `ln m = 2·atanh(s) = 2s·(1 + s²/3 + s⁴/5 + s⁶/7 + s⁸/9)` with `s = (m - 1)/(m + 1)`,
//! `|s| ≤ 0.172` (the next term is below 2·10⁻⁹ relative), and `ln x = e·ln 2 + ln m` with
//! `ln 2` in two parts. `m - 1` is exact, so the result keeps its relative precision near 1.

/// `ln x` for every `f32`: `-∞` at ±0, NaN below 0 and for NaN, `+∞` at `+∞`.
#[inline(always)]
pub fn ln_f32(x: f32) -> f32 {
    const SQRT_HALF_BITS: u32 = 0x3f35_04f3;
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // Subnormals: scaled by 2^23 into the normal range, 23 taken off the exponent.
    let tiny = x < f32::MIN_POSITIVE;
    let scaled = if tiny { x * 8_388_608.0 } else { x };
    let offset = scaled.to_bits().wrapping_sub(SQRT_HALF_BITS);
    let e = (offset as i32 >> 23) - if tiny { 23 } else { 0 };
    let m = f32::from_bits((offset & 0x007f_ffff) + SQRT_HALF_BITS);
    let s = (m - 1.0) / (m + 1.0);
    let z = s * s;
    let p = (1.0f32 / 9.0)
        .mul_add(z, 1.0 / 7.0)
        .mul_add(z, 1.0 / 5.0)
        .mul_add(z, 1.0 / 3.0);
    let two_s = s + s;
    let ln_m = (two_s * z).mul_add(p, two_s);
    let e = e as f32;
    let y = e.mul_add(LN2_HI, e.mul_add(LN2_LO, ln_m));
    let y = if x == f32::INFINITY { x } else { y };
    let y = if x == 0.0 { f32::NEG_INFINITY } else { y };
    if x < 0.0 || x.is_nan() { f32::NAN } else { y }
}

#[cfg(test)]
mod tests {
    use super::ln_f32;
    use crate::simd::accuracy::worst_ulps;

    #[test]
    fn ln_is_within_two_ulps_over_the_whole_range() {
        // Every 4099th f32 from the smallest subnormal to the largest finite value, and a
        // dense walk around 1 (where the result is small).
        let bits = (1..0x7f80_0000u32).step_by(4099);
        let near_one = (0..20_000).map(|i| f32::from_bits(0x3f70_0000 + i * 53));
        let xs = bits.map(f32::from_bits).chain(near_one);
        let worst = worst_ulps(xs, ln_f32, f64::ln, f32::MIN_POSITIVE as f64);
        assert!(worst.0 <= 2.0, "worst {} ulps at {:e}", worst.0, worst.1);
        assert_eq!(ln_f32(1.0), 0.0);
        assert_eq!(ln_f32(0.0), f32::NEG_INFINITY);
        assert_eq!(ln_f32(-0.0), f32::NEG_INFINITY);
        assert_eq!(ln_f32(f32::INFINITY), f32::INFINITY);
        assert!(ln_f32(-1.0).is_nan() && ln_f32(f32::NAN).is_nan());
        assert!(ln_f32(f32::NEG_INFINITY).is_nan());
    }
}
