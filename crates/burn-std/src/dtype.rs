//! Data types: the full `DType` and the families a kind of tensor may take.

use crate::quantization::{QuantScheme, QuantStore};
use core::fmt;
use serde::{Deserialize, Serialize};

/// The dtype of boolean tensors as Burn names it in its settings: how they are stored.
pub type BoolDType = BoolStore;

/// How a boolean tensor stores its values in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum BoolStore {
    /// One byte per value holding 0 or 1 (Rust's `bool`).
    #[default]
    Native,
    /// One `u8` per value (0 or 1), for devices without a native bool type.
    U8,
    /// One `u32` per value (0 or 1), for devices whose kernels prefer 32-bit words.
    U32,
}

/// The data type of a tensor's elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DType {
    /// 64-bit float.
    F64,
    /// 32-bit float.
    F32,
    /// 16-bit IEEE half float.
    F16,
    /// 16-bit brain float.
    BF16,
    /// 64-bit signed integer.
    I64,
    /// 32-bit signed integer.
    I32,
    /// 16-bit signed integer.
    I16,
    /// 8-bit signed integer.
    I8,
    /// 64-bit unsigned integer.
    U64,
    /// 32-bit unsigned integer.
    U32,
    /// 16-bit unsigned integer.
    U16,
    /// 8-bit unsigned integer.
    U8,
    /// Boolean, with its storage.
    Bool(BoolStore),
    /// Quantized float, with its scheme.
    QFloat(QuantScheme),
}

impl DType {
    /// Size of one element in bytes (for `QFloat`, of one stored element: 4 for a `PackedU32`
    /// store, else 1).
    pub const fn size(&self) -> usize {
        match self {
            DType::F64 | DType::I64 | DType::U64 => 8,
            DType::F32 | DType::I32 | DType::U32 => 4,
            DType::F16 | DType::BF16 | DType::I16 | DType::U16 => 2,
            DType::I8 | DType::U8 => 1,
            DType::Bool(BoolStore::Native) | DType::Bool(BoolStore::U8) => 1,
            DType::Bool(BoolStore::U32) => 4,
            DType::QFloat(scheme) => match scheme.store {
                QuantStore::PackedU32(_) => 4,
                QuantStore::Native | QuantStore::PackedNative(_) => 1,
            },
        }
    }

    /// Whether this is one of the float types (not quantized).
    #[inline]
    pub const fn is_float(&self) -> bool {
        matches!(self, DType::F64 | DType::F32 | DType::F16 | DType::BF16)
    }

    /// Whether this is one of the integer types, signed or not.
    pub const fn is_int(&self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }

    /// Whether this is a signed integer type.
    pub const fn is_signed_int(&self) -> bool {
        matches!(self, DType::I64 | DType::I32 | DType::I16 | DType::I8)
    }

    /// Whether this is an unsigned integer type.
    pub const fn is_unsigned_int(&self) -> bool {
        matches!(self, DType::U64 | DType::U32 | DType::U16 | DType::U8)
    }

    /// Whether this is a boolean type.
    pub const fn is_bool(&self) -> bool {
        matches!(self, DType::Bool(_))
    }

    /// The short lowercase name (`"f32"`, `"i64"`, `"bool"` …).
    pub const fn name(&self) -> &'static str {
        match self {
            DType::F64 => "f64",
            DType::F32 => "f32",
            DType::F16 => "f16",
            DType::BF16 => "bf16",
            DType::I64 => "i64",
            DType::I32 => "i32",
            DType::I16 => "i16",
            DType::I8 => "i8",
            DType::U64 => "u64",
            DType::U32 => "u32",
            DType::U16 => "u16",
            DType::U8 => "u8",
            DType::Bool(_) => "bool",
            DType::QFloat(_) => "qfloat",
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The float data types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FloatDType {
    /// 64-bit float.
    F64,
    /// 32-bit float.
    F32,
    /// 16-bit IEEE half float.
    F16,
    /// 16-bit brain float.
    BF16,
}

/// The integer data types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IntDType {
    /// 64-bit signed integer.
    I64,
    /// 32-bit signed integer.
    I32,
    /// 16-bit signed integer.
    I16,
    /// 8-bit signed integer.
    I8,
    /// 64-bit unsigned integer.
    U64,
    /// 32-bit unsigned integer.
    U32,
    /// 16-bit unsigned integer.
    U16,
    /// 8-bit unsigned integer.
    U8,
}

/// Generates the conversions between a family enum and `DType`.
// (`From<DType>` next to `TryFrom<DType>` would overlap core's blanket impl, so the panicking
// conversion is a named function.)
macro_rules! dtype_family_checked {
    ($family:ident, $what:literal, [$($variant:ident),*]) => {
        impl From<$family> for DType {
            fn from(value: $family) -> Self {
                match value {
                    $($family::$variant => DType::$variant,)*
                }
            }
        }

        impl $family {
            /// The family member for `dtype`, or `None` when `dtype` is of another family.
            pub fn try_from_dtype(dtype: DType) -> Option<Self> {
                match dtype {
                    $(DType::$variant => Some($family::$variant),)*
                    _ => None,
                }
            }

            /// The family member for `dtype`; panics naming both when `dtype` is of another family.
            pub fn from_dtype(dtype: DType) -> Self {
                Self::try_from_dtype(dtype).unwrap_or_else(|| {
                    panic!(concat!("expected ", $what, " dtype, got {}"), dtype)
                })
            }
        }

        impl fmt::Display for $family {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                DType::from(*self).fmt(f)
            }
        }
    };
}

dtype_family_checked!(FloatDType, "a float", [F64, F32, F16, BF16]);
dtype_family_checked!(IntDType, "an int", [I64, I32, I16, I8, U64, U32, U16, U8]);

impl FloatDType {
    /// The float type with the most precision among `self` and `other`.
    pub fn widest(self, other: FloatDType) -> FloatDType {
        use FloatDType::*;
        match (self, other) {
            (F64, _) | (_, F64) => F64,
            (F32, _) | (_, F32) => F32,
            (a, b) if a == b => a,
            _ => F32,
        }
    }
}
