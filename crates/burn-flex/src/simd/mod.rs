//! Vector instructions chosen at run time, and element functions written so the compiler can
//! vectorize them.
//!
//! The crate is compiled for the baseline x86-64 (SSE2). [`vectorized`] runs a closure inside a
//! function compiled for the widest instruction set the CPU reports (AVX-512, else AVX2+FMA, else
//! the baseline; through `pulp`), so the loops it inlines are vectorized for that width. Math
//! functions from `libm` (`f32::exp`…) are opaque calls the compiler cannot vectorize:
//! [`exp_f32`] is a branch-free replacement for the hot one.

mod log;
mod normal;
mod trig;

pub use log::ln_f32;
pub use normal::{erf_f32, normal_cdf_f32, normal_pdf_f32};
use pulp::Arch;
use std::sync::OnceLock;
pub use trig::{TRIG_LIMIT, atan_f32, cos_f32, sigmoid_f32, sin_f32, tanh_f32};

/// The instruction set detected once per process.
pub(crate) fn arch() -> Arch {
    static ARCH: OnceLock<Arch> = OnceLock::new();
    *ARCH.get_or_init(Arch::new)
}

/// Runs `f` compiled for the widest vector instruction set this CPU has. `f` and what it calls
/// inline should be plain loops over slices: they are what gets vectorized.
#[inline(always)]
pub fn vectorized<R>(f: impl FnOnce() -> R) -> R {
    arch().dispatch(f)
}

/// The range reduction both exponentials share: for a finite `x` in [-105, 89], the `n` and
/// `p(r)` of `e^x = 2^n · p(r)` with `x = n·ln 2 + r`, `|r| ≤ ln 2 / 2`, `p` the Taylor
/// polynomial of degree 7 (relative error below 2e-7 before rounding).
#[inline(always)]
fn exp_reduced(x: f32) -> (i32, f32) {
    const LOG2_E: f32 = std::f32::consts::LOG2_E;
    // ln 2 split so that n · LN2_HI is exact for the n reached here (|n| ≤ 152).
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // Adding then subtracting 1.5 · 2^23 rounds to the nearest integer (ties to even).
    const ROUND: f32 = 12_582_912.0;
    // `mul_add` is one FMA instruction inside [`vectorized`] (every caller): the reduction and
    // the polynomial take 10 vector operations instead of 20 separate multiplies and adds.
    let shifted = x.mul_add(LOG2_E, ROUND);
    let n_float = shifted - ROUND;
    let n = shifted.to_bits() as i32 - ROUND.to_bits() as i32;
    let r = n_float.mul_add(-LN2_LO, n_float.mul_add(-LN2_HI, x));
    let p = (1.0 / 5040.0f32).mul_add(r, 1.0 / 720.0);
    let p = p.mul_add(r, 1.0 / 120.0);
    let p = p.mul_add(r, 1.0 / 24.0);
    let p = p.mul_add(r, 1.0 / 6.0);
    let p = p.mul_add(r, 0.5);
    let p = p.mul_add(r, 1.0);
    let p = p.mul_add(r, 1.0);
    (n, p)
}

/// `e^x` for `f32` without a library call: `2^n · p(r)` (see `exp_reduced`), with `2^n` built
/// from exponent bits in two factors so that overflow gives infinity and underflow passes
/// through the subnormals to zero. NaN stays NaN.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    let (n, p) = exp_reduced(x.clamp(-105.0, 89.0));
    let half = n >> 1;
    let first = f32::from_bits(((half + 127) as u32) << 23);
    let second = f32::from_bits(((n - half + 127) as u32) << 23);
    let y = p * first * second;
    if x.is_nan() { x } else { y }
}

/// `e^x` for `x ≤ 0` (a softmax's `x - max`), cheaper than [`exp_f32`]: no overflow to guard
/// against and one exponent factor, so about 18 vector operations instead of 26 (on CPUs whose
/// 512-bit units run at half rate, a softmax is bound by them, not by memory). For
/// `x < -87.68` (results below `8.3e-39`, subnormal) it returns 0 instead of the subnormal
/// value; between -87.68 and -87.34 the subnormal results are computed. Positive `x` and NaN
/// are not handled: the caller checks the row (a finite maximum) before taking this path.
#[inline(always)]
pub fn exp_f32_nonpositive(x: f32) -> f32 {
    // Clamped at -88, the rounded exponent n is at least -127, so n + 127 ≥ 0; below -87.68
    // it is -127 and the factor built from its bits is zero. A compare and a select:
    // `f32::max` would also test for NaN, which cannot reach here.
    let (n, p) = exp_reduced(if x < -88.0 { -88.0 } else { x });
    p * f32::from_bits(((n + 127) as u32) << 23)
}

/// Accuracy measures shared by the tests of the `f32` math functions.
#[cfg(test)]
pub(crate) mod accuracy {
    /// The largest error of `f` against `exact` over `xs`, in units of the `f32` spacing at the
    /// exact result (at least `floor`: near a zero of the function, an absolute error), and
    /// the input where it occurs.
    pub fn worst_ulps(
        xs: impl IntoIterator<Item = f32>,
        f: impl Fn(f32) -> f32,
        exact: impl Fn(f64) -> f64,
        floor: f64,
    ) -> (f64, f32) {
        let mut worst = (0.0, 0.0);
        for x in xs {
            let e = exact(x as f64);
            let spacing = (e.abs() * f32::EPSILON as f64).max(floor);
            let err = (f(x) as f64 - e).abs() / spacing;
            if err > worst.0 {
                worst = (err, x);
            }
        }
        worst
    }
}

#[cfg(test)]
mod tests {
    use super::{exp_f32, exp_f32_nonpositive};

    #[test]
    fn exp_f32_is_within_two_ulps_of_the_f64_exponential() {
        let mut worst = 0.0f64;
        let mut x = -103.0f32;
        while x < 88.7 {
            let exact = (x as f64).exp();
            let got = exp_f32(x) as f64;
            if exact > f32::MIN_POSITIVE as f64 {
                let ulp = f32::EPSILON as f64 * exact;
                worst = worst.max((got - exact).abs() / ulp);
            } else {
                // Subnormal results: absolute error within one subnormal step.
                assert!(
                    (got - exact).abs() <= 1.5e-45,
                    "exp({x}) = {got}, expected {exact}"
                );
            }
            x += 0.0137;
        }
        assert!(worst <= 2.0, "worst error {worst} ulps");
    }

    #[test]
    fn exp_f32_nonpositive_is_within_two_ulps_down_to_the_normal_range() {
        let mut x = 0.0f32;
        while x > -95.0 {
            let exact = (x as f64).exp();
            let got = exp_f32_nonpositive(x) as f64;
            if exact >= f32::MIN_POSITIVE as f64 {
                let ulp = f32::EPSILON as f64 * exact;
                assert!(
                    (got - exact).abs() <= 2.0 * ulp,
                    "exp({x}) = {got}, expected {exact}"
                );
            } else {
                assert!(
                    (got - exact).abs() <= 1.2e-38,
                    "exp({x}) = {got}, expected {exact}"
                );
            }
            x -= 0.0113;
        }
        assert_eq!(exp_f32_nonpositive(0.0), 1.0);
        assert_eq!(exp_f32_nonpositive(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32_nonpositive(-1000.0), 0.0);
    }

    #[test]
    fn exp_f32_keeps_the_special_values() {
        assert_eq!(exp_f32(0.0), 1.0);
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(89.0), f32::INFINITY);
        assert_eq!(exp_f32(-110.0), 0.0);
        assert!(exp_f32(f32::NAN).is_nan());
        assert_eq!(exp_f32(1.0), std::f32::consts::E);
    }
}
