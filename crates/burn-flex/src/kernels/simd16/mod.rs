//! Sixteen `f32` lanes behind one trait: one AVX-512 register ([`Avx512`]), or a pair of AVX2
//! registers ([`Avx2`]). The Winograd kernel ([`super::conv_winograd`]) and the softmax rows
//! ([`crate::ops::softmax_x86`]) are written once against [`F32x16`] and compiled for each
//! instruction set under its own `#[target_feature]` entry point, so the trait's methods (all
//! `#[inline(always)]`) are inlined into code built for that set.
//!
//! Lane masks are `u16`, bit `i` for lane `i`. Masked loads read nothing, and fault on
//! nothing, where the mask is clear (AVX-512 `vmovups` with a mask, AVX `vmaskmovps`).

mod avx2;
mod avx512;

pub(crate) use avx2::Avx2;
pub(crate) use avx512::Avx512;

pub(crate) use super::isa::Isa;

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
    /// `p[0..16] = v` with a streaming (non-temporal) store, which does not read the line
    /// first ([`crate::stream`]); `p` must be 64-byte aligned, and the thread must call
    /// [`crate::stream::fence`] before another reads what it wrote.
    unsafe fn store_stream(p: *mut f32, v: Self::V);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The lanes of `v`.
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

    /// Masks that take each path of a half (whole, empty, partial), and the masked load of
    /// 0..16 and masked store of it over NaN under each.
    const MASKS: [u16; 6] = [0, u16::MAX, 0x00ff, 0xff00, 0x0f81, 0x80f0];

    #[target_feature(enable = "avx2,fma")]
    fn masked_avx2() -> Vec<[[f32; 16]; 2]> {
        masked::<Avx2>()
    }

    #[target_feature(enable = "avx512f")]
    fn masked_avx512() -> Vec<[[f32; 16]; 2]> {
        masked::<Avx512>()
    }

    #[inline(always)]
    fn masked<S: F32x16>() -> Vec<[[f32; 16]; 2]> {
        let x: Vec<f32> = (0..16).map(|i| i as f32).collect();
        MASKS
            .iter()
            .map(|&mask| {
                let mut out = [f32::NAN; 16];
                // SAFETY: the caller enabled `S`'s features; 16 values on both sides.
                unsafe {
                    let loaded = S::load_masked(mask, x.as_ptr());
                    S::store_masked(out.as_mut_ptr(), mask, S::load(x.as_ptr()));
                    [lanes::<S>(loaded), out]
                }
            })
            .collect()
    }

    #[test]
    fn masked_loads_and_stores_touch_only_their_lanes() {
        let expected: Vec<[[f32; 16]; 2]> = MASKS
            .iter()
            .map(|&mask| {
                let on = |i: usize| mask & (1 << i) != 0;
                [
                    core::array::from_fn(|i| if on(i) { i as f32 } else { 0.0 }),
                    core::array::from_fn(|i| if on(i) { i as f32 } else { f32::NAN }),
                ]
            })
            .collect();
        for isa in Isa::available() {
            // SAFETY: `available` lists only sets this CPU runs.
            let got = unsafe {
                match isa {
                    Isa::Avx512 => masked_avx512(),
                    Isa::Avx2 => masked_avx2(),
                }
            };
            for ((got, want), mask) in got.iter().zip(&expected).zip(MASKS) {
                assert_eq!(got[0], want[0], "{isa:?} load, mask {mask:#06x}");
                for (g, w) in got[1].iter().zip(&want[1]) {
                    assert!(
                        g == w || (g.is_nan() && w.is_nan()),
                        "{isa:?} store, mask {mask:#06x}"
                    );
                }
            }
        }
    }
}
