//! `Bytes`: an owned byte buffer aligned for any element type, the storage of
//! [`TensorData`](crate::TensorData) and what burnpack files are read into and written from.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The alignment every [`Bytes`] buffer has (that of `u64` and `f64`, the widest element).
const ALIGN: usize = core::mem::align_of::<u64>();

/// An owned, growable byte buffer whose start is aligned for every element type, so it can be
/// viewed as a slice of `f64`, `i32`, `f16`… without copying. Dereferences to `[u8]`.
///
/// ```
/// use burn_std::Bytes;
///
/// let bytes = Bytes::from_elems(vec![1.0f32, 2.0, 3.0]);
/// assert_eq!(bytes.len(), 12);
/// let values: Vec<f32> = bytes.try_into_vec().unwrap();
/// assert_eq!(values, [1.0, 2.0, 3.0]);
/// ```
#[derive(Clone, Default)]
pub struct Bytes {
    words: Vec<u64>,
    len: usize,
}

impl Bytes {
    /// A copy of `bytes`, aligned.
    pub fn from_bytes_slice(bytes: &[u8]) -> Self {
        let mut out = Self::with_capacity(bytes.len());
        out.extend_from_byte_slice(bytes);
        out
    }

    /// The bytes of `bytes`, aligned (one copy: a `Vec<u8>` is only byte-aligned).
    pub fn from_bytes_vec(bytes: Vec<u8>) -> Self {
        Self::from_bytes_slice(&bytes)
    }

    /// The bytes of `elems`, in memory order (little-endian on every supported target).
    pub fn from_elems<E: bytemuck::NoUninit>(elems: Vec<E>) -> Self {
        Self::from_bytes_slice(bytemuck::cast_slice(&elems))
    }

    /// An empty buffer with room for `capacity` bytes.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            words: Vec::with_capacity(capacity.div_ceil(ALIGN)),
            len: 0,
        }
    }

    /// A buffer of `len` zero bytes.
    pub fn zeroed(len: usize) -> Self {
        Self {
            words: vec![0; len.div_ceil(ALIGN)],
            len,
        }
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many bytes the buffer can hold without reallocating.
    pub fn capacity(&self) -> usize {
        self.words.capacity() * ALIGN
    }

    /// The alignment of the buffer's start, in bytes.
    pub fn align(&self) -> usize {
        ALIGN
    }

    /// Appends `bytes` at the end.
    pub fn extend_from_byte_slice(&mut self, bytes: &[u8]) {
        let start = self.len;
        self.len += bytes.len();
        self.words.resize(self.len.div_ceil(ALIGN), 0);
        self[start..].copy_from_slice(bytes);
    }

    /// The bytes as a vector of `E` (a copy), or the bytes given back when their length is
    /// not a whole number of elements or a value is invalid for `E` (a `bool` other than 0 or
    /// 1).
    pub fn try_into_vec<E: bytemuck::CheckedBitPattern + bytemuck::NoUninit>(
        self,
    ) -> Result<Vec<E>, Self> {
        if core::mem::size_of::<E>() == 0 {
            return Err(self);
        }
        match bytemuck::checked::try_cast_slice::<u8, E>(&self) {
            Ok(values) => Ok(values.to_vec()),
            Err(_) => Err(self),
        }
    }

    /// The bytes as a plain vector (a copy).
    pub fn to_vec(&self) -> Vec<u8> {
        self[..].to_vec()
    }
}

impl core::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &bytemuck::cast_slice(&self.words)[..self.len]
    }
}

impl core::ops::DerefMut for Bytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut bytemuck::cast_slice_mut(&mut self.words)[..self.len]
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl PartialEq for Bytes {
    fn eq(&self, other: &Self) -> bool {
        self[..] == other[..]
    }
}

impl Eq for Bytes {}

impl core::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        const SHOWN: usize = 16;
        write!(
            f,
            "Bytes({} bytes: {:?}",
            self.len,
            &self[..self.len.min(SHOWN)]
        )?;
        if self.len > SHOWN {
            f.write_str(" …")?;
        }
        f.write_str(")")
    }
}

impl From<Vec<u8>> for Bytes {
    fn from(bytes: Vec<u8>) -> Self {
        Self::from_bytes_vec(bytes)
    }
}

impl From<&[u8]> for Bytes {
    fn from(bytes: &[u8]) -> Self {
        Self::from_bytes_slice(bytes)
    }
}

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bytes(self)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Bytes;
            fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a byte string or a sequence of bytes")
            }
            fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes::from_bytes_slice(bytes))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Bytes, A::Error> {
                let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(byte) = seq.next_element::<u8>()? {
                    bytes.push(byte);
                }
                Ok(Bytes::from_bytes_vec(bytes))
            }
        }
        deserializer.deserialize_bytes(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_aligned_for_f64_and_appends_keep_the_bytes() {
        let mut bytes = Bytes::from_bytes_slice(&[1, 2, 3]);
        assert_eq!(bytes.as_ptr() as usize % 8, 0);
        bytes.extend_from_byte_slice(&[4, 5, 6, 7, 8, 9]);
        assert_eq!(&bytes[..], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(bytes.len(), 9);
    }

    #[test]
    fn a_length_that_is_not_whole_elements_gives_the_bytes_back() {
        let bytes = Bytes::from_bytes_slice(&[0; 6]);
        assert_eq!(bytes.try_into_vec::<f32>().unwrap_err().len(), 6);
    }

    #[test]
    fn invalid_bools_give_the_bytes_back() {
        let bytes = Bytes::from_bytes_slice(&[0, 1, 2]);
        assert_eq!(&bytes.try_into_vec::<bool>().unwrap_err()[..], &[0, 1, 2]);
        let fine = Bytes::from_bytes_slice(&[0, 1]);
        assert_eq!(fine.try_into_vec::<bool>().unwrap(), [false, true]);
    }
}
