//! Flex's own `f32` matrix product for CPUs with AVX-512: one thread's share of a product
//! (the threads are [`super::gemm`]'s), with a 6 × 64 register tile and deep `k` blocks.
//!
//! The tile keeps 6 rows × 64 columns of the result in 24 of the 32 vector registers; each step
//! along `k` loads 64 values of the right operand (4 registers) and broadcasts one value of each
//! of the 6 rows of the left one, for 24 fused multiply-adds. The right operand is packed one
//! block at a time into panels of 64 columns (zero past `n`), each `kc` steps deep and read
//! straight through; the left operand is read where it lies (its 6 rows are 6 sequential
//! streams, which needs no copy) when its rows are contiguous, so only one operand is packed;
//! a transposed left operand is packed 6 rows side by side, one block of `k` at a time.
//!
//! The blocks are deep: `kc` is all of `k` up to [`MAX_DEPTH`] (then `k` in equal blocks), and
//! the panels of one block hold [`RHS_BLOCK_VALUES`] (512 KiB, half of a Zen 5 core's L2), so a
//! tile of the result is loaded and stored once per `kc` steps. `gemm` 0.19's own kernel for the
//! same CPU (64 × 6 on the transposed product) blocks `k` by 512, which reloads the result's
//! tile four times at `k` = 2048: beside it, in one process alternating the two (2 threads,
//! 20 rounds, an AMD Zen 5 host), this product ran 1.06–1.07× as fast at 1024³ and 2048³,
//! 1.06–1.12× on W6's layers (256 × 784 × 1024, 256 × 1024 × 1024) and level (0.97–1.03×)
//! at 256³, 512³ and 4096³.

use std::arch::x86_64::{
    __mmask16, _MM_HINT_T0, _mm_prefetch, _mm512_add_ps, _mm512_fmadd_ps, _mm512_loadu_ps,
    _mm512_mask_storeu_ps, _mm512_maskz_loadu_ps, _mm512_set1_ps, _mm512_setzero_ps,
};
use std::sync::OnceLock;

use crate::tensor::pool;

/// Registers of 16 lanes across one tile.
const TILE_REGISTERS: usize = 4;
/// Columns of the result one tile computes (and of one packed panel of the right operand).
const TILE_COLS: usize = 16 * TILE_REGISTERS;
/// Rows of the result one tile computes.
const TILE_ROWS: usize = 6;
/// The deepest block of `k` one pass over the result takes.
const MAX_DEPTH: usize = 2048;
/// Values of the right operand packed at a time (`kc` × the block's columns), sized to stay in
/// a core's L2 while every row of the left operand passes it.
const RHS_BLOCK_VALUES: usize = 128 * 1024;

thread_local! {
    /// Each thread's buffer for the packed right operand, kept between products (at most
    /// `MAX_DEPTH` × 64 or [`RHS_BLOCK_VALUES`] values, 512 KiB): a fresh one per product cost
    /// its allocation and zeroing, a few percent of a 256³ product.
    static RHS_SCRATCH: std::cell::Cell<Vec<f32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Whether this CPU runs the kernel (AVX-512F), detected once.
pub(super) fn runs_here() -> bool {
    static AVX512: OnceLock<bool> = OnceLock::new();
    *AVX512.get_or_init(|| std::arch::is_x86_feature_detected!("avx512f"))
}

/// Multiply-adds (m·k·n) below which a product stays `gemm`'s: W1's n = 256 (two threads'
/// blocks of 256 × 256 × 128) ran 1–2 % faster on `gemm`'s kernel than on this one (two pairs
/// of alternated runs of 40 on a Zen 5 host), where the packing of the right operand weighs
/// most against the few tiles that use it.
const MIN_WORK: usize = 1 << 24;

/// Whether an `m × k · k × n` product is one this kernel takes: at least a tile's width of
/// columns, enough rows and depth to fill the tiles (the thin ones, such as `n` = 10 logits,
/// are `gemm`'s), and at least [`MIN_WORK`].
pub(super) fn suits(m: usize, k: usize, n: usize) -> bool {
    m >= 16 && k >= 64 && n >= TILE_COLS && m.saturating_mul(k).saturating_mul(n) >= MIN_WORK
}

/// `dst (m × n, row stride dst_rs, unit column stride) = lhs (m × k) · rhs (k × n)`, on the
/// calling thread; the operands may have any non-negative strides.
///
/// A left operand with unit column stride is read in place; another (a transposed view, as in
/// a weight gradient `Xᵀ·dY`) is packed one block of `k` at a time, 6 rows side by side.
///
/// # Safety
/// [`runs_here`] must hold; every element the strides reach from the three pointers must be
/// valid, and no other thread may access the destination's elements meanwhile.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn product(
    m: usize,
    k: usize,
    n: usize,
    lhs: *const f32,
    lhs_strides: [isize; 2],
    rhs: *const f32,
    rhs_strides: [isize; 2],
    dst: *mut f32,
    dst_rs: usize,
) {
    if m == 0 || n == 0 || k == 0 {
        debug_assert!(
            k > 0 || m == 0 || n == 0,
            "the caller zeroes a product with k = 0"
        );
        return;
    }
    let depth = k.div_ceil(k.div_ceil(MAX_DEPTH));
    let block_cols = (RHS_BLOCK_VALUES / depth / TILE_COLS)
        .max(1)
        .min(n.div_ceil(TILE_COLS))
        * TILE_COLS;
    let mut packed_rhs = RHS_SCRATCH.take();
    if packed_rhs.len() < depth * block_cols {
        packed_rhs = vec![0.0; depth * block_cols];
    }
    let in_place = lhs_strides[1] == 1;
    let mut packed_lhs = if in_place {
        Vec::new()
    } else {
        pool::for_overwrite::<f32>(m.next_multiple_of(TILE_ROWS) * depth)
    };
    for first_k in (0..k).step_by(depth) {
        let kc = depth.min(k - first_k);
        let lhs_block = lhs.wrapping_offset(first_k as isize * lhs_strides[1]);
        if !in_place {
            // SAFETY: rows 0..m, columns first_k..first_k + kc lie inside lhs.
            unsafe { pack_lhs(m, kc, lhs_block, lhs_strides, &mut packed_lhs) };
        }
        // Where tile row `first_row`'s values for this block of k start, and the strides
        // from there to the next row and the next step.
        let tile_lhs = |first_row: usize| -> (*const f32, usize, usize) {
            if in_place {
                let at = lhs_block.wrapping_add(first_row * lhs_strides[0] as usize);
                (at, lhs_strides[0] as usize, 1)
            } else {
                (packed_lhs[first_row * kc..].as_ptr(), 1, TILE_ROWS)
            }
        };
        for first_col in (0..n).step_by(block_cols) {
            let cols = block_cols.min(n - first_col);
            // SAFETY: the block lies inside rhs (the caller's contract); `packed_rhs` holds
            // kc × cols rounded up to whole panels.
            unsafe {
                let block = rhs
                    .offset(first_k as isize * rhs_strides[0])
                    .offset(first_col as isize * rhs_strides[1]);
                pack_rhs(kc, cols, block, rhs_strides, &mut packed_rhs);
            }
            for first_row in (0..m).step_by(TILE_ROWS) {
                let rows = TILE_ROWS.min(m - first_row);
                let (lhs, lhs_rs, lhs_cs) = tile_lhs(first_row);
                for panel in 0..cols.div_ceil(TILE_COLS) {
                    let col = panel * TILE_COLS;
                    let tile = Tile {
                        kc,
                        lhs,
                        lhs_rs,
                        lhs_cs,
                        rhs: packed_rhs[panel * kc * TILE_COLS..].as_ptr(),
                        dst: dst.wrapping_add(first_row * dst_rs + first_col + col),
                        dst_rs,
                        masks: column_masks(cols - col),
                        accumulate: first_k > 0,
                    };
                    // SAFETY: the tile's rows and columns lie inside the product; the packed
                    // panel holds kc × 64 values, the left operand kc values per row.
                    unsafe { tile.run(rows) }
                }
            }
        }
    }
    RHS_SCRATCH.set(packed_rhs);
    if !in_place {
        pool::give_back(packed_lhs);
    }
}

/// Packs the `m × kc` block of `lhs` at `lhs` (strides `strides`) 6 rows at a time: rows
/// `6t..6t + 6` take `out[6t·kc..]`, step `q` of row `6t + r` at `6t·kc + 6q + r`.
///
/// # Safety
/// The block's elements must be valid to read.
unsafe fn pack_lhs(m: usize, kc: usize, lhs: *const f32, strides: [isize; 2], out: &mut [f32]) {
    for first_row in (0..m).step_by(TILE_ROWS) {
        let rows = TILE_ROWS.min(m - first_row);
        let panel = &mut out[first_row * kc..(first_row + TILE_ROWS) * kc];
        for (q, step) in panel.chunks_exact_mut(TILE_ROWS).enumerate() {
            for (r, value) in step[..rows].iter_mut().enumerate() {
                let at = (first_row + r) as isize * strides[0] + q as isize * strides[1];
                // SAFETY: row first_row + r < m, column q < kc.
                *value = unsafe { *lhs.offset(at) };
            }
        }
    }
}

/// Packs `rhs`'s `kc × cols` block (strides `strides`) into panels of [`TILE_COLS`] columns:
/// panel `p` holds row `q`'s columns `64p..64p + 64` at `(p · kc + q) · 64`, zero past `cols`.
///
/// # Safety
/// The block's elements must be valid to read.
unsafe fn pack_rhs(kc: usize, cols: usize, rhs: *const f32, strides: [isize; 2], out: &mut [f32]) {
    for panel in 0..cols.div_ceil(TILE_COLS) {
        let col = panel * TILE_COLS;
        let width = TILE_COLS.min(cols - col);
        let out = &mut out[panel * kc * TILE_COLS..(panel + 1) * kc * TILE_COLS];
        for (q, row) in out.chunks_exact_mut(TILE_COLS).enumerate() {
            // SAFETY: row q's columns col..col + width lie in the block.
            let src = unsafe { rhs.offset(q as isize * strides[0] + col as isize * strides[1]) };
            if strides[1] == 1 {
                // SAFETY: as above, contiguous.
                row[..width].copy_from_slice(unsafe { std::slice::from_raw_parts(src, width) });
            } else {
                for (j, value) in row[..width].iter_mut().enumerate() {
                    // SAFETY: as above.
                    *value = unsafe { *src.offset(j as isize * strides[1]) };
                }
            }
            row[width..].fill(0.0);
        }
    }
}

/// The lanes of each of a tile's registers that lie inside the result, for a tile with `cols`
/// columns left (all of them past 64).
fn column_masks(cols: usize) -> [__mmask16; TILE_REGISTERS] {
    std::array::from_fn(|r| {
        let lanes = cols.saturating_sub(16 * r).min(16);
        ((1u32 << lanes) - 1) as __mmask16
    })
}

/// One tile's product: up to 6 rows × 64 columns of the result from `kc` steps.
struct Tile {
    kc: usize,
    /// The tile's first row of the left operand, at its first column of the block, and the
    /// strides to the next row and the next step of `k` (the operand's own, or 1 and 6 packed).
    lhs: *const f32,
    lhs_rs: usize,
    lhs_cs: usize,
    /// The packed panel: `kc` rows of 64 values.
    rhs: *const f32,
    /// The tile's first element of the result.
    dst: *mut f32,
    dst_rs: usize,
    masks: [__mmask16; TILE_REGISTERS],
    /// Adds to the result (a later block of `k`) rather than overwriting it.
    accumulate: bool,
}

impl Tile {
    /// Runs the tile on its first `rows` rows (1–6).
    ///
    /// # Safety
    /// AVX-512F must run here; the tile's elements must be valid (see [`product`]).
    unsafe fn run(&self, rows: usize) {
        // SAFETY: the caller's contract, for every row count.
        unsafe {
            match rows {
                6 => self.run_rows::<6>(),
                5 => self.run_rows::<5>(),
                4 => self.run_rows::<4>(),
                3 => self.run_rows::<3>(),
                2 => self.run_rows::<2>(),
                1 => self.run_rows::<1>(),
                _ => unreachable!("a tile has 1 to {TILE_ROWS} rows, not {rows}"),
            }
        }
    }

    /// The tile with `R` rows, its sums in registers.
    ///
    /// # Safety
    /// As [`Tile::run`].
    #[target_feature(enable = "avx512f")]
    unsafe fn run_rows<const R: usize>(&self) {
        let mut sums = [[_mm512_setzero_ps(); TILE_REGISTERS]; R];
        let rows: [*const f32; R] = std::array::from_fn(|r| self.lhs.wrapping_add(r * self.lhs_rs));
        // The result's tile is read (or written) after the kc steps: fetch it now.
        for r in 0..R {
            let row = self.dst.wrapping_add(r * self.dst_rs);
            _mm_prefetch::<_MM_HINT_T0>(row.cast());
            _mm_prefetch::<_MM_HINT_T0>(row.wrapping_add(32).cast());
        }
        let mut rhs = self.rhs;
        for q in 0..self.kc {
            // SAFETY (loads): the packed panel has kc rows of 64 values; row r of the left
            // operand has kc values from `rows[r]`.
            unsafe {
                let mut values = [_mm512_setzero_ps(); TILE_REGISTERS];
                for (v, value) in values.iter_mut().enumerate() {
                    *value = _mm512_loadu_ps(rhs.add(16 * v));
                }
                for r in 0..R {
                    let a = _mm512_set1_ps(*rows[r].add(q * self.lhs_cs));
                    for v in 0..TILE_REGISTERS {
                        sums[r][v] = _mm512_fmadd_ps(a, values[v], sums[r][v]);
                    }
                }
                rhs = rhs.add(TILE_COLS);
            }
        }
        for (r, row_sums) in sums.iter().enumerate() {
            for (v, &sum) in row_sums.iter().enumerate() {
                // SAFETY: the masked lanes lie inside the result's row.
                unsafe {
                    let at = self.dst.add(r * self.dst_rs + 16 * v);
                    let value = if self.accumulate {
                        _mm512_add_ps(_mm512_maskz_loadu_ps(self.masks[v], at), sum)
                    } else {
                        sum
                    };
                    _mm512_mask_storeu_ps(at, self.masks[v], value);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `lhs · rhs` in f64 for the given strides, as a row-major `m × n` result.
    fn reference(
        [m, k, n]: [usize; 3],
        lhs: &[f32],
        lhs_strides: [usize; 2],
        rhs: &[f32],
        rhs_strides: [usize; 2],
    ) -> Vec<f64> {
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                out[i * n + j] = (0..k)
                    .map(|p| {
                        lhs[i * lhs_strides[0] + p * lhs_strides[1]] as f64
                            * rhs[p * rhs_strides[0] + j * rhs_strides[1]] as f64
                    })
                    .sum();
            }
        }
        out
    }

    fn values(len: usize, seed: usize) -> Vec<f32> {
        (0..len)
            .map(|i| ((i * 7919 + seed * 104729) % 2003) as f32 / 1001.0 - 1.0)
            .collect()
    }

    /// Every row count of the last tile, partial panels, two blocks of `k`, row-major (with a
    /// row stride past `k`) and column-major operands on both sides, and a destination wider
    /// than the product (a thread's block of columns), against f64.
    #[test]
    fn matches_f64_reference() {
        if !runs_here() {
            eprintln!("skipped: this CPU has no AVX-512F (the product is gemm's there)");
            return;
        }
        for (m, k, n) in [
            (16, 64, 64),
            (17, 65, 65),
            (23, 100, 130),
            (31, 300, 200),
            (20, MAX_DEPTH + 3, 70),
            (40, 64, 300),
        ] {
            for (lhs_column_major, rhs_column_major) in
                [(false, false), (false, true), (true, false), (true, true)]
            {
                let lhs_strides = if lhs_column_major {
                    [1, m + 2]
                } else {
                    [k + 3, 1]
                };
                let lhs = values((m + 2) * (k + 3), 1);
                let rhs = values(k * n, 2);
                let rhs_strides = if rhs_column_major { [1, k] } else { [n, 1] };
                let dst_rs = n + 5;
                let mut dst = vec![f32::NAN; m * dst_rs];
                // SAFETY: the buffers cover the strides; AVX-512F runs here.
                unsafe {
                    product(
                        m,
                        k,
                        n,
                        lhs.as_ptr(),
                        lhs_strides.map(|s| s as isize),
                        rhs.as_ptr(),
                        rhs_strides.map(|s| s as isize),
                        dst.as_mut_ptr(),
                        dst_rs,
                    );
                }
                let expected = reference([m, k, n], &lhs, lhs_strides, &rhs, rhs_strides);
                let case = format!(
                    "{m}×{k}×{n} (lhs column-major {lhs_column_major}, \
                     rhs column-major {rhs_column_major})"
                );
                for i in 0..m {
                    for j in 0..n {
                        let (got, want) = (dst[i * dst_rs + j] as f64, expected[i * n + j]);
                        assert!(
                            (got - want).abs() <= 1e-5 * k as f64,
                            "{case} at [{i}, {j}]: {got} against {want}"
                        );
                    }
                    assert!(
                        dst[i * dst_rs + n..(i + 1) * dst_rs]
                            .iter()
                            .all(|v| v.is_nan()),
                        "{case}: row {i} written past column {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn masks_cover_the_columns_left() {
        assert_eq!(column_masks(64), [0xffff; 4]);
        assert_eq!(column_masks(100), [0xffff; 4]);
        assert_eq!(column_masks(17), [0xffff, 0x1, 0, 0]);
        assert_eq!(column_masks(40), [0xffff, 0xffff, 0xff, 0]);
    }

    #[test]
    fn suits_wide_products() {
        assert!(suits(256, 1024, 1024));
        assert!(!suits(256, 1024, 10), "thinner than a tile");
        assert!(!suits(8, 1024, 1024), "too few rows");
        assert!(!suits(256, 16, 1024), "too shallow");
        assert!(!suits(256, 256, 128), "too little work");
    }
}
