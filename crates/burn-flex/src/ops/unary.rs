//! Element-wise unary operations: float math (a table of name → function), sign/abs/neg for all
//! numbers, powers by a scalar, NaN/infinity tests and clamping.

use super::arith::NumElement;
use super::map::{PAR_THRESHOLD, map_into, map_same};
use crate::element::FloatElement;
use crate::parallel;
use crate::simd::{self, vectorized};
use crate::tensor::{FlexTensor, pool};
use burn_std::{DType, Element, Scalar};
use num_traits::Float;

/// Generates one public function per float unary operation, in place when possible.
macro_rules! float_unary {
    ($($(#[$doc:meta])* $name:ident => |$x:ident| $body:expr;)*) => {$(
        $(#[$doc])*
        pub fn $name(tensor: FlexTensor) -> FlexTensor {
            with_float!(tensor.dtype(), stringify!($name), E => map_same(tensor, |$x: E| $body))
        }
    )*};
}

float_unary! {
    /// `e^x`.
    exp => |x| x.exp_vectorizable();
    /// Natural logarithm.
    log => |x| x.ln_vectorizable();
    /// `ln(1 + x)`, accurate near 0.
    log1p => |x| x.ln_1p_vectorizable();
    /// Square root.
    sqrt => |x| x.sqrt();
    /// `1 / x`.
    recip => |x| x.recip();
    /// Tangent.
    tan => |x| x.tan();
    /// Hyperbolic sine.
    sinh => |x| x.sinh();
    /// Hyperbolic cosine.
    cosh => |x| x.cosh();
    /// Hyperbolic tangent.
    tanh => |x| x.tanh_vectorizable();
    /// Arcsine.
    asin => |x| x.asin();
    /// Arccosine.
    acos => |x| x.acos();
    /// Arctangent.
    atan => |x| x.atan_vectorizable();
    /// Inverse hyperbolic sine.
    asinh => |x| x.asinh();
    /// Inverse hyperbolic cosine.
    acosh => |x| x.acosh();
    /// Inverse hyperbolic tangent.
    atanh => |x| x.atanh();
    /// The error function (for `f64`, computed by [`erf_f64`]).
    erf => |x| x.erf_vectorizable();
    /// Rounds to the nearest integer, ties to even (like PyTorch).
    round => |x| round_half_even(x);
    /// Largest integer not above `x`.
    floor => |x| x.floor();
    /// Smallest integer not below `x`.
    ceil => |x| x.ceil();
    /// Integer part of `x` (toward zero).
    trunc => |x| x.trunc();
}

/// Sine (vectorized for `f32`: `simd::sin_f32`, with `libm` beyond its range).
pub fn sin(tensor: FlexTensor) -> FlexTensor {
    if tensor.dtype() == DType::F32 {
        return map_f32_checked(tensor, simd::sin_f32, f32::sin, simd::TRIG_LIMIT);
    }
    with_float!(tensor.dtype(), "sin", E => map_same(tensor, |x: E| x.sin()))
}

/// Cosine (vectorized for `f32`: `simd::cos_f32`, with `libm` beyond its range).
pub fn cos(tensor: FlexTensor) -> FlexTensor {
    if tensor.dtype() == DType::F32 {
        return map_f32_checked(tensor, simd::cos_f32, f32::cos, simd::TRIG_LIMIT);
    }
    with_float!(tensor.dtype(), "cos", E => map_same(tensor, |x: E| x.cos()))
}

/// Values per block of [`map_f32_checked`]: small enough to stay in L1 for the second look.
const CHECKED_BLOCK: usize = 256;

/// `f32` values mapped by `fast` (a vectorizable function valid for `|x| ≤ limit`), block by
/// block; in a block holding values beyond `limit` those are recomputed by `exact` (a library
/// call). Large tensors are split between threads.
fn map_f32_checked(
    tensor: FlexTensor,
    fast: impl Fn(f32) -> f32 + Sync,
    exact: impl Fn(f32) -> f32 + Sync,
    limit: f32,
) -> FlexTensor {
    let shape = tensor.shape().clone();
    let src = tensor.values::<f32>();
    let mut out = pool::aligned_for_overwrite::<f32>(src.len());
    let run = |first: usize, dst: &mut [f32]| {
        let src = &src[first..first + dst.len()];
        for (dst, src) in dst.chunks_mut(CHECKED_BLOCK).zip(src.chunks(CHECKED_BLOCK)) {
            let far = vectorized(
                #[inline(always)]
                || {
                    let mut far = false;
                    for (d, &x) in dst.iter_mut().zip(src) {
                        *d = fast(x);
                        far |= x.abs() > limit;
                    }
                    far
                },
            );
            if far {
                for (d, &x) in dst.iter_mut().zip(src) {
                    if x.abs() > limit {
                        *d = exact(x);
                    }
                }
            }
        }
    };
    if src.len() >= PAR_THRESHOLD && parallel::threads() > 1 {
        let chunk = src
            .len()
            .div_ceil(parallel::threads() * 4)
            .next_multiple_of(CHECKED_BLOCK);
        parallel::for_each_chunk_mut(&mut out, chunk, |i, dst| run(i * chunk, dst));
    } else {
        run(0, &mut out);
    }
    FlexTensor::from_aligned(out, shape)
}

/// Generates one public function per numeric unary operation (floats and ints).
macro_rules! num_unary {
    ($($(#[$doc:meta])* $name:ident => $f:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(tensor: FlexTensor) -> FlexTensor {
            with_num!(tensor.dtype(), stringify!($name), E => map_same(tensor, <E as NumElement>::$f))
        }
    )*};
}

num_unary! {
    /// `-x` (integers wrap).
    neg => neg;
    /// `|x|` (integers wrap).
    abs => abs;
    /// -1, 0 or 1 by the sign of `x` (NaN stays NaN).
    sign => sign;
}

/// Rounds half to even.
pub fn round_half_even<F: Float>(x: F) -> F {
    let r = x.round();
    let two = F::one() + F::one();
    let half = F::one() / two;
    if (r - x).abs() == half && r % two != F::zero() {
        r - x.signum()
    } else {
        r
    }
}

/// The error function in `f64`, accurate to a few ulps: a positive-term series below 2.5, a
/// continued fraction for `erfc` up to 6, and ±1 beyond.
pub fn erf_f64(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let a = x.abs();
    let value = if a < 2.5 {
        // erf(a) = 2/√π · e^(-a²) · Σ 2ⁿ a^(2n+1) / (1·3·…·(2n+1))
        let a2 = a * a;
        let (mut term, mut sum) = (a, a);
        let mut n = 0.0;
        while term > sum * 1e-17 {
            n += 1.0;
            term *= 2.0 * a2 / (2.0 * n + 1.0);
            sum += term;
        }
        core::f64::consts::FRAC_2_SQRT_PI * (-a2).exp() * sum
    } else if a < 6.0 {
        1.0 - erfc_tail_f64(a)
    } else {
        1.0
    };
    value.copysign(x)
}

/// `erfc(a)` for `a ≥ 2.5`, by its continued fraction
/// `e^(-a²)/√π · 1/(a + ½/(a + 1/(a + (3/2)/(a + …))))` (60 terms are plenty there).
fn erfc_tail_f64(a: f64) -> f64 {
    let mut f = a;
    for n in (1..=60).rev() {
        f = a + (n as f64 * 0.5) / f;
    }
    (-a * a).exp() / (core::f64::consts::PI.sqrt() * f)
}

/// The standard normal distribution function `Φ(x)` in `f64`; the lower tail through `erfc`
/// (not `1 + erf`, which cancels to 0 below about -8.3).
pub fn normal_cdf_f64(x: f64) -> f64 {
    let z = x * core::f64::consts::FRAC_1_SQRT_2;
    if z <= -2.5 {
        0.5 * erfc_tail_f64(-z)
    } else {
        0.5 * (1.0 + erf_f64(z))
    }
}

/// Whether each element is NaN (a bool tensor).
pub fn is_nan(tensor: FlexTensor) -> FlexTensor {
    with_float!(tensor.dtype(), "is_nan", E => map_into(&tensor, |x: E| x.is_nan()))
}

/// Whether each element is ±infinity (a bool tensor).
pub fn is_inf(tensor: FlexTensor) -> FlexTensor {
    with_float!(tensor.dtype(), "is_inf", E => map_into(&tensor, |x: E| x.is_infinite()))
}

/// `x^exponent` for a float tensor and a float exponent.
pub fn powf_scalar(tensor: FlexTensor, exponent: Scalar) -> FlexTensor {
    with_float!(tensor.dtype(), "powf_scalar", E => {
        // x² exactly; no `sqrt` shortcut for 0.5 (pow(-inf, 0.5) is +inf, sqrt(-inf) NaN).
        if exponent.to_f64() == 2.0 {
            map_same(tensor, |x: E| x * x)
        } else {
            let e: E = exponent.elem();
            map_same(tensor, move |x: E| x.powf(e))
        }
    })
}

/// `x^exponent` for an integer exponent, on a float or int tensor.
pub fn powi_scalar(tensor: FlexTensor, exponent: Scalar) -> FlexTensor {
    let n = exponent.to_i64();
    if tensor.dtype().is_float() {
        let n = i32::try_from(n).unwrap_or(if n < 0 { i32::MIN } else { i32::MAX });
        let single_rounding = !matches!(tensor.dtype(), DType::F32 | DType::F64);
        with_float!(tensor.dtype(), "powi_scalar", E => {
            // `powi` is a library call the compiler cannot vectorize. For small exponents the
            // same products in the same order (binary powering, then one reciprocal) give the
            // same bits as a loop that vectorizes; the half floats round once, through `f32`.
            match n {
                _ if single_rounding => map_same(tensor, move |x: E| x.powi(n)),
                0 => map_same(tensor, |_: E| E::one()),
                1 => tensor,
                2 => map_same(tensor, |x: E| x * x),
                3 => map_same(tensor, |x: E| x * (x * x)),
                4 => map_same(tensor, |x: E| (x * x) * (x * x)),
                -1 => map_same(tensor, |x: E| E::one() / x),
                -2 => map_same(tensor, |x: E| E::one() / (x * x)),
                _ => map_same(tensor, move |x: E| x.powi(n)),
            }
        })
    } else {
        with_int!(tensor.dtype(), "powi_scalar", E => {
            let e = E::from_i64(n);
            map_same(tensor, move |x: E| NumElement::pow(x, e))
        })
    }
}

/// Each element limited to `[min, max]` (NaN stays NaN).
pub fn clamp(tensor: FlexTensor, min: Scalar, max: Scalar) -> FlexTensor {
    with_num!(tensor.dtype(), "clamp", E => {
        let (lo, hi): (E, E) = (min.elem(), max.elem());
        // Two independent selects (the same values as `x < lo ? lo : x > hi ? hi : x` for
        // `lo <= hi`, NaN kept) vectorize; the nested form did not ([2048, 2048] f32: 1.0 against
        // 0.4 ms).
        map_same(tensor, move |x: E| {
            let raised = if x < lo { lo } else { x };
            if raised > hi { hi } else { raised }
        })
    })
}

/// Each element raised to at least `min` (NaN stays NaN).
pub fn clamp_min(tensor: FlexTensor, min: Scalar) -> FlexTensor {
    with_num!(tensor.dtype(), "clamp_min", E => {
        let lo: E = min.elem();
        map_same(tensor, move |x: E| if x < lo { lo } else { x })
    })
}

/// Each element lowered to at most `max` (NaN stays NaN).
pub fn clamp_max(tensor: FlexTensor, max: Scalar) -> FlexTensor {
    with_num!(tensor.dtype(), "clamp_max", E => {
        let hi: E = max.elem();
        map_same(tensor, move |x: E| if x > hi { hi } else { x })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::{bf16, f16};

    fn strided_input() -> (FlexTensor, Vec<f64>) {
        // A [3, 4] tensor seen transposed and flipped: a non-contiguous view.
        let base: Vec<f64> = (0..12).map(|i| (i as f64 - 5.5) * 0.17).collect();
        let t = FlexTensor::from_vec(base.clone(), [3, 4])
            .transpose()
            .flip(&[1]);
        let mut expected = vec![];
        for j in 0..4 {
            for i in (0..3).rev() {
                expected.push(base[i * 4 + j]);
            }
        }
        (t, expected)
    }

    #[test]
    fn float_table_matches_f64_reference() {
        type Op = (fn(FlexTensor) -> FlexTensor, fn(f64) -> f64);
        let table: [Op; 12] = [
            (exp, f64::exp),
            (sin, f64::sin),
            (cos, f64::cos),
            (tanh, f64::tanh),
            (atan, f64::atan),
            (asinh, f64::asinh),
            (floor, f64::floor),
            (ceil, f64::ceil),
            (trunc, f64::trunc),
            (neg, |x| -x),
            (abs, f64::abs),
            (sign, |x: f64| if x == 0.0 { 0.0 } else { x.signum() }),
        ];
        let (t, expected) = strided_input();
        for (op, reference) in table {
            let got = op(t.clone()).to_vec::<f64>();
            for (g, e) in got.iter().zip(&expected) {
                assert!(
                    (g - reference(*e)).abs() < 1e-12,
                    "{g} vs {}",
                    reference(*e)
                );
            }
            let t32 = super::super::creation::cast(t.clone(), burn_std::DType::F32);
            let got = op(t32).to_vec::<f32>();
            for (g, e) in got.iter().zip(&expected) {
                assert!((*g as f64 - reference(*e)).abs() < 1e-5);
            }
        }
        // The input is untouched by all of it.
        assert_eq!(t.to_vec::<f64>(), expected);
    }

    #[test]
    fn f32_sine_and_cosine_take_the_library_beyond_the_limit() {
        // Blocks with and without far values, split between threads, every value checked
        // against f64 to within 2 ulps (or 2^-30 absolute near a zero).
        let n = 3 * super::PAR_THRESHOLD + 77;
        let values: Vec<f32> = (0..n)
            .map(|i| match i % 1000 {
                0 => 1.0e6 + i as f32,
                1 => -3.0e30,
                2 => f32::NAN,
                _ => (i as f32 * 0.731).sin() * 200.0 - (i % 7) as f32 * 1000.0,
            })
            .collect();
        let t = FlexTensor::from_vec(values.clone(), [n]);
        type Op = (fn(FlexTensor) -> FlexTensor, fn(f64) -> f64);
        let ops: [Op; 2] = [(sin, f64::sin), (cos, f64::cos)];
        for (op, reference) in ops {
            let got = op(t.clone()).to_vec::<f32>();
            for (&g, &x) in got.iter().zip(&values) {
                let exact = reference(x as f64);
                let tolerance = (exact.abs() * f32::EPSILON as f64).max(2f64.powi(-53)) * 2.0;
                assert!(
                    (g as f64 - exact).abs() <= tolerance || (g.is_nan() && exact.is_nan()),
                    "at {x}: {g} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn f32_log_log1p_and_erf_are_within_a_few_ulps_of_f64() {
        // Powers-of-two spaced magnitudes from 1e-30 to 1e30, both signs, and around -1 and 0.
        let mut xs: Vec<f32> = (0..2000)
            .map(|i| 1e-30f32 * 1.0355f32.powi(i))
            .flat_map(|x| [x, -x])
            .collect();
        xs.extend((0..400).map(|i| -1.0 + i as f32 * 1e-3));
        xs.extend([0.0, -0.0, -1.0, f32::INFINITY, f32::MAX, f32::NAN]);
        let t = FlexTensor::from_vec(xs.clone(), [xs.len()]);
        type Op = (&'static str, fn(FlexTensor) -> FlexTensor, fn(f64) -> f64);
        let ops: [Op; 3] = [
            ("log", log, f64::ln),
            ("log1p", log1p, f64::ln_1p),
            ("erf", erf, erf_f64),
        ];
        for (name, op, reference) in ops {
            let got = op(t.clone()).to_vec::<f32>();
            for (&g, &x) in got.iter().zip(&xs) {
                let exact = reference(x as f64) as f32 as f64;
                let close = (g as f64 - exact).abs()
                    <= 3.0 * (exact.abs() * f32::EPSILON as f64).max(f32::MIN_POSITIVE as f64);
                assert!(
                    close || g == exact as f32 || (g.is_nan() && exact.is_nan()),
                    "{name}({x:e}) = {g:e}, expected {exact:e}"
                );
            }
        }
    }

    #[test]
    fn erf_is_accurate() {
        let known = [
            (0.0, 0.0),
            (1e-10, 1.1283791670955126e-10),
            (0.5, 0.5204998778130465),
            (1.0, 0.8427007929497149),
            (2.0, 0.9953222650189527),
            (2.5, 0.999593047982555),
            (3.0, 0.9999779095030014),
            (3.5, 0.9999992569016276),
            (-1.5, -0.9661051464753108),
            (7.0, 1.0),
        ];
        for (x, e) in known {
            let got = erf_f64(x);
            assert!(
                (got - e).abs() <= 4.0 * f64::EPSILON * e.abs().max(1e-300),
                "erf({x}) = {got}, expected {e}"
            );
        }
    }

    #[test]
    fn round_ties_to_even_and_clamp() {
        let t = FlexTensor::from_vec(vec![0.5f32, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6], [7]);
        assert_eq!(
            round(t).to_vec::<f32>(),
            vec![0.0, 2.0, 2.0, -0.0, -2.0, 2.0, -3.0]
        );
        let t = FlexTensor::from_vec(vec![-3i32, 0, 7], [3]);
        let c = clamp(t.clone(), Scalar::Int(-1), Scalar::Int(5));
        assert_eq!(c.to_vec::<i32>(), vec![-1, 0, 5]);
        assert_eq!(abs(t.clone()).to_vec::<i32>(), vec![3, 0, 7]);
        assert_eq!(
            powi_scalar(t, Scalar::Int(2)).to_vec::<i32>(),
            vec![9, 0, 49]
        );
        let n = FlexTensor::from_vec(vec![f64::NAN, 1.0, f64::INFINITY], [3]);
        assert_eq!(is_nan(n.clone()).to_vec::<bool>(), vec![true, false, false]);
        assert_eq!(is_inf(n.clone()).to_vec::<bool>(), vec![false, false, true]);
        assert!(clamp_max(n, Scalar::Float(0.0)).to_vec::<f64>()[0].is_nan());
    }

    #[test]
    fn half_precision_smoke() {
        let t = FlexTensor::from_vec(vec![f16::from_f32(0.25), f16::from_f32(-1.0)], [2]);
        let got = exp(t).to_vec::<f16>();
        assert!((got[0].to_f32() - 0.25f32.exp()).abs() < 2e-3);
        let t = FlexTensor::from_vec(vec![bf16::from_f32(4.0)], [1]);
        assert_eq!(sqrt(t.clone()).to_vec::<bf16>()[0].to_f32(), 2.0);
        assert_eq!(
            powf_scalar(t, Scalar::Float(1.5)).to_vec::<bf16>()[0].to_f32(),
            8.0
        );
    }

    #[test]
    fn small_integer_powers_are_the_bits_of_powi() {
        let xs: Vec<f64> = (0..200)
            .map(|i| (i as f64 - 100.0) * 0.173)
            .chain([
                0.0,
                -0.0,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                1e-30,
                3e30,
            ])
            .collect();
        /// `powi_scalar` against `powi` for every value, bit for bit (through `f64`, exact).
        fn check<E: crate::tensor::Storable + Float + Into<f64>>(xs: Vec<E>, n: i32) {
            let t = FlexTensor::from_vec(xs.clone(), [xs.len()]);
            let got = powi_scalar(t, Scalar::Int(n.into())).to_vec::<E>();
            for (&g, &x) in got.iter().zip(&xs) {
                let (g, want): (f64, f64) = (g.into(), x.powi(n).into());
                let same = g.to_bits() == want.to_bits() || (g.is_nan() && want.is_nan());
                assert!(same, "{:?} {}^{n}", E::DTYPE, x.into());
            }
        }
        for n in -5..=5 {
            check(xs.clone(), n);
            check(xs.iter().map(|&x| x as f32).collect(), n);
        }
    }
}
