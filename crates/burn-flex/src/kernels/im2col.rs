//! The shared machinery of the convolution kernels: geometry lifted to three spatial
//! dimensions, shape validation and output sizes, and the im2col / col2im transforms.
//!
//! A 1-d or 2-d problem gets leading spatial dimensions of size 1 (kernel 1, stride 1,
//! padding 0, dilation 1), so every dimensionality runs through one 3-d implementation.

use super::common::{check_len, check_positive, valid_range};
use crate::element::FloatElement;
use burn_std::{ConvOptions, ConvTransposeOptions};

/// Stride, padding, dilation and groups of a convolution, lifted to three spatial dimensions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Geom {
    pub stride: [usize; 3],
    pub padding: [usize; 3],
    pub dilation: [usize; 3],
    pub groups: usize,
}

/// One convolution's operands, lifted to three spatial dimensions: the input `x` `[b, c, d, h,
/// w]`, the weight `w` (`[oc, c/groups, kd, kh, kw]`, or `[c, oc/groups, …]` for a transposed
/// convolution), an optional bias per output channel, the geometry and the output extents `os`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConvArgs<'a, T> {
    pub x: &'a [T],
    pub x_shape: [usize; 5],
    pub w: &'a [T],
    pub w_shape: [usize; 5],
    pub bias: Option<&'a [T]>,
    pub g: &'a Geom,
    pub os: [usize; 3],
}

impl Geom {
    /// The lifted geometry of a forward convolution.
    pub fn conv<const N: usize>(o: &ConvOptions<N>) -> Self {
        Self {
            stride: lift(o.stride, 1),
            padding: lift(o.symmetric_padding(), 0),
            dilation: lift(o.dilation, 1),
            groups: o.groups,
        }
    }

    /// The lifted geometry of a transposed convolution (that of its forward convolution).
    pub fn transposed<const N: usize>(o: &ConvTransposeOptions<N>) -> Self {
        Self {
            stride: lift(o.stride, 1),
            padding: lift(o.padding, 0),
            dilation: lift(o.dilation, 1),
            groups: o.groups,
        }
    }

    pub fn check(&self, kernel: &str) {
        check_positive(kernel, "stride", &self.stride);
        check_positive(kernel, "dilation", &self.dilation);
        assert!(self.groups > 0, "{kernel}: expected groups > 0, got 0");
    }
}

/// `values` (one per spatial dimension, N ≤ 3) placed last in a 3-array filled with `fill`.
pub(crate) fn lift<const N: usize>(values: [usize; N], fill: usize) -> [usize; 3] {
    let mut out = [fill; 3];
    out[3 - N..].copy_from_slice(&values);
    out
}

/// A `[d0, d1, spatial…]` shape with 1 to 3 spatial dims, lifted to `[d0, d1, d, h, w]`.
pub(crate) fn lift_shape(shape: &[usize]) -> [usize; 5] {
    let n = shape.len() - 2;
    let mut out = [1; 5];
    out[..2].copy_from_slice(&shape[..2]);
    out[5 - n..].copy_from_slice(&shape[2..]);
    out
}

/// The inverse of [`lift_shape`] for a rank-`R` shape.
pub(crate) fn lower<const R: usize>(shape: [usize; 5]) -> [usize; R] {
    let mut out = [0; R];
    out[..2].copy_from_slice(&shape[..2]);
    out[2..].copy_from_slice(&shape[5 - (R - 2)..]);
    out
}

/// The inverse of [`lift_shape`] for a shape of `rank` dims.
pub(crate) fn unlift(shape: [usize; 5], rank: usize) -> Vec<usize> {
    let mut out = shape[..2].to_vec();
    out.extend_from_slice(&shape[5 - (rank - 2)..]);
    out
}

/// The spatial dims `[d, h, w]` of a lifted shape.
pub(crate) fn spatial(shape: [usize; 5]) -> [usize; 3] {
    [shape[2], shape[3], shape[4]]
}

/// Forward-convolution output length along one dimension (PyTorch's formula).
pub(crate) fn conv_out_len(kernel: &str, input: usize, k: usize, g: &Geom, dim: usize) -> usize {
    let eff = g.dilation[dim] * (k - 1) + 1;
    let padded = input + 2 * g.padding[dim];
    assert!(
        padded >= eff,
        "{kernel}: expected the dilated kernel extent ({eff}) to fit the padded input ({padded}) \
         along a spatial dimension, got input {input}, kernel {k}"
    );
    (padded - eff) / g.stride[dim] + 1
}

/// Unfolds `img` (`channels` planes of size `img_sp`) into `col`, a `[channels·k, n_col]`
/// matrix whose column `o` holds the taps of window `o` of the `col_sp` output grid.
#[allow(clippy::too_many_arguments)]
pub(crate) fn im2col<T: FloatElement>(
    img: &[T],
    channels: usize,
    img_sp: [usize; 3],
    ks: [usize; 3],
    g: &Geom,
    col_sp: [usize; 3],
    col: &mut [T],
) {
    let stride = g.stride[2];
    walk(channels, img_sp, ks, g, col_sp, |src, dst, lo, hi, n| {
        let row = &mut col[dst..dst + n];
        row[..lo].fill(T::zero());
        if stride == 1 {
            row[lo..hi].copy_from_slice(&img[src..src + hi - lo]);
        } else {
            for (o, v) in row[lo..hi].iter_mut().enumerate() {
                *v = img[src + o * stride];
            }
        }
        row[hi..].fill(T::zero());
    });
}

/// The adjoint of [`im2col`]: adds every entry of `col` into the `img` position it was read from.
#[allow(clippy::too_many_arguments)]
pub(crate) fn col2im<T: FloatElement>(
    col: &[T],
    channels: usize,
    img_sp: [usize; 3],
    ks: [usize; 3],
    g: &Geom,
    col_sp: [usize; 3],
    img: &mut [T],
) {
    let stride = g.stride[2];
    walk(channels, img_sp, ks, g, col_sp, |src, dst, lo, hi, _| {
        for (o, &v) in col[dst + lo..dst + hi].iter().enumerate() {
            let p = &mut img[src + o * stride];
            *p = *p + v;
        }
    });
}

/// Visits every im2col row segment (one channel, kernel tap, `od` and `oh`) and calls
/// `f(src, dst, lo, hi, ow_count)`: the segment starts at `dst` in `col`, its in-range columns
/// are `lo..hi`, and column `lo + o` reads image element `src + o * stride_w`.
fn walk(
    channels: usize,
    img_sp: [usize; 3],
    ks: [usize; 3],
    g: &Geom,
    col_sp: [usize; 3],
    mut f: impl FnMut(usize, usize, usize, usize, usize),
) {
    let [id_n, ih_n, iw_n] = img_sp;
    let [od_n, oh_n, ow_n] = col_sp;
    let plane = id_n * ih_n * iw_n;
    let (s, p, d) = (g.stride, g.padding, g.dilation);
    let mut dst = 0;
    for c in 0..channels {
        for kd in 0..ks[0] {
            for kh in 0..ks[1] {
                for kw in 0..ks[2] {
                    let off_w = (kw * d[2]) as isize - p[2] as isize;
                    let (lo, hi) = valid_range(ow_n, s[2], off_w, iw_n);
                    let first_w = ((lo * s[2]) as isize + off_w).max(0) as usize;
                    for od in 0..od_n {
                        let id = (od * s[0] + kd * d[0]) as isize - p[0] as isize;
                        for oh in 0..oh_n {
                            let ih = (oh * s[1] + kh * d[1]) as isize - p[1] as isize;
                            let inside = (0..id_n as isize).contains(&id)
                                && (0..ih_n as isize).contains(&ih);
                            if inside {
                                let row = (id as usize * ih_n + ih as usize) * iw_n;
                                f(c * plane + row + first_w, dst, lo, hi, ow_n);
                            } else {
                                f(0, dst, 0, 0, ow_n);
                            }
                            dst += ow_n;
                        }
                    }
                }
            }
        }
    }
}

/// Validates a convolution `x` `[b, c, in…]` ⊛ `w` `[oc, c/groups, k…]` and returns the lifted
/// input, weight and output shapes.
pub(crate) fn check_conv(
    kernel: &str,
    x_len: usize,
    x_shape: &[usize],
    w_len: usize,
    w_shape: &[usize],
    g: &Geom,
) -> ([usize; 5], [usize; 5], [usize; 5]) {
    let (xs, ws) = check_common(kernel, x_len, x_shape, w_len, w_shape, g);
    let (oc, icg) = (ws[0], ws[1]);
    assert_eq!(
        xs[1],
        icg * g.groups,
        "{kernel}: expected {} input channels (weight {w_shape:?} with {} groups), got input \
         {x_shape:?}",
        icg * g.groups,
        g.groups
    );
    assert!(
        oc.is_multiple_of(g.groups),
        "{kernel}: expected output channels ({oc}) divisible by groups ({}), got weight {w_shape:?}",
        g.groups
    );
    let (sx, sk) = (spatial(xs), spatial(ws));
    let os: [usize; 3] = core::array::from_fn(|i| conv_out_len(kernel, sx[i], sk[i], g, i));
    (xs, ws, [xs[0], oc, os[0], os[1], os[2]])
}

/// Validates a transposed convolution `x` `[b, ic, in…]` with `w` `[ic, oc/groups, k…]` and
/// returns the lifted input, weight and output shapes (PyTorch's output size).
pub(crate) fn check_conv_transpose(
    kernel: &str,
    x_len: usize,
    x_shape: &[usize],
    w_len: usize,
    w_shape: &[usize],
    g: &Geom,
    padding_out: [usize; 3],
) -> ([usize; 5], [usize; 5], [usize; 5]) {
    let (xs, ws) = check_common(kernel, x_len, x_shape, w_len, w_shape, g);
    let (ic, ocg) = (xs[1], ws[1]);
    assert_eq!(
        ic, ws[0],
        "{kernel}: expected {} input channels (weight {w_shape:?}), got input {x_shape:?}",
        ws[0]
    );
    assert!(
        ic.is_multiple_of(g.groups),
        "{kernel}: expected input channels ({ic}) divisible by groups ({})",
        g.groups
    );
    let (sx, sk) = (spatial(xs), spatial(ws));
    let os: [usize; 3] = core::array::from_fn(|i| {
        let full = sx[i].saturating_sub(1) * g.stride[i]
            + g.dilation[i] * (sk[i] - 1)
            + padding_out[i]
            + 1;
        assert!(
            sx[i] > 0 && full > 2 * g.padding[i],
            "{kernel}: expected a positive output size, got input {x_shape:?}, weight \
             {w_shape:?}, padding {:?}",
            g.padding
        );
        full - 2 * g.padding[i]
    });
    (xs, ws, [xs[0], ocg * g.groups, os[0], os[1], os[2]])
}

fn check_common(
    kernel: &str,
    x_len: usize,
    x_shape: &[usize],
    w_len: usize,
    w_shape: &[usize],
    g: &Geom,
) -> ([usize; 5], [usize; 5]) {
    check_len(kernel, "input", x_len, x_shape);
    check_len(kernel, "weight", w_len, w_shape);
    g.check(kernel);
    check_positive(kernel, "kernel size", &w_shape[2..]);
    (lift_shape(x_shape), lift_shape(w_shape))
}

/// Panics unless `bias` (when given) has one value per output channel.
pub(crate) fn check_bias<T>(kernel: &str, bias: Option<&[T]>, channels: usize) {
    if let Some(b) = bias {
        assert_eq!(
            b.len(),
            channels,
            "{kernel}: expected a bias of {channels} values (one per output channel), got {}",
            b.len()
        );
    }
}

/// Adds `bias[c]` to each `plane`-sized channel plane of one batch item's output.
pub(crate) fn add_bias<T: FloatElement>(out_b: &mut [T], bias: Option<&[T]>, plane: usize) {
    if let Some(bias) = bias {
        for (chunk, &b) in out_b.chunks_mut(plane.max(1)).zip(bias) {
            chunk.iter_mut().for_each(|v| *v = *v + b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_scalar_close, data, dot};

    #[test]
    fn col2im_is_the_adjoint_of_im2col() {
        let g = Geom {
            stride: [2, 1, 3],
            padding: [1, 0, 2],
            dilation: [1, 2, 1],
            groups: 1,
        };
        let (channels, img_sp, ks) = (2, [4, 5, 7], [2, 2, 3]);
        let col_sp: [usize; 3] =
            core::array::from_fn(|i| conv_out_len("test", img_sp[i], ks[i], &g, i));
        let n_img = channels * img_sp.iter().product::<usize>();
        let n_col = channels * ks.iter().product::<usize>() * col_sp.iter().product::<usize>();
        let img = data(n_img, 1.0);
        let other = data(n_col, 2.0);
        let mut col = vec![f64::NAN; n_col];
        im2col(&img, channels, img_sp, ks, &g, col_sp, &mut col);
        let mut back = vec![0.0; n_img];
        col2im(&other, channels, img_sp, ks, &g, col_sp, &mut back);
        // <im2col(x), c> == <x, col2im(c)>
        assert_scalar_close(dot(&col, &other), dot(&img, &back), 1e-12, "adjoint");
    }

    #[test]
    fn lifting_round_trips() {
        assert_eq!(lift([3, 4], 1), [1, 3, 4]);
        assert_eq!(lift_shape(&[2, 3, 9]), [2, 3, 1, 1, 9]);
        assert_eq!(lower::<4>([2, 3, 1, 5, 9]), [2, 3, 5, 9]);
        assert_eq!(unlift([2, 3, 1, 5, 9], 4), vec![2, 3, 5, 9]);
    }
}
