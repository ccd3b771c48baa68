//! The AVX2 kernel: `vpmaddwd` on `i16` pairs. `b` is packed once into panels of 8 columns × 2
//! consecutive `k`, widened to `i16` (one 256-bit register per step of 2 in `k`: the pair of
//! column `c` in lanes `2c, 2c+1`); a row of `a` is widened the same way, and one broadcast
//! pair `(a[i][2q], a[i][2q+1])` times a panel step gives, per column, `a·b` over both `k` in
//! one `i32` lane. The products of `i8` values fit in `i16` pairs without saturation (unlike
//! `vpmaddubsw`'s), so the sums are exact with no offset to correct. A tile of 4 rows × 16
//! columns keeps 8 accumulators in registers (with the 2 panel steps, the broadcast and one
//! product: 12 of 16).

use super::{Int8Kernel, Int8Product, PackedRhs, packed_tiles, store_tile};
use core::arch::x86_64::*;

/// Rows of one register tile.
const ROWS: usize = 4;
/// Columns of one packed panel (one 256-bit register of `i32`).
const PANEL: usize = 8;
/// Bytes of one step of a panel: 8 columns × 2 `k` × 2 bytes.
const STEP_BYTES: usize = 32;

/// `b` (`k × n`) as panels of 8 columns × steps of 2 in `k`, widened to `i16`: panel `p`, step
/// `q` holds `b[2q + t][8p + c]` at `i16` index `(p · steps + q) · 16 + 2c + t`, zero beyond
/// `k` and `n` (stored as bytes in `PackedRhs::data`, little-endian).
pub(super) fn pack(b: &[i8], k: usize, n: usize) -> PackedRhs {
    let steps = k.div_ceil(2);
    let panels = n.div_ceil(PANEL);
    let mut wide = vec![0i16; panels * steps * 16];
    for (kk, row) in b.chunks_exact(n.max(1)).enumerate().take(k) {
        let (q, t) = (kk / 2, kk % 2);
        for (j, &v) in row.iter().enumerate() {
            wide[((j / PANEL) * steps + q) * 16 + 2 * (j % PANEL) + t] = i16::from(v);
        }
    }
    let data = wide
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .map(|b| b as i8)
        .collect();
    PackedRhs {
        kernel: Int8Kernel::Avx2,
        k,
        n,
        data,
        steps,
        panels,
        col_sums: Vec::new(),
    }
}

pub(super) fn matmul(p: &Int8Product<'_>, out: &mut [f32]) {
    let packed = p.b;
    let width = packed.steps * 2;
    // Rows of `a` widened to i16, padded with zeros to whole steps of 2.
    let a_format = (0i16, i16::from as fn(i8) -> i16);
    packed_tiles(p, out, (ROWS, width), a_format, |job| {
        // SAFETY: `best_kernel` checked AVX2 before this path was taken; the tile and panels
        // hold `steps` full steps each.
        let sums = unsafe {
            if job.panels == 2 {
                tile_kernel::<2>(job.a_tile, width, packed, job.panel)
            } else {
                tile_kernel::<1>(job.a_tile, width, packed, job.panel)
            }
        };
        store_tile(p, job, PANEL, sums.iter().map(|r| &r[..]), |_| 0);
    });
}

/// The `i32` sums of a ROWS-row tile against `NP` panels, `[row][panel·8 + column]`.
#[target_feature(enable = "avx2")]
unsafe fn tile_kernel<const NP: usize>(
    a_tile: &[i16],
    width: usize,
    packed: &PackedRhs,
    panel: usize,
) -> [[i32; 2 * PANEL]; ROWS] {
    let mut acc = [[_mm256_setzero_si256(); NP]; ROWS];
    let steps = packed.steps;
    let base = packed.data.as_ptr();
    let a = a_tile.as_ptr();
    for q in 0..steps {
        let mut b = [_mm256_setzero_si256(); NP];
        for (np, slot) in b.iter_mut().enumerate() {
            // SAFETY: panel + np < panels and q < steps: inside `packed.data`.
            *slot = unsafe {
                _mm256_loadu_si256(base.add(((panel + np) * steps + q) * STEP_BYTES).cast())
            };
        }
        for (r, row_acc) in acc.iter_mut().enumerate() {
            // SAFETY: r < ROWS and 2q + 2 ≤ width: inside `a_tile`.
            let pair = unsafe { (a.add(r * width + 2 * q) as *const i32).read_unaligned() };
            let bcast = _mm256_set1_epi32(pair);
            for (slot, &bv) in row_acc.iter_mut().zip(&b) {
                *slot = _mm256_add_epi32(*slot, _mm256_madd_epi16(bcast, bv));
            }
        }
    }
    let mut sums = [[0i32; 2 * PANEL]; ROWS];
    for (row, row_acc) in sums.iter_mut().zip(&acc) {
        for (np, v) in row_acc.iter().enumerate() {
            // SAFETY: each row holds 2 panels of 8 i32.
            unsafe { _mm256_storeu_si256(row.as_mut_ptr().add(np * PANEL).cast(), *v) };
        }
    }
    sums
}
