//! Adaptive average and max pooling (1-d and 2-d) over contiguous NCL / NCHW slices, with
//! backward kernels. Output cell `i` of `out` covers inputs
//! `floor(i * in / out) .. ceil((i + 1) * in / out)` (PyTorch's windows).

use super::common::{PARALLEL_WORK, check_len, for_each_chunk, from_f64, to_f64};
use super::pool::scatter_planes;
use crate::element::FloatElement;

/// The input range `start..end` of each of `out` adaptive cells over `len` inputs.
fn cells(kernel: &str, len: usize, out: usize) -> Vec<(usize, usize)> {
    assert!(
        len > 0 || out == 0,
        "{kernel}: expected a non-empty input to pool into {out} cells, got input size 0"
    );
    (0..out)
        .map(|i| (i * len / out, ((i + 1) * len).div_ceil(out)))
        .collect()
}

struct Plan {
    /// The input shape, 1-d problems lifted to height 1.
    shape: [usize; 4],
    out: [usize; 2],
    rows: Vec<(usize, usize)>,
    cols: Vec<(usize, usize)>,
}

impl Plan {
    fn new(kernel: &str, shape: [usize; 4], out: [usize; 2]) -> Self {
        Self {
            shape,
            out,
            rows: cells(kernel, shape[2], out[0]),
            cols: cells(kernel, shape[3], out[1]),
        }
    }

    fn n_out(&self) -> usize {
        self.out[0] * self.out[1]
    }

    fn avg<T: FloatElement>(&self, x: &[T]) -> Vec<T> {
        let [b, c, h, w] = self.shape;
        let n_out = self.n_out();
        let mut out = vec![T::zero(); b * c * n_out];
        for_each_chunk(&mut out, n_out, x.len() >= PARALLEL_WORK, |p, dst| {
            let src = &x[p * h * w..(p + 1) * h * w];
            for (oy, &(y0, y1)) in self.rows.iter().enumerate() {
                for (ox, &(x0, x1)) in self.cols.iter().enumerate() {
                    let mut sum = 0.0;
                    for y in y0..y1 {
                        sum += src[y * w + x0..y * w + x1]
                            .iter()
                            .map(|&v| to_f64(v))
                            .sum::<f64>();
                    }
                    dst[oy * self.out[1] + ox] = from_f64(sum / ((y1 - y0) * (x1 - x0)) as f64);
                }
            }
        });
        out
    }

    fn avg_backward<T: FloatElement>(&self, grad: &[T]) -> Vec<T> {
        let [b, c, h, w] = self.shape;
        let n_out = self.n_out();
        let mut dx = vec![T::zero(); b * c * h * w];
        for_each_chunk(
            &mut dx,
            h * w,
            grad.len().max(b * c * h * w) >= PARALLEL_WORK,
            |p, dst| {
                let g = &grad[p * n_out..(p + 1) * n_out];
                let mut acc = vec![0f64; h * w];
                for (oy, &(y0, y1)) in self.rows.iter().enumerate() {
                    for (ox, &(x0, x1)) in self.cols.iter().enumerate() {
                        let share =
                            to_f64(g[oy * self.out[1] + ox]) / ((y1 - y0) * (x1 - x0)) as f64;
                        for y in y0..y1 {
                            acc[y * w + x0..y * w + x1]
                                .iter_mut()
                                .for_each(|a| *a += share);
                        }
                    }
                }
                dst.iter_mut().zip(acc).for_each(|(d, a)| *d = from_f64(a));
            },
        );
        dx
    }

    fn max<T: FloatElement>(&self, x: &[T]) -> (Vec<T>, Vec<i64>) {
        let [b, c, h, w] = self.shape;
        let n_out = self.n_out();
        let mut cells = vec![(T::zero(), 0i64); b * c * n_out];
        for_each_chunk(&mut cells, n_out, x.len() >= PARALLEL_WORK, |p, dst| {
            let src = &x[p * h * w..(p + 1) * h * w];
            for (oy, &(y0, y1)) in self.rows.iter().enumerate() {
                for (ox, &(x0, x1)) in self.cols.iter().enumerate() {
                    let mut best = (src[y0 * w + x0], y0 * w + x0);
                    for y in y0..y1 {
                        let start = y * w + x0;
                        for (i, &v) in src[start..y * w + x1].iter().enumerate() {
                            // NaN wins, like PyTorch.
                            if v > best.0 || v.is_nan() {
                                best = (v, start + i);
                            }
                        }
                    }
                    dst[oy * self.out[1] + ox] = (best.0, best.1 as i64);
                }
            }
        });
        cells.into_iter().unzip()
    }
}

/// 2-d adaptive average pooling of `x` `[b, c, h, w]` to `output_size` `[oh, ow]`; returns the
/// output and its shape `[b, c, oh, ow]`.
pub fn adaptive_avg_pool2d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    output_size: [usize; 2],
) -> (Vec<T>, [usize; 4]) {
    let name = "adaptive_avg_pool2d";
    check_len(name, "input", x.len(), &x_shape);
    let [b, c, ..] = x_shape;
    let plan = Plan::new(name, x_shape, output_size);
    (plan.avg(x), [b, c, output_size[0], output_size[1]])
}

/// Gradient of [`adaptive_avg_pool2d`] w.r.t. `x` `[b, c, h, w]`, from `grad_out`
/// `[b, c, oh, ow]`.
pub fn adaptive_avg_pool2d_backward<T: FloatElement>(
    grad_out: &[T],
    x_shape: [usize; 4],
    output_size: [usize; 2],
) -> Vec<T> {
    let name = "adaptive_avg_pool2d_backward";
    let [b, c, ..] = x_shape;
    check_len(
        name,
        "output gradient",
        grad_out.len(),
        &[b, c, output_size[0], output_size[1]],
    );
    Plan::new(name, x_shape, output_size).avg_backward(grad_out)
}

/// 1-d adaptive average pooling of `x` `[b, c, l]` to `output_size`; returns the output and
/// its shape `[b, c, output_size]`.
pub fn adaptive_avg_pool1d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 3],
    output_size: usize,
) -> (Vec<T>, [usize; 3]) {
    let name = "adaptive_avg_pool1d";
    check_len(name, "input", x.len(), &x_shape);
    let [b, c, l] = x_shape;
    let plan = Plan::new(name, [b, c, 1, l], [1, output_size]);
    (plan.avg(x), [b, c, output_size])
}

/// Gradient of [`adaptive_avg_pool1d`] w.r.t. `x` `[b, c, l]`, from `grad_out`
/// `[b, c, output_size]`.
pub fn adaptive_avg_pool1d_backward<T: FloatElement>(
    grad_out: &[T],
    x_shape: [usize; 3],
    output_size: usize,
) -> Vec<T> {
    let name = "adaptive_avg_pool1d_backward";
    let [b, c, l] = x_shape;
    check_len(
        name,
        "output gradient",
        grad_out.len(),
        &[b, c, output_size],
    );
    Plan::new(name, [b, c, 1, l], [1, output_size]).avg_backward(grad_out)
}

/// 2-d adaptive max pooling of `x` `[b, c, h, w]` to `output_size`: values, flat in-plane
/// indices (`ih * w + iw`) and the shape `[b, c, oh, ow]`; the backward is
/// [`max_pool2d_backward`](super::pool::max_pool2d_backward).
pub fn adaptive_max_pool2d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    output_size: [usize; 2],
) -> (Vec<T>, Vec<i64>, [usize; 4]) {
    let name = "adaptive_max_pool2d";
    check_len(name, "input", x.len(), &x_shape);
    let [b, c, ..] = x_shape;
    let (v, i) = Plan::new(name, x_shape, output_size).max(x);
    (v, i, [b, c, output_size[0], output_size[1]])
}

/// 1-d adaptive max pooling of `x` `[b, c, l]`: values, in-row indices and the shape
/// `[b, c, output_size]`; the backward is
/// [`max_pool1d_backward`](super::pool::max_pool1d_backward).
pub fn adaptive_max_pool1d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 3],
    output_size: usize,
) -> (Vec<T>, Vec<i64>, [usize; 3]) {
    let name = "adaptive_max_pool1d";
    check_len(name, "input", x.len(), &x_shape);
    let [b, c, l] = x_shape;
    let (v, i) = Plan::new(name, [b, c, 1, l], [1, output_size]).max(x);
    (v, i, [b, c, output_size])
}

/// Gradient of [`adaptive_max_pool2d`] w.r.t. `x` `[b, c, h, w]`: each `grad_out` value is
/// added at its `indices` position (the same scatter as `max_pool2d_backward`).
pub fn adaptive_max_pool2d_backward<T: FloatElement>(
    grad_out: &[T],
    indices: &[i64],
    x_shape: [usize; 4],
) -> Vec<T> {
    let [b, c, h, w] = x_shape;
    scatter_planes(
        "adaptive_max_pool2d_backward",
        grad_out,
        indices,
        b * c,
        h * w,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::pool::max_pool1d_backward;
    use crate::kernels::test_util::{assert_close, assert_scalar_close, back, data, dot, to};
    use burn_std::bf16;

    /// Direct adaptive pooling by PyTorch's window definition (floating-point floor/ceil), in
    /// f64: the mean, the max and the max's in-plane index of every cell.
    fn naive(
        x: &[f64],
        [b, c, h, w]: [usize; 4],
        [oh, ow]: [usize; 2],
    ) -> (Vec<f64>, Vec<f64>, Vec<i64>) {
        let bounds = |i: usize, len: usize, out: usize| {
            let start = (i as f64 * len as f64 / out as f64).floor() as usize;
            let end = ((i + 1) as f64 * len as f64 / out as f64).ceil() as usize;
            start..end
        };
        let (mut mean, mut max, mut idx) = (vec![], vec![], vec![]);
        for p in 0..b * c {
            for oy in 0..oh {
                for ox in 0..ow {
                    let (mut sum, mut n, mut best, mut at) = (0.0, 0.0, f64::NEG_INFINITY, 0);
                    for y in bounds(oy, h, oh) {
                        for xx in bounds(ox, w, ow) {
                            let v = x[p * h * w + y * w + xx];
                            sum += v;
                            n += 1.0;
                            if v > best {
                                best = v;
                                at = y * w + xx;
                            }
                        }
                    }
                    mean.push(sum / n);
                    max.push(best);
                    idx.push(at as i64);
                }
            }
        }
        (mean, max, idx)
    }

    #[rustfmt::skip]
    const CASES: &[([usize; 4], [usize; 2])] = &[
        ([2, 3, 7, 5], [3, 2]),
        ([1, 2, 5, 9], [5, 4]),
        ([1, 1, 3, 4], [7, 6]),  // upsampling: overlapping single-input cells
        ([2, 2, 8, 8], [1, 1]),  // global pooling
        ([2, 3, 1, 13], [1, 5]), // the 1-d problems
        ([4, 16, 32, 32], [5, 7]), // large enough for rayon
    ];

    #[test]
    fn adaptive_pools_match_direct_definition_and_backward_is_adjoint() {
        for (i, &(shape, out)) in CASES.iter().enumerate() {
            let what = format!("case {i}");
            let x = data(shape.iter().product(), i as f64);
            let (mean, max, idx) = naive(&x, shape, out);
            let (avg, avg_shape) = adaptive_avg_pool2d(&x, shape, out);
            assert_eq!(avg_shape, [shape[0], shape[1], out[0], out[1]]);
            assert_close(&avg, &mean, 1e-12, &what);
            let g = data(avg.len(), 5.0 + i as f64);
            let dx = adaptive_avg_pool2d_backward(&g, shape, out);
            assert_scalar_close(
                dot(&x, &dx),
                dot(&avg, &g),
                1e-9,
                &format!("{what}: adjoint"),
            );
            let (mx, mi, _) = adaptive_max_pool2d(&x, shape, out);
            assert_eq!((&mx, &mi), (&max, &idx), "{what}: max");
            let dm = adaptive_max_pool2d_backward(&g, &mi, shape);
            assert_scalar_close(
                dot(&x, &dm),
                dot(&mx, &g),
                1e-9,
                &format!("{what}: max adjoint"),
            );
            let (a32, _) = adaptive_avg_pool2d(&to::<f32>(&x), shape, out);
            assert_close(&back(&a32), &mean, 1e-6, &what);
            let (ab, _) = adaptive_avg_pool2d(&to::<bf16>(&x), shape, out);
            assert_close(&back(&ab), &mean, 1e-2, &what);
            let db = adaptive_avg_pool2d_backward(&to::<bf16>(&g), shape, out);
            assert_close(&back(&db), &dx, 1e-2, &what);
            if shape[2] == 1 {
                let s1 = [shape[0], shape[1], shape[3]];
                assert_eq!(
                    adaptive_avg_pool1d(&x, s1, out[1]),
                    (avg.clone(), [s1[0], s1[1], out[1]])
                );
                assert_eq!(adaptive_avg_pool1d_backward(&g, s1, out[1]), dx);
                let (m1, i1, _) = adaptive_max_pool1d(&x, s1, out[1]);
                assert_eq!((&m1, &i1), (&mx, &mi));
                assert_eq!(max_pool1d_backward(&g, &i1, s1), dm);
            }
        }
    }

    #[test]
    fn known_values() {
        // F.adaptive_avg_pool1d(torch.tensor([[[1., 2, 3, 4, 5]]]), 3) == [[[1.5, 3., 4.5]]]
        // (cells [0, 2), [1, 4), [3, 5)).
        let (v, _) = adaptive_avg_pool1d(&[1.0f64, 2.0, 3.0, 4.0, 5.0], [1, 1, 5], 3);
        assert_eq!(v, vec![1.5, 3.0, 4.5]);
    }

    #[test]
    #[should_panic(
        expected = "adaptive_avg_pool2d_backward: expected output gradient of shape [1, 1, 2, 2] (4 values), got 3 values"
    )]
    fn backward_rejects_bad_gradient() {
        adaptive_avg_pool2d_backward(&[0.0f64; 3], [1, 1, 4, 4], [2, 2]);
    }
}
