//! `Scalar`: one value of any element type, as passed to `*_scalar` operations.

use crate::{Element, ToElement};
use core::fmt;
use half::{bf16, f16};
use serde::{Deserialize, Serialize};

/// One value of any element type, kept without loss until an operation converts it to the
/// tensor's dtype.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Scalar {
    /// A float value.
    Float(f64),
    /// A signed integer value.
    Int(i64),
    /// An unsigned integer value.
    UInt(u64),
    /// A boolean value.
    Bool(bool),
}

impl Scalar {
    /// The value converted to the element type `E` (`as`-cast semantics).
    pub fn elem<E: Element>(self) -> E {
        E::from_scalar(self)
    }

    /// The value as an `f64`.
    pub fn to_f64(self) -> f64 {
        match self {
            Scalar::Float(v) => v,
            Scalar::Int(v) => v as f64,
            Scalar::UInt(v) => v as f64,
            Scalar::Bool(v) => v as u8 as f64,
        }
    }

    /// The value as an `f32`.
    pub fn to_f32(self) -> f32 {
        self.to_f64() as f32
    }

    /// The value as an `i64` (floats truncate toward zero).
    pub fn to_i64(self) -> i64 {
        match self {
            Scalar::Float(v) => v as i64,
            Scalar::Int(v) => v,
            Scalar::UInt(v) => v as i64,
            Scalar::Bool(v) => v as i64,
        }
    }

    /// The value as a `bool` (non-zero is `true`).
    pub fn to_bool(self) -> bool {
        match self {
            Scalar::Float(v) => v != 0.0,
            Scalar::Int(v) => v != 0,
            Scalar::UInt(v) => v != 0,
            Scalar::Bool(v) => v,
        }
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Float(v) => fmt::Display::fmt(v, f),
            Scalar::Int(v) => fmt::Display::fmt(v, f),
            Scalar::UInt(v) => fmt::Display::fmt(v, f),
            Scalar::Bool(v) => fmt::Display::fmt(v, f),
        }
    }
}

macro_rules! scalar_from {
    ($($ty:ty),*) => {$(
        impl From<$ty> for Scalar {
            fn from(value: $ty) -> Self {
                value.to_scalar()
            }
        }

        impl PartialEq<$ty> for Scalar {
            fn eq(&self, other: &$ty) -> bool {
                *self == other.to_scalar() || self.to_f64() == other.to_f64()
            }
        }
    )*};
}

scalar_from!(
    f64, f32, f16, bf16, i64, i32, i16, i8, u64, u32, u16, u8, bool
);

impl From<usize> for Scalar {
    fn from(value: usize) -> Self {
        Scalar::UInt(value as u64)
    }
}

impl From<isize> for Scalar {
    fn from(value: isize) -> Self {
        Scalar::Int(value as i64)
    }
}
