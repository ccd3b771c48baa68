//! Values of a new tensor that start at a 64-byte cache line.
//!
//! Flex's storage is a `Vec`, which the allocator aligns only to 16 bytes: a large one lies 16
//! bytes past a page, so a kernel's 512-bit loads from it each straddle two cache lines. On an
//! AMD Zen 5 host (2 threads) the sum over the last axis of a `[4096, 4096]` f32 tensor took
//! 0.70–0.72 ms from such a buffer and 0.55–0.62 ms from a 64-byte boundary (one thread: 1.45
//! against 1.18–1.23 ms); PyTorch, whose buffers are aligned to 64 bytes, 0.57 ms.
//!
//! An [`Aligned`] (made by the pool's `aligned_*` functions) is a `Vec` allocated a line
//! longer than its values, which start at its first 64-byte boundary; the tensor made of it
//! ([`FlexTensor::from_aligned`](super::FlexTensor::from_aligned)) views them through its
//! layout's offset, as a slice does. The vector stays an ordinary `Vec` of `E`, allocated and
//! freed with `E`'s own layout; only where its values start differs, so kernels, which read
//! through layouts, see no difference.

use super::Storable;
use std::ops::{Deref, DerefMut};

/// The cache line the values start at.
pub const LINE_BYTES: usize = 64;

/// Values of fewer bytes are left where the allocator puts them: a line more to allocate and
/// zero cost a small tensor's operation more than its few split loads (the 25 operations of an
/// 8-layer MLP of width 16 took 4–8 % longer, aligned).
pub const ALIGN_FROM_BYTES: usize = 4096;

/// The values of a new tensor, starting at a cache line of their `Vec` (see the module doc).
#[derive(Debug)]
pub struct Aligned<E> {
    values: Vec<E>,
    start: usize,
}

impl<E: Storable> Aligned<E> {
    /// The extra capacity that always leaves a line boundary within reach.
    pub const PADDING: usize = LINE_BYTES / std::mem::size_of::<E>();

    /// The room to allocate for `len` values: `len + PADDING` when they are worth aligning
    /// ([`ALIGN_FROM_BYTES`]), else `len`, read from the start.
    pub(super) fn room(len: usize) -> usize {
        if len * std::mem::size_of::<E>() >= ALIGN_FROM_BYTES {
            len + Self::PADDING
        } else {
            len
        }
    }

    /// `len` values in `values`, which has room for [`room`](Self::room)`(len)`: they start at
    /// its first line boundary where they are worth aligning. Its length is set to reach them;
    /// values past its old length are `E::default()`, those before the start left as they are.
    pub(super) fn over(mut values: Vec<E>, len: usize) -> Self {
        let start = Self::start_in(&values, len);
        if values.len() >= start + len {
            values.truncate(start + len);
        } else {
            values.resize(start + len, E::default());
        }
        Self { values, start }
    }

    /// A copy of `values` into `room`, which has room for [`room`](Self::room)`(values.len())`.
    pub(super) fn copy_into(mut room: Vec<E>, values: &[E]) -> Self {
        room.clear();
        let start = Self::start_in(&room, values.len());
        room.resize(start, E::default());
        room.extend_from_slice(values);
        Self {
            values: room,
            start,
        }
    }

    /// Where `len` values start in `values`' allocation: its first line boundary when they are
    /// worth aligning and the room allows (0 otherwise).
    fn start_in(values: &Vec<E>, len: usize) -> usize {
        let start = values.as_ptr().align_offset(LINE_BYTES);
        if start < Self::PADDING && values.capacity() >= start + len {
            start
        } else {
            0
        }
    }
}

impl<E> Deref for Aligned<E> {
    type Target = [E];
    fn deref(&self) -> &[E] {
        &self.values[self.start..]
    }
}

impl<E> DerefMut for Aligned<E> {
    fn deref_mut(&mut self) -> &mut [E] {
        &mut self.values[self.start..]
    }
}

/// What a new tensor's values come in: a `Vec` (the values from its start) or an [`Aligned`].
pub trait IntoValues<E> {
    /// The vector and the position of the first value in it.
    fn into_values(self) -> (Vec<E>, usize);
}

impl<E> IntoValues<E> for Vec<E> {
    fn into_values(self) -> (Vec<E>, usize) {
        (self, 0)
    }
}

impl<E> IntoValues<E> for Aligned<E> {
    fn into_values(self) -> (Vec<E>, usize) {
        (self.values, self.start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FlexTensor;
    use burn_std::TensorData;

    fn starts_at_a_line(t: &FlexTensor) -> bool {
        let first = &t.storage::<f32>()[t.layout().offset()];
        (first as *const f32 as usize).is_multiple_of(LINE_BYTES)
    }

    #[test]
    fn large_tensors_start_at_a_line_and_read_back_whole() {
        let n = 3 * 1024 + 5;
        let values: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
        let t = FlexTensor::from_data(TensorData::new(values.clone(), [n]));
        assert!(starts_at_a_line(&t), "from_data");
        let doubled = crate::ops::map::map_into(&t, |x: f32| x * 2.0);
        assert!(starts_at_a_line(&doubled), "an element-wise result");
        assert_eq!(t.clone().into_vec::<f32>(), values);
        let expected: Vec<f32> = values.iter().map(|x| x * 2.0).collect();
        assert_eq!(doubled.into_data().to_vec::<f32>().unwrap(), expected);
        // Shared, the values are copied out and the tensor keeps its own.
        let again = t.clone();
        assert_eq!(t.into_vec::<f32>(), values);
        assert_eq!(again.to_vec::<f32>(), values);
    }

    #[test]
    fn values_start_at_a_line_and_keep_their_length() {
        for len in [0, 1, 15, 16, 17, 1000, 1024, 1025, 5000] {
            let a = Aligned::over(Vec::<f32>::with_capacity(Aligned::<f32>::room(len)), len);
            assert_eq!(a.len(), len);
            assert!(a.iter().all(|&v| v == 0.0));
            let source: Vec<i16> = (0..len as i16).collect();
            let c = Aligned::copy_into(Vec::with_capacity(Aligned::<i16>::room(len)), &source);
            assert_eq!(&c[..], &source[..]);
            if len * 4 >= ALIGN_FROM_BYTES {
                assert_eq!(a.as_ptr() as usize % LINE_BYTES, 0, "len {len}");
            }
            if len * 2 >= ALIGN_FROM_BYTES {
                assert_eq!(c.as_ptr() as usize % LINE_BYTES, 0, "len {len}");
            }
        }
    }
}
