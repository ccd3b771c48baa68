//! Sine, cosine, hyperbolic tangent and the logistic function for `f32` without a library call,
//! so that loops of them vectorize (`libm`'s `sinf`/`tanhf` are opaque scalar calls, 5–15 ns
//! each).
//!
//! Sine and cosine reduce `x = n·π/2 + r`, `|r| ≤ π/4`, with `π/2` split in three `f32`
//! parts (Cody and Waite's method, each step one FMA): the first product is exact and its
//! difference from `x` representable while `|n|` is below about 2²², so `r` keeps its relative
//! precision. Both `sin r` and `cos r` are then minimax polynomials (Moshier's Cephes
//! coefficients) and the quadrant `n mod 4` picks one and its sign. Beyond [`TRIG_LIMIT`] the
//! caller falls back to `libm` (see `ops::unary`).

use super::exp_f32;

/// The largest `|x|` for which [`sin_f32`] and [`cos_f32`] are accurate (within 2 ulp of the
/// rounded result, or an absolute 2⁻³⁰ near a zero of the function).
pub const TRIG_LIMIT: f32 = 65_536.0;

/// `π/2` = `PIO2_1 + PIO2_2 + PIO2_3` to about 2⁻⁷⁶: the first part is the nearest `f32`, each
/// next part the nearest `f32` to what is left.
const PIO2_1: f32 = 1.570_796_4;
const PIO2_2: f32 = -4.371_139e-8;
const PIO2_3: f32 = -1.715_124_5e-15;

/// The quadrant `n mod 4` of `x = n·π/2 + r` and `(sin r, cos r)`.
#[inline(always)]
fn reduced(x: f32) -> (u32, f32, f32) {
    // Adding then subtracting 1.5 · 2^23 rounds to the nearest integer.
    const ROUND: f32 = 12_582_912.0;
    let shifted = x.mul_add(core::f32::consts::FRAC_2_PI, ROUND);
    let n = shifted - ROUND;
    let quadrant = shifted.to_bits().wrapping_sub(ROUND.to_bits());
    let r = n.mul_add(-PIO2_1, x);
    let r = n.mul_add(-PIO2_2, r);
    let r = n.mul_add(-PIO2_3, r);
    let z = r * r;
    let s = (-1.951_529_6e-4f32)
        .mul_add(z, 8.332_161e-3)
        .mul_add(z, -1.666_665_5e-1);
    let sin = (r * z).mul_add(s, r);
    let c = 2.443_315_7e-5f32
        .mul_add(z, -1.388_731_6e-3)
        .mul_add(z, 4.166_664_6e-2);
    let cos = (z * z).mul_add(c, (-0.5f32).mul_add(z, 1.0));
    (quadrant, sin, cos)
}

/// `sin x` from the quadrant and the reduced pair: `sin r`, `cos r`, `-sin r`, `-cos r`.
#[inline(always)]
fn by_quadrant(quadrant: u32, sin: f32, cos: f32) -> f32 {
    let v = if quadrant & 1 == 0 { sin } else { cos };
    f32::from_bits(v.to_bits() ^ ((quadrant & 2) << 30))
}

/// `sin x` for `|x| ≤ TRIG_LIMIT` (NaN and infinities give NaN).
#[inline(always)]
pub fn sin_f32(x: f32) -> f32 {
    let (quadrant, sin, cos) = reduced(x);
    // The reduction's later steps turn `r = -0` into `+0`: zeros keep their sign here.
    if x == 0.0 {
        x
    } else {
        by_quadrant(quadrant, sin, cos)
    }
}

/// `cos x` for `|x| ≤ TRIG_LIMIT` (NaN and infinities give NaN): `sin(x + π/2)`, one quadrant on.
#[inline(always)]
pub fn cos_f32(x: f32) -> f32 {
    let (quadrant, sin, cos) = reduced(x);
    by_quadrant(quadrant.wrapping_add(1), sin, cos)
}

/// `atan x` for every `f32`: `|x|` reduced to `[0, tan(π/8)]` by `atan x = π/4 + atan((x-1)/(x+1))`
/// above `tan(π/8)` and `π/2 + atan(-1/x)` above `tan(3π/8)` (one division either way), then
/// an odd polynomial (Cephes' `atanf` coefficients), with `x`'s sign.
#[inline(always)]
pub fn atan_f32(x: f32) -> f32 {
    const TAN_3PI_8: f32 = 2.414_213_6;
    const TAN_PI_8: f32 = 0.414_213_57;
    // π/2 and π/4, each as the nearest f32 and what is left.
    const PIO2: [f32; 2] = [core::f32::consts::FRAC_PI_2, -4.371_139e-8];
    const PIO4: [f32; 2] = [core::f32::consts::FRAC_PI_4, -2.185_569_4e-8];
    let a = x.abs();
    let (big, mid) = (a > TAN_3PI_8, a > TAN_PI_8);
    let num = if big {
        -1.0
    } else if mid {
        a - 1.0
    } else {
        a
    };
    let den = if big {
        a
    } else if mid {
        a + 1.0
    } else {
        1.0
    };
    let [base, base_lo] = if big {
        PIO2
    } else if mid {
        PIO4
    } else {
        [0.0, 0.0]
    };
    let t = num / den;
    let z = t * t;
    let p = 8.053_744_5e-2f32
        .mul_add(z, -1.387_768_6e-1)
        .mul_add(z, 1.997_771_1e-1)
        .mul_add(z, -3.333_295e-1);
    let y = base + ((t * z).mul_add(p, t) + base_lo);
    y.copysign(x)
}

/// `tanh x` for every `f32`: below 0.625 in magnitude an odd polynomial (Cephes' `tanhf`
/// coefficients), above `1 - 2/(e^{2|x|} + 1)` (no cancellation there), with `x`'s sign.
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    let a = x.abs();
    let z = x * x;
    let p = (-5.704_988_7e-3f32)
        .mul_add(z, 2.063_909e-2)
        .mul_add(z, -5.373_971_6e-2)
        .mul_add(z, 1.333_144_2e-1)
        .mul_add(z, -3.333_328e-1);
    let small = (a * z).mul_add(p, a);
    let large = 1.0 - 2.0 / (exp_f32(2.0 * a) + 1.0);
    let t = if a < 0.625 { small } else { large };
    t.copysign(x)
}

/// The logistic function `1 / (1 + e^-x)` for every `f32` (0 and 1 in the far tails).
#[inline(always)]
pub fn sigmoid_f32(x: f32) -> f32 {
    1.0 / (1.0 + exp_f32(-x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::accuracy::worst_ulps;

    const NORMAL: f64 = f32::MIN_POSITIVE as f64;

    /// Every `f32` in `[-limit, limit]` at `step` apart, plus the `f32`s nearest the multiples
    /// of π/2 up to the limit (where the reduction cancels most).
    fn samples(limit: f32, step: f32) -> Vec<f32> {
        let mut xs: Vec<f32> = (0..)
            .map(|i| -limit + i as f32 * step)
            .take_while(|&x| x <= limit)
            .collect();
        let mut k = 0.0f64;
        while k * core::f64::consts::FRAC_PI_2 <= limit as f64 {
            let near = (k * core::f64::consts::FRAC_PI_2) as f32;
            xs.extend([near, -near, f32::from_bits(near.to_bits() + 1)]);
            k += if k < 1000.0 { 1.0 } else { 997.0 };
        }
        xs
    }

    #[test]
    fn sine_and_cosine_are_within_two_ulps_up_to_the_limit() {
        let floor = (2.0f64).powi(-30) * f32::EPSILON as f64;
        let xs = samples(TRIG_LIMIT, 0.0377);
        for (name, f, exact) in [
            ("sin", sin_f32 as fn(f32) -> f32, f64::sin as fn(f64) -> f64),
            ("cos", cos_f32, f64::cos),
        ] {
            let worst = worst_ulps(xs.iter().copied(), f, exact, floor);
            assert!(
                worst.0 <= 2.0,
                "{name}: worst {} ulps at {}",
                worst.0,
                worst.1
            );
        }
        assert_eq!(sin_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(cos_f32(0.0), 1.0);
        for special in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            assert!(sin_f32(special).is_nan() && cos_f32(special).is_nan());
        }
    }

    #[test]
    fn atan_is_within_two_ulps() {
        let bits = (0..0x7f80_0000u32).step_by(3001).map(f32::from_bits);
        let xs = bits.chain(samples(5.0, 0.000_37)).flat_map(|x| [x, -x]);
        let worst = worst_ulps(xs, atan_f32, f64::atan, NORMAL);
        assert!(worst.0 <= 2.0, "worst {} ulps at {:e}", worst.0, worst.1);
        assert_eq!(atan_f32(f32::INFINITY), core::f32::consts::FRAC_PI_2);
        assert_eq!(atan_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(atan_f32(f32::NAN).is_nan());
    }

    #[test]
    fn tanh_and_sigmoid_are_within_two_ulps() {
        let worst = [
            worst_ulps(samples(30.0, 0.000_731), tanh_f32, f64::tanh, NORMAL),
            worst_ulps(
                samples(100.0, 0.00173),
                sigmoid_f32,
                |x| 1.0 / (1.0 + (-x).exp()),
                NORMAL,
            ),
        ];
        assert!(
            worst[0].0 <= 2.0 && worst[1].0 <= 2.0,
            "worst tanh, sigmoid: {worst:?} (ulps, at)"
        );
        assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(tanh_f32(1e-30), 1e-30);
        assert_eq!(tanh_f32(f32::INFINITY), 1.0);
        assert_eq!(tanh_f32(-100.0), -1.0);
        assert!(tanh_f32(f32::NAN).is_nan() && sigmoid_f32(f32::NAN).is_nan());
        assert_eq!(sigmoid_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(sigmoid_f32(f32::INFINITY), 1.0);
    }
}
