//! A pool of large buffers, so that eager element-wise code does not pay the operating system's
//! page faults for a fresh allocation on every operation.
//!
//! A fresh 64 MiB `Vec` costs several times what refilling a reused one does (the allocator
//! returns large blocks to the system on free, and every page faults again on first touch).
//! Buffers of at least [`MIN_POOLED_BYTES`] go back to this pool when their last tensor drops,
//! and [`for_overwrite`] / [`copied`] (and their aligned kinds, [`aligned_filled`] among them)
//! take one of a fitting size from it before allocating. The pool holds at most [`MAX_POOLED_BYTES`]; beyond that the oldest buffers are
//! freed. Fresh buffers come from [`huge_pages`], so the large ones are backed by 2 MiB pages.

use super::aligned::{Aligned, IntoValues};
use super::{Buffer, Storable, huge_pages};
use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

/// Buffers below this size are left to the allocator, which handles them well. (At 256 KiB it
/// does not: a fresh zeroed `Vec` of that size cost 12 µs, 7 % of a 256×256 matrix product on
/// 2 cores, against nothing for a pooled one.)
pub const MIN_POOLED_BYTES: usize = 1 << 18;

/// The most bytes the pool keeps; the oldest buffers are freed first.
pub const MAX_POOLED_BYTES: usize = 1 << 30;

struct Pool {
    buffers: VecDeque<Buffer>,
    bytes: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    buffers: VecDeque::new(),
    bytes: 0,
});

fn lock() -> std::sync::MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

fn bytes_of<E>(capacity: usize) -> usize {
    capacity * std::mem::size_of::<E>()
}

/// A pooled vector of `E` whose capacity fits `len` (not more than a quarter larger).
fn take<E: Storable>(len: usize) -> Option<Vec<E>> {
    if bytes_of::<E>(len) < MIN_POOLED_BYTES {
        return None;
    }
    let mut pool = lock();
    let found = pool.buffers.iter().position(|b| {
        E::as_slice(b).is_some() && {
            let capacity = b.capacity();
            capacity >= len && capacity - len <= len / 4
        }
    })?;
    let mut buffer = pool.buffers.remove(found)?;
    pool.bytes -= buffer.capacity_bytes();
    drop(pool);
    Some(buffer.take_vec::<E>())
}

/// `len` values of `E` for a kernel that writes every one of them: a pooled buffer when one fits
/// (its old values are left in place), else a fresh one.
pub fn for_overwrite<E: Storable>(len: usize) -> Vec<E> {
    match take::<E>(len) {
        Some(mut values) => {
            if values.len() >= len {
                values.truncate(len);
            } else {
                values.resize(len, E::default());
            }
            values
        }
        None => huge_pages::zeroed(len),
    }
}

/// A copy of `values`, in a pooled buffer when one fits.
pub fn copied<E: Storable>(values: &[E]) -> Vec<E> {
    match take::<E>(values.len()) {
        Some(mut copy) => {
            copy.clear();
            copy.extend_from_slice(values);
            copy
        }
        None => huge_pages::copied(values),
    }
}

/// [`for_overwrite`] for the values of a new tensor: they start at a cache line
/// ([`Aligned`]), in a pooled buffer when one fits.
pub fn aligned_for_overwrite<E: Storable>(len: usize) -> Aligned<E> {
    let room = Aligned::<E>::room(len);
    let values = take::<E>(room).unwrap_or_else(|| huge_pages::zeroed(room));
    Aligned::over(values, len)
}

/// `len` copies of `value` for a new tensor, starting at a cache line ([`Aligned`]), in a pooled
/// buffer when one fits.
pub fn aligned_filled<E: Storable>(len: usize, value: E) -> Aligned<E> {
    let room = Aligned::<E>::room(len);
    let values = match take::<E>(room) {
        Some(mut values) => {
            values.clear();
            values.resize(room, value);
            values
        }
        None => huge_pages::filled(room, value),
    };
    Aligned::over(values, len)
}

/// [`copied`] for the values of a new tensor, starting at a cache line ([`Aligned`]).
pub fn aligned_copied<E: Storable>(values: &[E]) -> Aligned<E> {
    let room = Aligned::<E>::room(values.len());
    let space = take::<E>(room).unwrap_or_else(|| huge_pages::with_capacity(room));
    Aligned::copy_into(space, values)
}

/// Returns a scratch vector taken with [`for_overwrite`] (or an aligned kind) to the pool (large ones are kept, small ones freed), as if a tensor holding it had
/// dropped.
pub fn give_back<E: Storable>(values: impl IntoValues<E>) {
    drop(E::into_buffer(values.into_values().0));
}

/// Keeps `buffer`'s storage for reuse when it is large (called when a [`Buffer`] drops).
pub(super) fn recycle(buffer: &mut Buffer) {
    let bytes = buffer.capacity_bytes();
    if !(MIN_POOLED_BYTES..=MAX_POOLED_BYTES).contains(&bytes) {
        return;
    }
    let kept = buffer.take();
    let mut evicted = Vec::new();
    {
        let mut pool = lock();
        pool.bytes += bytes;
        pool.buffers.push_back(kept);
        while pool.bytes > MAX_POOLED_BYTES {
            let Some(mut old) = pool.buffers.pop_front() else {
                break;
            };
            pool.bytes -= old.capacity_bytes();
            evicted.push(old.take());
        }
    }
    // Freed outside the lock. Each evicted buffer's storage was moved out above, so dropping it
    // here frees the memory without coming back to the pool.
    for mut buffer in evicted {
        buffer.release();
    }
}

/// The bytes the pool holds now.
pub fn pooled_bytes() -> usize {
    lock().bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FlexTensor;

    #[test]
    fn a_dropped_large_buffer_is_reused_for_the_next_one_of_its_size() {
        let len = MIN_POOLED_BYTES / 4 + 123;
        let t = FlexTensor::from_aligned(aligned_filled(len, 1.5f32), [len]);
        let ptr = t.storage::<f32>().as_ptr();
        drop(t);
        let values = for_overwrite::<f32>(len);
        assert_eq!(values.len(), len);
        // Another test may have taken it first; when it is ours, it is the same memory.
        if values.as_ptr() == ptr {
            assert!(values.iter().all(|&v| v == 1.5), "old values left in place");
        }
        let zeros = aligned_filled(len, 0.0f32);
        assert!(zeros.iter().all(|&v| v == 0.0));
        let ramp: Vec<f32> = (0..len).map(|i| i as f32).collect();
        assert_eq!(copied(&ramp), ramp);
        assert_eq!(copied(&ramp[..3]), vec![0.0, 1.0, 2.0]);
    }

    #[test]
    fn small_buffers_are_left_to_the_allocator() {
        drop(FlexTensor::from_vec(vec![1.0f32; 16], [16]));
        assert!(take::<f32>(16).is_none());
    }
}
