//! The standard normal distribution for `f32` without a library call, for GELU and its
//! gradient: `Φ(x)` with a relative error of a few ulps in both tails (so `x·Φ(x)` keeps its
//! precision where it is tiny), and the density `φ(x)`.
//!
//! `erfc(z)` for `z ≥ 0` is `t·exp(-z² + P(t))`, `t = 1/(1 + z/2)`, `P` of degree 9: the
//! Chebyshev fit of Numerical Recipes (`erfcc`, relative error below 1.2e-7 for every `z`). The
//! exponent is summed with its rounding errors carried (`x²` split by an FMA, the sum by
//! Knuth's two-sum) and applied as one correction factor: rounding `x²/2` alone would cost
//! `x²/2` ulps of relative error far in the tail.

use super::exp_f32;

/// `x²/2` and the part of it lost to rounding, for `|x|` clamped to 20 (beyond, `e^{-x²/2}`
/// is zero in `f32`; unclamped, infinities would make the lost part NaN).
#[inline(always)]
fn half_square(x: f32) -> (f32, f32) {
    let x = x.clamp(-20.0, 20.0);
    let square = x * x;
    (0.5 * square, 0.5 * x.mul_add(x, -square))
}

/// `erfc(z)` for `z ≥ 0` whose square is `square + square_lost` (split, so that the exponent
/// `-z²` keeps its precision far in the tail).
#[inline(always)]
fn erfc_split(z: f32, square: f32, square_lost: f32) -> f32 {
    const C: [f32; 10] = [
        -1.265_512_2,
        1.000_023_7,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_204,
        1.488_515_9,
        -0.822_152_23,
        0.170_872_77,
    ];
    let t = 1.0 / 0.5f32.mul_add(z, 1.0);
    let mut p = C[9];
    for &c in C[1..9].iter().rev() {
        p = p.mul_add(t, c);
    }
    let a = p.mul_add(t, C[0]);
    // exponent = a - square - square_lost = s + s_lost - square_lost, `s = a - square` rounded.
    let s = a - square;
    let back = s - a;
    let s_lost = (a - (s - back)) + (-square - back);
    t * exp_f32(s) * (1.0 + (s_lost - square_lost))
}

/// `erfc(|x|/√2)`, the two-sided tail `2·Φ(-|x|)`.
#[inline(always)]
fn tail(x: f32) -> f32 {
    let (h, h_lost) = half_square(x);
    erfc_split(x.abs() * core::f32::consts::FRAC_1_SQRT_2, h, h_lost)
}

/// The error function: below 0.75 in magnitude its odd Taylor series (to `x¹⁷`, the rest below
/// 0.02 ulp), above `1 - erfc(|x|)` with `x`'s sign.
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    const K: f64 = core::f64::consts::FRAC_2_SQRT_PI;
    // 2/√π · (-1)ⁿ / (n! (2n + 1)) for n = 8 down to 0.
    const SERIES: [f32; 9] = [
        (K / 685_440.0) as f32,
        (-K / 75_600.0) as f32,
        (K / 9360.0) as f32,
        (-K / 1320.0) as f32,
        (K / 216.0) as f32,
        (-K / 42.0) as f32,
        (K / 10.0) as f32,
        (-K / 3.0) as f32,
        K as f32,
    ];
    let z = x * x;
    let mut p = SERIES[0];
    for &c in &SERIES[1..] {
        p = p.mul_add(z, c);
    }
    let small = x * p;
    // Beyond 10, erfc is below the smallest f32; clamped, the square cannot overflow.
    let a = x.abs().clamp(0.0, 10.0);
    let square = a * a;
    let large = (1.0 - erfc_split(a, square, a.mul_add(a, -square))).copysign(x);
    if x.abs() < 0.75 { small } else { large }
}

/// `Φ(x)`, the standard normal distribution function.
#[inline(always)]
pub fn normal_cdf_f32(x: f32) -> f32 {
    let half_tail = 0.5 * tail(x);
    if x < 0.0 { half_tail } else { 1.0 - half_tail }
}

/// `φ(x) = e^{-x²/2} / √(2π)`, the standard normal density.
#[inline(always)]
pub fn normal_pdf_f32(x: f32) -> f32 {
    const INV_SQRT_2PI: f32 = 0.398_942_3;
    let (h, h_lost) = half_square(x);
    INV_SQRT_2PI * exp_f32(-h) * (1.0 - h_lost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::accuracy::worst_ulps;

    /// `Φ(x)` in `f64` through `erfc` written as a continued fraction / series (the crate's
    /// `f64` error function).
    fn cdf(x: f64) -> f64 {
        let e = crate::ops::unary::erf_f64(-x * core::f64::consts::FRAC_1_SQRT_2);
        // 1 - erf(-z) loses precision in the lower tail: use the complement there.
        if x < -2.0 {
            0.5 * erfc_f64(-x * core::f64::consts::FRAC_1_SQRT_2)
        } else {
            0.5 * (1.0 - e)
        }
    }

    /// `erfc(z)` for `z > 1.4`, by its continued fraction (converges fast there).
    fn erfc_f64(z: f64) -> f64 {
        let mut f = z;
        for n in (1..=200).rev() {
            f = z + (n as f64 / 2.0) / f;
        }
        (-z * z).exp() / core::f64::consts::PI.sqrt() / f
    }

    #[test]
    fn erf_is_within_two_ulps() {
        let (mut xs, mut x) = (vec![], 1e-30f32);
        while x < 12.0 {
            xs.extend([x, -x]);
            x = if x < 1e-3 { x * 1.37 } else { x + 0.000_77 };
        }
        let worst = worst_ulps(xs, erf_f32, crate::ops::unary::erf_f64, 0.0);
        assert!(worst.0 <= 2.0, "worst {} ulps at {}", worst.0, worst.1);
        assert_eq!(erf_f32(f32::INFINITY), 1.0);
        assert_eq!(erf_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        assert!(erf_f32(f32::NAN).is_nan());
    }

    #[test]
    fn distribution_and_density_are_within_a_few_ulps_in_both_tails() {
        let xs: Vec<f32> = (0..24_650).map(|i| -13.5 + i as f32 * 0.000_913).collect();
        let normal = f32::MIN_POSITIVE as f64;
        let pdf = |x: f64| (-x * x / 2.0).exp() / (2.0 * core::f64::consts::PI).sqrt();
        let worst = [
            worst_ulps(xs.iter().copied(), normal_cdf_f32, cdf, normal).0,
            worst_ulps(xs.iter().copied(), normal_pdf_f32, pdf, normal).0,
        ];
        assert!(
            worst[0] <= 4.0 && worst[1] <= 2.0,
            "worst cdf, pdf: {worst:?} ulps"
        );
        assert_eq!(normal_cdf_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(normal_cdf_f32(f32::INFINITY), 1.0);
        assert_eq!(normal_cdf_f32(0.0), 0.5);
        assert!(normal_cdf_f32(f32::NAN).is_nan() && normal_pdf_f32(f32::NAN).is_nan());
    }
}
