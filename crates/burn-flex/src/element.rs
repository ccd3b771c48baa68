//! The element traits Flex's kernels are generic over.

use crate::ops::unary::normal_cdf_f64;
use crate::simd;
use burn_std::{Element, ToElement, bf16, f16};
use core::any::TypeId;
use num_traits::{Float, PrimInt};

/// Any element Flex stores: the floats, the integers and `bool`.
pub trait FlexElement: Element + PartialEq {}

impl<E: Element + PartialEq> FlexElement for E {}

/// Default [`FloatElement`] methods that call `num_traits::Float`'s (`libm`'s) function, each
/// with its doc; the `f32` and half-float impls replace them (see `f32_methods!`).
macro_rules! libm_by_default {
    ($($(#[$doc:meta])* $method:ident => $f:ident;)*) => {$(
        $(#[$doc])*
        #[inline(always)]
        fn $method(self) -> Self {
            Float::$f(self)
        }
    )*};
}

/// A float element; kernels compute in the type itself (`f16`/`bf16` through `half`'s
/// `num_traits::Float` impls, which round through `f32` per operation).
pub trait FloatElement: crate::tensor::Storable + Float + Send + Sync {
    /// Matrix product `dst = lhs · rhs` for row-major `m×k` and `k×n` operands with the given
    /// row/column strides (in elements). Uses `gemm` for `f64`, `f32`, `f16`; `bf16` goes
    /// through `f32`.
    #[allow(clippy::too_many_arguments)]
    fn gemm(
        m: usize,
        k: usize,
        n: usize,
        lhs: &[Self],
        lhs_strides: [isize; 2],
        rhs: &[Self],
        rhs_strides: [isize; 2],
        dst: &mut [Self],
    ) {
        crate::kernels::gemm::gemm_via_f32(m, k, n, lhs, lhs_strides, rhs, rhs_strides, dst)
    }

    libm_by_default! {
        /// `e^x`: without a library call for `f32` and the half floats (so loops of it vectorize,
        /// see [`crate::simd::exp_f32`]), `libm`'s for `f64`.
        exp_vectorizable => exp;
        /// `ln x`: without a library call for `f32` and the half floats ([`crate::simd::ln_f32`]),
        /// `libm`'s for `f64`.
        ln_vectorizable => ln;
        /// `ln(1 + x)`, accurate near 0: vectorizable for `f32` and the half floats
        /// (`log1p_f32`), `libm`'s for `f64`.
        ln_1p_vectorizable => ln_1p;
        /// `atan x`: without a library call for `f32` and the half floats
        /// ([`crate::simd::atan_f32`]), `libm`'s for `f64`.
        atan_vectorizable => atan;
        /// `tanh x`: without a library call for `f32` and the half floats
        /// ([`crate::simd::tanh_f32`]), `libm`'s for `f64`.
        tanh_vectorizable => tanh;
    }

    /// `e^x` for `x ≤ 0` that is not NaN (a softmax's `x - max` on a row whose maximum is
    /// finite): [`crate::simd::exp_f32_nonpositive`] for `f32`, [`exp_vectorizable`]
    /// otherwise.
    ///
    /// [`exp_vectorizable`]: Self::exp_vectorizable
    #[inline(always)]
    fn exp_nonpositive(self) -> Self {
        self.exp_vectorizable()
    }

    /// The error function: [`crate::simd::erf_f32`] for `f32` and the half floats, a series
    /// and continued fraction in `f64` otherwise.
    #[inline(always)]
    fn erf_vectorizable(self) -> Self {
        Self::from_f64(crate::ops::unary::erf_f64(ToElement::to_f64(&self)))
    }

    /// `GELU(x) = x·Φ(x)`: through [`crate::simd::normal_cdf_f32`] for `f32` and the half floats,
    /// through the `f64` error function otherwise.
    #[inline(always)]
    fn gelu_vectorizable(self) -> Self {
        let x = ToElement::to_f64(&self);
        Self::from_f64(x * normal_cdf_f64(x))
    }

    /// The derivative of GELU, `Φ(x) + x·φ(x)` (vectorizable for `f32` and the half floats).
    #[inline(always)]
    fn gelu_derivative_vectorizable(self) -> Self {
        let x = ToElement::to_f64(&self);
        let pdf = (-0.5 * x * x).exp() / (2.0 * core::f64::consts::PI).sqrt();
        Self::from_f64(normal_cdf_f64(x) + x * pdf)
    }

    /// The logistic function `1 / (1 + e^-x)`: [`crate::simd::sigmoid_f32`] for `f32` and the
    /// half floats; for `f64` the form that cannot overflow on either side.
    #[inline(always)]
    fn sigmoid_vectorizable(self) -> Self {
        if self >= Self::zero() {
            Self::one() / (Self::one() + (-self).exp())
        } else {
            let e = self.exp();
            e / (Self::one() + e)
        }
    }
}

/// `ln(1 + x)` for `f32`: `ln u · x / (u - 1)` with `u = 1 + x` rounded, which cancels the
/// rounding of `u` (Goldberg's method); `x` itself where `u` rounds to 1.
#[inline(always)]
fn log1p_f32(x: f32) -> f32 {
    let u = 1.0 + x;
    let d = u - 1.0;
    let y = simd::ln_f32(u) * (x / d);
    // `u = ∞` (x = ∞, or x near f32::MAX) gives ∞ · (∞/∞): `ln u` alone is right there.
    let y = if u == f32::INFINITY { u } else { y };
    if d == 0.0 { x } else { y }
}

/// `GELU(x) = x·Φ(x)` for `f32`.
#[inline(always)]
fn gelu_f32(x: f32) -> f32 {
    x * simd::normal_cdf_f32(x)
}

/// `Φ(x) + x·φ(x)`, the derivative of GELU, for `f32`.
#[inline(always)]
fn gelu_derivative_f32(x: f32) -> f32 {
    x.mul_add(simd::normal_pdf_f32(x), simd::normal_cdf_f32(x))
}

/// The [`FloatElement`] methods that have a vectorizable `f32` function, written inside an
/// impl: `direct` calls the function on the value (`f32`), `through_f32` on the value widened
/// to `f32`, rounding the result back (the half floats).
macro_rules! f32_methods {
    ($how:ident) => {
        f32_methods!(@each $how:
            exp_vectorizable => simd::exp_f32,
            ln_vectorizable => simd::ln_f32,
            ln_1p_vectorizable => log1p_f32,
            erf_vectorizable => simd::erf_f32,
            atan_vectorizable => simd::atan_f32,
            tanh_vectorizable => simd::tanh_f32,
            sigmoid_vectorizable => simd::sigmoid_f32,
            gelu_vectorizable => gelu_f32,
            gelu_derivative_vectorizable => gelu_derivative_f32,
        );
    };
    (@each direct: $($method:ident => $f:path,)*) => {$(
        #[inline(always)]
        fn $method(self) -> Self {
            $f(self)
        }
    )*};
    (@each through_f32: $($method:ident => $f:path,)*) => {$(
        #[inline(always)]
        fn $method(self) -> Self {
            Self::from_f32($f(self.to_f32()))
        }
    )*};
}

/// [`FloatElement::gemm`] through `gemm`'s own kernels for the type, inside an impl.
macro_rules! native_gemm {
    () => {
        fn gemm(
            m: usize,
            k: usize,
            n: usize,
            lhs: &[Self],
            lhs_strides: [isize; 2],
            rhs: &[Self],
            rhs_strides: [isize; 2],
            dst: &mut [Self],
        ) {
            crate::kernels::gemm::gemm_native(m, k, n, lhs, lhs_strides, rhs, rhs_strides, dst)
        }
    };
}

impl FloatElement for f64 {
    native_gemm!();
}

impl FloatElement for f32 {
    f32_methods!(direct);
    native_gemm!();

    #[inline(always)]
    fn exp_nonpositive(self) -> Self {
        simd::exp_f32_nonpositive(self)
    }
}

impl FloatElement for f16 {
    f32_methods!(through_f32);
    native_gemm!();
}

impl FloatElement for bf16 {
    f32_methods!(through_f32);
}

/// An integer element (signed or unsigned).
pub trait IntElement: FlexElement + PrimInt + Send + Sync {}

impl<E: FlexElement + PrimInt + Send + Sync> IntElement for E {}

/// `values` as `f32` when `T` is `f32` (for kernels written for `f32` alone).
pub(crate) fn as_f32<T: 'static>(values: &[T]) -> Option<&[f32]> {
    (TypeId::of::<T>() == TypeId::of::<f32>())
        // SAFETY: `T` is `f32`.
        .then(|| unsafe { &*(values as *const [T] as *const [f32]) })
}

/// `values` as mutable `f32` when `T` is `f32`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn as_f32_mut<T: 'static>(values: &mut [T]) -> Option<&mut [f32]> {
    (TypeId::of::<T>() == TypeId::of::<f32>())
        // SAFETY: `T` is `f32`.
        .then(|| unsafe { &mut *(values as *mut [T] as *mut [f32]) })
}

/// `values` as a `Vec<T>`; panics unless `T` is `f32`.
pub(crate) fn from_f32<T: 'static>(values: Vec<f32>) -> Vec<T> {
    assert_eq!(
        TypeId::of::<T>(),
        TypeId::of::<f32>(),
        "from_f32: T is not f32"
    );
    let mut values = core::mem::ManuallyDrop::new(values);
    // SAFETY: `T` is `f32`: same size, alignment and allocation layout.
    unsafe {
        Vec::from_raw_parts(
            values.as_mut_ptr().cast::<T>(),
            values.len(),
            values.capacity(),
        )
    }
}
