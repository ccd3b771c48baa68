//! Sixteen `f32` lanes behind one trait: one AVX-512 register, or a pair of AVX2 registers.
//! The Winograd kernel ([`super::conv_winograd`]) and the softmax rows
//! ([`crate::ops::softmax_x86`]) are written once against [`F32x16`] and compiled for each instruction set under its own `#[target_feature]`
//! entry point, so the trait's methods (all `#[inline(always)]`) are inlined into code built
//! for that set.
//!
//! Lane masks are `u16`, bit `i` for lane `i`. Masked loads read nothing, and fault on
//! nothing, where the mask is clear (AVX-512 `vmovups` with a mask, AVX `vmaskmovps`).

use core::arch::x86_64::*;

/// Which vector instruction set a kernel runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Isa {
    /// AVX-512F: one 16-lane register per vector.
    Avx512,
    /// AVX2 with FMA: two 8-lane registers per vector.
    Avx2,
}

impl Isa {
    /// Every set, widest first.
    const ALL: [Isa; 2] = [Isa::Avx512, Isa::Avx2];

    /// Whether this CPU runs the set.
    fn runs(self) -> bool {
        match self {
            Isa::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            Isa::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("fma")
            }
        }
    }

    /// The widest set this CPU runs, if any.
    pub(crate) fn detect() -> Option<Isa> {
        Isa::ALL.into_iter().find(|isa| isa.runs())
    }

    /// Every set this CPU runs, widest first (the tests exercise each).
    #[cfg(test)]
    pub(crate) fn available() -> Vec<Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.runs()).collect()
    }
}

/// Sixteen `f32` lanes and the operations the Winograd kernel and the softmax rows need.
///
/// # Safety
/// Every method needs the CPU features of its implementation; callers run them only inside a
/// function compiled with those features.
pub(crate) trait F32x16 {
    /// The vector.
    type V: Copy;

    /// All lanes zero.
    unsafe fn zero() -> Self::V;
    /// All lanes `x`.
    unsafe fn splat(x: f32) -> Self::V;
    /// `a + b`, lane by lane.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// `a - b`, lane by lane.
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// `p[i]` where bit `i` of `mask` is set, else zero.
    unsafe fn load_masked(mask: u16, p: *const f32) -> Self::V;
    /// `p[i] = v[i]` where bit `i` of `mask` is set.
    unsafe fn store_masked(p: *mut f32, mask: u16, v: Self::V);
    /// `p[0..16]` (any alignment).
    unsafe fn load(p: *const f32) -> Self::V;
    /// `p[0..16] = v` (any alignment).
    unsafe fn store(p: *mut f32, v: Self::V);
    /// `a · b`, lane by lane.
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// `a · b + c`, lane by lane, rounded once.
    unsafe fn mul_add(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// The larger of `a` and `b`, lane by lane; `b` where either is NaN (x86 `maxps`).
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
    /// `a[i]` where bit `i` of `mask` is set, else `b[i]`.
    unsafe fn select(mask: u16, a: Self::V, b: Self::V) -> Self::V;
    /// Bit `i` set where `a[i]` or `b[i]` is NaN.
    unsafe fn unordered(a: Self::V, b: Self::V) -> u16;
    /// Each lane rounded to the nearest integer, ties to even.
    unsafe fn round(a: Self::V) -> Self::V;
    /// `p · 2^n` for `p` in `[0.5, 2]` and integral `n` in `[-151, 0]`. AVX-512 rounds the
    /// subnormal results once (`vscalefps`); AVX2 builds `2^n` from its exponent bits, so lanes
    /// with `n ≤ -127` (results under about `1e-38`) come out 0.
    unsafe fn scale_pow2(p: Self::V, n: Self::V) -> Self::V;
    /// The sum of the lanes.
    unsafe fn reduce_add(a: Self::V) -> f32;
    /// The largest lane (no NaN among them).
    unsafe fn reduce_max(a: Self::V) -> f32;
    /// The even and the odd lanes of the 32 values `a ‖ b`.
    unsafe fn even_odd(a: Self::V, b: Self::V) -> (Self::V, Self::V);
    /// `a0 b0 a1 b1 … a7 b7` and `a8 b8 … a15 b15`: the inverse of [`F32x16::even_odd`].
    unsafe fn interleave(a: Self::V, b: Self::V) -> (Self::V, Self::V);
    /// `dst[r][0..48] = Σ_k panel[k][r] · src[k·stride + 0..48]` for the 8 rows `r` (row
    /// stride `dst_stride`): the products' register tile.
    ///
    /// # Safety
    /// `panel` holds `k · 8` values, `src` `k` rows of 48 at `stride`, `dst` 8 rows of 48 at
    /// `dst_stride`.
    unsafe fn product_tile(
        panel: *const f32,
        src: *const f32,
        stride: usize,
        k: usize,
        dst: *mut f32,
        dst_stride: usize,
    );
}

/// AVX-512F.
pub(crate) struct Avx512;

impl F32x16 for Avx512 {
    type V = __m512;

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
    unsafe fn add(a: __m512, b: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_add_ps(a, b) }
    }

    #[inline(always)]
    unsafe fn sub(a: __m512, b: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_sub_ps(a, b) }
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
    unsafe fn mul(a: __m512, b: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_mul_ps(a, b) }
    }

    #[inline(always)]
    unsafe fn mul_add(a: __m512, b: __m512, c: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_fmadd_ps(a, b, c) }
    }

    #[inline(always)]
    unsafe fn max(a: __m512, b: __m512) -> __m512 {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { _mm512_max_ps(a, b) }
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

/// AVX2 with FMA: lanes 0–7 in the first register, 8–15 in the second.
pub(crate) struct Avx2;

/// The AVX `vmaskmovps` masks of the low and high eight lanes of `mask`.
///
/// # Safety
/// AVX2.
#[inline(always)]
unsafe fn avx2_masks(mask: u16) -> (__m256i, __m256i) {
    // SAFETY: the caller's AVX2.
    unsafe {
        let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        let lo = _mm256_set1_epi32(i32::from(mask & 0xff));
        let hi = _mm256_set1_epi32(i32::from(mask >> 8));
        (
            _mm256_cmpeq_epi32(_mm256_and_si256(lo, bits), bits),
            _mm256_cmpeq_epi32(_mm256_and_si256(hi, bits), bits),
        )
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

impl F32x16 for Avx2 {
    type V = [__m256; 2];

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
    unsafe fn add(a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { [_mm256_add_ps(a[0], b[0]), _mm256_add_ps(a[1], b[1])] }
    }

    #[inline(always)]
    unsafe fn sub(a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { [_mm256_sub_ps(a[0], b[0]), _mm256_sub_ps(a[1], b[1])] }
    }

    #[inline(always)]
    unsafe fn load_masked(mask: u16, p: *const f32) -> [__m256; 2] {
        // SAFETY: the caller's: enabled lanes are readable; `vmaskmovps` touches no other.
        unsafe {
            let (lo, hi) = avx2_masks(mask);
            [
                _mm256_maskload_ps(p, lo),
                _mm256_maskload_ps(p.wrapping_add(8), hi),
            ]
        }
    }

    #[inline(always)]
    unsafe fn store_masked(p: *mut f32, mask: u16, v: [__m256; 2]) {
        // SAFETY: the caller's: enabled lanes are writable; `vmaskmovps` touches no other.
        unsafe {
            let (lo, hi) = avx2_masks(mask);
            _mm256_maskstore_ps(p, lo, v[0]);
            _mm256_maskstore_ps(p.wrapping_add(8), hi, v[1]);
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
    unsafe fn mul(a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { [_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])] }
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
    unsafe fn max(a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe { [_mm256_max_ps(a[0], b[0]), _mm256_max_ps(a[1], b[1])] }
    }

    #[inline(always)]
    unsafe fn select(mask: u16, a: [__m256; 2], b: [__m256; 2]) -> [__m256; 2] {
        // SAFETY: the caller runs this with the set's features (see the trait).
        unsafe {
            let (lo, hi) = avx2_masks(mask);
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

    /// Four 4 × 24 tiles, each in 12 registers (three per row): the 16 registers of AVX2 hold
    /// no more beside the three loads and the broadcast.
    #[inline(always)]
    unsafe fn product_tile(
        panel: *const f32,
        src: *const f32,
        stride: usize,
        k: usize,
        dst: *mut f32,
        dst_stride: usize,
    ) {
        for rows in [0, 4] {
            for cols in [0, 24] {
                // SAFETY: the caller runs this with AVX.
                let mut acc = unsafe { [[_mm256_setzero_ps(); 3]; 4] };
                for kk in 0..k {
                    // SAFETY: the caller's bounds.
                    unsafe {
                        let p = src.add(kk * stride + cols);
                        let b = [
                            _mm256_loadu_ps(p),
                            _mm256_loadu_ps(p.add(8)),
                            _mm256_loadu_ps(p.add(16)),
                        ];
                        let a = panel.add(kk * 8 + rows);
                        for (r, row) in acc.iter_mut().enumerate() {
                            let ar = _mm256_broadcast_ss(&*a.add(r));
                            for v in 0..3 {
                                row[v] = _mm256_fmadd_ps(ar, b[v], row[v]);
                            }
                        }
                    }
                }
                for (r, row) in acc.iter().enumerate() {
                    for (v, &value) in row.iter().enumerate() {
                        // SAFETY: the caller's bounds.
                        unsafe {
                            _mm256_storeu_ps(dst.add((rows + r) * dst_stride + cols + 8 * v), value)
                        };
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `f` with the instruction set's features enabled.
    fn lanes<S: F32x16>(v: S::V) -> [f32; 16] {
        // SAFETY: `S::V` is 16 `f32` lanes (one `__m512` or two `__m256`), no padding.
        unsafe { core::mem::transmute_copy(&v) }
    }

    #[target_feature(enable = "avx2,fma")]
    fn shuffles_avx2() -> [[f32; 16]; 5] {
        shuffles::<Avx2>()
    }

    #[target_feature(enable = "avx512f")]
    fn shuffles_avx512() -> [[f32; 16]; 5] {
        shuffles::<Avx512>()
    }

    /// even, odd, interleave lo, hi, and a masked load of 0..16 with lanes 1, 8, 15 set.
    #[inline(always)]
    fn shuffles<S: F32x16>() -> [[f32; 16]; 5] {
        let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
        // SAFETY: the caller enabled `S`'s features; all 32 values are readable.
        unsafe {
            let a = S::load_masked(u16::MAX, x.as_ptr());
            let b = S::load_masked(u16::MAX, x.as_ptr().add(16));
            let (even, odd) = S::even_odd(a, b);
            let (lo, hi) = S::interleave(even, odd);
            let some = S::load_masked((1 << 1) | (1 << 8) | (1 << 15), x.as_ptr());
            [
                lanes::<S>(even),
                lanes::<S>(odd),
                lanes::<S>(lo),
                lanes::<S>(hi),
                lanes::<S>(some),
            ]
        }
    }

    #[test]
    fn shuffles_and_masks_move_the_right_lanes() {
        let expected: [[f32; 16]; 5] = [
            core::array::from_fn(|i| (2 * i) as f32),
            core::array::from_fn(|i| (2 * i + 1) as f32),
            core::array::from_fn(|i| i as f32),
            core::array::from_fn(|i| (16 + i) as f32),
            core::array::from_fn(|i| {
                if [1, 8, 15].contains(&i) {
                    i as f32
                } else {
                    0.0
                }
            }),
        ];
        for isa in Isa::available() {
            // SAFETY: `available` lists only sets this CPU runs.
            let got = unsafe {
                match isa {
                    Isa::Avx512 => shuffles_avx512(),
                    Isa::Avx2 => shuffles_avx2(),
                }
            };
            assert_eq!(got, expected, "{isa:?}");
        }
    }
}
