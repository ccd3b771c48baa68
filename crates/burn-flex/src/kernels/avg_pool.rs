//! Average pooling (1-d and 2-d) over contiguous NCL / NCHW slices with PyTorch's divisor rules
//! (`count_include_pad`, `ceil_mode`), and the backward kernels. A 1-d pool is the 2-d pool of
//! height 1.

use super::common::{check_len, from_f64, to_f64};
use super::pool::{Window, planes};
use crate::element::FloatElement;
use crate::tensor::pool;

/// One averaging window along an axis: clamped `start..end` and the divisor's extent.
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    padded_len: usize,
}

/// PyTorch's average-pool windows: `[o*s - p, min(o*s - p + k, len + p))` counts toward the
/// padded size, then is clamped to the input.
fn avg_spans(out: usize, len: usize, k: usize, s: usize, p: usize) -> Vec<Span> {
    (0..out)
        .map(|o| {
            let start = (o * s) as isize - p as isize;
            let end = (start + k as isize).min((len + p) as isize);
            Span {
                start: start.max(0) as usize,
                end: (end.max(0) as usize).min(len),
                padded_len: (end - start).max(0) as usize,
            }
        })
        .collect()
}

struct AvgPlan {
    /// The input shape, 1-d problems lifted to height 1.
    shape: [usize; 4],
    /// Whether the problem is 1-d (for messages).
    one_d: bool,
    out: [usize; 2],
    rows: Vec<Span>,
    cols: Vec<Span>,
    count_include_pad: bool,
}

impl AvgPlan {
    #[allow(clippy::too_many_arguments)]
    fn new(
        kernel: &str,
        shape: [usize; 4],
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> Self {
        let win = Window {
            kernel: kernel_size,
            stride,
            padding,
            dilation: [1, 1],
            ceil_mode,
        };
        let [h, w] = [shape[2], shape[3]];
        let out = win.out_size(kernel, [h, w]);
        let rows = avg_spans(out[0], h, kernel_size[0], stride[0], padding[0]);
        let cols = avg_spans(out[1], w, kernel_size[1], stride[1], padding[1]);
        let one_d = kernel.contains("1d");
        Self {
            shape,
            one_d,
            out,
            rows,
            cols,
            count_include_pad,
        }
    }

    fn divisor(&self, r: &Span, c: &Span) -> f64 {
        let n = if self.count_include_pad {
            r.padded_len * c.padded_len
        } else {
            (r.end - r.start) * (c.end - c.start)
        };
        n as f64
    }

    fn forward<T: FloatElement>(&self, x: &[T]) -> Vec<T> {
        let [b, c, h, w] = self.shape;
        let n_out = self.out[0] * self.out[1];
        // Every output value is written below.
        let mut out = pool::for_overwrite::<T>(b * c * n_out);
        planes(&mut out, n_out, b * c * h * w, |p, dst| {
            let src = &x[p * h * w..(p + 1) * h * w];
            for (oy, r) in self.rows.iter().enumerate() {
                for (ox, col) in self.cols.iter().enumerate() {
                    let mut sum = 0.0;
                    for y in r.start..r.end {
                        sum += src[y * w + col.start..y * w + col.end]
                            .iter()
                            .map(|&v| to_f64(v))
                            .sum::<f64>();
                    }
                    let d = self.divisor(r, col);
                    dst[oy * self.out[1] + ox] = from_f64(if d > 0.0 { sum / d } else { 0.0 });
                }
            }
        });
        out
    }

    fn backward<T: FloatElement>(&self, kernel: &str, grad: &[T]) -> Vec<T> {
        let [b, c, h, w] = self.shape;
        let mut shown = vec![b, c];
        if !self.one_d {
            shown.push(self.out[0]);
        }
        shown.push(self.out[1]);
        check_len(kernel, "output gradient", grad.len(), &shown);
        let n_out = self.out[0] * self.out[1];
        // Every value is written from its plane's accumulator.
        let mut dx = pool::for_overwrite::<T>(b * c * h * w);
        planes(&mut dx, h * w, b * c * h * w, |p, dst| {
            let g = &grad[p * n_out..(p + 1) * n_out];
            let mut acc = vec![0f64; h * w];
            for (oy, r) in self.rows.iter().enumerate() {
                for (ox, col) in self.cols.iter().enumerate() {
                    let d = self.divisor(r, col);
                    if d == 0.0 {
                        continue;
                    }
                    let share = to_f64(g[oy * self.out[1] + ox]) / d;
                    for y in r.start..r.end {
                        acc[y * w + col.start..y * w + col.end]
                            .iter_mut()
                            .for_each(|a| *a += share);
                    }
                }
            }
            dst.iter_mut().zip(acc).for_each(|(d, a)| *d = from_f64(a));
        });
        dx
    }
}

/// 2-d average pooling of `x` `[b, c, h, w]` (PyTorch's `avg_pool2d` divisor rules for
/// `count_include_pad` and `ceil_mode`); returns the output and its shape `[b, c, oh, ow]`.
pub fn avg_pool2d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> (Vec<T>, [usize; 4]) {
    let name = "avg_pool2d";
    check_len(name, "input", x.len(), &x_shape);
    let plan = AvgPlan::new(
        name,
        x_shape,
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    );
    let [b, c, ..] = x_shape;
    (plan.forward(x), [b, c, plan.out[0], plan.out[1]])
}

/// Gradient of [`avg_pool2d`] w.r.t. `x` `[b, c, h, w]`, from `grad_out` `[b, c, oh, ow]`.
pub fn avg_pool2d_backward<T: FloatElement>(
    grad_out: &[T],
    x_shape: [usize; 4],
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Vec<T> {
    let name = "avg_pool2d_backward";
    let plan = AvgPlan::new(
        name,
        x_shape,
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    );
    plan.backward(name, grad_out)
}

/// 1-d average pooling of `x` `[b, c, l]`; returns the output and its shape `[b, c, ol]`.
pub fn avg_pool1d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 3],
    kernel_size: usize,
    stride: usize,
    padding: usize,
    count_include_pad: bool,
    ceil_mode: bool,
) -> (Vec<T>, [usize; 3]) {
    let name = "avg_pool1d";
    check_len(name, "input", x.len(), &x_shape);
    let [b, c, l] = x_shape;
    let plan = AvgPlan::new(
        name,
        [b, c, 1, l],
        [1, kernel_size],
        [1, stride],
        [0, padding],
        count_include_pad,
        ceil_mode,
    );
    (plan.forward(x), [b, c, plan.out[1]])
}

/// Gradient of [`avg_pool1d`] w.r.t. `x` `[b, c, l]`, from `grad_out` `[b, c, ol]`.
pub fn avg_pool1d_backward<T: FloatElement>(
    grad_out: &[T],
    x_shape: [usize; 3],
    kernel_size: usize,
    stride: usize,
    padding: usize,
    count_include_pad: bool,
    ceil_mode: bool,
) -> Vec<T> {
    let name = "avg_pool1d_backward";
    let [b, c, l] = x_shape;
    let plan = AvgPlan::new(
        name,
        [b, c, 1, l],
        [1, kernel_size],
        [1, stride],
        [0, padding],
        count_include_pad,
        ceil_mode,
    );
    plan.backward(name, grad_out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{
        POOL_CASES, assert_close, assert_scalar_close, back, data, dot, pool_out_len, to,
    };
    use burn_std::bf16;

    /// Direct average pooling, in f64: the divisor counts the taps inside the padded input
    /// (`count_include_pad`) or inside the input.
    fn naive_avg(
        x: &[f64],
        [b, c, h, w]: [usize; 4],
        k: [usize; 2],
        s: [usize; 2],
        p: [usize; 2],
        include: bool,
        ceil: bool,
    ) -> Vec<f64> {
        let oh = pool_out_len(h, k[0], s[0], p[0], 1, ceil);
        let ow = pool_out_len(w, k[1], s[1], p[1], 1, ceil);
        let mut out = vec![];
        for plane in 0..b * c {
            for oy in 0..oh {
                for ox in 0..ow {
                    let (mut sum, mut padded, mut inside) = (0.0, 0usize, 0usize);
                    for ky in 0..k[0] {
                        for kx in 0..k[1] {
                            let y = (oy * s[0] + ky) as isize - p[0] as isize;
                            let xx = (ox * s[1] + kx) as isize - p[1] as isize;
                            if y < (h + p[0]) as isize && xx < (w + p[1]) as isize {
                                padded += 1;
                            }
                            if y >= 0 && xx >= 0 && y < h as isize && xx < w as isize {
                                inside += 1;
                                sum += x[plane * h * w + y as usize * w + xx as usize];
                            }
                        }
                    }
                    out.push(sum / if include { padded } else { inside } as f64);
                }
            }
        }
        out
    }

    #[test]
    fn avg_pool_matches_direct_definition_and_backward_is_adjoint() {
        for (i, &(shape, k, s, p, _)) in POOL_CASES.iter().enumerate() {
            for ceil in [false, true] {
                for include in [false, true] {
                    let what = format!("case {i} ceil {ceil} count_include_pad {include}");
                    let x = data(shape.iter().product(), i as f64);
                    let expected = naive_avg(&x, shape, k, s, p, include, ceil);
                    let (out, out_shape) = avg_pool2d(&x, shape, k, s, p, include, ceil);
                    assert_eq!(
                        out_shape.iter().product::<usize>(),
                        expected.len(),
                        "{what}"
                    );
                    assert_close(&out, &expected, 1e-12, &what);
                    let g = data(out.len(), 3.0 + i as f64);
                    let dx = avg_pool2d_backward(&g, shape, k, s, p, include, ceil);
                    assert_scalar_close(
                        dot(&x, &dx),
                        dot(&out, &g),
                        1e-9,
                        &format!("{what}: adjoint"),
                    );
                    let (o32, _) = avg_pool2d(&to::<f32>(&x), shape, k, s, p, include, ceil);
                    assert_close(&back(&o32), &expected, 1e-6, &what);
                    let (ob, _) = avg_pool2d(&to::<bf16>(&x), shape, k, s, p, include, ceil);
                    assert_close(&back(&ob), &expected, 1e-2, &what);
                    let db = avg_pool2d_backward(&to::<bf16>(&g), shape, k, s, p, include, ceil);
                    assert_close(&back(&db), &dx, 1e-2, &what);
                    if shape[2] == 1 {
                        let s1 = [shape[0], shape[1], shape[3]];
                        let (o1, _) = avg_pool1d(&x, s1, k[1], s[1], p[1], include, ceil);
                        assert_eq!(o1, out, "{what}: 1-d");
                        let d1 = avg_pool1d_backward(&g, s1, k[1], s[1], p[1], include, ceil);
                        assert_eq!(d1, dx, "{what}: 1-d backward");
                    }
                }
            }
        }
    }

    #[test]
    fn known_values() {
        // F.avg_pool1d(torch.tensor([[[1., 2, 3, 4, 5, 6]]]), 3, 2, 1, ceil_mode=True)
        // == [[[1., 3., 5., 3.]]]: the last window is cut at the padded end, divisor 2.
        let x = [1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0];
        let (v, shape) = avg_pool1d(&x, [1, 1, 6], 3, 2, 1, true, true);
        assert_eq!((v, shape), (vec![1.0, 3.0, 5.0, 3.0], [1, 1, 4]));
        // ... with count_include_pad=False == [[[1.5, 3., 5., 6.]]]
        let (v, _) = avg_pool1d(&x, [1, 1, 6], 3, 2, 1, false, true);
        assert_eq!(v, vec![1.5, 3.0, 5.0, 6.0]);
    }

    #[test]
    #[should_panic(
        expected = "avg_pool1d_backward: expected output gradient of shape [1, 1, 4] (4 values), got 3 values"
    )]
    fn avg_pool_backward_rejects_bad_gradient() {
        avg_pool1d_backward(&[1.0f64; 3], [1, 1, 6], 3, 2, 1, true, true);
    }
}
