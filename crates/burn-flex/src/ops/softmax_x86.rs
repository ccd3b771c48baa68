//! `f32` softmax rows written with AVX-512 instructions: the sum of `e^(x - max)` stays in
//! registers (the generic row, vectorized by the compiler, kept it in memory: a store and a
//! reload on every 16 values), and `2^n · p(r)` is one `vscalefps`, which also underflows to
//! zero without a clamp on `n`. Rows holding a NaN or an infinite maximum are left to the generic
//! row, so special values come out as they do there.

use core::arch::x86_64::{
    __m512, _CMP_UNORD_Q, _MM_FROUND_NO_EXC, _MM_FROUND_TO_NEAREST_INT, _mm512_add_ps,
    _mm512_cmp_ps_mask, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_mask_loadu_ps,
    _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_maskz_mov_ps, _mm512_max_ps,
    _mm512_mul_ps, _mm512_reduce_add_ps, _mm512_reduce_max_ps, _mm512_roundscale_ps,
    _mm512_scalef_ps, _mm512_set1_ps, _mm512_storeu_ps, _mm512_sub_ps,
};

/// Whether the CPU runs AVX-512F (the standard library caches the answer).
#[inline]
pub(crate) fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// `out = e^(x - max) / Σ e^(x - max)` for a row of finite values (`-∞` allowed), returning
/// `true`; `false`, with `out` unspecified, when the row holds a NaN or its maximum is infinite.
/// `e^t` is within 2 ulps of the exact value for `t ≥ -87` (the normal range); below, the
/// subnormal result is rounded once (and is 0 under `t = -104`).
///
/// # Safety
/// The CPU runs AVX-512F ([`available`]); `out` is at least as long as `x`.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn softmax_row(x: &[f32], out: &mut [f32]) -> bool {
    assert!(
        out.len() >= x.len(),
        "softmax_row: output shorter than the row"
    );
    let (n, full) = (x.len(), x.len() / 16 * 16);
    let tail = ((1u32 << (n - full)) - 1) as u16;
    let xp = x.as_ptr();
    let op = out.as_mut_ptr();
    // SAFETY (every load and store below): offsets `i < full` read 16 values inside the row;
    // the tail is masked to its `n - full` values.
    let neg_inf = _mm512_set1_ps(f32::NEG_INFINITY);
    let (mut m0, mut m1) = (neg_inf, neg_inf);
    let mut nan = 0u16;
    let mut i = 0;
    while i + 32 <= full {
        let (a, b) = unsafe { (_mm512_loadu_ps(xp.add(i)), _mm512_loadu_ps(xp.add(i + 16))) };
        nan |= _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(a, b);
        (m0, m1) = (_mm512_max_ps(m0, a), _mm512_max_ps(m1, b));
        i += 32;
    }
    while i < n {
        let mask = if i < full { u16::MAX } else { tail };
        let a = unsafe { _mm512_mask_loadu_ps(neg_inf, mask, xp.add(i)) };
        nan |= _mm512_cmp_ps_mask::<_CMP_UNORD_Q>(a, a);
        m0 = _mm512_max_ps(m0, a);
        i += 16;
    }
    let max = _mm512_reduce_max_ps(_mm512_max_ps(m0, m1));
    if nan != 0 || !max.is_finite() {
        return false;
    }
    let shift = _mm512_set1_ps(max);
    let (mut s0, mut s1) = (_mm512_set1_ps(0.0), _mm512_set1_ps(0.0));
    let mut i = 0;
    while i + 32 <= full {
        let (a, b) = unsafe { (_mm512_loadu_ps(xp.add(i)), _mm512_loadu_ps(xp.add(i + 16))) };
        let (ea, eb) = (exp(_mm512_sub_ps(a, shift)), exp(_mm512_sub_ps(b, shift)));
        unsafe {
            _mm512_storeu_ps(op.add(i), ea);
            _mm512_storeu_ps(op.add(i + 16), eb);
        }
        (s0, s1) = (_mm512_add_ps(s0, ea), _mm512_add_ps(s1, eb));
        i += 32;
    }
    while i < n {
        let mask = if i < full { u16::MAX } else { tail };
        let a = unsafe { _mm512_maskz_loadu_ps(mask, xp.add(i)) };
        let e = _mm512_maskz_mov_ps(mask, exp(_mm512_sub_ps(a, shift)));
        unsafe { _mm512_mask_storeu_ps(op.add(i), mask, e) };
        s0 = _mm512_add_ps(s0, e);
        i += 16;
    }
    let scale = _mm512_set1_ps(1.0 / _mm512_reduce_add_ps(_mm512_add_ps(s0, s1)));
    let mut i = 0;
    while i < n {
        let mask = if i + 16 <= n { u16::MAX } else { tail };
        unsafe {
            let e = _mm512_maskz_loadu_ps(mask, op.add(i));
            _mm512_mask_storeu_ps(op.add(i), mask, _mm512_mul_ps(e, scale));
        }
        i += 16;
    }
    true
}

/// `e^t` for `t ≤ 0` (the `-∞` of masked entries included): `t = n·ln 2 + r` with `n` rounded
/// to the nearest integer, the Taylor polynomial of degree 7 for `e^r`, and `2^n` applied by
/// `vscalefps` (exact, rounding once in the subnormal range).
#[target_feature(enable = "avx512f")]
#[inline]
fn exp(t: __m512) -> __m512 {
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    // Below -104 every result rounds to 0; the clamp keeps `-∞` from making `r` a NaN.
    let t = _mm512_max_ps(t, _mm512_set1_ps(-104.0));
    let n = _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
        _mm512_mul_ps(t, _mm512_set1_ps(std::f32::consts::LOG2_E)),
    );
    let r = _mm512_fmadd_ps(n, _mm512_set1_ps(-LN2_HI), t);
    let r = _mm512_fmadd_ps(n, _mm512_set1_ps(-LN2_LO), r);
    let mut p = _mm512_set1_ps(1.0 / 5040.0);
    for c in [
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ] {
        p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(c));
    }
    _mm512_scalef_ps(p, n)
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

    #[test]
    fn rows_match_the_f64_softmax_at_every_length() {
        if !available() {
            eprintln!("softmax_x86: no AVX-512 on this CPU; the kernel is not exercised");
            return;
        }
        for n in [1, 5, 16, 17, 31, 32, 33, 64, 100, 1024, 1031] {
            let mut row: Vec<f32> = (0..n)
                .map(|i| ((i * 37 % 101) as f32 - 50.0) * 0.37)
                .collect();
            if n > 3 {
                row[2] = f32::NEG_INFINITY;
                row[n - 1] = -200.0;
            }
            let mut out = vec![f32::NAN; n + 3];
            assert!(unsafe { softmax_row(&row, &mut out) }, "length {n}");
            for (i, (&got, want)) in out.iter().zip(reference(&row)).enumerate() {
                assert!(
                    (got as f64 - want).abs() <= 1e-6 * want + 1e-37,
                    "length {n}, index {i}: {got} vs {want}"
                );
            }
            assert!(out[n..].iter().all(|v| v.is_nan()), "wrote past the row");
        }
    }

    #[test]
    fn nan_and_infinite_maxima_are_left_to_the_generic_row() {
        if !available() {
            return;
        }
        let mut out = vec![0.0; 40];
        for bad in [f32::NAN, f32::INFINITY] {
            let mut row = vec![1.0f32; 40];
            row[35] = bad;
            assert!(!unsafe { softmax_row(&row, &mut out) });
        }
        assert!(!unsafe { softmax_row(&[f32::NEG_INFINITY; 20], &mut out) });
    }
}
