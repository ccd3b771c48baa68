//! [`ToElement`]: converting a scalar of one element type into another, checked.
//!
//! Integers convert when the value fits (else the conversion panics, naming both types);
//! floats convert to integers truncated toward zero when the result fits; floats narrow to
//! smaller floats rounding (overflowing to infinity); `bool` is 0 or 1, and anything nonzero
//! converts to `true`.

use half::{bf16, f16};

/// Converts a scalar into each element type (Burn's `ToElement`). `to_i64` and `to_u64` are
/// the required methods; the others go through them unless a type overrides them, as every
/// type here does.
pub trait ToElement {
    /// The value as an `isize`.
    fn to_isize(&self) -> isize {
        checked(self.to_i64())
    }
    /// The value as an `i8`.
    fn to_i8(&self) -> i8 {
        checked(self.to_i64())
    }
    /// The value as an `i16`.
    fn to_i16(&self) -> i16 {
        checked(self.to_i64())
    }
    /// The value as an `i32`.
    fn to_i32(&self) -> i32 {
        checked(self.to_i64())
    }
    /// The value as an `i64`.
    fn to_i64(&self) -> i64;
    /// The value as an `i128`.
    fn to_i128(&self) -> i128 {
        i128::from(self.to_i64())
    }
    /// The value as a `usize`.
    fn to_usize(&self) -> usize {
        checked(self.to_u64())
    }
    /// The value as a `u8`.
    fn to_u8(&self) -> u8 {
        checked(self.to_u64())
    }
    /// The value as a `u16`.
    fn to_u16(&self) -> u16 {
        checked(self.to_u64())
    }
    /// The value as a `u32`.
    fn to_u32(&self) -> u32 {
        checked(self.to_u64())
    }
    /// The value as a `u64`.
    fn to_u64(&self) -> u64;
    /// The value as a `u128`.
    fn to_u128(&self) -> u128 {
        u128::from(self.to_u64())
    }
    /// The value as an `f16` (overflowing to infinity).
    fn to_f16(&self) -> f16 {
        f16::from_f32(self.to_f32())
    }
    /// The value as a `bf16` (overflowing to infinity).
    fn to_bf16(&self) -> bf16 {
        bf16::from_f32(self.to_f32())
    }
    /// The value as an `f32` (overflowing to infinity).
    fn to_f32(&self) -> f32 {
        self.to_f64() as f32
    }
    /// The value as an `f64`.
    fn to_f64(&self) -> f64 {
        self.to_u64() as f64
    }
    /// The value as a `bool`: anything nonzero is `true`.
    fn to_bool(&self) -> bool {
        self.to_u64() != 0
    }
}

/// `value` converted to `To`, panicking with both types when it does not fit.
fn checked<From, To>(value: From) -> To
where
    From: Copy + core::fmt::Debug + TryInto<To>,
{
    value.try_into().unwrap_or_else(|_| {
        panic!(
            "ToElement: {value:?}_{} cannot be represented as {}",
            core::any::type_name::<From>(),
            core::any::type_name::<To>()
        )
    })
}

/// A float truncated toward zero into an integer type, panicking when it does not fit (NaN and
/// the infinities never do).
macro_rules! float_to_int {
    ($value:expr => $int:ty) => {{
        let value: f64 = $value;
        let truncated = value.trunc();
        // `MIN` is 0 or a negative power of two, exact in f64; `MAX + 1` is a power of two (for
        // 64 and 128 bits `MAX as f64` already rounds up to it, and adding 1 changes nothing).
        let (low, past_high) = (<$int>::MIN as f64, <$int>::MAX as f64 + 1.0);
        if truncated >= low && truncated < past_high {
            truncated as $int
        } else {
            panic!(
                "ToElement: {value} cannot be represented as {}",
                stringify!($int)
            )
        }
    }};
}

/// Implements every method for an integer type through `TryFrom`.
macro_rules! int_to_element {
    ($($ty:ty),*) => {$(
        impl ToElement for $ty {
            fn to_isize(&self) -> isize { checked(*self) }
            fn to_i8(&self) -> i8 { checked(*self) }
            fn to_i16(&self) -> i16 { checked(*self) }
            fn to_i32(&self) -> i32 { checked(*self) }
            fn to_i64(&self) -> i64 { checked(*self) }
            fn to_i128(&self) -> i128 { checked(*self) }
            fn to_usize(&self) -> usize { checked(*self) }
            fn to_u8(&self) -> u8 { checked(*self) }
            fn to_u16(&self) -> u16 { checked(*self) }
            fn to_u32(&self) -> u32 { checked(*self) }
            fn to_u64(&self) -> u64 { checked(*self) }
            fn to_u128(&self) -> u128 { checked(*self) }
            fn to_f32(&self) -> f32 { *self as f32 }
            fn to_f64(&self) -> f64 { *self as f64 }
            fn to_bool(&self) -> bool { *self != 0 }
        }
    )*};
}

int_to_element!(
    isize, i8, i16, i32, i64, i128, usize, u8, u16, u32, u64, u128
);

/// Implements every method for a float type through `f64` (exact for each of them).
macro_rules! float_to_element {
    ($($ty:ty => $to_f64:expr, $from_f64:expr, $from_f32:expr;)*) => {$(
        impl ToElement for $ty {
            fn to_isize(&self) -> isize { float_to_int!($to_f64(*self) => isize) }
            fn to_i8(&self) -> i8 { float_to_int!($to_f64(*self) => i8) }
            fn to_i16(&self) -> i16 { float_to_int!($to_f64(*self) => i16) }
            fn to_i32(&self) -> i32 { float_to_int!($to_f64(*self) => i32) }
            fn to_i64(&self) -> i64 { float_to_int!($to_f64(*self) => i64) }
            fn to_i128(&self) -> i128 { float_to_int!($to_f64(*self) => i128) }
            fn to_usize(&self) -> usize { float_to_int!($to_f64(*self) => usize) }
            fn to_u8(&self) -> u8 { float_to_int!($to_f64(*self) => u8) }
            fn to_u16(&self) -> u16 { float_to_int!($to_f64(*self) => u16) }
            fn to_u32(&self) -> u32 { float_to_int!($to_f64(*self) => u32) }
            fn to_u64(&self) -> u64 { float_to_int!($to_f64(*self) => u64) }
            fn to_u128(&self) -> u128 { float_to_int!($to_f64(*self) => u128) }
            fn to_f16(&self) -> f16 { ($from_f64)($to_f64(*self)) }
            fn to_bf16(&self) -> bf16 { ($from_f32)($to_f64(*self) as f32) }
            fn to_f32(&self) -> f32 { $to_f64(*self) as f32 }
            fn to_f64(&self) -> f64 { $to_f64(*self) }
            fn to_bool(&self) -> bool { $to_f64(*self) != 0.0 }
        }
    )*};
}

float_to_element! {
    f32 => f64::from, f16::from_f64, bf16::from_f32;
    f64 => core::convert::identity, f16::from_f64, bf16::from_f32;
    f16 => f16::to_f64, f16::from_f64, bf16::from_f32;
    bf16 => bf16::to_f64, f16::from_f64, bf16::from_f32;
}

impl ToElement for bool {
    fn to_i64(&self) -> i64 {
        i64::from(*self)
    }
    fn to_u64(&self) -> u64 {
        u64::from(*self)
    }
    fn to_f64(&self) -> f64 {
        f64::from(u8::from(*self))
    }
    fn to_bool(&self) -> bool {
        *self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_convert_when_they_fit() {
        assert_eq!(300i64.to_i16(), 300);
        assert_eq!((-1i32).to_i64(), -1);
        assert_eq!(7u8.to_f32(), 7.0);
        assert!(2i32.to_bool() && !0u64.to_bool());
        assert_eq!(true.to_f32(), 1.0);
        assert_eq!(u64::MAX.to_u128(), u64::MAX as u128);
    }

    #[test]
    #[should_panic(expected = "cannot be represented as u8")]
    fn a_negative_integer_does_not_become_unsigned() {
        (-1i32).to_u8();
    }

    #[test]
    fn floats_truncate_toward_zero() {
        assert_eq!((-2.7f32).to_i32(), -2);
        assert_eq!(255.9f64.to_u8(), 255);
        assert_eq!((-0.5f64).to_u8(), 0);
        assert_eq!(f16::from_f32(3.5).to_i64(), 3);
        assert_eq!(1.5f64.to_bf16(), bf16::from_f32(1.5));
        assert_eq!(f64::MAX.to_f32(), f32::INFINITY);
        assert_eq!((-9.2e18f64).to_i64(), -9_200_000_000_000_000_000);
    }

    #[test]
    #[should_panic(expected = "cannot be represented as u8")]
    fn a_float_past_the_range_panics() {
        256.0f32.to_u8();
    }

    #[test]
    #[should_panic(expected = "cannot be represented as i64")]
    fn nan_is_no_integer() {
        f64::NAN.to_i64();
    }
}
