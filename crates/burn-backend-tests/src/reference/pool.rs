//! Pooling by definition, with PyTorch's output sizes and divisors.

use super::RefArray;

/// PyTorch's pooling output size, ONNX's for padding `(b, e)` that differs between the ends:
/// `⌊(l + b + e - d·(k - 1) - 1 (+ s - 1 with ceil)) / s⌋ + 1`, minus one when `ceil_mode` would
/// start the last window inside the end padding.
pub fn pool_output_size(
    l: usize,
    k: usize,
    s: usize,
    (b, e): (usize, usize),
    d: usize,
    ceil_mode: bool,
) -> usize {
    let span = l + b + e - d * (k - 1) - 1;
    let mut out = (span + if ceil_mode { s - 1 } else { 0 }) / s + 1;
    if ceil_mode && (out - 1) * s >= l + b {
        out -= 1;
    }
    out
}

/// Kernel size, stride, padding and dilation per spatial dim (height, width).
#[derive(Clone, Copy, Debug)]
pub struct PoolParams {
    /// Window size.
    pub kernel: [usize; 2],
    /// Step between windows.
    pub stride: [usize; 2],
    /// Implicit padding `(begin, end)`.
    pub padding: [(usize, usize); 2],
    /// Spacing between window taps (max pooling only).
    pub dilation: [usize; 2],
    /// Whether the output size rounds up.
    pub ceil_mode: bool,
}

impl RefArray {
    /// Max pooling of `[n, c, h, w]`; also returns the flat index `y · w + x` of each maximum
    /// in its plane (the first one on ties). Padding never wins.
    pub fn max_pool2d(&self, p: PoolParams) -> (Self, Self) {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let oh = pool_output_size(
            h,
            p.kernel[0],
            p.stride[0],
            p.padding[0],
            p.dilation[0],
            p.ceil_mode,
        );
        let ow = pool_output_size(
            w,
            p.kernel[1],
            p.stride[1],
            p.padding[1],
            p.dilation[1],
            p.ceil_mode,
        );
        let shape = [n, c, oh, ow];
        let best = |i: &[usize]| {
            let mut best: Option<(f64, usize)> = None;
            for ky in 0..p.kernel[0] {
                for kx in 0..p.kernel[1] {
                    let y = (i[2] * p.stride[0] + ky * p.dilation[0]) as isize
                        - p.padding[0].0 as isize;
                    let x = (i[3] * p.stride[1] + kx * p.dilation[1]) as isize
                        - p.padding[1].0 as isize;
                    if y < 0 || x < 0 || y >= h as isize || x >= w as isize {
                        continue;
                    }
                    let (y, x) = (y as usize, x as usize);
                    let v = self.at(&[i[0], i[1], y, x]);
                    if best.is_none_or(|(b, _)| v > b) {
                        best = Some((v, y * w + x));
                    }
                }
            }
            best.expect("max_pool2d: a window covers only padding")
        };
        (
            Self::from_fn(&shape, |i| best(i).0),
            Self::from_fn(&shape, |i| best(i).1 as f64),
        )
    }

    /// Average pooling of `[n, c, h, w]` (no dilation). With `count_include_pad`, the divisor
    /// is the window clipped to the padded input (its end padding included); otherwise the count
    /// of real elements.
    pub fn avg_pool2d(&self, p: PoolParams, count_include_pad: bool) -> Self {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let oh = pool_output_size(h, p.kernel[0], p.stride[0], p.padding[0], 1, p.ceil_mode);
        let ow = pool_output_size(w, p.kernel[1], p.stride[1], p.padding[1], 1, p.ceil_mode);
        Self::from_fn(&[n, c, oh, ow], |i| {
            let window = |o: usize, d: usize, size: usize| {
                let start = (o * p.stride[d]) as isize - p.padding[d].0 as isize;
                let end = (start + p.kernel[d] as isize).min((size + p.padding[d].1) as isize);
                let padded = (end - start) as usize;
                (
                    start.max(0) as usize,
                    end.min(size as isize) as usize,
                    padded,
                )
            };
            let (y0, y1, ph) = window(i[2], 0, h);
            let (x0, x1, pw) = window(i[3], 1, w);
            let mut sum = 0.0;
            for y in y0..y1 {
                for x in x0..x1 {
                    sum += self.at(&[i[0], i[1], y, x]);
                }
            }
            let divisor = if count_include_pad {
                ph * pw
            } else {
                (y1 - y0) * (x1 - x0)
            };
            sum / divisor as f64
        })
    }

    /// Adaptive average pooling of `[n, c, h, w]` to `[oh, ow]`: output cell `i` averages input
    /// `⌊i·l/o⌋ .. ⌈(i+1)·l/o⌉`.
    pub fn adaptive_avg_pool2d(&self, output: [usize; 2]) -> Self {
        let [n, c, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        Self::from_fn(&[n, c, output[0], output[1]], |i| {
            let range = |o: usize, out: usize, l: usize| (o * l / out, ((o + 1) * l).div_ceil(out));
            let (y0, y1) = range(i[2], output[0], h);
            let (x0, x1) = range(i[3], output[1], w);
            let mut sum = 0.0;
            for y in y0..y1 {
                for x in x0..x1 {
                    sum += self.at(&[i[0], i[1], y, x]);
                }
            }
            sum / ((y1 - y0) * (x1 - x0)) as f64
        })
    }
}
