//! [`F32x16`] on AVX-512F: one 512-bit register per vector.

use super::F32x16;
use core::arch::x86_64::*;

/// AVX-512F.
pub(crate) struct Avx512;

/// The trait's lane-by-lane binary operations, each one instruction of the set.
macro_rules! binary_ops {
    ($($name:ident => $op:ident),*) => {$(
        #[inline(always)]
        unsafe fn $name(a: __m512, b: __m512) -> __m512 {
            // SAFETY: the caller runs this with the set's features (see the trait).
            unsafe { $op(a, b) }
        }
    )*};
}

impl F32x16 for Avx512 {
    type V = __m512;

    binary_ops!(add => _mm512_add_ps, sub => _mm512_sub_ps, mul => _mm512_mul_ps, max => _mm512_max_ps);

    #[inline(always)]
    unsafe fn zero() -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_setzero_ps() }
    }

    #[inline(always)]
    unsafe fn splat(x: f32) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_set1_ps(x) }
    }

    #[inline(always)]
    unsafe fn load_masked(mask: u16, p: *const f32) -> __m512 {
        // SAFETY: the caller's: enabled lanes are readable.
        unsafe { _mm512_maskz_loadu_ps(mask, p) }
    }

    #[inline(always)]
    unsafe fn store_masked(p: *mut f32, mask: u16, v: __m512) {
        // SAFETY: the caller's: enabled lanes are writable.
        unsafe { _mm512_mask_storeu_ps(p, mask, v) }
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> __m512 {
        // SAFETY: the caller's: 16 values are readable.
        unsafe { _mm512_loadu_ps(p) }
    }

    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m512) {
        // SAFETY: the caller's: 16 values are writable.
        unsafe { _mm512_storeu_ps(p, v) }
    }

    #[inline(always)]
    unsafe fn store_stream(p: *mut f32, v: __m512) {
        // SAFETY: the caller's: 16 values are writable, from a 64-byte boundary.
        unsafe { _mm512_stream_ps(p, v) }
    }

    #[inline(always)]
    unsafe fn mul_add(a: __m512, b: __m512, c: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_fmadd_ps(a, b, c) }
    }

    #[inline(always)]
    unsafe fn select(mask: u16, a: __m512, b: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_mask_blend_ps(mask, b, a) }
    }

    #[inline(always)]
    unsafe fn unordered(a: __m512, b: __m512) -> u16 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(a, b) }
    }

    #[inline(always)]
    unsafe fn round(a: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }

    #[inline(always)]
    unsafe fn scale_pow2(p: __m512, n: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_scalef_ps(p, n) }
    }

    #[inline(always)]
    unsafe fn reduce_add(a: __m512) -> f32 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_reduce_add_ps(a) }
    }

    #[inline(always)]
    unsafe fn reduce_max(a: __m512) -> f32 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_reduce_max_ps(a) }
    }

    #[inline(always)]
    unsafe fn even_odd(a: __m512, b: __m512) -> (__m512, __m512) {
        // SAFETY: the caller runs this with AVX-512F.
        unsafe {
            let even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
            let odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
            (
                _mm512_permutex2var_ps(a, even, b),
                _mm512_permutex2var_ps(a, odd, b),
            )
        }
    }

    #[inline(always)]
    unsafe fn interleave(a: __m512, b: __m512) -> (__m512, __m512) {
        // SAFETY: the caller runs this with AVX-512F.
        unsafe {
            let lo = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
            let hi =
                _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
            (
                _mm512_permutex2var_ps(a, lo, b),
                _mm512_permutex2var_ps(a, hi, b),
            )
        }
    }

    /// An 8 × 48 tile in 24 registers (three per row).
    #[inline(always)]
    unsafe fn product_tile(
        panel: *const f32,
        src: *const f32,
        stride: usize,
        k: usize,
        dst: *mut f32,
        dst_stride: usize,
    ) {
        // SAFETY: the caller runs this with AVX-512F.
        let mut acc = unsafe { [[_mm512_setzero_ps(); 3]; 8] };
        for kk in 0..k {
            // SAFETY: the caller's bounds.
            unsafe {
                let p = src.add(kk * stride);
                let b = [
                    _mm512_loadu_ps(p),
                    _mm512_loadu_ps(p.add(16)),
                    _mm512_loadu_ps(p.add(32)),
                ];
                let a = panel.add(kk * 8);
                for (r, row) in acc.iter_mut().enumerate() {
                    let ar = _mm512_set1_ps(*a.add(r));
                    for v in 0..3 {
                        row[v] = _mm512_fmadd_ps(ar, b[v], row[v]);
                    }
                }
            }
        }
        for (r, row) in acc.iter().enumerate() {
            for (v, &value) in row.iter().enumerate() {
                // SAFETY: the caller's bounds.
                unsafe { _mm512_storeu_ps(dst.add(r * dst_stride + 16 * v), value) };
            }
        }
    }
}
