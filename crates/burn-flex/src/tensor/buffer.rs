//! `Buffer`: the typed storage behind a tensor, and the dispatch macros that bind a dtype's
//! host type so that operations are written once, generically.

use crate::element::FlexElement;
use burn_std::{BoolStore, DType, bf16, f16};

/// Typed storage: one `Vec` variant per element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Buffer {
    /// 64-bit floats.
    F64(Vec<f64>),
    /// 32-bit floats.
    F32(Vec<f32>),
    /// IEEE half floats.
    F16(Vec<f16>),
    /// Brain floats.
    BF16(Vec<bf16>),
    /// 64-bit signed integers.
    I64(Vec<i64>),
    /// 32-bit signed integers.
    I32(Vec<i32>),
    /// 16-bit signed integers.
    I16(Vec<i16>),
    /// 8-bit signed integers.
    I8(Vec<i8>),
    /// 64-bit unsigned integers.
    U64(Vec<u64>),
    /// 32-bit unsigned integers.
    U32(Vec<u32>),
    /// 16-bit unsigned integers.
    U16(Vec<u16>),
    /// 8-bit unsigned integers.
    U8(Vec<u8>),
    /// Booleans.
    Bool(Vec<bool>),
}

/// An element type that has a [`Buffer`] variant.
pub trait Storable: FlexElement {
    /// Wraps values in their buffer variant.
    fn into_buffer(values: Vec<Self>) -> Buffer;
    /// The values when `buffer` holds this type.
    fn as_slice(buffer: &Buffer) -> Option<&[Self]>;
    /// The values, mutable, when `buffer` holds this type.
    fn as_mut_slice(buffer: &mut Buffer) -> Option<&mut [Self]>;
    /// The vector when `buffer` holds this type, else the buffer back.
    fn from_buffer(buffer: Buffer) -> Result<Vec<Self>, Buffer>;
}

macro_rules! storable {
    ($($ty:ty => $variant:ident),*) => {$(
        impl Storable for $ty {
            fn into_buffer(values: Vec<Self>) -> Buffer {
                Buffer::$variant(values)
            }
            fn as_slice(buffer: &Buffer) -> Option<&[Self]> {
                match buffer {
                    Buffer::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn as_mut_slice(buffer: &mut Buffer) -> Option<&mut [Self]> {
                match buffer {
                    Buffer::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn from_buffer(mut buffer: Buffer) -> Result<Vec<Self>, Buffer> {
                match &mut buffer {
                    // Moved out (the emptied buffer then drops without being pooled).
                    Buffer::$variant(v) => Ok(std::mem::take(v)),
                    _ => Err(buffer),
                }
            }
        }
    )*};
}

/// Generates the [`Buffer`] methods that handle every variant alike.
macro_rules! buffer_variants {
    ($($variant:ident),*) => {
        impl Buffer {
            /// The number of values the storage has room for.
            pub fn capacity(&self) -> usize {
                match self {
                    $(Buffer::$variant(v) => v.capacity(),)*
                }
            }

            /// The bytes the storage occupies.
            pub fn capacity_bytes(&self) -> usize {
                match self {
                    $(Buffer::$variant(v) => v.capacity() * elem_size(v),)*
                }
            }

            /// The storage moved into a new buffer, leaving this one empty.
            pub(super) fn take(&mut self) -> Buffer {
                match self {
                    $(Buffer::$variant(v) => Buffer::$variant(std::mem::take(v)),)*
                }
            }

            /// Frees the storage now, leaving this buffer empty.
            pub(super) fn release(&mut self) {
                match self {
                    $(Buffer::$variant(v) => *v = Vec::new(),)*
                }
            }
        }
    };
}

fn elem_size<T>(_: &[T]) -> usize {
    std::mem::size_of::<T>()
}

buffer_variants!(
    F64, F32, F16, BF16, I64, I32, I16, I8, U64, U32, U16, U8, Bool
);

impl Drop for Buffer {
    fn drop(&mut self) {
        super::pool::recycle(self);
    }
}

storable!(
    f64 => F64, f32 => F32, f16 => F16, bf16 => BF16,
    i64 => I64, i32 => I32, i16 => I16, i8 => I8,
    u64 => U64, u32 => U32, u16 => U16, u8 => U8, bool => Bool
);

impl Buffer {
    /// The dtype of the stored values (booleans are stored natively).
    #[inline]
    pub fn dtype(&self) -> DType {
        match self {
            Buffer::F64(_) => DType::F64,
            Buffer::F32(_) => DType::F32,
            Buffer::F16(_) => DType::F16,
            Buffer::BF16(_) => DType::BF16,
            Buffer::I64(_) => DType::I64,
            Buffer::I32(_) => DType::I32,
            Buffer::I16(_) => DType::I16,
            Buffer::I8(_) => DType::I8,
            Buffer::U64(_) => DType::U64,
            Buffer::U32(_) => DType::U32,
            Buffer::U16(_) => DType::U16,
            Buffer::U8(_) => DType::U8,
            Buffer::Bool(_) => DType::Bool(BoolStore::Native),
        }
    }

    /// The number of stored values.
    pub fn len(&self) -> usize {
        burn_std::with_dtype!(self.dtype(), E => E::as_slice(self).map_or(0, |s| s.len()))
    }

    /// The vector of `E` moved out, leaving this buffer empty; panics when it holds another
    /// dtype.
    pub(super) fn take_vec<E: Storable>(&mut self) -> Vec<E> {
        let dtype = self.dtype();
        E::from_buffer(self.take())
            .unwrap_or_else(|_| panic!("Buffer: expected {} values, got {dtype}", E::DTYPE))
    }

    /// Whether no values are stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
