//! The register tiles of the direct convolution, one per instruction set: `rows` output channels
//! × `vectors` vectors of consecutive grid points, summed over every tap, the bias already in
//! the accumulators, then stored through the masks of [`super::Stores`]. Per tap a tile runs
//! one unaligned load of the image per vector and one broadcast weight per row.
//!
//! AVX-512 holds 8 rows × 3 vectors of 16 lanes (24 accumulators of 32 registers). AVX2 holds
//! 6 rows × 2 vectors of 8 lanes: 12 accumulators, 2 inputs and a broadcast weight, 15 of 16
//! registers. (4 rows × 3 vectors needs all 16, and LLVM then spilled an accumulator on every
//! tap: 73 GFLOP/s at W5 on a Zen 2 host.)

use super::Stores;
use crate::kernels::isa::Isa;

/// The most vectors of grid points in one register tile.
pub(super) const NV: usize = 3;
/// The most output channels a tile holds (the bias array's length).
pub(super) const MAX_ROWS: usize = 8;
/// The most grid points a tile covers (the read slack past the padded image).
pub(super) const MAX_POINTS: usize = 16 * NV;

/// The direct convolution's register tile on each instruction set.
impl Isa {
    /// Output channels per tile (and per packed weight panel).
    pub(super) const fn tile_rows(self) -> usize {
        match self {
            Isa::Avx512 => 8,
            Isa::Avx2 => 6,
        }
    }

    /// Vectors of grid points per tile (at most [`NV`]).
    pub(super) const fn tile_vectors(self) -> usize {
        match self {
            Isa::Avx512 => 3,
            Isa::Avx2 => 2,
        }
    }

    /// `f32` lanes per vector.
    pub(super) const fn tile_lanes(self) -> usize {
        match self {
            Isa::Avx512 => 16,
            Isa::Avx2 => 8,
        }
    }

    /// Grid points per tile.
    pub(super) const fn tile_points(self) -> usize {
        self.tile_lanes() * self.tile_vectors()
    }

    /// Runs the tile for `rows` (1 to [`Isa::tile_rows`]) output channels.
    ///
    /// # Safety
    /// The CPU runs this tile ([`Isa::available`]); `args` as [`TileArgs`] states.
    pub(super) unsafe fn run_tile(self, rows: usize, args: TileArgs<'_>) {
        assert!(
            (1..=self.tile_rows()).contains(&rows),
            "conv_direct: an {self:?} tile holds 1 to {} rows, given {rows}",
            self.tile_rows()
        );
        macro_rules! by_rows {
            ($kernel:ident, $($r:literal)*) => {
                match rows {
                    // SAFETY: the caller's.
                    $($r => unsafe { $kernel::<$r>(args) },)*
                    _ => unreachable!(),
                }
            };
        }
        match self {
            Isa::Avx512 => by_rows!(avx512_tile, 1 2 3 4 5 6 7 8),
            Isa::Avx2 => by_rows!(avx2_tile, 1 2 3 4 5 6),
        }
    }
}

/// The operands of one register tile.
///
/// `panel` holds `k · tile_rows()` weights (`[k][tile_rows()]`); `src + offsets[k] + tile_points()` stays
/// readable for every tap `k`; every store of `stores` (row `r` at `out + r·plane`) is writable.
#[derive(Clone, Copy)]
pub(super) struct TileArgs<'a> {
    /// The packed weight panel.
    pub panel: *const f32,
    /// The padded image at the tile's first grid point.
    pub src: *const f32,
    /// Each tap's offset into the padded image.
    pub offsets: &'a [isize],
    /// The tile's bias, per row.
    pub bias: [f32; MAX_ROWS],
    /// The first row's output plane.
    pub out: *mut f32,
    /// The length of an output plane.
    pub plane: usize,
    /// Each vector's stores (the first [`Isa::tile_vectors`]).
    pub stores: &'a [Stores; NV],
}

/// `ROWS` output channels × 48 grid points: `Σ_k panel[k][r] · src[offset_k + lane]`, plus bias.
///
/// # Safety
/// AVX-512F; `args` as [`TileArgs`] states, with 8-wide panels.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn avx512_tile<const ROWS: usize>(args: TileArgs<'_>) {
    use core::arch::x86_64::*;
    const MR: usize = Isa::Avx512.tile_rows();
    let mut acc = [[_mm512_setzero_ps(); NV]; ROWS];
    for (r, row) in acc.iter_mut().enumerate() {
        *row = [_mm512_set1_ps(args.bias[r]); NV];
    }
    for (k, &off) in args.offsets.iter().enumerate() {
        // SAFETY: the caller's bounds.
        unsafe {
            let p = args.src.offset(off);
            let b: [__m512; NV] = core::array::from_fn(|v| _mm512_loadu_ps(p.add(16 * v)));
            let a = args.panel.add(k * MR);
            for (r, row) in acc.iter_mut().enumerate() {
                let ar = _mm512_set1_ps(*a.add(r));
                for v in 0..NV {
                    row[v] = _mm512_fmadd_ps(ar, b[v], row[v]);
                }
            }
        }
    }
    for (r, row) in acc.iter().enumerate() {
        let out_r = args.out.wrapping_add(r * args.plane);
        for (v, s) in args.stores.iter().enumerate() {
            for &(mask, base) in &s.items[..s.len] {
                // SAFETY: masked-off lanes are not accessed; the enabled ones are outputs.
                unsafe { _mm512_mask_storeu_ps(out_r.wrapping_offset(base), mask, row[v]) };
            }
        }
    }
}

/// `ROWS` output channels × 16 grid points, as [`avx512_tile`] with two 8-lane vectors.
///
/// # Safety
/// AVX2 and FMA; `args` as [`TileArgs`] states, with 6-wide panels.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn avx2_tile<const ROWS: usize>(args: TileArgs<'_>) {
    use core::arch::x86_64::*;
    const MR: usize = Isa::Avx2.tile_rows();
    const NV: usize = Isa::Avx2.tile_vectors();
    let mut acc = [[_mm256_setzero_ps(); NV]; ROWS];
    for (r, row) in acc.iter_mut().enumerate() {
        *row = [_mm256_set1_ps(args.bias[r]); NV];
    }
    for (k, &off) in args.offsets.iter().enumerate() {
        // SAFETY: the caller's bounds.
        unsafe {
            let p = args.src.offset(off);
            let b: [__m256; NV] = core::array::from_fn(|v| _mm256_loadu_ps(p.add(8 * v)));
            let a = args.panel.add(k * MR);
            for (r, row) in acc.iter_mut().enumerate() {
                let ar = _mm256_broadcast_ss(&*a.add(r));
                for v in 0..NV {
                    row[v] = _mm256_fmadd_ps(ar, b[v], row[v]);
                }
            }
        }
    }
    let bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    for (r, row) in acc.iter().enumerate() {
        let out_r = args.out.wrapping_add(r * args.plane);
        for (v, s) in args.stores[..NV].iter().enumerate() {
            for &(mask, base) in &s.items[..s.len] {
                let p = out_r.wrapping_offset(base);
                // SAFETY: a full mask stores 8 outputs; otherwise masked-off lanes are not
                // accessed and the enabled ones are outputs.
                unsafe {
                    if mask == 0xff {
                        _mm256_storeu_ps(p, row[v]);
                    } else {
                        let m = _mm256_set1_epi32(i32::from(mask));
                        let m = _mm256_cmpeq_epi32(_mm256_and_si256(m, bits), bits);
                        _mm256_maskstore_ps(p, m, row[v]);
                    }
                }
            }
        }
    }
}

/// Never called: no tile is [`Isa::available`] off x86-64.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn avx512_tile<const ROWS: usize>(_: TileArgs<'_>) {
    unreachable!("conv_direct: AVX-512 tile off x86-64")
}

/// Never called: no tile is [`Isa::available`] off x86-64.
#[cfg(not(target_arch = "x86_64"))]
unsafe fn avx2_tile<const ROWS: usize>(_: TileArgs<'_>) {
    unreachable!("conv_direct: AVX2 tile off x86-64")
}
