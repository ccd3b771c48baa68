//! Winograd F(4×4, 3×3) convolution for `f32` on AVX-512 or AVX2: four times fewer
//! multiply-adds than the direct kernel for the 3×3, stride-1 layers of image networks.
//!
//! The output is cut into 4×4 tiles, each computed from the 6×6 input patch under it. With the
//! transforms `V = Bᵀ·d·B` of a patch `d` and `U = G·g·Gᵀ` of a 3×3 filter `g`, the 36
//! products `M = U ⊙ V` summed over input channels give the tile as `Y = Aᵀ·M·A` (Lavin & Gray,
//! "Fast Algorithms for Convolutional Neural Networks", 2016; the points 0, ±1, ±2 and ∞).
//! Summed over channels, each of the 36 positions `ξ` of the 6×6 transform is a matrix product
//! `M_ξ [oc, tiles] = U_ξ [oc, c] · V_ξ [c, tiles]`: 36 products of `c` multiply-adds per
//! 16 outputs, against 144 for the direct ones.
//!
//! Tiles are taken in blocks of [`block_tiles`] (a few dozen), small enough that a block's `V`
//! and `M` stay in or near the core's L2 cache (see [`BLOCK_BYTES`]): each block's input transform, its 36 products (one
//! 8 × 48 register tile over `c` on AVX-512, four 2 × 48 ones on AVX2) and its output transform
//! run on one thread, blocks in parallel. Both transforms work on 16 neighbouring tiles of a
//! tile row at a time: a patch's six columns are every fourth lane of two overlapping windows
//! of four loads (masked, so the padding is never materialised), taken apart by two rounds of
//! even/odd shuffles. The code is written once over 16-lane vectors ([`super::simd16`]) and
//! compiled for AVX-512 (one register per vector) and AVX2 (two).
//!
//! The transforms' factors (up to 8, and `G`'s sixths) round more than a direct sum: with
//! 16–256 input channels the largest errors measured were 0.7–3e-5 of the output's largest
//! magnitude, about ten times the direct kernel's (0.8–3.3e-6); the tests hold them to 2e-4
//! relative to `1 + |expected|`, the direct kernels' to 1e-5. Against F(2×2, 3×3), with 2.25 times fewer
//! multiply-adds than direct, F(4×4) took W5 from 8.6–9.8 to 6.3–6.7 ms on a Zen 2 host (AVX2;
//! alternated runs within a slow phase of the host).

use super::common::PARALLEL_WORK;
use super::conv_direct::SendPtr;
use super::im2col::{ConvArgs, Geom};
use super::simd16::{Avx2, Avx512, F32x16, Isa};
use crate::parallel;
use std::cell::RefCell;

/// Output channels in one register tile of the products.
const MR: usize = 8;
/// Tiles in one register tile of the products (three 16-lane vectors).
const NR: usize = 48;
/// Outputs along each side of a tile.
const TILE: usize = 4;
/// Inputs along each side of a tile's patch (and of its transform).
const PATCH: usize = TILE + 2;
/// Positions `ξ` of a transformed tile: one matrix product each.
const XI: usize = PATCH * PATCH;
/// The floats between the last row of one `ξ` of `V` or `M` and the next `ξ`: one cache line,
/// so the 16 values of a tile do not all fall in one L1 set, and 16 lanes, so that the
/// transforms' whole 16-lane stores and loads from any column below `tb` stay inside the
/// buffers (see `Plan::block`).
const SKEW: usize = 16;

/// Bytes of `V` and `M` one block may keep (half of a Zen 4 or Sapphire Rapids L2). With 64
/// channels each way the smallest block (48 tiles) already takes 884 KiB; blocks twice that
/// measured the same on a Zen 2 host (512 KiB of L2).
const BLOCK_BYTES: usize = 512 << 10;

/// The fewest output tiles (over the whole batch) the Winograd kernel takes: four blocks of the
/// smallest size.
///
/// With fewer, the blocks' products run over whole 48-tile register tiles for a handful of
/// tiles, and every block streams all of `U` (36·c·oc floats) through the cache; on a Zen 2
/// host (AVX2) the direct kernel took `[1, 512, 7, 7]` (4 tiles) in 2.7–2.8 ms against 45–73 ms
/// here, `[8, 256, 14, 14]` (128 tiles) in 13.3–14.4 ms against 14.2–15.3, `[1, 128, 28, 28]`
/// (49 tiles) in 1.8–1.9 ms against 2.6–4.2; from `[1, 64, 56, 56]` (196 tiles: 1.2–1.6 ms
/// against 1.85) Winograd is ahead (64–512 channels each way, 3×3, padding 1).
pub(crate) const MIN_TILES: usize = 4 * NR;

/// Whether the Winograd kernel takes this convolution of a batch of `batch` images: a 2-d 3×3
/// kernel, stride and dilation 1, one group, an AVX-512 or AVX2 CPU, at least 16 input and
/// output channels (with fewer, the transforms cost more than the multiply-adds they save), and
/// at least [`MIN_TILES`] output tiles.
pub(crate) fn applies(
    batch: usize,
    w_shape: [usize; 5],
    g: &Geom,
    xs: [usize; 3],
    os: [usize; 3],
) -> bool {
    let [oc, ic, kd, kh, kw] = w_shape;
    // On a Zen 2 host, W5 ran at 172–175 "effective" GFLOP/s here against 159–162 in
    // `conv_direct`'s AVX2 tile when this kernel was F(2×2) and its AVX2 build new; with
    // F(4×4), 300–400.
    Isa::detect().is_some()
        && g.stride == [1, 1, 1]
        && g.dilation == [1, 1, 1]
        && g.groups == 1
        && [kd, kh, kw] == [1, 3, 3]
        && xs[0] == 1
        && g.padding[0] == 0
        && oc >= 16
        && ic >= 16
        && os[1] >= 2
        && os[2] >= 2
        && !xs.contains(&0)
        && batch * os[1].div_ceil(TILE) * os[2].div_ceil(TILE) >= MIN_TILES
}

/// The shapes of one convolution and its tiling.
#[derive(Debug, Clone, Copy)]
struct Plan {
    /// Input channels.
    c: usize,
    /// Output channels, and rounded up to the register tile.
    oc: usize,
    ocp: usize,
    /// Input and output plane extents.
    h: usize,
    w: usize,
    oh: usize,
    ow: usize,
    /// Padding (top and left; the bottom and right follow from the output extents).
    ph: usize,
    pw: usize,
    /// Tile rows and columns per image.
    th: usize,
    tw: usize,
    /// Tiles per block (a multiple of [`NR`]).
    tb: usize,
}

impl Plan {
    fn tiles_per_image(&self) -> usize {
        self.th * self.tw
    }

    /// Floats from one `ξ` of a block's `V` `[36][c][tb]` to the next: [`SKEW`] more than its
    /// rows.
    fn v_stride(&self) -> usize {
        self.c * self.tb + SKEW
    }

    /// Floats from one `ξ` of a block's `M` `[36][ocp][tb]` to the next (skewed likewise).
    fn m_stride(&self) -> usize {
        self.ocp * self.tb + SKEW
    }
}

/// Tiles per block: as many whole register tiles as keep `V` and `M` within [`BLOCK_BYTES`].
fn block_tiles(c: usize, ocp: usize) -> usize {
    let per_tile = XI * (c + ocp) * 4;
    (BLOCK_BYTES / per_tile / NR).max(1) * NR
}

/// The convolution `args` (`x` `[b, c, 1, h, w]` with the 3×3 filters `w` `[oc, c, 1, 3, 3]`)
/// into `out` `[b, oc, 1, oh, ow]`, adding the bias per output channel, with the widest
/// instruction set of this CPU. Callers check [`applies`].
pub(crate) fn conv_f32(args: &ConvArgs<f32>, out: &mut [f32]) {
    let isa = Isa::detect().expect("conv_winograd: expected an AVX-512 or AVX2 CPU");
    conv_f32_with(isa, args, out);
}

/// [`conv_f32`] with the instruction set `isa`, which this CPU must run.
fn conv_f32_with(isa: Isa, args: &ConvArgs<f32>, out: &mut [f32]) {
    let ConvArgs { x, w, bias, g, .. } = *args;
    let (x_shape, w_shape, os) = (args.x_shape, args.w_shape, args.os);
    let [batch, c, _, h, wi] = x_shape;
    let oc = w_shape[0];
    let [_, oh, ow] = os;
    assert_eq!(
        out.len(),
        batch * oc * oh * ow,
        "conv_winograd: output length"
    );
    let ocp = oc.div_ceil(MR) * MR;
    let plan = Plan {
        c,
        oc,
        ocp,
        h,
        w: wi,
        oh,
        ow,
        ph: g.padding[1],
        pw: g.padding[2],
        th: oh.div_ceil(TILE),
        tw: ow.div_ceil(TILE),
        tb: block_tiles(c, ocp),
    };
    let u = transform_filters(w, oc, c, ocp);
    let total = batch * plan.tiles_per_image();
    let blocks = total.div_ceil(plan.tb);
    let dst = SendPtr(out.as_mut_ptr());
    let run = |blk: usize| {
        let (mut v, mut m) = (V_SCRATCH.take(), M_SCRATCH.take());
        v.resize(v.len().max(XI * plan.v_stride()), 0.0);
        m.resize(m.len().max(XI * plan.m_stride()), 0.0);
        let t0 = blk * plan.tb;
        let tiles = t0..(t0 + plan.tb).min(total);
        // SAFETY: the CPU runs `isa` (the caller's); blocks write disjoint output tiles.
        unsafe {
            match isa {
                Isa::Avx512 => plan.block_avx512(x, &u, bias, tiles, &mut v, &mut m, dst),
                Isa::Avx2 => plan.block_avx2(x, &u, bias, tiles, &mut v, &mut m, dst),
            }
        };
        V_SCRATCH.set(v);
        M_SCRATCH.set(m);
    };
    let work = batch * oc * c * 9 * oh * ow;
    if work >= PARALLEL_WORK && blocks > 1 {
        parallel::for_each(blocks, run);
    } else {
        (0..blocks).for_each(run);
    }
}

thread_local! {
    /// Each thread's `V` and `M` block buffers, kept between calls; taken, not borrowed, so a
    /// convolution that rayon runs on a waiting thread gets buffers of its own.
    static V_SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
    static M_SCRATCH: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `G` of F(4×4, 3×3): the filter's values at the points 0, ±1, ±2 and ∞, scaled by the
/// inverse of `Bᵀ`'s and `Aᵀ`'s interpolation weights.
const G: [[f64; 3]; PATCH] = [
    [1.0 / 4.0, 0.0, 0.0],
    [-1.0 / 6.0, -1.0 / 6.0, -1.0 / 6.0],
    [-1.0 / 6.0, 1.0 / 6.0, -1.0 / 6.0],
    [1.0 / 24.0, 1.0 / 12.0, 1.0 / 6.0],
    [1.0 / 24.0, -1.0 / 12.0, 1.0 / 6.0],
    [0.0, 0.0, 1.0],
];

/// `U = G·g·Gᵀ` of every filter (computed in `f64`, rounded once), packed as
/// `[36][ocp/8][c][8]` panels (zero past `oc`).
///
/// The eight filters of a panel's row go through the transform together, as lanes of
/// `[f64; 8]` arrays the compiler vectorizes, and their results are stored as whole rows.
fn transform_filters(w: &[f32], oc: usize, c: usize, ocp: usize) -> Vec<f32> {
    let mut u = vec![0.0f32; XI * ocp * c];
    let dst = SendPtr(u.as_mut_ptr());
    let panels = |ob: usize| {
        // The whole pointer, not its field (which a closure would capture alone).
        let panel_dst = dst;
        let lanes = MR.min(oc - ob * MR);
        for ci in 0..c {
            // f[tap][lane]: the panel's eight filters, zero past `oc`.
            let mut f = [[0.0f64; MR]; 9];
            for lane in 0..lanes {
                let taps = &w[((ob * MR + lane) * c + ci) * 9..][..9];
                for (tap, &value) in taps.iter().enumerate() {
                    f[tap][lane] = f64::from(value);
                }
            }
            // gg[i][j] = Σ_k G[i][k] · g[k][j], 6×3 per lane.
            let mut gg = [[[0.0f64; MR]; 3]; PATCH];
            for (row, gi) in gg.iter_mut().zip(&G) {
                for (j, out) in row.iter_mut().enumerate() {
                    for (k, &gik) in gi.iter().enumerate() {
                        for (o, &x) in out.iter_mut().zip(&f[k * 3 + j]) {
                            *o += gik * x;
                        }
                    }
                }
            }
            for (i, row) in gg.iter().enumerate() {
                for (l, gl) in G.iter().enumerate() {
                    let mut value = [0.0f64; MR];
                    for (j, &glj) in gl.iter().enumerate() {
                        for (v, &x) in value.iter_mut().zip(&row[j]) {
                            *v += glj * x;
                        }
                    }
                    let xi = i * PATCH + l;
                    let at = ((xi * (ocp / MR) + ob) * c + ci) * MR;
                    for (lane, v) in value.into_iter().enumerate() {
                        // SAFETY: `at + lane` lies in `u` (ξ < 36, ob < ocp/8, ci < c), and
                        // only the task of panel `ob` writes it.
                        unsafe { *panel_dst.0.add(at + lane) = v as f32 };
                    }
                }
            }
        }
    };
    // About 70 µs on one core for 64 channels each way (4096 filters).
    if oc * c >= 64 * 64 {
        parallel::for_each(ocp / MR, panels);
    } else {
        (0..ocp / MR).for_each(panels);
    }
    u
}

/// A run of at most 16 neighbouring tiles of one tile row: image `b`, tile row `ty`, first tile
/// column `tx`, `n` tiles, at position `at` of the block.
#[derive(Debug, Clone, Copy)]
struct Run {
    b: usize,
    ty: usize,
    tx: usize,
    n: usize,
    at: usize,
}

impl Plan {
    /// The runs covering the tiles `range` (flat over images, tile rows, tile columns).
    fn runs(&self, range: core::ops::Range<usize>) -> impl Iterator<Item = Run> + '_ {
        let start = range.start;
        let mut t = start;
        core::iter::from_fn(move || {
            if t >= range.end {
                return None;
            }
            let (b, rem) = (t / self.tiles_per_image(), t % self.tiles_per_image());
            let (ty, tx) = (rem / self.tw, rem % self.tw);
            let n = 16.min(self.tw - tx).min(range.end - t);
            let run = Run {
                b,
                ty,
                tx,
                n,
                at: t - start,
            };
            t += n;
            Some(run)
        })
    }

    /// [`Plan::block`] compiled for AVX-512F.
    ///
    /// # Safety
    /// As [`Plan::block`], on a CPU with AVX-512F.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx512f")]
    unsafe fn block_avx512(
        &self,
        x: &[f32],
        u: &[f32],
        bias: Option<&[f32]>,
        range: core::ops::Range<usize>,
        v: &mut [f32],
        m: &mut [f32],
        out: SendPtr,
    ) {
        // SAFETY: the caller's.
        unsafe { self.block::<Avx512>(x, u, bias, range, v, m, out) }
    }

    /// [`Plan::block`] compiled for AVX2 with FMA.
    ///
    /// # Safety
    /// As [`Plan::block`], on a CPU with AVX2 and FMA.
    #[allow(clippy::too_many_arguments)]
    #[target_feature(enable = "avx2,fma")]
    unsafe fn block_avx2(
        &self,
        x: &[f32],
        u: &[f32],
        bias: Option<&[f32]>,
        range: core::ops::Range<usize>,
        v: &mut [f32],
        m: &mut [f32],
        out: SendPtr,
    ) {
        // SAFETY: the caller's.
        unsafe { self.block::<Avx2>(x, u, bias, range, v, m, out) }
    }

    /// Transforms, multiplies and transforms back the tiles `range` into `out`. The
    /// transforms take one channel at a time over all the block's runs, so the image and output
    /// planes are walked row after row.
    ///
    /// # Safety
    /// Runs inside a function compiled for `S`'s features; `v` and `m` hold 36 strides of
    /// values; no other thread writes these tiles' outputs.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    unsafe fn block<S: F32x16>(
        &self,
        x: &[f32],
        u: &[f32],
        bias: Option<&[f32]>,
        range: core::ops::Range<usize>,
        v: &mut [f32],
        m: &mut [f32],
        out: SendPtr,
    ) {
        let (c, tb, ocp) = (self.c, self.tb, self.ocp);
        let plane_in = self.h * self.w;
        assert!(
            v.len() >= XI * self.v_stride() && m.len() >= XI * self.m_stride(),
            "conv_winograd: block buffers too short"
        );
        for ci in 0..c {
            for run in self.runs(range.clone()) {
                let plane = &x[(run.b * c + ci) * plane_in..][..plane_in];
                // SAFETY: 16 lanes from `at < tb` stay within the [`SKEW`]. The lanes past
                // the run land on later tiles of this row, or on the first ones of the next
                // channel's row (`at + 16 > tb` only when the block has over 32 tiles), all
                // written afterwards, or on the columns past the block, which nothing reads
                // into an output.
                unsafe { self.input_run::<S>(plane, run, v.as_mut_ptr().add(ci * tb + run.at)) };
            }
        }
        let cols = range.len().div_ceil(NR) * NR;
        for xi in 0..XI {
            let v_xi = v[xi * self.v_stride()..].as_ptr();
            for ob in 0..ocp / MR {
                let panel = u[(xi * (ocp / MR) + ob) * c * MR..].as_ptr();
                let m_row = m[xi * self.m_stride() + ob * MR * tb..].as_mut_ptr();
                for t in (0..cols).step_by(NR) {
                    // SAFETY: `t + NR <= tb`; `v_xi` has `c` rows of `tb`, `m_row` 8 rows of
                    // `tb`, the panel `c · 8` values.
                    unsafe { S::product_tile(panel, v_xi.add(t), tb, c, m_row.add(t), tb) };
                }
            }
        }
        let plane_out = self.oh * self.ow;
        for co in 0..self.oc {
            let bias = bias.map_or(0.0, |b| b[co]);
            for run in self.runs(range.clone()) {
                let out_plane = out.0.wrapping_add((run.b * self.oc + co) * plane_out);
                let m_at = m[co * tb + run.at..].as_ptr();
                // SAFETY: the run's outputs lie in this plane, written by this block alone.
                unsafe { self.output_run::<S>(m_at, bias, out_plane, run) };
            }
        }
    }
}

/// Where the eight loads of a patch row start, from the run's first column: a window of four
/// at `c0` (a patch's columns 0–3 are its lanes 4t, 4t + 1, 4t + 2 and 4t + 3) and one at
/// `c0 + 4` (columns 4 and 5).
const PATCH_STARTS: [usize; 8] = [0, 16, 32, 48, 4, 20, 36, 52];

/// The 16-lane mask of `base + lane` lying in `0..len`.
fn lane_mask(base: isize, len: usize) -> u16 {
    let lo = (-base).clamp(0, 16) as u32;
    let hi = (len as isize - base).clamp(0, 16) as u32;
    if hi <= lo {
        0
    } else {
        let below = |n: u32| ((1u32 << n) - 1) as u16;
        below(hi) & !below(lo)
    }
}

impl Plan {
    /// Row `i` of the run's 6×6 patches in `plane`, as their columns 0–5 (16 tiles a vector),
    /// or zeros when the row lies in the padding. `c0` is the run's first column and `masks`
    /// the image's columns among the lanes of the eight loads.
    ///
    /// # Safety
    /// Runs inside a function compiled for `S`'s features.
    #[inline(always)]
    unsafe fn patch_row<S: F32x16>(
        &self,
        plane: &[f32],
        run: Run,
        i: usize,
        c0: isize,
        masks: &[u16; 8],
    ) -> [S::V; PATCH] {
        let r = (TILE * run.ty + i) as isize - self.ph as isize;
        if r < 0 || r as usize >= self.h {
            // SAFETY: the caller's features.
            return unsafe { [S::zero(); PATCH] };
        }
        let p = plane
            .as_ptr()
            .wrapping_add(r as usize * self.w)
            .wrapping_offset(c0);
        // SAFETY: the caller's features.
        let mut l = [unsafe { S::zero() }; 8];
        for (k, slot) in l.iter_mut().enumerate() {
            // SAFETY: masked-off lanes are not read; enabled ones are columns of row `r`.
            *slot = unsafe { S::load_masked(masks[k], p.wrapping_add(PATCH_STARTS[k])) };
        }
        // SAFETY: the caller's features. Two rounds of even/odd lanes take every fourth.
        unsafe {
            let ((e01, o01), (e23, o23)) = (S::even_odd(l[0], l[1]), S::even_odd(l[2], l[3]));
            let ((j0, j2), (j1, j3)) = (S::even_odd(e01, e23), S::even_odd(o01, o23));
            let ((f01, p01), (f23, p23)) = (S::even_odd(l[4], l[5]), S::even_odd(l[6], l[7]));
            let (j4, j5) = (S::even_odd(f01, f23).0, S::even_odd(p01, p23).0);
            [j0, j1, j2, j3, j4, j5]
        }
    }

    /// `V = Bᵀ·d·B` of the run's patches in one input channel `plane` `[h, w]`, stored at
    /// `v[ξ · v_stride + lane]`.
    ///
    /// # Safety
    /// Runs inside a function compiled for `S`'s features; `v` has room for 16 values at each
    /// of its 36 strides.
    #[inline(always)]
    unsafe fn input_run<S: F32x16>(&self, plane: &[f32], run: Run, v: *mut f32) {
        // Tile `j` of the run reads columns `c0 + 4j .. c0 + 4j + 6`.
        let c0 = (TILE * run.tx) as isize - self.pw as isize;
        let masks = PATCH_STARTS.map(|d| lane_mask(c0 + d as isize, self.w));
        let mut d = [[unsafe { S::zero() }; PATCH]; PATCH];
        for (i, row) in d.iter_mut().enumerate() {
            // SAFETY: the caller's features. (Each row built by a call, not zeroed first and
            // then filled: the zeroing was a `memset` per run.)
            *row = unsafe { self.patch_row::<S>(plane, run, i, c0, &masks) };
        }
        // `Bᵀ·e` of column `k` of the 6×6 vectors `m`. (A macro, not a closure: a closure
        // passed to `array::from_fn` is compiled without the caller's features, and on AVX2 its
        // vector additions became calls, 38 % of W5's samples.)
        macro_rules! column {
            ($m:ident, $k:expr) => {
                transform_b::<S>([
                    $m[0][$k], $m[1][$k], $m[2][$k], $m[3][$k], $m[4][$k], $m[5][$k],
                ])
            };
        }
        // t[k][i]: row i, column k of Bᵀ·d; v[i][j]: row i, column j of Bᵀ·d·B.
        // SAFETY: the caller's features.
        let t = unsafe {
            [
                column!(d, 0),
                column!(d, 1),
                column!(d, 2),
                column!(d, 3),
                column!(d, 4),
                column!(d, 5),
            ]
        };
        let stride = self.v_stride();
        // `i` picks the same column of every `t[k]`, not a row of `t`.
        #[allow(clippy::needless_range_loop)]
        for i in 0..PATCH {
            // SAFETY: the caller's features.
            let vi = unsafe { column!(t, i) };
            for (j, &value) in vi.iter().enumerate() {
                // SAFETY: the caller's room (whole stores: see `Plan::block`).
                unsafe { S::store(v.add((i * PATCH + j) * stride), value) };
            }
        }
    }

    /// `Y = Aᵀ·M·A + bias` of the run's tiles for one output channel, stored in its plane
    /// `out` `[oh, ow]`.
    ///
    /// # Safety
    /// Runs inside a function compiled for `S`'s features; `m` holds 16 values at each of its
    /// 36 strides; the run's outputs in `out` are writable.
    #[inline(always)]
    unsafe fn output_run<S: F32x16>(&self, m: *const f32, bias: f32, out: *mut f32, run: Run) {
        let x0 = TILE * run.tx;
        // Output columns `x0 .. x0 + 4n`, cut at the plane's edge.
        let width = (TILE * run.n).min(self.ow - x0);
        let masks: [u16; 4] = core::array::from_fn(|q| lane_mask(16 * q as isize, width));
        let stride = self.m_stride();
        // SAFETY (the vector operations below): the caller's bounds and features; lanes past
        // the run are masked off. Plain loops, as in `input_run`.
        let bias = unsafe { S::splat(bias) };
        // s[a][k]: row a, column k of Aᵀ·M, one column of M at a time.
        let mut s = [[bias; PATCH]; TILE];
        for k in 0..PATCH {
            let mut col = [bias; PATCH];
            for (i, slot) in col.iter_mut().enumerate() {
                // Whole loads: the lanes past the run hold other tiles' (or stale) values,
                // whose outputs the masked stores below leave out.
                *slot = unsafe { S::load(m.add((i * PATCH + k) * stride)) };
            }
            let a_col = unsafe { transform_a::<S>(col) };
            for (row, value) in s.iter_mut().zip(a_col) {
                row[k] = value;
            }
        }
        for (a, s) in s.iter().enumerate() {
            let r = TILE * run.ty + a;
            if r >= self.oh {
                continue;
            }
            let p = out.wrapping_add(r * self.ow + x0);
            // SAFETY: the caller's features; enabled lanes are the run's outputs in row `r`.
            unsafe {
                let [y0, y1, y2, y3] = transform_a::<S>(*s);
                let (y0, y1) = (S::add(y0, bias), S::add(y1, bias));
                let (y2, y3) = (S::add(y2, bias), S::add(y3, bias));
                // Two rounds of interleaving put each tile's four columns side by side.
                let ((a0, a1), (b0, b1)) = (S::interleave(y0, y2), S::interleave(y1, y3));
                let ((q0, q1), (q2, q3)) = (S::interleave(a0, b0), S::interleave(a1, b1));
                for (q, value) in [q0, q1, q2, q3].into_iter().enumerate() {
                    S::store_masked(p.wrapping_add(16 * q), masks[q], value);
                }
            }
        }
    }
}

/// `Bᵀ·e` of one column (or row) `e` of a 6×6 patch:
/// `4e0 − 5e2 + e4`, `−4(e1 + e2) + e3 + e4`, `4(e1 − e2) − e3 + e4`, `2(e3 − e1) − e2 + e4`,
/// `2(e1 − e3) − e2 + e4` and `4e1 − 5e3 + e5`.
///
/// # Safety
/// Runs inside a function compiled for `S`'s features (it is always inlined there).
#[inline(always)]
unsafe fn transform_b<S: F32x16>(e: [S::V; PATCH]) -> [S::V; PATCH] {
    // SAFETY: the caller's features.
    unsafe {
        let (four, minus_four, minus_five) = (S::splat(4.0), S::splat(-4.0), S::splat(-5.0));
        let t0 = S::mul_add(minus_four, e[2], e[4]);
        let t1 = S::mul_add(minus_four, e[1], e[3]);
        let t2 = S::sub(e[4], e[2]);
        let t3 = S::mul(S::splat(2.0), S::sub(e[3], e[1]));
        [
            S::mul_add(four, e[0], S::mul_add(minus_five, e[2], e[4])),
            S::add(t0, t1),
            S::sub(t0, t1),
            S::add(t2, t3),
            S::sub(t2, t3),
            S::mul_add(four, e[1], S::mul_add(minus_five, e[3], e[5])),
        ]
    }
}

/// `Aᵀ·m` of one column (or row) `m` of a 6×6 transformed tile: `m0 + (m1 + m2) + (m3 + m4)`,
/// `(m1 − m2) + 2(m3 − m4)`, `(m1 + m2) + 4(m3 + m4)` and `(m1 − m2) + 8(m3 − m4) + m5`.
///
/// # Safety
/// Runs inside a function compiled for `S`'s features (it is always inlined there).
#[inline(always)]
unsafe fn transform_a<S: F32x16>(m: [S::V; PATCH]) -> [S::V; TILE] {
    // SAFETY: the caller's features.
    unsafe {
        let (sum12, diff12) = (S::add(m[1], m[2]), S::sub(m[1], m[2]));
        let (sum34, diff34) = (S::add(m[3], m[4]), S::sub(m[3], m[4]));
        [
            S::add(S::add(m[0], sum12), sum34),
            S::mul_add(S::splat(2.0), diff34, diff12),
            S::mul_add(S::splat(4.0), sum34, sum12),
            S::add(S::mul_add(S::splat(8.0), diff34, diff12), m[5]),
        ]
    }
}

#[cfg(test)]
mod tests;
