//! Large buffers backed by 2 MiB pages where the operating system offers them.
//!
//! A kernel streaming a 64 MiB tensor crosses 16 384 pages of 4 KiB, each a translation miss
//! and a stop for the hardware prefetchers, which do not run past a page's end. On Linux with
//! transparent huge pages in `madvise` mode (the usual default), memory is backed by 2 MiB pages
//! only where the program asks for it before touching it. [`zeroed`], [`filled`] and
//! [`copied`] allocate large vectors that way; the pool ([`super::pool`]) then keeps and reuses them.
//!
//! Measured on an AMD Zen 4 host (2 threads), the two kinds of input side by side in one
//! process, 30 alternated rounds of 12 runs: the sum over the last axis of a `[4096, 4096]` f32
//! tensor took 1.40–1.49 ms (medians) on 2 MiB pages against 1.76–1.99 ms on 4 KiB pages, the
//! per-round ratio 1.22–1.29×. Softmax over `[4096, 1024]` (streaming stores) and 1024² and
//! 2048² products (compute-bound) did not change.

use super::Storable;

/// Buffers below this size keep the allocator's pages: a 2 MiB page fits whole only inside
/// a buffer about twice its size, and small buffers cross few pages anyway.
pub const MIN_HUGE_BYTES: usize = 4 << 20;

/// `len` default (all-zero bits) values, asking for 2 MiB pages when the buffer is large.
///
/// For the primitive types the allocator hands back untouched zero pages, so the advice comes
/// before any page is mapped.
pub fn zeroed<E: Storable>(len: usize) -> Vec<E> {
    let values = vec![E::default(); len];
    advise(&values);
    values
}

/// `len` copies of `value`, asking for 2 MiB pages (before writing them) when the buffer is
/// large. All-zero values go through [`zeroed`], whose pages are mapped only when written.
pub fn filled<E: Storable>(len: usize, value: E) -> Vec<E> {
    if bytemuck::bytes_of(&value).iter().all(|&byte| byte == 0) {
        return zeroed(len);
    }
    let mut values = Vec::with_capacity(len);
    advise(&values);
    values.resize(len, value);
    values
}

/// A copy of `values`, asking for 2 MiB pages (before writing them) when the buffer is large.
pub fn copied<E: Storable>(values: &[E]) -> Vec<E> {
    let mut copy = with_capacity(values.len());
    copy.extend_from_slice(values);
    copy
}

/// An empty vector with room for `len` values, asking for 2 MiB pages (before any is written)
/// when the buffer is large.
pub fn with_capacity<E: Storable>(len: usize) -> Vec<E> {
    let values = Vec::with_capacity(len);
    advise(&values);
    values
}

/// Asks for 2 MiB pages over the whole 2 MiB-aligned pages inside `values`' allocation.
fn advise<E>(values: &Vec<E>) {
    let bytes = values.capacity() * std::mem::size_of::<E>();
    if bytes >= MIN_HUGE_BYTES {
        advise_range(values.as_ptr() as usize, bytes);
    }
}

#[cfg(target_os = "linux")]
fn advise_range(start: usize, bytes: usize) {
    const HUGE: usize = 2 << 20;
    let first = start.next_multiple_of(HUGE);
    let end = (start + bytes) / HUGE * HUGE;
    if end > first {
        // SAFETY: the range lies inside a live allocation owned by the caller; the advice only
        // changes how the kernel backs pages not yet touched, never their contents. Failure
        // (huge pages disabled) leaves ordinary pages, so the result is ignored.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_range(_start: usize, _bytes: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_buffers_hold_their_values() {
        let len = MIN_HUGE_BYTES / 4 * 3 + 17;
        let zeros = zeroed::<f32>(len);
        assert_eq!(zeros.len(), len);
        assert!(zeros.iter().all(|&v| v == 0.0));
        let sevens = filled(len, 7i64);
        assert_eq!(sevens.len(), len);
        assert!(sevens.iter().all(|&v| v == 7));
        let copy = copied(&sevens);
        assert_eq!(copy, sevens);
        let small = filled(5, half::f16::ONE);
        assert_eq!(small, vec![half::f16::ONE; 5]);
        let negative_zeros = filled(len, -0.0f32);
        assert!(
            negative_zeros
                .iter()
                .all(|v| v.to_bits() == (-0.0f32).to_bits())
        );
    }
}
