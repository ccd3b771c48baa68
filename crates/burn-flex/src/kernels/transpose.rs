//! Blocked matrix transpose: the copy that turns a column-major matrix into a row-major one.
//!
//! A naive transpose of a matrix whose rows are a power-of-two bytes apart reads (or writes)
//! down a column, and every element of that column falls in the same L1 cache set: past the
//! cache's associativity each access misses. Going through square tiles small enough to sit in
//! registers and L1 touches every source line and every destination line once per tile.

use crate::element::{as_f32, as_f32_mut};
#[cfg(target_arch = "x86_64")]
use crate::parallel;

/// Side of the square tiles (16 `f32` = one 64-byte cache line).
const TILE: usize = 16;

/// Elements below which the transpose runs on the calling thread.
const PARALLEL_ELEMENTS: usize = 1 << 16;

/// Writes the transpose of the `rows×cols` matrix `src` (row `r` starts at `r·ld`, columns are
/// adjacent) into `dst`, row-major `cols×rows`.
///
/// Panics when `ld < cols`, when `src` is shorter than the matrix reaches, or when `dst` does
/// not hold exactly `rows·cols` values.
pub fn transpose<T: Copy + Send + Sync + 'static>(
    src: &[T],
    rows: usize,
    cols: usize,
    ld: usize,
    dst: &mut [T],
) {
    assert_eq!(
        dst.len(),
        rows * cols,
        "transpose: destination holds {} values, expected {cols}×{rows}",
        dst.len()
    );
    if rows == 0 || cols == 0 {
        return;
    }
    assert!(
        ld >= cols && src.len() > (rows - 1) * ld + cols - 1,
        "transpose: a {rows}×{cols} source with row stride {ld} needs {} values, got {}",
        (rows - 1) * ld + cols,
        src.len()
    );
    #[cfg(target_arch = "x86_64")]
    if let (Some(src), Some(dst)) = (as_f32(src), as_f32_mut(dst))
        && x86::has_avx512()
    {
        return run_bands(src, rows, cols, ld, dst, x86::tile_f32);
    }
    run_bands(src, rows, cols, ld, dst, tile_portable);
}

/// Copies the `TILE×TILE` block of `src` at (`row0`, `col0`) transposed into `out`, a band of
/// `dst` rows `rows` long (the block's column `c` goes to `out[c·rows + row0..][..TILE]`).
type TileFn<T> = fn(src: &[T], ld: usize, row0: usize, col0: usize, out: &mut [T], rows: usize);

/// Splits `dst` into bands of `TILE` rows (`TILE` columns of `src`), on threads when large.
fn run_bands<T: Copy + Send + Sync>(
    src: &[T],
    rows: usize,
    cols: usize,
    ld: usize,
    dst: &mut [T],
    tile: TileFn<T>,
) {
    let band = |(b, out): (usize, &mut [T])| transpose_band(src, rows, ld, b * TILE, out, tile);
    if rows * cols >= PARALLEL_ELEMENTS {
        parallel::for_each_chunk_mut(dst, TILE * rows, |b, out| band((b, out)));
    } else {
        dst.chunks_mut(TILE * rows).enumerate().for_each(band);
    }
}

/// Fills `out` (`width` rows of `dst`, `width ≤ TILE`) from columns `col0..col0 + width` of `src`.
fn transpose_band<T: Copy>(
    src: &[T],
    rows: usize,
    ld: usize,
    col0: usize,
    out: &mut [T],
    tile: TileFn<T>,
) {
    let width = out.len() / rows;
    let mut row0 = 0;
    if width == TILE {
        while row0 + TILE <= rows {
            tile(src, ld, row0, col0, out, rows);
            row0 += TILE;
        }
    }
    // The rows past the last whole tile, or a band narrower than a tile.
    for r in row0..rows {
        for c in 0..width {
            out[c * rows + r] = src[r * ld + col0 + c];
        }
    }
}

/// The tile through a local array, for any element type.
fn tile_portable<T: Copy>(
    src: &[T],
    ld: usize,
    row0: usize,
    col0: usize,
    out: &mut [T],
    rows: usize,
) {
    let mut tile = [[src[0]; TILE]; TILE];
    for (r, line) in tile.iter_mut().enumerate() {
        line.copy_from_slice(&src[(row0 + r) * ld + col0..][..TILE]);
    }
    for c in 0..TILE {
        let dst_row = &mut out[c * rows + row0..][..TILE];
        for (r, value) in dst_row.iter_mut().enumerate() {
            *value = tile[r][c];
        }
    }
}

/// The `f32` tile in sixteen AVX-512 registers.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::TILE;
    use std::arch::x86_64::*;

    /// Whether this CPU runs [`tile_f32`].
    pub(super) fn has_avx512() -> bool {
        std::arch::is_x86_feature_detected!("avx512f")
    }

    /// [`super::TileFn`] for `f32`; only chosen after [`has_avx512`].
    pub(super) fn tile_f32(
        src: &[f32],
        ld: usize,
        row0: usize,
        col0: usize,
        out: &mut [f32],
        rows: usize,
    ) {
        assert!(
            (row0 + TILE - 1) * ld + col0 + TILE <= src.len()
                && (TILE - 1) * rows + row0 + TILE <= out.len(),
            "transpose: tile at ({row0}, {col0}) outside its matrices"
        );
        // SAFETY: the caller checked AVX-512 (see `has_avx512`); the assert above bounds every
        // load (16 rows of 16 values from `src`) and store (16 rows of 16 values into `out`).
        unsafe {
            tile(
                src.as_ptr().add(row0 * ld + col0),
                ld,
                out.as_mut_ptr().add(row0),
                rows,
            )
        }
    }

    /// Loads 16 rows, transposes them in four shuffle stages, stores 16 rows.
    #[target_feature(enable = "avx512f")]
    unsafe fn tile(src: *const f32, ld: usize, dst: *mut f32, ldd: usize) {
        // SAFETY (whole body): `tile_f32` bounds the 16 loads and 16 stores.
        unsafe {
            let r: [__m512; 16] = std::array::from_fn(|i| _mm512_loadu_ps(src.add(i * ld)));
            // Stage 1: interleave row pairs within each 128-bit lane.
            let t: [__m512; 16] = std::array::from_fn(|i| {
                let (a, b) = (r[i & !1], r[i | 1]);
                if i % 2 == 0 {
                    _mm512_unpacklo_ps(a, b)
                } else {
                    _mm512_unpackhi_ps(a, b)
                }
            });
            // Stage 2: u[4j + c] holds, in lane L, rows 4j..4j+4 of column 4L + c.
            let u: [__m512; 16] = std::array::from_fn(|i| {
                let (j, c) = (i / 4, i % 4);
                let (a, b) = (t[4 * j + c / 2], t[4 * j + 2 + c / 2]);
                if c % 2 == 0 {
                    _mm512_shuffle_ps::<0x44>(a, b)
                } else {
                    _mm512_shuffle_ps::<0xEE>(a, b)
                }
            });
            for c in 0..4 {
                // Stage 3: x = lanes 0 and 2 (y = lanes 1 and 3) of rows 0..8 and 8..16.
                let x_lo = _mm512_shuffle_f32x4::<0x88>(u[c], u[4 + c]);
                let y_lo = _mm512_shuffle_f32x4::<0xDD>(u[c], u[4 + c]);
                let x_hi = _mm512_shuffle_f32x4::<0x88>(u[8 + c], u[12 + c]);
                let y_hi = _mm512_shuffle_f32x4::<0xDD>(u[8 + c], u[12 + c]);
                // Stage 4: column 4L + c gathers lane L of u[c], u[4 + c], u[8 + c], u[12 + c].
                let columns = [
                    _mm512_shuffle_f32x4::<0x88>(x_lo, x_hi),
                    _mm512_shuffle_f32x4::<0x88>(y_lo, y_hi),
                    _mm512_shuffle_f32x4::<0xDD>(x_lo, x_hi),
                    _mm512_shuffle_f32x4::<0xDD>(y_lo, y_hi),
                ];
                for (lane, column) in columns.into_iter().enumerate() {
                    _mm512_storeu_ps(dst.add((4 * lane + c) * ldd), column);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `f32` takes the AVX-512 tiles where the CPU has them, `f64` the portable ones.
    fn check<T: Copy + Send + Sync + PartialEq + std::fmt::Debug + 'static>(
        nan: T,
        of: fn(usize) -> T,
    ) {
        for (rows, cols, ld) in [
            (1, 1, 1),
            (3, 5, 7),
            (16, 16, 16),
            (17, 33, 40),
            (64, 48, 48),
            (300, 260, 261),
            (256, 1024, 1024),
        ] {
            let src: Vec<T> = (0..rows * ld).map(of).collect();
            let mut dst = vec![nan; rows * cols];
            transpose(&src, rows, cols, ld, &mut dst);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(
                        dst[c * rows + r],
                        src[r * ld + c],
                        "{rows}×{cols} at ({r},{c})"
                    );
                }
            }
        }
    }

    #[test]
    fn matches_the_definition_on_ragged_shapes() {
        check(f32::NAN, |i| i as f32);
        check(f64::NAN, |i| i as f64);
    }

    #[test]
    #[should_panic(expected = "transpose: a 4×3 source with row stride 3 needs 12 values, got 11")]
    fn short_source_panics() {
        let mut dst = vec![0.0; 12];
        transpose(&[0.0f32; 11], 4, 3, 3, &mut dst);
    }
}
