//! Direct convolutions by their definitions (channels first, PyTorch weight layouts).

use super::RefArray;

/// Stride, padding, dilation (per spatial dim, height then width) and groups.
#[derive(Clone, Copy, Debug)]
pub struct ConvParams {
    /// Step between windows.
    pub stride: [usize; 2],
    /// Zero padding on both sides.
    pub padding: [usize; 2],
    /// Spacing between kernel taps.
    pub dilation: [usize; 2],
    /// Channel groups.
    pub groups: usize,
}

impl RefArray {
    /// `x [n, c_in, h, w]` convolved with `weight [c_out, c_in / groups, kh, kw]`, plus
    /// `bias [c_out]`: `out[b, o, y, x] = bias[o] + Σ x[b, g·cig + c, y·s - p + ky·d, …] · w[o, c, ky, kx]`.
    pub fn conv2d(&self, weight: &Self, bias: Option<&Self>, p: ConvParams) -> Self {
        self.conv2d_padded(weight, bias, p, p.padding.map(|q| (q, q)))
    }

    /// [`conv2d`](Self::conv2d) with `(begin, end)` zero padding per spatial dim, in place of
    /// `p.padding` (ONNX's `pads`).
    pub fn conv2d_padded(
        &self,
        weight: &Self,
        bias: Option<&Self>,
        p: ConvParams,
        padding: [(usize, usize); 2],
    ) -> Self {
        let [n, c_in, h, w]: [usize; 4] = self.shape.clone().try_into().expect("conv2d: rank 4");
        let [c_out, cig, kh, kw]: [usize; 4] = weight.shape.clone().try_into().expect("rank 4");
        assert_eq!(c_in, cig * p.groups, "conv2d: channels");
        let cog = c_out / p.groups;
        let out_size = |size: usize, k: usize, i: usize| {
            let (begin, end) = padding[i];
            (size + begin + end - p.dilation[i] * (k - 1) - 1) / p.stride[i] + 1
        };
        let (oh, ow) = (out_size(h, kh, 0), out_size(w, kw, 1));
        // Flat row-major indexing (`at` checks every index, which made large cases slow).
        let (x, wt) = (&self.data, &weight.data);
        Self::from_fn(&[n, c_out, oh, ow], |i| {
            let (b, o, y, xo) = (i[0], i[1], i[2], i[3]);
            let g = o / cog;
            let mut acc = bias.map_or(0.0, |bias| bias.data[o]);
            for c in 0..cig {
                let plane = &x[(b * c_in + g * cig + c) * h * w..][..h * w];
                let taps = &wt[(o * cig + c) * kh * kw..][..kh * kw];
                for ky in 0..kh {
                    let iy =
                        (y * p.stride[0] + ky * p.dilation[0]) as isize - padding[0].0 as isize;
                    if iy < 0 || iy >= h as isize {
                        continue;
                    }
                    for kx in 0..kw {
                        let ix = (xo * p.stride[1] + kx * p.dilation[1]) as isize
                            - padding[1].0 as isize;
                        if ix < 0 || ix >= w as isize {
                            continue;
                        }
                        acc += plane[iy as usize * w + ix as usize] * taps[ky * kw + kx];
                    }
                }
            }
            acc
        })
    }

    /// `x [n, c_in, h, w]` through the transposed convolution with
    /// `weight [c_in, c_out / groups, kh, kw]`: every input element scatters
    /// `x · w` to `out[y·s - p + ky·d, …]`; output size `(in - 1)·s - 2p + d·(k - 1) + out_pad + 1`.
    pub fn conv_transpose2d(
        &self,
        weight: &Self,
        bias: Option<&Self>,
        p: ConvParams,
        padding_out: [usize; 2],
    ) -> Self {
        let [n, c_in, h, w]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        let [wc_in, cog, kh, kw]: [usize; 4] = weight.shape.clone().try_into().expect("rank 4");
        assert_eq!(c_in, wc_in, "conv_transpose2d: channels");
        let cig = c_in / p.groups;
        let c_out = cog * p.groups;
        let out_size = |size: usize, k: usize, i: usize| {
            (size - 1) * p.stride[i] + p.dilation[i] * (k - 1) + padding_out[i] + 1
                - 2 * p.padding[i]
        };
        let (oh, ow) = (out_size(h, kh, 0), out_size(w, kw, 1));
        let mut out = Self::from_fn(&[n, c_out, oh, ow], |i| bias.map_or(0.0, |b| b.data[i[1]]));
        for b in 0..n {
            for c in 0..c_in {
                let g = c / cig;
                for oc in 0..cog {
                    for y in 0..h {
                        for x in 0..w {
                            for ky in 0..kh {
                                for kx in 0..kw {
                                    let ty = (y * p.stride[0] + ky * p.dilation[0]) as isize
                                        - p.padding[0] as isize;
                                    let tx = (x * p.stride[1] + kx * p.dilation[1]) as isize
                                        - p.padding[1] as isize;
                                    if ty < 0 || tx < 0 || ty >= oh as isize || tx >= ow as isize {
                                        continue;
                                    }
                                    let target = [b, g * cog + oc, ty as usize, tx as usize];
                                    let v = out.at(&target)
                                        + self.at(&[b, c, y, x]) * weight.at(&[c, oc, ky, kx]);
                                    out.set(&target, v);
                                }
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// `[n, c, l]` viewed as `[n, c, 1, l]`.
    pub fn as_2d(&self) -> Self {
        let [n, c, l]: [usize; 3] = self.shape.clone().try_into().expect("rank 3");
        self.reshape(&[n, c, 1, l])
    }

    /// `[n, c, 1, l]` viewed as `[n, c, l]`.
    pub fn as_1d(&self) -> Self {
        let [n, c, one, l]: [usize; 4] = self.shape.clone().try_into().expect("rank 4");
        assert_eq!(one, 1);
        self.reshape(&[n, c, l])
    }
}
