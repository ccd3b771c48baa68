//! Streaming stores: writing an output that will not stay in the caches straight to memory.
//!
//! A plain store to a line that is not cached first reads the line from memory (a read for
//! ownership), only to overwrite all of it. For an output far larger than the caches that read
//! is pure traffic: on `exp(a*b + c)` it is a fifth of what crosses the memory bus (12 bytes
//! read, 4 read for ownership, 4 written per value). A streaming (non-temporal) store of a whole
//! line skips it: the line is gathered in a write-combining buffer and written out as one.
//!
//! [`stream_copy`] writes whole 64-byte lines that way (AVX-512 or AVX stores where the CPU has
//! them, SSE2's otherwise; a plain copy on other architectures). Streaming stores are not ordered with
//! the thread's other stores: a thread calls [`fence`] before another may read what it wrote.

/// Bytes of output from which an evaluation writes it with streaming stores: past what the
/// last-level caches of the CPUs Flex runs on hold, so the output would be evicted anyway.
pub const STREAM_FROM_BYTES: usize = 32 << 20;

/// A cache line, the unit a streaming store writes whole.
const LINE: usize = 64;

/// Copies `src` into `dst` (the same length), the whole 64-byte lines of `dst` with streaming
/// stores and its partial lines at either end with plain ones. Call [`fence`] before another
/// thread reads `dst`.
#[inline]
pub fn stream_copy<E: Copy>(dst: &mut [E], src: &[E]) {
    assert_eq!(
        dst.len(),
        src.len(),
        "stream_copy: destination holds {} values, source {}",
        dst.len(),
        src.len()
    );
    let size = std::mem::size_of::<E>();
    let head = match line_skew(dst) {
        Some(skew) if cfg!(target_arch = "x86_64") => skew.min(dst.len()),
        _ => {
            dst.copy_from_slice(src);
            return;
        }
    };
    let lines = (dst.len() - head) * size / LINE;
    let body_end = head + lines * LINE / size;
    dst[..head].copy_from_slice(&src[..head]);
    #[cfg(target_arch = "x86_64")]
    {
        let (to, from) = (dst[head..].as_mut_ptr().cast::<u8>(), src[head..].as_ptr());
        // SAFETY: `to` is line aligned (`head` values past `dst`'s start reach the next line
        // boundary) and `lines` whole lines from it lie inside `dst[head..body_end]`; `from`
        // covers as many bytes of `src`, which does not overlap `dst` (a shared and a mutable
        // borrow).
        unsafe { x86::stream_lines(to, from.cast::<u8>(), lines) };
    }
    dst[body_end..].copy_from_slice(&src[body_end..]);
}

/// How many values of `E` lie between `values` and the next 64-byte line boundary (0 when it
/// is on one, or when `E` does not divide a line): what a writer with streaming stores
/// writes plainly before its whole lines.
pub fn values_to_line<E>(values: &[E]) -> usize {
    line_skew(values).unwrap_or(0)
}

/// The values of `E` from `values` to the next line boundary, or `None` when values of `E`
/// cannot tile a line from there (zero-sized, not dividing 64 bytes, or misaligned).
fn line_skew<E>(values: &[E]) -> Option<usize> {
    let size = std::mem::size_of::<E>();
    let address = values.as_ptr() as usize;
    if size == 0 || !LINE.is_multiple_of(size) || !address.is_multiple_of(size) {
        return None;
    }
    Some((LINE - address % LINE) % LINE / size)
}

/// Bytes of input from which an evaluation prefetches each block's inputs one block ahead: past
/// a core's L2 cache, where the inputs come from memory.
pub const PREFETCH_FROM_BYTES: usize = 1 << 20;

/// Whether an evaluation of [`PREFETCH_FROM_BYTES`] or more prefetches its inputs on this CPU:
/// on Intel ones only. W2 (`exp(a*b + c)` on 2^24 values) ran 20 % faster with the prefetches on
/// an Intel AVX-512 host, and 10–15 % slower on an AMD Zen 2 host (alternated triples of
/// builds), whose hardware prefetcher already keeps up with the sequential inputs.
pub fn prefetch_pays() -> bool {
    static PAYS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PAYS.get_or_init(|| {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: `cpuid` leaf 0 exists on every x86-64 CPU.
            #[allow(unused_unsafe)]
            let id = unsafe { std::arch::x86_64::__cpuid(0) };
            // The vendor string "GenuineIntel", in EBX, EDX, ECX order.
            [id.ebx, id.edx, id.ecx] == [0x756e_6547, 0x4965_6e69, 0x6c65_746e]
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    })
}

/// Asks the CPU to bring `values` into its caches ahead of their use, one prefetch per 64-byte
/// line (a hint: nothing is read or faulted; a no-op off x86-64).
#[inline(always)]
pub fn prefetch<E>(values: &[E]) {
    #[cfg(target_arch = "x86_64")]
    {
        let start = values.as_ptr() as usize;
        let end = start + std::mem::size_of_val(values);
        let mut line = start & !(LINE - 1);
        while line < end {
            // SAFETY: a prefetch is a hint that never faults; SSE is part of x86-64.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    line as *const i8,
                )
            };
            line += LINE;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = values;
}

/// Orders this thread's streaming stores before its later stores (an `sfence`), so that a
/// thread that sees a later store (a fork-join's completion) also sees them.
#[inline]
pub fn fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `sfence` is part of SSE, which every x86-64 CPU has.
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::LINE;
    use std::arch::x86_64::*;

    /// Writes `lines` lines from `src` (any alignment) to `dst` (line aligned) with streaming
    /// stores, 64 bytes at a time where the CPU has AVX-512, 32 with AVX, 16 otherwise.
    ///
    /// # Safety
    /// `dst` must be line aligned, and both ranges of `lines · 64` bytes valid and disjoint.
    pub unsafe fn stream_lines(dst: *mut u8, src: *const u8, lines: usize) {
        if std::arch::is_x86_feature_detected!("avx512f") {
            // SAFETY: the caller's contract; the CPU has AVX-512F.
            unsafe { lines_avx512(dst, src, lines) }
        } else if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the caller's contract; the CPU has AVX.
            unsafe { lines_avx(dst, src, lines) }
        } else {
            // SAFETY: the caller's contract; SSE2 is part of x86-64.
            unsafe { lines_sse2(dst, src, lines) }
        }
    }

    #[target_feature(enable = "avx512f")]
    unsafe fn lines_avx512(dst: *mut u8, src: *const u8, lines: usize) {
        for l in 0..lines {
            // SAFETY: line `l` of both ranges is in bounds; `dst`'s is 64-byte aligned.
            unsafe {
                let v = _mm512_loadu_si512(src.add(l * LINE).cast());
                _mm512_stream_si512(dst.add(l * LINE).cast(), v);
            }
        }
    }

    #[target_feature(enable = "avx")]
    unsafe fn lines_avx(dst: *mut u8, src: *const u8, lines: usize) {
        for l in 0..lines {
            for half in [0, 32] {
                let at = l * LINE + half;
                // SAFETY: these 32 bytes of both ranges are in bounds; `dst`'s are aligned.
                unsafe {
                    let v = _mm256_loadu_si256(src.add(at).cast());
                    _mm256_stream_si256(dst.add(at).cast(), v);
                }
            }
        }
    }

    unsafe fn lines_sse2(dst: *mut u8, src: *const u8, lines: usize) {
        for l in 0..lines {
            for part in 0..LINE / 16 {
                let at = l * LINE + part * 16;
                // SAFETY: these 16 bytes of both ranges are in bounds; `dst`'s are aligned.
                unsafe {
                    let v = _mm_loadu_si128(src.add(at).cast());
                    _mm_stream_si128(dst.add(at).cast(), v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_every_value_whatever_the_alignment_and_length() {
        let src: Vec<f32> = (0..700).map(|i| i as f32 * 0.5 - 3.0).collect();
        let mut dst = vec![0f32; 720];
        for start in 0..16 {
            for len in [0, 1, 15, 16, 17, 33, 100, 512, 700 - start] {
                dst.fill(f32::NAN);
                stream_copy(&mut dst[start..start + len], &src[..len]);
                fence();
                assert_eq!(
                    &dst[start..start + len],
                    &src[..len],
                    "start {start}, len {len}"
                );
                assert!(
                    dst[..start].iter().all(|v| v.is_nan()),
                    "wrote before the range"
                );
                assert!(
                    dst[start + len..].iter().all(|v| v.is_nan()),
                    "wrote past the range"
                );
            }
        }
        let bytes: Vec<u8> = (0..255).collect();
        let mut out = vec![0u8; 255];
        stream_copy(&mut out[3..], &bytes[3..]);
        assert_eq!(out[3..], bytes[3..]);
    }

    #[test]
    #[should_panic(expected = "stream_copy: destination holds 3 values, source 4")]
    fn lengths_must_match() {
        stream_copy(&mut [0f32; 3], &[1.0; 4]);
    }
}
