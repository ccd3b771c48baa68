//! `f32` softmax rows written over sixteen-lane vectors ([`F32x16`]), compiled for AVX-512 and
//! for AVX2: the maximum and the sum of `e^(x - max)` stay in registers (the generic row,
//! vectorized by the compiler, took the maximum one value at a time, NaN test included, and
//! kept the sum in memory: a store and a reload on every 16 values). On a Zen 2 host the generic
//! row spent 40 % of W4 in its scalar maximum. Rows holding a NaN or an infinite maximum are
//! left to the generic row, so special values come out as they do there.

use crate::kernels::simd16::{Avx2, Avx512, F32x16, Isa};

/// `out = e^(x - max) / Σ e^(x - max)` for a row of finite values (`-∞` allowed) with the
/// widest instruction set this CPU runs, returning `true`; `false`, with `out` unspecified,
/// when the row holds a NaN or its maximum is infinite, or the CPU has neither AVX-512 nor
/// AVX2. `e^t` is within 2 ulps of the exact value for `t ≥ -87` (the normal range); below, see
/// [`F32x16::scale_pow2`].
///
/// With `streamed`, a row no longer than [`STREAM_ROW`] is written with streaming stores from
/// its first 64-byte boundary to its last whole vector (its exponentials wait in a buffer on
/// the stack), so those lines of `out` are not read from memory first; the caller then calls
/// [`crate::stream::fence`] before another thread reads `out`.
///
/// # Panics
/// When `out` is shorter than `x`.
#[inline]
pub(crate) fn softmax_row(x: &[f32], out: &mut [f32], streamed: bool) -> bool {
    match Isa::detect() {
        // SAFETY: `detect` found the set on this CPU.
        Some(isa) => unsafe { softmax_row_with(isa, x, out, streamed) },
        None => false,
    }
}

/// [`softmax_row`] with the instruction set `isa`.
///
/// # Safety
/// The CPU runs `isa`.
unsafe fn softmax_row_with(isa: Isa, x: &[f32], out: &mut [f32], streamed: bool) -> bool {
    assert!(
        out.len() >= x.len(),
        "softmax_row: the output holds {} values, the row {}",
        out.len(),
        x.len()
    );
    // SAFETY: the caller's `isa`; `out` is at least as long as `x` (checked above).
    unsafe {
        if streamed && x.len() <= STREAM_ROW {
            streamed_row(isa, x, out)
        } else {
            row_with(isa, x, out, None)
        }
    }
}

/// The streamed row, with its buffer of exponentials on this function's stack (kept out of
/// the plain rows' frames).
///
/// # Safety
/// The CPU runs `isa`; `out` at least as long as `x`, and `x` at most [`STREAM_ROW`] long.
#[inline(never)]
unsafe fn streamed_row(isa: Isa, x: &[f32], out: &mut [f32]) -> bool {
    let mut buffer = [std::mem::MaybeUninit::<f32>::uninit(); STREAM_ROW];
    // SAFETY: the caller's; the buffer holds STREAM_ROW >= x.len() values.
    unsafe { row_with(isa, x, out, Some(buffer.as_mut_ptr().cast())) }
}

/// The row with `isa`, its exponentials in `scratch` (then written to `out` with streaming
/// stores) or in `out`.
///
/// # Safety
/// The CPU runs `isa`; `out` at least as long as `x`; `scratch`, if any, holds `x.len()`
/// values.
unsafe fn row_with(isa: Isa, x: &[f32], out: &mut [f32], scratch: Option<*mut f32>) -> bool {
    // SAFETY: the caller's.
    unsafe {
        match isa {
            Isa::Avx512 => row_avx512(x, out, scratch),
            Isa::Avx2 => row_avx2(x, out, scratch),
        }
    }
}

/// # Safety
/// AVX-512F; as [`row`].
#[target_feature(enable = "avx512f")]
unsafe fn row_avx512(x: &[f32], out: &mut [f32], scratch: Option<*mut f32>) -> bool {
    // SAFETY: the caller's.
    unsafe { row::<Avx512>(x, out, scratch) }
}

/// # Safety
/// AVX2 and FMA; as [`row`].
#[target_feature(enable = "avx2,fma")]
unsafe fn row_avx2(x: &[f32], out: &mut [f32], scratch: Option<*mut f32>) -> bool {
    // SAFETY: the caller's.
    unsafe { row::<Avx2>(x, out, scratch) }
}

/// The longest row [`softmax_row`] writes with streaming stores (16 KiB of exponentials on the
/// stack).
pub(crate) const STREAM_ROW: usize = 4096;

/// The row, written once over `S`: the maximum (two accumulators), then `e^(x - max)` stored
/// (in `scratch` if given, else in `out`) and summed, then the scaling by the sum's inverse
/// into `out`, with streaming stores when the exponentials are in `scratch`.
///
/// # Safety
/// The CPU runs `S`'s set (the caller is compiled with it); `out` at least as long as `x`;
/// `scratch`, if any, holds `x.len()` values.
#[inline(always)]
unsafe fn row<S: F32x16>(x: &[f32], out: &mut [f32], scratch: Option<*mut f32>) -> bool {
    let (n, full) = (x.len(), x.len() / 16 * 16);
    let tail = ((1u32 << (n - full)) - 1) as u16;
    let xp = x.as_ptr();
    let op = out.as_mut_ptr();
    let streamed = scratch.is_some();
    // Where the exponentials go before the scaling.
    let ep = scratch.unwrap_or(op);
    // SAFETY (every load and store below): offsets `i < full` reach 16 values inside the row
    // (and so inside `out`, and inside `scratch`, which holds n values); the tail is masked to
    // its `n - full` values.
    unsafe {
        let neg_inf = S::splat(f32::NEG_INFINITY);
        let (mut m0, mut m1) = (neg_inf, neg_inf);
        let mut nan = 0u16;
        let mut i = 0;
        while i + 32 <= full {
            let (a, b) = (S::load(xp.add(i)), S::load(xp.add(i + 16)));
            nan |= S::unordered(a, b);
            (m0, m1) = (S::max(m0, a), S::max(m1, b));
            i += 32;
        }
        while i < n {
            let mask = if i < full { u16::MAX } else { tail };
            let a = S::select(mask, S::load_masked(mask, xp.add(i)), neg_inf);
            nan |= S::unordered(a, a);
            m0 = S::max(m0, a);
            i += 16;
        }
        let max = S::reduce_max(S::max(m0, m1));
        if nan != 0 || !max.is_finite() {
            return false;
        }
        let shift = S::splat(max);
        let (mut s0, mut s1) = (S::zero(), S::zero());
        let mut i = 0;
        while i + 32 <= full {
            let (a, b) = (S::load(xp.add(i)), S::load(xp.add(i + 16)));
            let (ea, eb) = (exp::<S>(S::sub(a, shift)), exp::<S>(S::sub(b, shift)));
            S::store(ep.add(i), ea);
            S::store(ep.add(i + 16), eb);
            (s0, s1) = (S::add(s0, ea), S::add(s1, eb));
            i += 32;
        }
        while i < n {
            let mask = if i < full { u16::MAX } else { tail };
            let a = S::load_masked(mask, xp.add(i));
            let e = S::select(mask, exp::<S>(S::sub(a, shift)), S::zero());
            S::store_masked(ep.add(i), mask, e);
            s0 = S::add(s0, e);
            i += 16;
        }
        let scale = S::splat(1.0 / S::reduce_add(S::add(s0, s1)));
        if streamed {
            // Plain stores up to the first 64-byte boundary and after the last whole vector,
            // streaming ones between.
            let head = ((64 - op as usize % 64) % 64 / 4).min(n);
            if head > 0 {
                let mask = ((1u32 << head) - 1) as u16;
                S::store_masked(op, mask, S::mul(S::load_masked(mask, ep), scale));
            }
            let mut i = head;
            while i + 16 <= n {
                S::store_stream(op.add(i), S::mul(S::load(ep.add(i)), scale));
                i += 16;
            }
            if i < n {
                let mask = ((1u32 << (n - i)) - 1) as u16;
                let e = S::load_masked(mask, ep.add(i));
                S::store_masked(op.add(i), mask, S::mul(e, scale));
            }
            return true;
        }
        let mut i = 0;
        while i + 16 <= n {
            S::store(op.add(i), S::mul(S::load(op.add(i)), scale));
            i += 16;
        }
        if i < n {
            let e = S::load_masked(tail, op.add(i));
            S::store_masked(op.add(i), tail, S::mul(e, scale));
        }
    }
    true
}

/// `e^t` for `t ≤ 0` (the `-∞` of masked entries included): `t = n·ln 2 + r` with `n` rounded
/// to the nearest integer, the Taylor polynomial of degree 7 for `e^r`, and `2^n` applied by
/// [`F32x16::scale_pow2`].
///
/// # Safety
/// The CPU runs `S`'s set.
#[inline(always)]
unsafe fn exp<S: F32x16>(t: S::V) -> S::V {
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // SAFETY: the caller's set.
    unsafe {
        // Below -104 every result rounds to 0; the clamp keeps `-∞` from making `r` a NaN.
        let t = S::max(t, S::splat(-104.0));
        let n = S::round(S::mul(t, S::splat(std::f32::consts::LOG2_E)));
        let r = S::mul_add(n, S::splat(-LN2_HI), t);
        let r = S::mul_add(n, S::splat(-LN2_LO), r);
        let mut p = S::splat(1.0 / 5040.0);
        for c in [
            1.0 / 720.0,
            1.0 / 120.0,
            1.0 / 24.0,
            1.0 / 6.0,
            0.5,
            1.0,
            1.0,
        ] {
            p = S::mul_add(p, r, S::splat(c));
        }
        S::scale_pow2(p, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The softmax in f64 of the shifted values `x - max` as f32 computes them (that
    /// subtraction rounds, by up to half an ulp of `x - max`, before any exponential).
    fn reference(row: &[f32]) -> Vec<f64> {
        let max = row.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
        let e: Vec<f64> = row.iter().map(|&v| ((v - max) as f64).exp()).collect();
        let sum: f64 = e.iter().sum();
        e.iter().map(|v| v / sum).collect()
    }

    /// A row of `n` values from -18.5 to 18.5, with a -∞ and one far enough below the maximum
    /// for its exponential to underflow.
    fn test_row(n: usize) -> Vec<f32> {
        let mut row: Vec<f32> = (0..n)
            .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.37)
            .collect();
        if n > 3 {
            row[2] = f32::NEG_INFINITY;
            row[n - 1] = -200.0;
        }
        row
    }

    /// Runs the row into `out` (NaN-filled, longer than the row) and checks every value against
    /// the f64 softmax and that nothing past the row was written.
    fn check_row(isa: Isa, row: &[f32], out: &mut [f32], streamed: bool, label: &str) {
        // SAFETY: the callers pass only sets `Isa::available` lists.
        let taken = unsafe { softmax_row_with(isa, row, out, streamed) };
        crate::stream::fence();
        assert!(taken, "{label}: the row was refused");
        for (i, (&got, want)) in out.iter().zip(reference(row)).enumerate() {
            assert!(
                (got as f64 - want).abs() <= 1e-6 * want + 1e-37,
                "{label}, index {i}: {got} vs {want}"
            );
        }
        let n = row.len();
        assert!(
            out[n..].iter().all(|v| v.is_nan()),
            "{label}: wrote past the row"
        );
    }

    #[test]
    fn rows_match_the_f64_softmax_at_every_length_with_each_instruction_set() {
        let sets = Isa::available();
        if sets.is_empty() {
            eprintln!("softmax_x86: neither AVX-512 nor AVX2 on this CPU; nothing to check");
        }
        for isa in sets {
            for n in [1, 5, 16, 17, 31, 32, 33, 64, 100, 1024, 1031] {
                let mut out = vec![f32::NAN; n + 3];
                check_row(
                    isa,
                    &test_row(n),
                    &mut out,
                    false,
                    &format!("{isa:?}, length {n}"),
                );
            }
        }
    }

    #[test]
    fn streamed_rows_match_the_reference_aligned_or_not() {
        for isa in Isa::available() {
            for n in [1, 5, 16, 17, 32, 100, 1031, STREAM_ROW, STREAM_ROW + 16] {
                let row = test_row(n);
                let mut storage = vec![f32::NAN; n + 32];
                // The first 64-byte boundary, and three values past it.
                let aligned = storage.as_ptr().align_offset(64);
                for start in [aligned, aligned + 3] {
                    storage.fill(f32::NAN);
                    let out = &mut storage[start..start + n + 4];
                    let label = format!("{isa:?}, length {n}, start {start}, streamed");
                    check_row(isa, &row, out, true, &label);
                }
            }
        }
    }

    #[test]
    fn nan_and_infinite_maxima_are_left_to_the_generic_row() {
        for isa in Isa::available() {
            let mut out = vec![0.0; 40];
            for bad in [f32::NAN, f32::INFINITY] {
                for at in [3, 35] {
                    let mut row = vec![1.0f32; 40];
                    row[at] = bad;
                    // SAFETY: `available` lists only sets this CPU runs.
                    let taken = unsafe { softmax_row_with(isa, &row, &mut out, false) };
                    assert!(!taken, "{isa:?}: {bad} at {at} was taken");
                }
            }
            // SAFETY: as above.
            let taken = unsafe { softmax_row_with(isa, &[f32::NEG_INFINITY; 20], &mut out, false) };
            assert!(!taken, "{isa:?}: a row of -inf was taken");
        }
    }

    #[test]
    #[should_panic(expected = "softmax_row: the output holds 3 values, the row 4")]
    fn a_short_output_is_refused() {
        softmax_row(&[0.0; 4], &mut [0.0; 3], false);
    }
}
