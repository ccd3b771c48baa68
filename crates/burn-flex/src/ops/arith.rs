//! Per-element arithmetic with the framework's semantics, for floats and integers alike.
//!
//! Integers wrap on overflow (like PyTorch), divide truncating toward zero (like Rust's `/`),
//! and panic on division by zero; remainders take the sign of the divisor for both floats and
//! integers (Python/PyTorch `remainder`). Max/min propagate NaN.

use crate::tensor::Storable;
use burn_std::{bf16, f16};
use core::cmp::Ordering;

/// A numeric element: every float and integer type.
pub trait NumElement: Storable + PartialOrd {
    /// The type sums and products accumulate in (`f32` for the half floats).
    type Acc: NumElement;
    /// Whether this is a float type.
    const IS_FLOAT: bool;
    /// Whether this type has negative values.
    const SIGNED: bool;
    /// 0.
    fn zero() -> Self;
    /// 1.
    fn one() -> Self;
    /// The largest value (`+inf` for floats).
    fn max_value() -> Self;
    /// The smallest value (`-inf` for floats).
    fn min_value() -> Self;
    /// `n` converted (`as` semantics).
    fn from_usize(n: usize) -> Self;
    /// `self + other` (wrapping for integers).
    fn add(self, other: Self) -> Self;
    /// `self - other` (wrapping for integers).
    fn sub(self, other: Self) -> Self;
    /// `self * other` (wrapping for integers).
    fn mul(self, other: Self) -> Self;
    /// `self / other` (integers truncate toward zero and panic on zero).
    fn div(self, other: Self) -> Self;
    /// The remainder with the sign of `other` (integers panic on zero).
    fn rem(self, other: Self) -> Self;
    /// `self` raised to `other` (integers: negative exponents give the truncated real result).
    fn pow(self, other: Self) -> Self;
    /// `-self` (wrapping for integers).
    fn neg(self) -> Self;
    /// `|self|` (wrapping for integers).
    fn abs(self) -> Self;
    /// -1, 0 or 1 (NaN stays NaN).
    fn sign(self) -> Self;
    /// Whether this is a float NaN.
    fn is_nan(self) -> bool;
    /// Into the accumulation type.
    fn to_acc(self) -> Self::Acc;
    /// From the accumulation type.
    fn from_acc(acc: Self::Acc) -> Self;
}

/// The larger of `a` and `b`, NaN if either is NaN (the first NaN when both are).
#[inline]
pub fn max_nan<E: NumElement>(a: E, b: E) -> E {
    if a.is_nan() || b.is_nan() {
        if a.is_nan() { a } else { b }
    } else if b > a {
        b
    } else {
        a
    }
}

/// The smaller of `a` and `b`, NaN if either is NaN.
#[inline]
pub fn min_nan<E: NumElement>(a: E, b: E) -> E {
    if a.is_nan() || b.is_nan() {
        if a.is_nan() { a } else { b }
    } else if b < a {
        b
    } else {
        a
    }
}

/// A total order where NaN is greater than every number and equal to itself.
#[inline]
pub fn cmp_nan_last<E: NumElement>(a: &E, b: &E) -> Ordering {
    match (a.is_nan(), b.is_nan()) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        _ => a.partial_cmp(b).unwrap_or(Ordering::Equal),
    }
}

macro_rules! float_num {
    ($ty:ty, $acc:ty, $zero:expr, $one:expr, $to:expr, $from:expr) => {
        impl NumElement for $ty {
            type Acc = $acc;
            const IS_FLOAT: bool = true;
            const SIGNED: bool = true;
            fn zero() -> Self {
                $zero
            }
            fn one() -> Self {
                $one
            }
            fn max_value() -> Self {
                <$ty>::INFINITY
            }
            fn min_value() -> Self {
                <$ty>::NEG_INFINITY
            }
            fn from_usize(n: usize) -> Self {
                ($from)(n as f64)
            }
            fn add(self, other: Self) -> Self {
                self + other
            }
            fn sub(self, other: Self) -> Self {
                self - other
            }
            fn mul(self, other: Self) -> Self {
                self * other
            }
            fn div(self, other: Self) -> Self {
                self / other
            }
            fn rem(self, other: Self) -> Self {
                let r = self % other;
                if r != $zero && ((r < $zero) != (other < $zero)) {
                    r + other
                } else {
                    r
                }
            }
            fn pow(self, other: Self) -> Self {
                num_traits::Float::powf(self, other)
            }
            fn neg(self) -> Self {
                -self
            }
            fn abs(self) -> Self {
                num_traits::Float::abs(self)
            }
            fn sign(self) -> Self {
                if self > $zero {
                    $one
                } else if self < $zero {
                    -$one
                } else {
                    self // 0, -0 or NaN
                }
            }
            fn is_nan(self) -> bool {
                self != self
            }
            fn to_acc(self) -> $acc {
                ($to)(self)
            }
            fn from_acc(acc: $acc) -> Self {
                ($from)(acc as f64)
            }
        }
    };
}

float_num!(f64, f64, 0.0, 1.0, |v: f64| v, |v: f64| v);
float_num!(f32, f32, 0.0, 1.0, |v: f32| v, |v: f64| v as f32);
float_num!(f16, f32, f16::ZERO, f16::ONE, f16::to_f32, f16::from_f64);
float_num!(
    bf16,
    f32,
    bf16::ZERO,
    bf16::ONE,
    bf16::to_f32,
    bf16::from_f64
);

/// Integers accumulate sums and products in 64 bits: the same wrapped result, and a mean that
/// divides the true sum by a count that fits.
macro_rules! int_num {
    ($signed:expr, $($ty:ty => $acc:ty),*) => {$(
        impl NumElement for $ty {
            type Acc = $acc;
            const IS_FLOAT: bool = false;
            const SIGNED: bool = $signed;
            fn zero() -> Self {
                0
            }
            fn one() -> Self {
                1
            }
            fn max_value() -> Self {
                <$ty>::MAX
            }
            fn min_value() -> Self {
                <$ty>::MIN
            }
            fn from_usize(n: usize) -> Self {
                n as $ty
            }
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
            fn mul(self, other: Self) -> Self {
                self.wrapping_mul(other)
            }
            fn div(self, other: Self) -> Self {
                if other == 0 {
                    panic!("int_div: division by zero ({self} / 0)");
                }
                self.wrapping_div(other)
            }
            #[allow(unused_comparisons)]
            fn rem(self, other: Self) -> Self {
                if other == 0 {
                    panic!("int_remainder: division by zero ({self} % 0)");
                }
                let r = self.wrapping_rem(other);
                if r != 0 && ((r < 0) != (other < 0)) {
                    r.wrapping_add(other)
                } else {
                    r
                }
            }
            #[allow(unused_comparisons)]
            fn pow(self, other: Self) -> Self {
                if other < 0 {
                    // The real result truncated: only ±1 have a non-zero integer part.
                    return match self as i128 {
                        1 => 1,
                        -1 => if (other as i128) % 2 == 0 { 1 } else { self },
                        _ => 0,
                    };
                }
                let exp = u32::try_from(other as u128).unwrap_or(u32::MAX);
                self.wrapping_pow(exp)
            }
            fn neg(self) -> Self {
                (0 as $ty).wrapping_sub(self)
            }
            #[allow(unused_comparisons)]
            fn abs(self) -> Self {
                if self < 0 { self.neg() } else { self }
            }
            #[allow(unused_comparisons)]
            fn sign(self) -> Self {
                if self > 0 {
                    1
                } else if self < 0 {
                    (0 as $ty).wrapping_sub(1)
                } else {
                    0
                }
            }
            fn is_nan(self) -> bool {
                false
            }
            fn to_acc(self) -> $acc {
                self as $acc
            }
            fn from_acc(acc: $acc) -> Self {
                acc as $ty
            }
        }
    )*};
}

int_num!(true, i64 => i64, i32 => i64, i16 => i64, i8 => i64);
int_num!(false, u64 => u64, u32 => u64, u16 => u64, u8 => u64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remainder_takes_the_sign_of_the_divisor() {
        assert_eq!(NumElement::rem(-7i32, 3), 2);
        assert_eq!(NumElement::rem(7i32, -3), -2);
        assert_eq!(NumElement::rem(-7i32, -3), -1);
        assert_eq!(NumElement::rem(-7.5f64, 2.0), 0.5);
        assert_eq!(NumElement::rem(7.5f32, -2.0), -0.5);
        assert_eq!(NumElement::rem(7u8, 3), 1);
        assert_eq!(NumElement::div(-7i64, 2), -3);
    }

    #[test]
    fn max_min_propagate_nan() {
        assert!(max_nan(1.0f32, f32::NAN).is_nan());
        assert!(min_nan(f32::NAN, 1.0).is_nan());
        assert_eq!(max_nan(3i8, -2), 3);
        assert_eq!(cmp_nan_last(&f64::NAN, &1.0), Ordering::Greater);
        assert_eq!(NumElement::pow(2i32, 10), 1024);
        assert_eq!(NumElement::pow(-1i32, -3), -1);
        assert_eq!(NumElement::sign(-5i16), -1);
    }

    #[test]
    #[should_panic(expected = "int_div: division by zero")]
    fn int_division_by_zero_panics() {
        NumElement::div(1i32, 0);
    }
}
