//! Resizing `[n, c, h, w]` with PyTorch's source-coordinate formulas.

use super::RefArray;

/// PyTorch's `area_pixel_compute_source_index`: the source coordinate of output `dst`.
/// With `align_corners` the corners map to corners (`dst · (in - 1) / (out - 1)`); otherwise
/// pixel centres map to centres (`(dst + 0.5) · in / out - 0.5`), clamped at 0 unless `cubic`.
pub fn source_coordinate(
    dst: usize,
    input: usize,
    output: usize,
    align_corners: bool,
    cubic: bool,
) -> f64 {
    if align_corners {
        if output > 1 {
            dst as f64 * (input - 1) as f64 / (output - 1) as f64
        } else {
            0.0
        }
    } else {
        let src = (dst as f64 + 0.5) * input as f64 / output as f64 - 0.5;
        if cubic { src } else { src.max(0.0) }
    }
}

/// Keys's cubic convolution weights (`A = -0.75`) for a fractional offset `t`.
fn cubic_weights(t: f64) -> [f64; 4] {
    const A: f64 = -0.75;
    let near = |x: f64| ((A + 2.0) * x - (A + 3.0)) * x * x + 1.0;
    let far = |x: f64| ((A * x - 5.0 * A) * x + 8.0 * A) * x - 4.0 * A;
    [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]
}

impl RefArray {
    /// Nearest neighbour (PyTorch `nearest`): source `min(⌊dst · in / out⌋, in - 1)`.
    pub fn interpolate_nearest(&self, output: [usize; 2]) -> Self {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let src = |dst: usize, input: usize, out: usize| ((dst * input) / out).min(input - 1);
        Self::from_fn(&[n, c, output[0], output[1]], |i| {
            self.at(&[i[0], i[1], src(i[2], h, output[0]), src(i[3], w, output[1])])
        })
    }

    /// Nearest by pixel centres (PyTorch `nearest-exact`): source `⌊(dst + ½) · in / out⌋`.
    pub fn interpolate_nearest_exact(&self, output: [usize; 2]) -> Self {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let src = |dst: usize, input: usize, out: usize| {
            (((dst as f64 + 0.5) * input as f64 / out as f64).floor() as usize).min(input - 1)
        };
        Self::from_fn(&[n, c, output[0], output[1]], |i| {
            self.at(&[i[0], i[1], src(i[2], h, output[0]), src(i[3], w, output[1])])
        })
    }

    /// Bilinear (PyTorch `bilinear`).
    pub fn interpolate_bilinear(&self, output: [usize; 2], align_corners: bool) -> Self {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let taps = |dst: usize, input: usize, out: usize| {
            let s = source_coordinate(dst, input, out, align_corners, false);
            let i0 = (s.floor() as usize).min(input - 1);
            let i1 = (i0 + 1).min(input - 1);
            (i0, i1, s - i0 as f64)
        };
        Self::from_fn(&[n, c, output[0], output[1]], |i| {
            let (y0, y1, ty) = taps(i[2], h, output[0]);
            let (x0, x1, tx) = taps(i[3], w, output[1]);
            let v = |y: usize, x: usize| self.at(&[i[0], i[1], y, x]);
            (1.0 - ty) * ((1.0 - tx) * v(y0, x0) + tx * v(y0, x1))
                + ty * ((1.0 - tx) * v(y1, x0) + tx * v(y1, x1))
        })
    }

    /// Bicubic (PyTorch `bicubic`, `A = -0.75`, borders replicated).
    pub fn interpolate_bicubic(&self, output: [usize; 2], align_corners: bool) -> Self {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let taps = |dst: usize, input: usize, out: usize| {
            let s = source_coordinate(dst, input, out, align_corners, true);
            let base = s.floor();
            let weights = cubic_weights(s - base);
            let index = |k: isize| (base as isize - 1 + k).clamp(0, input as isize - 1) as usize;
            ([index(0), index(1), index(2), index(3)], weights)
        };
        Self::from_fn(&[n, c, output[0], output[1]], |i| {
            let (ys, wy) = taps(i[2], h, output[0]);
            let (xs, wx) = taps(i[3], w, output[1]);
            let mut acc = 0.0;
            for a in 0..4 {
                for b in 0..4 {
                    acc += wy[a] * wx[b] * self.at(&[i[0], i[1], ys[a], xs[b]]);
                }
            }
            acc
        })
    }
}
