//! The host element types a tensor's data can hold, and conversions between them.

use crate::{BoolStore, DType, Scalar};
use core::fmt::{Debug, Display};
use half::{bf16, f16};

/// A host type that can be a tensor element: `f64`, `f32`, `f16`, `bf16`, the integers, `bool`.
///
/// Conversions follow Rust's `as` casts: floats to ints truncate toward zero and saturate,
/// ints to floats round to nearest.
pub trait Element:
    Copy
    + Debug
    + Display
    + PartialOrd
    + Default
    + Send
    + Sync
    + 'static
    + bytemuck::NoUninit
    + bytemuck::CheckedBitPattern
{
    /// The dtype of this element type.
    const DTYPE: DType;

    /// The dtype of this element type (as a function, for generic code).
    fn dtype() -> DType {
        Self::DTYPE
    }
    /// This value as an `f64`.
    fn to_f64(self) -> f64;
    /// The value nearest to `value`.
    fn from_f64(value: f64) -> Self;
    /// This value as an `i64` (floats truncate).
    fn to_i64(self) -> i64;
    /// The value nearest to `value`.
    fn from_i64(value: i64) -> Self;
    /// This value as a [`Scalar`], without loss.
    fn to_scalar(self) -> Scalar;
    /// The value nearest to `scalar`.
    fn from_scalar(scalar: Scalar) -> Self;
}

macro_rules! float_element {
    ($ty:ty, $dtype:ident, $to:expr, $from:expr) => {
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;
            fn to_f64(self) -> f64 {
                ($to)(self)
            }
            fn from_f64(value: f64) -> Self {
                ($from)(value)
            }
            fn to_i64(self) -> i64 {
                self.to_f64() as i64
            }
            fn from_i64(value: i64) -> Self {
                Self::from_f64(value as f64)
            }
            fn to_scalar(self) -> Scalar {
                Scalar::Float(self.to_f64())
            }
            fn from_scalar(scalar: Scalar) -> Self {
                Self::from_f64(scalar.to_f64())
            }
        }
    };
}

float_element!(f64, F64, |v: f64| v, |v: f64| v);
float_element!(f32, F32, |v: f32| v as f64, |v: f64| v as f32);
float_element!(f16, F16, |v: f16| v.to_f64(), f16::from_f64);
float_element!(bf16, BF16, |v: bf16| v.to_f64(), bf16::from_f64);

macro_rules! int_element {
    ($ty:ty, $dtype:ident, $variant:ident, $wide:ty) => {
        impl Element for $ty {
            const DTYPE: DType = DType::$dtype;
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(value: f64) -> Self {
                value as $ty
            }
            fn to_i64(self) -> i64 {
                self as i64
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
    };
}

int_element!(i64, I64, Int, i64);
int_element!(i32, I32, Int, i64);
int_element!(i16, I16, Int, i64);
int_element!(i8, I8, Int, i64);
int_element!(u64, U64, UInt, u64);
int_element!(u32, U32, UInt, u64);
int_element!(u16, U16, UInt, u64);
int_element!(u8, U8, UInt, u64);

impl Element for bool {
    const DTYPE: DType = DType::Bool(BoolStore::Native);
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    fn from_f64(value: f64) -> Self {
        value != 0.0
    }
    fn to_i64(self) -> i64 {
        self as i64
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

/// Conversion of any element or scalar into another element type: `x.elem::<f32>()`.
pub trait ElementConversion {
    /// Builds `Self` from any element.
    fn from_elem<E: Element>(elem: E) -> Self;
    /// Converts `self` into the element type `E`.
    fn elem<E: Element>(self) -> E;
}

impl<T: Element> ElementConversion for T {
    fn from_elem<E: Element>(elem: E) -> Self {
        T::from_scalar(elem.to_scalar())
    }
    fn elem<E: Element>(self) -> E {
        E::from_scalar(self.to_scalar())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_follow_as_casts() {
        assert_eq!(2.7f32.elem::<i32>(), 2);
        assert_eq!((-2.7f64).elem::<i64>(), -2);
        assert_eq!(300i32.elem::<u8>(), 44); // 300 as u8
        assert_eq!(u64::MAX.elem::<u64>(), u64::MAX);
        assert!(3i32.elem::<bool>());
        assert_eq!(f16::from_f32(1.5).elem::<f32>(), 1.5);
    }
}
