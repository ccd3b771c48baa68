//! Direct stride-1 convolution for `f32` on AVX-512 or AVX2: no im2col matrix, no operand
//! packing of the image.
//!
//! The image of each group is copied once into a zero-padded buffer `[c, dp, hp, wp]` (each
//! row's left zeros also serve as the previous row's right ones, so `wp = w + pw` when the
//! kernel reaches at least as far as the padding). On the
//! flat index `q = (od·hp + oh)·wp + ow` of that padded grid, kernel tap `(ci, a, b, c)` of
//! output `q` reads input `ci·plane + q + (a·dd·hp + b·dh)·wp + c·dw`: every tap is the same
//! matrix shifted by a constant. So one register tile ([`tile`]: 8 output channels × 48
//! consecutive grid points on AVX-512, 6 × 16 on AVX2) runs over the `k = c·kd·kh·kw` taps with
//! one unaligned load per vector (the shifted inputs) and one broadcast multiply-add per row and
//! vector, the weights packed once per call as `[k][rows]` panels. Grid points with
//! `ow ≥ ow_len` (or `oh ≥ oh_len`) are the price of the flat index (1 of 57 columns for a
//! 56-wide image with padding 1 and a 3-wide kernel); masked stores drop them and put the rest
//! straight into the NCHW output, the bias already in the accumulators.
//!
//! [`conv_f32`] runs when [`applies`] says so (f32, stride 1, an AVX-512 or AVX2 CPU, little
//! waste) and [`super::conv_winograd`] does not take the convolution (3×3 kernels with 16
//! channels or more); everything else keeps im2col and `gemm`.

mod tile;

use super::common::PARALLEL_WORK;
use super::conv_winograd;
use super::im2col::{ConvArgs, Geom};
use super::isa::Isa;
use crate::parallel;
use std::cell::RefCell;
use std::ops::Range;
use tile::{MAX_POINTS, MAX_ROWS, NV, TileArgs};

/// Grid points one parallel task computes when an image is split between threads.
const POINTS_PER_TASK: usize = 384;

/// The fewest output points (over the batch) the direct kernel takes: below that, packing its
/// weights (once per call, work in proportion to the taps like the points' own) and splitting
/// a small image between threads cost more than they save (measured before the packing was
/// shared between threads). On a Zen 2 host im2col and `gemm` took `[1, 256, 14, 14]` (196
/// points, 3×3) in 1.9–2.1 ms against 2.4–2.7 here, and `[1, 512, 7, 7]` (49) in 2.3–2.8
/// against 2.4–3.2; at `[8, 512, 7, 7]` (392) the two were level and from `[1, 128, 28, 28]`
/// (784: 1.7–1.9 ms against 1.8–1.9) the direct kernel leads.
pub(crate) const MIN_POINTS: usize = 200;

/// Whether the direct kernel takes this convolution of `batch` images: stride 1 everywhere, an
/// AVX-512 or AVX2 CPU, enough output channels per group to fill most of a tile, at most a
/// quarter more grid points than outputs (the padded columns and the last tile's tail), and
/// at least [`MIN_POINTS`] outputs per channel over the batch.
pub(crate) fn applies(
    batch: usize,
    w_shape: [usize; 5],
    g: &Geom,
    xs: [usize; 3],
    os: [usize; 3],
) -> bool {
    match Isa::detect() {
        Some(tile) => {
            batch * os.iter().product::<usize>() >= MIN_POINTS
                && applies_to(tile, w_shape, g, xs, os)
        }
        None => false,
    }
}

/// [`applies`] for the register tile `tile`.
fn applies_to(tile: Isa, w_shape: [usize; 5], g: &Geom, xs: [usize; 3], os: [usize; 3]) -> bool {
    if g.stride != [1, 1, 1] {
        return false;
    }
    let ocg = w_shape[0] / g.groups;
    // No input channels (the output is the bias) or an empty image: nothing to tile.
    if w_shape[1] == 0 || xs.contains(&0) {
        return false;
    }
    let grid = Grid::new(xs, g, os);
    let n_out: usize = os.iter().product();
    let computed = grid.len.div_ceil(tile.tile_points()) * tile.tile_points();
    ocg >= tile.tile_rows() / 2 && n_out > 0 && computed * 4 <= n_out * 5
}

/// The zero-padded image planes and the flat output grid over them.
#[derive(Debug, Clone, Copy)]
struct Grid {
    /// Padded extents `[dp, hp, wp]`.
    padded: [usize; 3],
    /// Output extents `[od, oh, ow]`.
    out: [usize; 3],
    /// Grid points up to and including the last output: `((od-1)·hp + oh-1)·wp + ow`.
    len: usize,
}

impl Grid {
    fn new(xs: [usize; 3], g: &Geom, os: [usize; 3]) -> Self {
        // Rows are `[pw zeros][w values]` followed by `wp - pw - w` more zeros: a tap past the
        // row's end reads the next row's leading zeros, so the left padding doubles as the
        // right one and only rows narrower than the output need their own right zeros.
        let [dp, hp] = [0, 1].map(|i| xs[i] + 2 * g.padding[i]);
        let wp = (xs[2] + g.padding[2]).max(os[2]);
        let padded = [dp, hp, wp];
        let [od, oh, ow] = os;
        let len = if os.contains(&0) {
            0
        } else {
            ((od - 1) * hp + oh - 1) * wp + ow
        };
        Self {
            padded,
            out: os,
            len,
        }
    }

    fn plane(&self) -> usize {
        self.padded.iter().product()
    }

    /// The masked stores that put the `lanes` (at most 16) grid points from `q` into the output
    /// plane: each `(mask, base)` stores the lanes of `mask` at `base + lane`.
    fn stores(&self, q: usize, lanes: usize) -> Stores {
        let [_, hp, wp] = self.padded;
        let [_, oh_len, ow_len] = self.out;
        let mut stores = Stores::default();
        let mut lane = 0;
        while lane < lanes && q + lane < self.len {
            let p = q + lane;
            let (row, ow) = (p / wp, p % wp);
            let (od, oh) = (row / hp, row % hp);
            let run = (lanes - lane).min(wp - ow);
            if oh < oh_len && ow < ow_len {
                let n = run.min(ow_len - ow);
                let mask = (((1u32 << n) - 1) << lane) as u16;
                let base = ((od * oh_len + oh) * ow_len + ow) as isize - lane as isize;
                stores.items[stores.len] = (mask, base);
                stores.len += 1;
            }
            lane += run;
        }
        stores
    }
}

/// Up to 16 masked stores of one vector (one per output row it touches).
#[derive(Debug, Clone, Copy, Default)]
struct Stores {
    items: [(u16, isize); 16],
    len: usize,
}

/// The convolution `args` (stride 1: `x` `[b, c, d, h, w]` with `w` `[oc, c/groups, kd, kh,
/// kw]`) into `out` `[b, oc, od, oh, ow]`, adding the bias per output channel. Callers check
/// [`applies`] first.
pub(crate) fn conv_f32(args: &ConvArgs<f32>, out: &mut [f32]) {
    let tile = Isa::detect().expect("conv_direct: expected an AVX-512 or AVX2 CPU");
    conv_f32_with(tile, args, out);
}

/// [`conv_f32`] with the register tile `tile`, which the CPU must run.
fn conv_f32_with(tile: Isa, args: &ConvArgs<f32>, out: &mut [f32]) {
    let ConvArgs { x, w, bias, g, .. } = *args;
    let (x_shape, w_shape, os) = (args.x_shape, args.w_shape, args.os);
    assert!(
        Isa::available().contains(&tile),
        "conv_direct: this CPU does not run {tile:?}"
    );
    let [batch, channels, d, h, wi] = x_shape;
    let [oc, icg, kd, kh, kw] = w_shape;
    let grid = Grid::new([d, h, wi], g, os);
    let (ocg, k_len) = (oc / g.groups, icg * kd * kh * kw);
    let n_in = d * h * wi;
    let n_out: usize = os.iter().product();
    let plane = grid.plane();
    let [_, hp, wp] = grid.padded;
    let [dd, dh, dw] = g.dilation;
    let mut offsets = Vec::with_capacity(k_len);
    for ci in 0..icg {
        for a in 0..kd {
            for b in 0..kh {
                for c in 0..kw {
                    offsets.push((ci * plane + (a * dd * hp + b * dh) * wp + c * dw) as isize);
                }
            }
        }
    }
    let panels: Vec<Vec<f32>> = (0..g.groups)
        .map(|gi| {
            let w_g = &w[gi * ocg * k_len..(gi + 1) * ocg * k_len];
            pack_weights(w_g, ocg, k_len, tile.tile_rows())
        })
        .collect();
    let work = batch * oc * k_len * n_out;
    // Whole images per thread when there are enough of them, else each image's tiles shared.
    let parallel = work >= PARALLEL_WORK;
    let split_images = parallel && batch >= parallel::threads().max(2);
    let run_image = |b: usize, out_b: &mut [f32], split_tiles: bool| {
        let x_b = &x[b * channels * n_in..(b + 1) * channels * n_in];
        // Taken, not borrowed: inside a rayon worker, while this thread waits on the split
        // tiles, rayon may run another convolution on it, which takes (an empty) buffer.
        let mut padded = PADDED.take();
        for gi in 0..g.groups {
            let len = pad_image(
                &x_b[gi * icg * n_in..(gi + 1) * icg * n_in],
                icg,
                [d, h, wi],
                g,
                &grid,
                &mut padded,
            );
            let group = Group {
                tile,
                grid: &grid,
                panels: &panels[gi],
                offsets: &offsets,
                bias: bias.map(|b| &b[gi * ocg..(gi + 1) * ocg]),
                ocg,
                n_out,
            };
            let dst = &mut out_b[gi * ocg * n_out..(gi + 1) * ocg * n_out];
            group.run(&padded[..len], dst, split_tiles);
        }
        PADDED.set(padded);
    };
    if split_images {
        parallel::for_each_chunk_mut(out, oc * n_out, |b, out_b| run_image(b, out_b, false));
    } else {
        for (b, out_b) in out.chunks_mut(oc * n_out).enumerate() {
            run_image(b, out_b, parallel);
        }
    }
}

/// A stride-1 transposed convolution of `x` `[b, ic, in…]` with `w` `[ic, oc/groups, k…]` onto
/// `os`, run as the convolution it equals: the kernel flipped, its two channel axes swapped, and
/// padding `dilation·(k-1) - padding` (this is also a stride-1 convolution's input gradient),
/// by Winograd when [`conv_winograd::applies`], else directly. `None` when neither takes that
/// convolution (or the output grid is not the one it gives, as with an output padding).
pub(crate) fn transposed_f32(args: &ConvArgs<f32>) -> Option<Vec<f32>> {
    let ConvArgs { x, w, bias, g, .. } = *args;
    let (x_shape, w_shape, os) = (args.x_shape, args.w_shape, args.os);
    let [batch, ic, ..] = x_shape;
    let [_, ocg, kd, kh, kw] = w_shape;
    let ks = [kd, kh, kw];
    let xs = [x_shape[2], x_shape[3], x_shape[4]];
    if g.stride != [1, 1, 1] || g.groups == 0 {
        return None;
    }
    let mut padding = [0; 3];
    for i in 0..3 {
        let reach = g.dilation[i] * (ks[i].max(1) - 1);
        if g.padding[i] > reach || xs[i] + reach != os[i] + 2 * g.padding[i] {
            return None;
        }
        padding[i] = reach - g.padding[i];
    }
    let conv = Geom {
        stride: [1, 1, 1],
        padding,
        dilation: g.dilation,
        groups: g.groups,
    };
    let icg = ic / g.groups;
    let conv_w_shape = [ocg * g.groups, icg, kd, kh, kw];
    let winograd = conv_winograd::applies(batch, conv_w_shape, &conv, xs, os);
    if !winograd && !applies(batch, conv_w_shape, &conv, xs, os) {
        return None;
    }
    let taps = kd * kh * kw;
    let mut conv_w = vec![0.0; w.len()];
    for gi in 0..g.groups {
        for i in 0..icg {
            for o in 0..ocg {
                let src = ((gi * icg + i) * ocg + o) * taps;
                let dst = ((gi * ocg + o) * icg + i) * taps;
                for t in 0..taps {
                    conv_w[dst + taps - 1 - t] = w[src + t];
                }
            }
        }
    }
    let mut out = crate::tensor::pool::for_overwrite::<f32>(
        batch * ocg * g.groups * os.iter().product::<usize>(),
    );
    let conv_f32 = if winograd {
        conv_winograd::conv_f32
    } else {
        conv_f32
    };
    let args = ConvArgs {
        x,
        x_shape,
        w: &conv_w,
        w_shape: conv_w_shape,
        bias,
        g: &conv,
        os,
    };
    conv_f32(&args, &mut out);
    Some(out)
}

thread_local! {
    /// Each thread's padded-image buffer, kept between calls (no page faults per image).
    static PADDED: RefCell<Vec<f32>> = const { RefCell::new(Vec::new()) };
}

/// `w` `[ocg, k]` as `ceil(ocg/mr)` panels `[k][mr]`, zero beyond the last output channel.
///
/// Each panel is written in order from its `mr` rows, panels shared between threads when
/// there are many (a 512-channel 3×3 layer has 2.4 M weights, packed once per call): on a Zen 2
/// host `[2, 512, 14, 14]` went from 16.8–17.2 to 14.8–15.4 ms, `[8, 512, 7, 7]` from 14.0–15.8
/// to 14.1–14.5 (alternated runs).
fn pack_weights(w: &[f32], ocg: usize, k_len: usize, mr: usize) -> Vec<f32> {
    let blocks = ocg.div_ceil(mr);
    let mut packed = vec![0.0; blocks * k_len * mr];
    let fill = |b: usize, panel: &mut [f32]| {
        let rows = mr.min(ocg - b * mr);
        let w_b = &w[b * mr * k_len..][..rows * k_len];
        for (k, slots) in panel.chunks_exact_mut(mr).enumerate() {
            for (r, slot) in slots[..rows].iter_mut().enumerate() {
                *slot = w_b[r * k_len + k];
            }
        }
    };
    if packed.len() >= PARALLEL_WORK {
        parallel::for_each_chunk_mut(&mut packed, k_len * mr, fill);
    } else {
        packed
            .chunks_mut(k_len * mr)
            .enumerate()
            .for_each(|(b, p)| fill(b, p));
    }
    packed
}

/// Copies `channels` planes of `x` into `padded` (resized to the padded planes plus the slack
/// the last tile reads past them), zero around the image; every value is written once. Returns
/// the length written.
fn pad_image(
    x: &[f32],
    channels: usize,
    xs: [usize; 3],
    g: &Geom,
    grid: &Grid,
    padded: &mut Vec<f32>,
) -> usize {
    let [d, h, w] = xs;
    let [_, hp, wp] = grid.padded;
    let [pd, ph, pw] = g.padding;
    // Past the last plane, the last tile reads up to a tile's points beyond the last output,
    // and that output's rightmost taps read up to `pw` values into the (absent) next row.
    let len = channels * grid.plane() + MAX_POINTS + 16 + pw;
    if padded.len() < len {
        padded.resize(len, 0.0);
    }
    let buf = &mut padded[..len];
    let mut at = 0;
    let zeros = |buf: &mut [f32], at: &mut usize, n: usize| {
        buf[*at..*at + n].fill(0.0);
        *at += n;
    };
    for plane in x.chunks_exact(d * h * w).take(channels) {
        zeros(buf, &mut at, pd * hp * wp);
        for slice in plane.chunks_exact(h * w) {
            zeros(buf, &mut at, ph * wp);
            for row in slice.chunks_exact(w) {
                zeros(buf, &mut at, pw);
                buf[at..at + w].copy_from_slice(row);
                at += w;
                zeros(buf, &mut at, wp - pw - w);
            }
            zeros(buf, &mut at, ph * wp);
        }
        zeros(buf, &mut at, pd * hp * wp);
    }
    buf[at..].fill(0.0);
    len
}

/// One group's operands: the grid, packed weights, tap offsets and bias.
struct Group<'a> {
    tile: Isa,
    grid: &'a Grid,
    panels: &'a [f32],
    offsets: &'a [isize],
    bias: Option<&'a [f32]>,
    ocg: usize,
    n_out: usize,
}

impl Group<'_> {
    /// Computes every tile of the group into `dst` `[ocg, n_out]`, split between threads when
    /// `parallel`.
    ///
    /// Tasks take [`POINTS_PER_TASK`] grid points each, and when an image has too few of those
    /// to give every thread two, its output channels are shared out too: a `[1, 256, 14, 14]`
    /// layer (one task of points) ran on one core at 3.5 ms, against 1.9–2.1 ms through im2col
    /// and `gemm` on two, on a Zen 2 host.
    fn run(&self, padded: &[f32], dst: &mut [f32], parallel: bool) {
        let points = self.tile.tile_points();
        let tiles = self.grid.len.div_ceil(points);
        let per_task = POINTS_PER_TASK / points;
        let point_tasks = tiles.div_ceil(per_task);
        let blocks = self.ocg.div_ceil(self.tile.tile_rows());
        let block_tasks = if parallel {
            (2 * parallel::threads())
                .div_ceil(point_tasks)
                .clamp(1, blocks)
        } else {
            1
        };
        let per_block_task = blocks.div_ceil(block_tasks);
        let dst_ptr = SendPtr(dst.as_mut_ptr());
        let task = |i: usize| {
            let (t0, b0) = (
                (i / block_tasks) * per_task,
                (i % block_tasks) * per_block_task,
            );
            let block_range = b0..(b0 + per_block_task).min(blocks);
            for t in t0..(t0 + per_task).min(tiles) {
                // SAFETY: tiles cover disjoint grid points and blocks disjoint channels, so
                // their stores never overlap, and every store lands inside `dst`
                // (`Grid::stores` keeps to valid outputs).
                unsafe { self.tile(padded, t * points, block_range.clone(), dst_ptr) };
            }
        };
        if parallel {
            parallel::for_each(point_tasks * block_tasks, task);
        } else {
            (0..point_tasks).for_each(task);
        }
    }

    /// The output channels of the register-tile blocks `blocks` of the tile at grid point `q`.
    ///
    /// # Safety
    /// `dst` holds `ocg · n_out` values no other thread writes at these grid points and
    /// channels.
    unsafe fn tile(&self, padded: &[f32], q: usize, blocks: Range<usize>, dst: SendPtr) {
        let (lanes, mr) = (self.tile.tile_lanes(), self.tile.tile_rows());
        let mut stores = [Stores::default(); NV];
        for (v, s) in stores.iter_mut().take(self.tile.tile_vectors()).enumerate() {
            *s = self.grid.stores(q + lanes * v, lanes);
        }
        let k_len = self.offsets.len();
        let src = padded[q..].as_ptr();
        // The bound of every read below (the offsets increase, the last is the furthest).
        assert!(
            q + self.tile.tile_points() + self.offsets.last().copied().unwrap_or(0) as usize
                <= padded.len(),
            "conv_direct: tile at {q} reads past the padded image"
        );
        let panels = self.panels.chunks_exact(k_len * mr).enumerate();
        for (blk, panel) in panels.skip(blocks.start).take(blocks.len()) {
            let co = blk * mr;
            let rows = (self.ocg - co).min(mr);
            let mut bias = [0.0; MAX_ROWS];
            if let Some(b) = self.bias {
                bias[..rows].copy_from_slice(&b[co..co + rows]);
            }
            let args = TileArgs {
                panel: panel.as_ptr(),
                src,
                offsets: self.offsets,
                bias,
                out: dst.0.wrapping_add(co * self.n_out),
                plane: self.n_out,
                stores: &stores,
            };
            // SAFETY: `conv_f32_with` checked the CPU runs the tile; reads stay in `padded`
            // (asserted above); stores as the caller guarantees.
            unsafe { self.tile.run_tile(rows, args) };
        }
    }
}

/// A raw output pointer shared by the tasks of one group (they write disjoint outputs).
#[derive(Clone, Copy)]
pub(crate) struct SendPtr(pub(crate) *mut f32);
// SAFETY: see `Group::run`: concurrent tasks write disjoint elements.
unsafe impl Send for SendPtr {}
// SAFETY: as above.
unsafe impl Sync for SendPtr {}

#[cfg(test)]
mod tests;
