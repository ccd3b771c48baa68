//! The host element types a tensor's data can hold, and conversions between them.
//!
//! [`Element`] is Burn 0.23's trait with its companions: [`ElementConversion`] (`x.elem()`,
//! checked as [`ToElement`] is), [`ElementRandom`], [`ElementEq`], [`ElementComparison`],
//! [`ElementLimits`], [`ElementOrdered`] and [`ElementAdd`].

use crate::cast::ToElement;
use crate::{BoolStore, DType, Distribution, Scalar};
use core::cmp::Ordering;
use core::fmt::{Debug, Display};
use half::{bf16, f16};
use rand::Rng;

/// A host type that can be a tensor element: `f64`, `f32`, `f16`, `bf16`, the integers, `bool`.
///
/// Reading an element as another type goes through [`ToElement`] (`x.to_f64()`) or
/// [`ElementConversion`] (`x.elem::<i32>()`): both are checked, as in Burn (a float truncates
/// toward zero, a value that does not fit panics).
pub trait Element:
    ToElement
    + ElementConversion
    + ElementRandom
    + ElementEq
    + Copy
    + Debug
    + Display
    + Default
    + Send
    + Sync
    + 'static
    + bytemuck::NoUninit
    + bytemuck::CheckedBitPattern
    + bytemuck::Zeroable
{
    /// The dtype of this element type.
    const DTYPE: DType;

    /// The dtype of this element type (as a function, for generic code).
    fn dtype() -> DType {
        Self::DTYPE
    }
    /// The value nearest to `value` (Rust's `as`: ints truncate toward zero and saturate).
    fn from_f64(value: f64) -> Self;
    /// The value nearest to `value` (Rust's `as`).
    fn from_i64(value: i64) -> Self;
    /// This value as a [`Scalar`], without loss.
    fn to_scalar(self) -> Scalar;
    /// The value nearest to `scalar` (Rust's `as`).
    fn from_scalar(scalar: Scalar) -> Self;
}

/// Conversion between element types: `x.elem::<f32>()`.
pub trait ElementConversion {
    /// `elem` as `Self`, through [`ToElement`]: panics when the value does not fit.
    fn from_elem<E: ToElement>(elem: E) -> Self;
    /// `self` as the element type `E` (see [`from_elem`](Self::from_elem)).
    fn elem<E: Element>(self) -> E;
}

/// Random values of an element type.
pub trait ElementRandom {
    /// A value drawn from `distribution` (rounded down to an integer for the integer types).
    fn random<R: Rng>(distribution: Distribution, rng: &mut R) -> Self;
}

/// Equality of elements, for generic code.
pub trait ElementEq {
    /// Whether `self` equals `other`.
    fn eq(&self, other: &Self) -> bool;
}

/// A total order of elements (floats order NaN after +inf, as `total_cmp`).
pub trait ElementComparison {
    /// The order of `self` and `other`.
    fn cmp(&self, other: &Self) -> Ordering;
}

/// The smallest and largest values of an element type.
pub trait ElementLimits {
    /// The smallest finite value.
    const MIN: Self;
    /// The largest finite value.
    const MAX: Self;
}

/// An element with a total order and limits, for generic code that sorts or clamps.
pub trait ElementOrdered: Element + ElementComparison + ElementLimits {}

/// Addition of elements, for generic code.
pub trait ElementAdd {
    /// `self + other`.
    fn add(self, other: Self) -> Self;
}

/// The traits every element type shares; `$to` is its [`ToElement`] method.
macro_rules! element_traits {
    ($ty:ty, $to:ident, $cmp:expr, $min:expr, $max:expr) => {
        impl ElementConversion for $ty {
            fn from_elem<E: ToElement>(elem: E) -> Self {
                elem.$to()
            }
            fn elem<E: Element>(self) -> E {
                E::from_elem(self)
            }
        }
        impl ElementEq for $ty {
            fn eq(&self, other: &Self) -> bool {
                self == other
            }
        }
        impl ElementComparison for $ty {
            fn cmp(&self, other: &Self) -> Ordering {
                ($cmp)(self, other)
            }
        }
        impl ElementLimits for $ty {
            const MIN: Self = $min;
            const MAX: Self = $max;
        }
        impl ElementOrdered for $ty {}
    };
}

macro_rules! float_element {
    ($($ty:ty, $dtype:ident, $to:ident, $from:expr;)*) => {$(
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;
            fn from_f64(value: f64) -> Self {
                ($from)(value)
            }
            fn from_i64(value: i64) -> Self {
                Self::from_f64(value as f64)
            }
            fn to_scalar(self) -> Scalar {
                Scalar::Float(ToElement::to_f64(&self))
            }
            fn from_scalar(scalar: Scalar) -> Self {
                Self::from_f64(scalar.to_f64())
            }
        }
        impl ElementRandom for $ty {
            fn random<R: Rng>(distribution: Distribution, rng: &mut R) -> Self {
                Self::from_f64(distribution.sampler(rng).sample())
            }
        }
        impl ElementAdd for $ty {
            fn add(self, other: Self) -> Self {
                self + other
            }
        }
        element_traits!($ty, $to, <$ty>::total_cmp, <$ty>::MIN, <$ty>::MAX);
    )*};
}

float_element! {
    f64, F64, to_f64, |v: f64| v;
    f32, F32, to_f32, |v: f64| v as f32;
    f16, F16, to_f16, f16::from_f64;
    bf16, BF16, to_bf16, bf16::from_f64;
}

macro_rules! int_element {
    ($($ty:ty, $dtype:ident, $to:ident, $variant:ident, $wide:ty;)*) => {$(
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;
            fn from_f64(value: f64) -> Self {
                value as $ty
            }
            fn from_i64(value: i64) -> Self {
                value as $ty
            }
            fn to_scalar(self) -> Scalar {
                Scalar::$variant(self as $wide)
            }
            fn from_scalar(scalar: Scalar) -> Self {
                match scalar {
                    Scalar::Float(v) => v as $ty,
                    Scalar::Int(v) => v as $ty,
                    Scalar::UInt(v) => v as $ty,
                    Scalar::Bool(v) => v as $ty,
                }
            }
        }
        impl ElementRandom for $ty {
            fn random<R: Rng>(distribution: Distribution, rng: &mut R) -> Self {
                Self::from_f64(distribution.sampler(rng).sample().floor())
            }
        }
        impl ElementAdd for $ty {
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
        }
        element_traits!($ty, $to, Ord::cmp, <$ty>::MIN, <$ty>::MAX);
    )*};
}

int_element! {
    i64, I64, to_i64, Int, i64;
    i32, I32, to_i32, Int, i64;
    i16, I16, to_i16, Int, i64;
    i8, I8, to_i8, Int, i64;
    u64, U64, to_u64, UInt, u64;
    u32, U32, to_u32, UInt, u64;
    u16, U16, to_u16, UInt, u64;
    u8, U8, to_u8, UInt, u64;
}

impl Element for bool {
    const DTYPE: DType = DType::Bool(BoolStore::Native);
    fn from_f64(value: f64) -> Self {
        value != 0.0
    }
    fn from_i64(value: i64) -> Self {
        value != 0
    }
    fn to_scalar(self) -> Scalar {
        Scalar::Bool(self)
    }
    fn from_scalar(scalar: Scalar) -> Self {
        scalar.to_bool()
    }
}

impl ElementRandom for bool {
    /// `true` with the probability of a `Bernoulli`, or where the drawn value is nonzero.
    fn random<R: Rng>(distribution: Distribution, rng: &mut R) -> Self {
        distribution.sampler(rng).sample() != 0.0
    }
}

element_traits!(bool, to_bool, Ord::cmp, false, true);

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{SeedableRng, rngs::StdRng};

    #[test]
    fn conversions_are_checked_as_to_element() {
        assert_eq!(2.7f32.elem::<i32>(), 2);
        assert_eq!((-2.7f64).elem::<i64>(), -2);
        assert_eq!(u64::MAX.elem::<u64>(), u64::MAX);
        assert!(3i32.elem::<bool>());
        assert_eq!(f16::from_f32(1.5).elem::<f32>(), 1.5);
        assert_eq!(i32::from_elem(7u8), 7);
    }

    #[test]
    #[should_panic(expected = "cannot be represented as u8")]
    fn a_value_that_does_not_fit_panics() {
        300i32.elem::<u8>();
    }

    #[test]
    fn comparison_is_total_and_limits_are_finite() {
        assert_eq!(
            ElementComparison::cmp(&f32::NAN, &f32::INFINITY),
            Ordering::Greater
        );
        assert_eq!(ElementComparison::cmp(&-1i8, &1i8), Ordering::Less);
        assert_eq!(<f16 as ElementLimits>::MAX, f16::MAX);
        assert_eq!(<u8 as ElementLimits>::MIN, 0);
        assert_eq!(ElementAdd::add(i8::MAX, 1), i8::MIN);
    }

    #[test]
    fn random_values_follow_the_distribution() {
        let mut rng = StdRng::seed_from_u64(3);
        for _ in 0..200 {
            let v = i32::random(Distribution::Uniform(-3.0, 3.0), &mut rng);
            assert!((-3..3).contains(&v), "{v}");
            let x = f32::random(Distribution::Uniform(0.5, 1.0), &mut rng);
            assert!((0.5..=1.0).contains(&x), "{x}");
        }
        assert!(bool::random(Distribution::Bernoulli(1.0), &mut rng));
    }
}
