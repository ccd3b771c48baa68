//! [`F32x16`] on AVX2 with FMA: a pair of 256-bit registers per vector.

use super::F32x16;
use core::arch::x86_64::*;

/// AVX2 with FMA: lanes 0–7 in the first register, 8–15 in the second.
pub(crate) struct Avx2;

/// The AVX `vmaskmovps` mask of the eight lanes set in `mask`.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn avx2_mask(mask: u8) -> __m256i {
    // SAFETY: the caller's AVX2.
    unsafe {
        let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let set = _mm256_set1_epi32(i32::from(mask));
        _mm256_cmpeq_epi32(_mm256_and_si256(set, bits), bits)
    }
}

/// The eight lanes of `mask` loaded from `p` (zero elsewhere). Whole and empty masks take a
/// plain load or none: `vmaskmovps` is slower than a load on AMD CPUs.
///
/// # Safety
/// AVX2; the enabled lanes are readable.
#[inline(always)]
unsafe fn avx2_load8(mask: u8, p: *const f32) -> __m256 {
    // SAFETY: the caller's; `vmaskmovps` touches no disabled lane.
    unsafe {
        match mask {
            0xff => _mm256_loadu_ps(p),
            0 => _mm256_setzero_ps(),
            _ => _mm256_maskload_ps(p, avx2_mask(mask)),
        }
    }
}

/// The eight lanes of `mask` of `v` stored at `p`. Whole and empty masks take a plain store
/// or none: on AMD CPUs `vmaskmovps` to memory is microcoded, many times a plain store, and
/// on a Zen 2 host the Winograd transforms' masked stores were about a quarter of W5's time.
///
/// # Safety
/// AVX2; the enabled lanes are writable.
#[inline(always)]
unsafe fn avx2_store8(mask: u8, p: *mut f32, v: __m256) {
    // SAFETY: the caller's; `vmaskmovps` touches no disabled lane.
    unsafe {
        match mask {
            0xff => _mm256_storeu_ps(p, v),
            0 => {}
            _ => _mm256_maskstore_ps(p, avx2_mask(mask), v),
        }
    }
}

/// The even (or, with `ODD`, the odd) lanes of the 16 values `x`: within each 128-bit half,
/// `shuffle` takes lanes 0, 2 (or 1, 3) of both registers; the 64-bit permute then puts the
/// first register's pairs before the second's.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn avx2_pick<const ODD: bool>(x: [__m256; 2]) -> __m256 {
    // SAFETY: the caller's AVX2.
    unsafe {
        let s = if ODD {
            _mm256_shuffle_ps::<0b11_01_11_01>(x[0], x[1])
        } else {
            _mm256_shuffle_ps::<0b10_00_10_00>(x[0], x[1])
        };
        _mm256_castpd_ps(_mm256_permute4x64_pd::<0b11_01_10_00>(_mm256_castps_pd(s)))
    }
}

/// `x0 y0 x1 y1 … x7 y7` as two registers: `unpacklo`/`unpackhi` interleave within 128-bit
/// halves, the half permutes put the halves in order.
///
/// # Safety
/// AVX.
#[inline(always)]
unsafe fn avx2_zip(x: __m256, y: __m256) -> [__m256; 2] {
    // SAFETY: the caller's AVX.
    unsafe {
        let (l, h) = (_mm256_unpacklo_ps(x, y), _mm256_unpackhi_ps(x, y));
        [
            _mm256_permute2f128_ps::<0x20>(l, h),
            _mm256_permute2f128_ps::<0x31>(l, h),
        ]
    }
}

/// The trait's lane-by-lane binary operations, one instruction of the set per register.
macro_rules! binary_ops {
    ($($name:ident => $op:ident),*) => {$(
        #[inline(always)]
        unsafe fn $name(a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
            // SAFETY: the caller runs this with the set's features (see the trait).
            unsafe { [$op(a[0], b[0]), $op(a[1], b[1])] }
        }
    )*};
}

impl F32x16 for Avx2 {
    type V = [__m256; 2];

    binary_ops!(add => _mm256_add_ps, sub => _mm256_sub_ps, mul => _mm256_mul_ps, max => _mm256_max_ps);

    #[inline(always)]
    unsafe fn zero() -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { [_mm256_setzero_ps(); 2] }
    }

    #[inline(always)]
    unsafe fn splat(x: f32) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { [_mm256_set1_ps(x); 2] }
    }

    #[inline(always)]
    unsafe fn load_masked(mask: u16, p: *const f32) -> [__m256; 2] {
        // SAFETY: the caller's: enabled lanes are readable.
        unsafe {
            [
                avx2_load8(mask as u8, p),
                avx2_load8((mask >> 8) as u8, p.wrapping_add(8)),
            ]
        }
    }

    #[inline(always)]
    unsafe fn store_masked(p: *mut f32, mask: u16, v: [__m256; 2]) {
        // SAFETY: the caller's: enabled lanes are writable.
        unsafe {
            avx2_store8(mask as u8, p, v[0]);
            avx2_store8((mask >> 8) as u8, p.wrapping_add(8), v[1]);
        }
    }

    #[inline(always)]
    unsafe fn load(p: *const f32) -> [__m256; 2] {
        // SAFETY: the caller's: 16 values are readable.
        unsafe { [_mm256_loadu_ps(p), _mm256_loadu_ps(p.add(8))] }
    }

    #[inline(always)]
    unsafe fn store(p: *mut f32, v: [__m256; 2]) {
        // SAFETY: the caller's: 16 values are writable.
        unsafe {
            _mm256_storeu_ps(p, v[0]);
            _mm256_storeu_ps(p.add(8), v[1]);
        }
    }

    #[inline(always)]
    unsafe fn store_stream(p: *mut f32, v: [__m256; 2]) {
        // SAFETY: the caller's: 16 values are writable, from a 64-byte boundary.
        unsafe {
            _mm256_stream_ps(p, v[0]);
            _mm256_stream_ps(p.add(8), v[1]);
        }
    }

    #[inline(always)]
    unsafe fn mul_add(a: [__m256; 2], b: [__m256; 2], c: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe {
            [
                _mm256_fmadd_ps(a[0], b[0], c[0]),
                _mm256_fmadd_ps(a[1], b[1], c[1]),
            ]
        }
    }

    #[inline(always)]
    unsafe fn select(mask: u16, a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe {
            let (lo, hi) = (avx2_mask(mask as u8), avx2_mask((mask >> 8) as u8));
            [
                _mm256_blendv_ps(b[0], a[0], _mm256_castsi256_ps(lo)),
                _mm256_blendv_ps(b[1], a[1], _mm256_castsi256_ps(hi)),
            ]
        }
    }

    #[inline(always)]
    unsafe fn unordered(a: [__m256; 2], b: [__m256; 2]) -> u16 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe {
            let lo = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(a[0], b[0]));
            let hi = _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_UNORD_Q>(a[1], b[1]));
            (lo | (hi << 8)) as u16
        }
    }

    #[inline(always)]
    unsafe fn round(a: [__m256; 2]) -> [__m256; 2] {
        const NEAREST: i32 = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe {
            [
                _mm256_round_ps::<NEAREST>(a[0]),
                _mm256_round_ps::<NEAREST>(a[1]),
            ]
        }
    }

    /// `2^n` from the exponent bits `n + 127`, clamped at 0 (which makes the factor 0).
    #[inline(always)]
    unsafe fn scale_pow2(p: [__m256; 2], n: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe {
            let pow2 = |n: __m256| {
                let biased = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
                let bits = _mm256_max_epi32(biased, _mm256_setzero_si256());
                _mm256_castsi256_ps(_mm256_slli_epi32::<23>(bits))
            };
            [
                _mm256_mul_ps(p[0], pow2(n[0])),
                _mm256_mul_ps(p[1], pow2(n[1])),
            ]
        }
    }

    #[inline(always)]
    unsafe fn reduce_add(a: [__m256; 2]) -> f32 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        let lanes: [f32; 8] = unsafe { core::mem::transmute(_mm256_add_ps(a[0], a[1])) };
        lanes.iter().sum()
    }

    #[inline(always)]
    unsafe fn reduce_max(a: [__m256; 2]) -> f32 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        let lanes: [f32; 8] = unsafe { core::mem::transmute(_mm256_max_ps(a[0], a[1])) };
        lanes.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v))
    }

    #[inline(always)]
    unsafe fn even_odd(a: [__m256; 2], b: [__m256; 2]) -> ([__m256; 2], [__m256; 2]) {
        // SAFETY: the caller runs this with AVX2.
        unsafe {
            (
                [avx2_pick::<false>(a), avx2_pick::<false>(b)],
                [avx2_pick::<true>(a), avx2_pick::<true>(b)],
            )
        }
    }

    #[inline(always)]
    unsafe fn interleave(a: [__m256; 2], b: [__m256; 2]) -> ([__m256; 2], [__m256; 2]) {
        // SAFETY: the caller runs this with AVX2.
        unsafe { (avx2_zip(a[0], b[0]), avx2_zip(a[1], b[1])) }
    }

    /// Four 2 × 48 tiles, each in 12 registers (six per row), beside one load and the two
    /// broadcasts. Twelve accumulators keep both FMA pipes busy through the FMA's latency
    /// (5 cycles on Zen 2: ten chains at least), where the earlier six 4 × 16 tiles had eight
    /// and ran at about two thirds of the peak. (Four 4 × 24 tiles need all 16 registers with
    /// their three loads and the broadcast, and LLVM then spills an accumulator on every step,
    /// as it did in the direct convolution's tile.)
    #[inline(always)]
    unsafe fn product_tile(
        panel: *const f32,
        src: *const f32,
        stride: usize,
        k: usize,
        dst: *mut f32,
        dst_stride: usize,
    ) {
        for rows in [0, 2, 4, 6] {
            // SAFETY: the caller runs this with AVX.
            let mut acc = unsafe { [[_mm256_setzero_ps(); 6]; 2] };
            for kk in 0..k {
                // SAFETY: the caller's bounds.
                unsafe {
                    let p = src.add(kk * stride);
                    let a = panel.add(kk * 8 + rows);
                    let (a0, a1) = (_mm256_broadcast_ss(&*a), _mm256_broadcast_ss(&*a.add(1)));
                    let [row0, row1] = &mut acc;
                    for (v, (c0, c1)) in row0.iter_mut().zip(row1.iter_mut()).enumerate() {
                        let b = _mm256_loadu_ps(p.add(8 * v));
                        *c0 = _mm256_fmadd_ps(a0, b, *c0);
                        *c1 = _mm256_fmadd_ps(a1, b, *c1);
                    }
                }
            }
            for (r, row) in acc.iter().enumerate() {
                for (v, &value) in row.iter().enumerate() {
                    // SAFETY: the caller's bounds.
                    unsafe { _mm256_storeu_ps(dst.add((rows + r) * dst_stride + 8 * v), value) };
                }
            }
        }
    }
}
