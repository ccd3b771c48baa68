//! 2-d interpolation (nearest, bilinear, bicubic) of NCHW slices and its backward, following
//! PyTorch's `upsample_*` source-index and weight formulas.
//!
//! Each output row and column is a weighted sum of input taps (1, 2 or 4 per axis); the
//! backward scatters the output gradient to the same taps with the same weights.

use super::common::{PARALLEL_WORK, check_len, for_each_chunk, from_f64, to_f64};
use crate::element::FloatElement;
use crate::tensor::pool;
use burn_std::{InterpolateMode, InterpolateOptions};

/// The cubic-convolution constant PyTorch uses for bicubic interpolation.
const CUBIC_A: f64 = -0.75;

/// For each of the `out` positions along an axis, `n` input taps and their weights.
struct Taps {
    n: usize,
    idx: Vec<usize>,
    w: Vec<f64>,
}

impl Taps {
    fn of(&self, o: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let r = o * self.n..(o + 1) * self.n;
        self.idx[r.clone()]
            .iter()
            .copied()
            .zip(self.w[r].iter().copied())
    }
}

/// PyTorch's `area_pixel_compute_source_index`: the real source coordinate of output `o`.
/// Linear modes clamp negative coordinates to 0; cubic does not.
fn source(o: usize, len: usize, out: usize, align_corners: bool, cubic: bool) -> f64 {
    if align_corners {
        let scale = if out > 1 {
            (len - 1) as f64 / (out - 1) as f64
        } else {
            0.0
        };
        scale * o as f64
    } else {
        let src = len as f64 / out as f64 * (o as f64 + 0.5) - 0.5;
        if !cubic && src < 0.0 { 0.0 } else { src }
    }
}

/// PyTorch's cubic-convolution weights of the taps at offsets -1, 0, 1, 2 for fraction `t`.
fn cubic_weights(t: f64) -> [f64; 4] {
    let a = CUBIC_A;
    // |x| ≤ 1 and 1 < |x| < 2 branches of the Keys kernel.
    let near = |x: f64| ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0;
    let far = |x: f64| ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a;
    [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]
}

fn axis_taps(mode: InterpolateMode, align_corners: bool, len: usize, out: usize) -> Taps {
    let last = len - 1;
    let (mut idx, mut w) = (Vec::new(), Vec::new());
    let n = match mode {
        InterpolateMode::Nearest => {
            // PyTorch's `nearest`: floor(o * len / out), computed exactly in integers.
            for o in 0..out {
                idx.push((o * len / out).min(last));
                w.push(1.0);
            }
            1
        }
        InterpolateMode::NearestExact => {
            // PyTorch's `nearest-exact`: floor((o + 0.5) * len / out), exactly in integers.
            for o in 0..out {
                idx.push(((2 * o + 1) * len / (2 * out)).min(last));
                w.push(1.0);
            }
            1
        }
        InterpolateMode::Bilinear => {
            for o in 0..out {
                let src = source(o, len, out, align_corners, false);
                let i0 = (src.floor() as usize).min(last);
                let l1 = src - i0 as f64;
                idx.extend([i0, (i0 + 1).min(last)]);
                w.extend([1.0 - l1, l1]);
            }
            2
        }
        InterpolateMode::Bicubic => {
            for o in 0..out {
                let src = source(o, len, out, align_corners, true);
                let base = src.floor();
                let weights = cubic_weights(src - base);
                for (k, wk) in weights.into_iter().enumerate() {
                    let i = (base as isize - 1 + k as isize).clamp(0, last as isize);
                    idx.push(i as usize);
                    w.push(wk);
                }
            }
            4
        }
        InterpolateMode::Lanczos3 => {
            panic!(
                "interpolate: Lanczos3 is not supported by Flex (modes: nearest, nearest-exact, bilinear, bicubic)"
            )
        }
    };
    Taps { n, idx, w }
}

fn plan(
    kernel: &str,
    x_shape: [usize; 4],
    output_size: [usize; 2],
    options: &InterpolateOptions,
) -> (Taps, Taps) {
    let [_, _, h, w] = x_shape;
    let [oh, ow] = output_size;
    assert!(
        (h > 0 || oh == 0) && (w > 0 || ow == 0),
        "{kernel}: expected a non-empty input plane to interpolate to {output_size:?}, got input \
         shape {x_shape:?}"
    );
    let rows = if oh > 0 {
        axis_taps(options.mode, options.align_corners(), h, oh)
    } else {
        Taps {
            n: 0,
            idx: vec![],
            w: vec![],
        }
    };
    let cols = if ow > 0 {
        axis_taps(options.mode, options.align_corners(), w, ow)
    } else {
        Taps {
            n: 0,
            idx: vec![],
            w: vec![],
        }
    };
    (rows, cols)
}

/// Resizes `x` `[n, c, h, w]` to `output_size` `[oh, ow]` with `options.mode`; `align_corners`
/// applies to bilinear and bicubic. Returns the output and its shape `[n, c, oh, ow]`.
pub fn interpolate<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> (Vec<T>, [usize; 4]) {
    let name = "interpolate";
    check_len(name, "input", x.len(), &x_shape);
    let (rows, cols) = plan(name, x_shape, output_size, &options);
    let [b, c, h, w] = x_shape;
    let [oh, ow] = output_size;
    // Every output value is written below.
    let mut out = pool::for_overwrite::<T>(b * c * oh * ow);
    let work = out.len() * rows.n * cols.n;
    for_each_chunk(&mut out, oh * ow, work >= PARALLEL_WORK, |p, dst| {
        let src = &x[p * h * w..(p + 1) * h * w];
        for oy in 0..oh {
            for ox in 0..ow {
                let mut acc = 0.0;
                for (y, wy) in rows.of(oy) {
                    let mut row = 0.0;
                    for (xx, wx) in cols.of(ox) {
                        row += wx * to_f64(src[y * w + xx]);
                    }
                    acc += wy * row;
                }
                dst[oy * ow + ox] = from_f64(acc);
            }
        }
    });
    (out, [b, c, oh, ow])
}

/// Gradient of [`interpolate`] w.r.t. `x` `[n, c, h, w]`, from `grad_out` `[n, c, oh, ow]`: each
/// gradient value is added to the taps it was interpolated from, with the same weights.
pub fn interpolate_backward<T: FloatElement>(
    grad_out: &[T],
    x_shape: [usize; 4],
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> Vec<T> {
    let name = "interpolate_backward";
    let [b, c, h, w] = x_shape;
    let [oh, ow] = output_size;
    check_len(name, "output gradient", grad_out.len(), &[b, c, oh, ow]);
    let (rows, cols) = plan(name, x_shape, output_size, &options);
    let mut dx = vec![T::zero(); b * c * h * w];
    let work = grad_out.len() * rows.n * cols.n;
    for_each_chunk(&mut dx, h * w, work >= PARALLEL_WORK, |p, dst| {
        let g = &grad_out[p * oh * ow..(p + 1) * oh * ow];
        let mut acc = vec![0f64; h * w];
        for oy in 0..oh {
            for ox in 0..ow {
                let v = to_f64(g[oy * ow + ox]);
                for (y, wy) in rows.of(oy) {
                    for (xx, wx) in cols.of(ox) {
                        acc[y * w + xx] += wy * wx * v;
                    }
                }
            }
        }
        dst.iter_mut().zip(acc).for_each(|(d, a)| *d = from_f64(a));
    });
    dx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_close, assert_scalar_close, back, data, dot, to};
    use burn_std::bf16;

    /// Input value at a row/column clamped into the plane.
    fn at(x: &[f64], h: usize, w: usize, y: isize, xx: isize) -> f64 {
        x[y.clamp(0, h as isize - 1) as usize * w + xx.clamp(0, w as isize - 1) as usize]
    }

    /// The source coordinate, written from PyTorch's documented rules.
    fn src(o: usize, len: usize, out: usize, align: bool) -> f64 {
        match (align, out) {
            (true, 1) => 0.0,
            (true, _) => o as f64 * (len as f64 - 1.0) / (out as f64 - 1.0),
            (false, _) => (o as f64 + 0.5) * len as f64 / out as f64 - 0.5,
        }
    }

    /// The Keys cubic kernel W(d) with a = -0.75, piecewise in |d|.
    fn keys(d: f64) -> f64 {
        let (a, d) = (-0.75, d.abs());
        if d <= 1.0 {
            (a + 2.0) * d.powi(3) - (a + 3.0) * d.powi(2) + 1.0
        } else if d < 2.0 {
            a * d.powi(3) - 5.0 * a * d.powi(2) + 8.0 * a * d - 4.0 * a
        } else {
            0.0
        }
    }

    /// Direct per-pixel interpolation of one plane by the definitions, in f64.
    fn naive(
        x: &[f64],
        h: usize,
        w: usize,
        oh: usize,
        ow: usize,
        mode: InterpolateMode,
        align: bool,
    ) -> Vec<f64> {
        let mut out = vec![];
        for oy in 0..oh {
            for ox in 0..ow {
                let v = match mode {
                    InterpolateMode::Nearest => {
                        let y = (oy as f64 * h as f64 / oh as f64).floor() as isize;
                        let xx = (ox as f64 * w as f64 / ow as f64).floor() as isize;
                        at(x, h, w, y, xx)
                    }
                    InterpolateMode::NearestExact => {
                        let y = ((oy as f64 + 0.5) * h as f64 / oh as f64).floor() as isize;
                        let xx = ((ox as f64 + 0.5) * w as f64 / ow as f64).floor() as isize;
                        at(x, h, w, y, xx)
                    }
                    InterpolateMode::Lanczos3 => unreachable!("not among MODES"),
                    InterpolateMode::Bilinear => {
                        let (sy, sx) = (
                            src(oy, h, oh, align).max(0.0),
                            src(ox, w, ow, align).max(0.0),
                        );
                        let (y0, x0) = (sy.floor(), sx.floor());
                        let (ty, tx) = (sy - y0, sx - x0);
                        let (y0, x0) = (y0 as isize, x0 as isize);
                        (1.0 - ty)
                            * ((1.0 - tx) * at(x, h, w, y0, x0) + tx * at(x, h, w, y0, x0 + 1))
                            + ty * ((1.0 - tx) * at(x, h, w, y0 + 1, x0)
                                + tx * at(x, h, w, y0 + 1, x0 + 1))
                    }
                    InterpolateMode::Bicubic => {
                        let (sy, sx) = (src(oy, h, oh, align), src(ox, w, ow, align));
                        let (y0, x0) = (sy.floor(), sx.floor());
                        let mut acc = 0.0;
                        for dy in -1..=2isize {
                            for dx in -1..=2isize {
                                let (ty, tx) = (y0 + dy as f64, x0 + dx as f64);
                                acc += keys(sy - ty)
                                    * keys(sx - tx)
                                    * at(x, h, w, ty as isize, tx as isize);
                            }
                        }
                        acc
                    }
                };
                out.push(v);
            }
        }
        out
    }

    const MODES: [InterpolateMode; 4] = [
        InterpolateMode::Nearest,
        InterpolateMode::NearestExact,
        InterpolateMode::Bilinear,
        InterpolateMode::Bicubic,
    ];

    #[test]
    fn interpolate_matches_direct_definition_and_backward_is_adjoint() {
        // (input shape, output size): up, down, mixed, identity, single row/column, large.
        let cases: &[([usize; 4], [usize; 2])] = &[
            ([2, 3, 5, 7], [9, 4]),
            ([1, 2, 6, 6], [3, 5]),
            ([1, 1, 4, 3], [4, 3]),
            ([1, 2, 1, 5], [3, 11]),
            ([1, 1, 3, 4], [1, 1]),
            ([2, 2, 7, 9], [7, 17]),
            ([4, 8, 24, 24], [37, 29]),
        ];
        for (i, &(shape, out)) in cases.iter().enumerate() {
            for mode in MODES {
                for align in [false, true] {
                    let what = format!("case {i} {mode:?} align_corners {align}");
                    let options = InterpolateOptions::new(mode).with_align_corners(align);
                    let x = data(shape.iter().product(), i as f64);
                    let [b, c, h, w] = shape;
                    let expected: Vec<f64> = (0..b * c)
                        .flat_map(|p| {
                            naive(
                                &x[p * h * w..(p + 1) * h * w],
                                h,
                                w,
                                out[0],
                                out[1],
                                mode,
                                align,
                            )
                        })
                        .collect();
                    let (y, y_shape) = interpolate(&x, shape, out, options);
                    assert_eq!(y_shape, [b, c, out[0], out[1]], "{what}");
                    assert_close(&y, &expected, 1e-12, &what);
                    let g = data(y.len(), 4.0 + i as f64);
                    let dx = interpolate_backward(&g, shape, out, options);
                    assert_scalar_close(
                        dot(&x, &dx),
                        dot(&y, &g),
                        1e-9,
                        &format!("{what}: adjoint"),
                    );
                    let (y32, _) = interpolate(&to::<f32>(&x), shape, out, options);
                    assert_close(&back(&y32), &expected, 1e-6, &what);
                    let (yb, _) = interpolate(&to::<bf16>(&x), shape, out, options);
                    assert_close(&back(&yb), &expected, 2e-2, &what);
                    let db = interpolate_backward(&to::<bf16>(&g), shape, out, options);
                    assert_close(&back(&db), &dx, 2e-2, &what);
                }
            }
        }
    }

    #[test]
    fn same_size_is_identity() {
        let x = data(2 * 5 * 6, 1.0);
        for mode in MODES {
            let (y, _) = interpolate(
                &x,
                [1, 2, 5, 6],
                [5, 6],
                InterpolateOptions::new(mode).with_align_corners(false),
            );
            assert_close(&y, &x, 1e-14, &format!("{mode:?}"));
        }
    }

    #[test]
    fn known_values() {
        let x = [1.0f64, 2.0, 3.0, 4.0];
        let opts = |mode, align| InterpolateOptions::new(mode).with_align_corners(align);
        // F.interpolate(torch.tensor([[[[1., 2], [3, 4]]]]), size=(4, 4), mode='bilinear',
        //     align_corners=False)
        let (y, _) = interpolate(
            &x,
            [1, 1, 2, 2],
            [4, 4],
            opts(InterpolateMode::Bilinear, false),
        );
        #[rustfmt::skip]
        let expected = [1.0, 1.25, 1.75, 2.0, 1.5, 1.75, 2.25, 2.5, 2.5, 2.75, 3.25, 3.5, 3.0, 3.25, 3.75, 4.0];
        assert_close(&y, &expected, 1e-15, "bilinear");
        // ... size=(3, 3), mode='bilinear', align_corners=True
        let (y, _) = interpolate(
            &x,
            [1, 1, 2, 2],
            [3, 3],
            opts(InterpolateMode::Bilinear, true),
        );
        assert_close(
            &y,
            &[1.0, 1.5, 2.0, 2.0, 2.5, 3.0, 3.0, 3.5, 4.0],
            1e-15,
            "bilinear aligned",
        );
        // ... size=(3, 3), mode='nearest'
        let (y, _) = interpolate(
            &x,
            [1, 1, 2, 2],
            [3, 3],
            opts(InterpolateMode::Nearest, false),
        );
        assert_eq!(y, vec![1.0, 1.0, 2.0, 1.0, 1.0, 2.0, 3.0, 3.0, 4.0]);
    }

    #[test]
    #[should_panic(
        expected = "interpolate_backward: expected output gradient of shape [1, 1, 3, 3] (9 values), got 4 values"
    )]
    fn backward_rejects_bad_gradient() {
        interpolate_backward(
            &[0.0f64; 4],
            [1, 1, 2, 2],
            [3, 3],
            InterpolateOptions::new(InterpolateMode::Bilinear),
        );
    }
}
