//! The AVX-512 VNNI kernel: `vpdpbusd` on `u8` rows of `a` (offset by +128) against panels of
//! 16 columns × 4 steps of `k`.

use super::{Int8Kernel, Int8Product, PackedRhs, packed_tiles, store_tile};
use core::arch::x86_64::*;

/// Rows of one register tile.
const MR: usize = 8;
/// Columns of one packed panel (one 512-bit register of `i32`).
const PANEL: usize = 16;

pub(super) fn pack(b: &[i8], k: usize, n: usize) -> PackedRhs {
    let steps = k.div_ceil(4);
    let panels = n.div_ceil(PANEL);
    let mut data = vec![0i8; panels * steps * 64];
    // Four rows of `b` at a time: the four bytes of column j land together.
    let zeros = vec![0i8; n];
    for q in 0..steps {
        let row = |t: usize| {
            let kk = 4 * q + t;
            if kk < k {
                &b[kk * n..(kk + 1) * n]
            } else {
                &zeros[..]
            }
        };
        let (r0, r1, r2, r3) = (row(0), row(1), row(2), row(3));
        for j in 0..n {
            let at = ((j / PANEL) * steps + q) * 64 + 4 * (j % PANEL);
            data[at..at + 4].copy_from_slice(&[r0[j], r1[j], r2[j], r3[j]]);
        }
    }
    let mut col_sums = vec![0i32; panels * PANEL];
    crate::simd::vectorized(|| {
        for row in b.chunks_exact(n) {
            for (s, &v) in col_sums.iter_mut().zip(row) {
                *s += v as i32;
            }
        }
    });
    PackedRhs {
        kernel: Int8Kernel::Vnni,
        k,
        n,
        data,
        steps,
        panels,
        col_sums,
    }
}

pub(super) fn matmul(p: &Int8Product<'_>, out: &mut [f32]) {
    let packed = p.b;
    // Rows of `a` as u8 (+128), padded with 128 (i8 zero) to whole steps of 4.
    let a_format = (0x80u8, (|v: i8| (v as u8) ^ 0x80) as fn(i8) -> u8);
    packed_tiles(p, out, (MR, packed.steps * 4), a_format, |job| {
        let width = packed.steps * 4;
        // SAFETY: `best_kernel` checked AVX-512F/BW/VNNI before this path was taken; the tile
        // and panels hold `steps` full steps each.
        let sums = unsafe {
            if job.panels == 2 {
                tile_kernel::<2>(job.a_tile, width, packed, job.panel)
            } else {
                tile_kernel::<1>(job.a_tile, width, packed, job.panel)
            }
        };
        // The hardware sum of (a + 128)·b may wrap for large k; the exact result fits in i32,
        // so wrapping arithmetic recovers it.
        let offset = |j: usize| 128i32.wrapping_mul(packed.col_sums[j]);
        store_tile(p, job, PANEL, sums.iter().map(|r| &r[..]), offset);
    });
}

/// The `i32` sums of an MR-row tile against `NP` panels, `[row][panel·16 + column]`.
#[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
unsafe fn tile_kernel<const NP: usize>(
    a_tile: &[u8],
    width: usize,
    packed: &PackedRhs,
    panel: usize,
) -> [[i32; 2 * PANEL]; MR] {
    let mut acc = [[_mm512_setzero_si512(); NP]; MR];
    let steps = packed.steps;
    let base = packed.data.as_ptr();
    let a = a_tile.as_ptr();
    for q in 0..steps {
        let mut b = [_mm512_setzero_si512(); NP];
        for (np, slot) in b.iter_mut().enumerate() {
            // SAFETY: panel + np < panels and q < steps: inside `packed.data`.
            *slot = unsafe { _mm512_loadu_si512(base.add(((panel + np) * steps + q) * 64).cast()) };
        }
        for (r, row_acc) in acc.iter_mut().enumerate() {
            // SAFETY: r < MR and 4q + 4 ≤ width: inside `a_tile`.
            let quad = unsafe { (a.add(r * width + 4 * q) as *const i32).read_unaligned() };
            let bcast = _mm512_set1_epi32(quad);
            for (slot, &bv) in row_acc.iter_mut().zip(&b) {
                *slot = _mm512_dpbusd_epi32(*slot, bcast, bv);
            }
        }
    }
    let mut sums = [[0i32; 2 * PANEL]; MR];
    for (row, row_acc) in sums.iter_mut().zip(&acc) {
        for (np, v) in row_acc.iter().enumerate() {
            // SAFETY: each row holds 2 panels of 16 i32.
            unsafe { _mm512_storeu_si512(row.as_mut_ptr().add(np * PANEL).cast(), *v) };
        }
    }
    sums
}
