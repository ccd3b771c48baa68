//! Winograd F(2×2, 3×3) convolution for `f32` on AVX-512 or AVX2: 2.25 times fewer
//! multiply-adds than the direct kernel for the 3×3, stride-1 layers of image networks.
//!
//! The output is cut into 2×2 tiles, each computed from the 4×4 input patch under it. With the
//! transforms `V = Bᵀ·d·B` of a patch `d` and `U = G·g·Gᵀ` of a 3×3 filter `g`, the 16
//! products `M = U ⊙ V` summed over input channels give the tile as `Y = Aᵀ·M·A` (Lavin & Gray,
//! "Fast Algorithms for Convolutional Neural Networks", 2016). Summed over channels, each of the
//! 16 positions `ξ` of the 4×4 transform is a matrix product `M_ξ [oc, tiles] = U_ξ [oc, c] ·
//! V_ξ [c, tiles]`: 16 products of `c` multiply-adds per output tile, against 36 for the
//! direct 2×2 outputs.
//!
//! Tiles are taken in blocks of [`block_tiles`] (a few dozen), small enough that a block's `V`
//! and `M` stay in the core's L2 cache: each block's input transform, its 16 products (one
//! 8 × 48 register tile over `c` on AVX-512, four 2 × 48 ones on AVX2) and its output transform
//! run on one thread, blocks in parallel. Both
//! transforms work on 16 neighbouring tiles of a tile row at a time: the patches' columns are
//! the even and odd lanes of two overlapping loads (masked, so the padding is never
//! materialised). The code is written once over 16-lane vectors ([`super::simd16`]) and
//! compiled for AVX-512 (one register per vector) and AVX2 (two).
//!
//! The transforms' additions round a little more than the direct sum: errors stay within a few
//! units in the last place of the output's scale (the tests hold it to 1e-5 relative).

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
/// The floats between the last row of one `ξ` of `V` or `M` and the next `ξ`: one cache line,
/// so the 16 values of a tile do not all fall in one L1 set, and 16 lanes, so that the
/// transforms' whole 16-lane stores and loads from any column below `tb` stay inside the
/// buffers (see `Plan::block`).
const SKEW: usize = 16;

/// Bytes of `V` and `M` one block may keep (half of a Zen 4 or Sapphire Rapids L2).
const BLOCK_BYTES: usize = 512 << 10;

/// Whether the Winograd kernel takes this convolution: a 2-d 3×3 kernel, stride and dilation 1,
/// one group, an AVX-512 or AVX2 CPU, and at least 16 input and output channels (with fewer,
/// the transforms cost more than the multiply-adds they save).
pub(crate) fn applies(w_shape: [usize; 5], g: &Geom, xs: [usize; 3], os: [usize; 3]) -> bool {
    let [oc, ic, kd, kh, kw] = w_shape;
    // On a Zen 2 host, W5 ran at 172–175 "effective" GFLOP/s here against 159–162 in
    // `conv_direct`'s AVX2 tile (alternated runs).
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

    /// Floats from one `ξ` of a block's `V` `[16][c][tb]` to the next: [`SKEW`] more than its
    /// rows.
    fn v_stride(&self) -> usize {
        self.c * self.tb + SKEW
    }

    /// Floats from one `ξ` of a block's `M` `[16][ocp][tb]` to the next (skewed likewise).
    fn m_stride(&self) -> usize {
        self.ocp * self.tb + SKEW
    }
}

/// Tiles per block: as many whole register tiles as keep `V` and `M` within [`BLOCK_BYTES`].
fn block_tiles(c: usize, ocp: usize) -> usize {
    let per_tile = 16 * (c + ocp) * 4;
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
        th: oh.div_ceil(2),
        tw: ow.div_ceil(2),
        tb: block_tiles(c, ocp),
    };
    let u = transform_filters(w, oc, c, ocp);
    let total = batch * plan.tiles_per_image();
    let blocks = total.div_ceil(plan.tb);
    let dst = SendPtr(out.as_mut_ptr());
    let run = |blk: usize| {
        let (mut v, mut m) = (V_SCRATCH.take(), M_SCRATCH.take());
        v.resize(v.len().max(16 * plan.v_stride()), 0.0);
        m.resize(m.len().max(16 * plan.m_stride()), 0.0);
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

/// `U = G·g·Gᵀ` of every filter, packed as `[16][ocp/8][c][8]` panels (zero past `oc`).
fn transform_filters(w: &[f32], oc: usize, c: usize, ocp: usize) -> Vec<f32> {
    let mut u = vec![0.0f32; 16 * ocp * c];
    for co in 0..oc {
        for ci in 0..c {
            let f = &w[(co * c + ci) * 9..][..9];
            // G·g: rows g0, (g0+g1+g2)/2, (g0-g1+g2)/2, g2 of the filter's columns.
            let mut gg = [[0.0f32; 3]; 4];
            for j in 0..3 {
                let (a, b, d) = (f[j], f[3 + j], f[6 + j]);
                gg[0][j] = a;
                gg[1][j] = (a + b + d) * 0.5;
                gg[2][j] = (a - b + d) * 0.5;
                gg[3][j] = d;
            }
            for (i, row) in gg.iter().enumerate() {
                let [a, b, d] = *row;
                let t = [a, (a + b + d) * 0.5, (a - b + d) * 0.5, d];
                for (j, &value) in t.iter().enumerate() {
                    let xi = i * 4 + j;
                    u[((xi * (ocp / MR) + co / MR) * c + ci) * MR + co % MR] = value;
                }
            }
        }
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
    /// Runs inside a function compiled for `S`'s features; `v` and `m` hold 16 strides of
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
            v.len() >= 16 * self.v_stride() && m.len() >= 16 * self.m_stride(),
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
        for xi in 0..16 {
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

/// Where the four loads of a patch row start, from the run's first column: two overlapping
/// pairs, columns `c0 ..` (even and odd lanes: a patch's columns 0 and 1) and `c0 + 2 ..` (its
/// columns 2 and 3).
const PATCH_STARTS: [usize; 4] = [0, 16, 2, 18];

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
    /// Row `i` of the run's 4×4 patches in `plane`, as their columns 0–3 (16 tiles a vector),
    /// or zeros when the row lies in the padding. `c0` is the run's first column and `masks`
    /// the image's columns among the lanes of the four loads.
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
        masks: &[u16; 4],
    ) -> [S::V; 4] {
        let r = (2 * run.ty + i) as isize - self.ph as isize;
        if r < 0 || r as usize >= self.h {
            // SAFETY: the caller's features.
            return unsafe { [S::zero(); 4] };
        }
        let p = plane
            .as_ptr()
            .wrapping_add(r as usize * self.w)
            .wrapping_offset(c0);
        // SAFETY: masked-off lanes are not read; enabled ones are columns of row `r`.
        let [a0, a1, b0, b1] = unsafe {
            [
                S::load_masked(masks[0], p.wrapping_add(PATCH_STARTS[0])),
                S::load_masked(masks[1], p.wrapping_add(PATCH_STARTS[1])),
                S::load_masked(masks[2], p.wrapping_add(PATCH_STARTS[2])),
                S::load_masked(masks[3], p.wrapping_add(PATCH_STARTS[3])),
            ]
        };
        // SAFETY: the caller's features.
        let ((e0, o0), (e1, o1)) = unsafe { (S::even_odd(a0, a1), S::even_odd(b0, b1)) };
        [e0, o0, e1, o1]
    }

    /// `V = Bᵀ·d·B` of the run's patches in one input channel `plane` `[h, w]`, stored at
    /// `v[ξ · v_stride + lane]`.
    ///
    /// # Safety
    /// Runs inside a function compiled for `S`'s features; `v` has room for 16 values at each
    /// of its 16 strides.
    #[inline(always)]
    unsafe fn input_run<S: F32x16>(&self, plane: &[f32], run: Run, v: *mut f32) {
        // Tile `j` of the run reads columns `c0 + 2j .. c0 + 2j + 4`.
        let c0 = (2 * run.tx) as isize - self.pw as isize;
        let masks = PATCH_STARTS.map(|d| lane_mask(c0 + d as isize, self.w));
        // SAFETY (all vector operations below): the caller's features. (Each row built by a
        // call, not zeroed first and then filled: the zeroing was a `memset` per run.)
        let d = unsafe {
            [
                self.patch_row::<S>(plane, run, 0, c0, &masks),
                self.patch_row::<S>(plane, run, 1, c0, &masks),
                self.patch_row::<S>(plane, run, 2, c0, &masks),
                self.patch_row::<S>(plane, run, 3, c0, &masks),
            ]
        };
        // `Bᵀ·e` of column `k` of the 4×4 vectors `m`. (A macro, not a closure: a closure
        // passed to `array::from_fn` is compiled without the caller's features, and on AVX2 its
        // vector additions became calls, 38 % of W5's samples.)
        macro_rules! column {
            ($m:ident, $k:expr) => {
                transform_b::<S>([$m[0][$k], $m[1][$k], $m[2][$k], $m[3][$k]])
            };
        }
        // t[k][i]: row i, column k of Bᵀ·d; v[i][j]: row i, column j of Bᵀ·d·B.
        // SAFETY: the caller's features.
        let t = unsafe { [column!(d, 0), column!(d, 1), column!(d, 2), column!(d, 3)] };
        let v_rows = unsafe { [column!(t, 0), column!(t, 1), column!(t, 2), column!(t, 3)] };
        let stride = self.v_stride();
        for (i, vi) in v_rows.iter().enumerate() {
            for (j, &value) in vi.iter().enumerate() {
                // SAFETY: the caller's room (whole stores: see `Plan::block`).
                unsafe { S::store(v.add((i * 4 + j) * stride), value) };
            }
        }
    }

    /// `Y = Aᵀ·M·A + bias` of the run's tiles for one output channel, stored in its plane
    /// `out` `[oh, ow]`.
    ///
    /// # Safety
    /// Runs inside a function compiled for `S`'s features; `m` holds 16 values at each of its
    /// 16 strides; the run's outputs in `out` are writable.
    #[inline(always)]
    unsafe fn output_run<S: F32x16>(&self, m: *const f32, bias: f32, out: *mut f32, run: Run) {
        let x0 = 2 * run.tx;
        // Output columns `x0 .. x0 + 2n`, cut at the plane's edge.
        let width = (2 * run.n).min(self.ow - x0);
        let masks = [lane_mask(0, width), lane_mask(16, width)];
        let stride = self.m_stride();
        // SAFETY (the vector operations below): the caller's bounds and features; lanes past
        // the run are masked off. Plain loops, as in `input_run`.
        let bias = unsafe { S::splat(bias) };
        let mut mm = [bias; 16];
        for (xi, slot) in mm.iter_mut().enumerate() {
            // Whole loads: the lanes past the run hold other tiles' (or stale) values, whose
            // outputs the masked stores below leave out.
            *slot = unsafe { S::load(m.add(xi * stride)) };
        }
        // Aᵀ·M: rows m0 + m1 + m2 and m1 - m2 - m3 of each column; then the same on the rows.
        let mut s = [[bias; 4]; 2];
        for k in 0..4 {
            unsafe {
                s[0][k] = S::add(S::add(mm[k], mm[4 + k]), mm[8 + k]);
                s[1][k] = S::sub(S::sub(mm[4 + k], mm[8 + k]), mm[12 + k]);
            }
        }
        for (a, s) in s.iter().enumerate() {
            let r = 2 * run.ty + a;
            if r >= self.oh {
                continue;
            }
            let p = out.wrapping_add(r * self.ow + x0);
            // SAFETY: the caller's features; enabled lanes are the run's outputs in row `r`.
            unsafe {
                let y0 = S::add(S::add(s[0], s[1]), S::add(s[2], bias));
                let y1 = S::add(S::sub(s[1], s[2]), S::sub(bias, s[3]));
                let (lo, hi) = S::interleave(y0, y1);
                S::store_masked(p, masks[0], lo);
                S::store_masked(p.wrapping_add(16), masks[1], hi);
            }
        }
    }
}

/// `Bᵀ·e` of one column (or row) `e` of a 4×4 patch: `e0 - e2, e1 + e2, e2 - e1, e1 - e3`.
///
/// # Safety
/// Runs inside a function compiled for `S`'s features (it is always inlined there).
#[inline(always)]
unsafe fn transform_b<S: F32x16>(e: [S::V; 4]) -> [S::V; 4] {
    // SAFETY: the caller's features.
    unsafe {
        [
            S::sub(e[0], e[2]),
            S::add(e[1], e[2]),
            S::sub(e[2], e[1]),
            S::sub(e[1], e[3]),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::conv_reference::{check_f32_kernel, check_f32_kernel_nested, per_isa};

    /// `(x, w, padding)` in lifted 3-d form.
    type Problem = ([usize; 5], [usize; 5], [usize; 3]);

    #[test]
    fn winograd_matches_the_definition() {
        let problems: &[Problem] = &[
            // W5's shape, smaller.
            ([2, 16, 1, 14, 14], [16, 16, 1, 3, 3], [0, 1, 1]),
            // Odd output extents (a half tile at the bottom and right), no padding, channel
            // counts off the register tile (17 in, 20 out).
            ([1, 17, 1, 13, 15], [20, 17, 1, 3, 3], [0, 0, 0]),
            // Wide rows (runs of 16, 16 and 3 tiles), padding 2 (patches wholly in the padding).
            ([1, 16, 1, 9, 70], [16, 16, 1, 3, 3], [0, 2, 2]),
            // Several blocks per image, blocks starting inside a tile row, unequal paddings.
            ([3, 16, 1, 40, 41], [24, 16, 1, 3, 3], [0, 1, 0]),
            // The smallest output it takes (2×2) and a tall narrow image.
            ([2, 32, 1, 2, 2], [16, 32, 1, 3, 3], [0, 1, 1]),
            ([1, 16, 1, 37, 3], [16, 16, 1, 3, 3], [0, 1, 1]),
            // Padding 3: whole patches, and whole output rows, in the padding (bias only).
            ([1, 16, 1, 5, 6], [19, 16, 1, 3, 3], [0, 3, 3]),
            // 64 channels each way: the smallest blocks (48 tiles), two per image.
            ([1, 64, 1, 12, 20], [64, 64, 1, 3, 3], [0, 1, 1]),
        ];
        for (i, &(xs, ws, padding)) in problems.iter().enumerate() {
            let g = Geom {
                stride: [1, 1, 1],
                padding,
                dilation: [1, 1, 1],
                groups: 1,
            };
            let os = [1, xs[3] + 2 * padding[1] - 2, xs[4] + 2 * padding[2] - 2];
            assert_eq!(
                applies(ws, &g, [xs[2], xs[3], xs[4]], os),
                Isa::detect().is_some(),
                "problem {i}"
            );
            for isa in per_isa("conv_winograd") {
                let what = format!("problem {i} {isa:?}");
                check_f32_kernel(conv_f32_with, isa, xs, ws, &g, i as f64, &what);
            }
        }
    }

    #[test]
    fn applies_to_w5_not_to_other_kernels_strides_or_few_channels() {
        let g = |stride, padding, dilation, groups| Geom {
            stride,
            padding,
            dilation,
            groups,
        };
        let plain = g([1, 1, 1], [0, 1, 1], [1, 1, 1], 1);
        let (xs, os) = ([1, 56, 56], [1, 56, 56]);
        assert_eq!(
            applies([64, 64, 1, 3, 3], &plain, xs, os),
            Isa::detect().is_some()
        );
        // Strided, dilated, grouped, 5×5, 3-d, or too few channels: not Winograd.
        let strided = g([1, 2, 2], [0, 1, 1], [1, 1, 1], 1);
        assert!(!applies([64, 64, 1, 3, 3], &strided, xs, [1, 28, 28]));
        let dilated = g([1, 1, 1], [0, 2, 2], [1, 2, 2], 1);
        assert!(!applies([64, 64, 1, 3, 3], &dilated, xs, os));
        let grouped = g([1, 1, 1], [0, 1, 1], [1, 1, 1], 2);
        assert!(!applies([64, 32, 1, 3, 3], &grouped, xs, os));
        assert!(!applies([64, 64, 1, 5, 5], &plain, xs, [1, 54, 54]));
        assert!(!applies(
            [64, 64, 3, 3, 3],
            &plain,
            [3, 56, 56],
            [1, 56, 56]
        ));
        assert!(!applies([64, 8, 1, 3, 3], &plain, xs, os));
        assert!(!applies([8, 64, 1, 3, 3], &plain, xs, os));
    }

    #[test]
    fn runs_inside_rayon_tasks() {
        let g = Geom {
            stride: [1, 1, 1],
            padding: [0, 1, 1],
            dilation: [1, 1, 1],
            groups: 1,
        };
        for isa in per_isa("conv_winograd") {
            let (xs, ws) = ([1, 16, 1, 30, 30], [16, 16, 1, 3, 3]);
            check_f32_kernel_nested(conv_f32_with, isa, xs, ws, &g);
        }
    }
}
