//! Max pooling (1-d and 2-d) over contiguous NCL / NCHW slices, with indices and the backward
//! scatter; also the window arithmetic the average pools share. A 1-d pool is the 2-d pool of
//! height 1.

use super::common::{PARALLEL_WORK, check_len, check_positive, for_each_chunk, valid_range};
use crate::element::FloatElement;
use crate::parallel;
use crate::tensor::pool;

/// Window parameters of a 2-d pool.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

impl Window {
    /// Validates the parameters and returns the output size `[oh, ow]` for input `[h, w]`
    /// (PyTorch's `pooling_output_shape`).
    pub fn out_size(&self, kernel: &str, input: [usize; 2]) -> [usize; 2] {
        check_positive(kernel, "kernel size", &self.kernel);
        check_positive(kernel, "stride", &self.stride);
        check_positive(kernel, "dilation", &self.dilation);
        core::array::from_fn(|i| {
            let (k, s, p, d) = (
                self.kernel[i],
                self.stride[i],
                self.padding[i],
                self.dilation[i],
            );
            let eff = d * (k - 1) + 1;
            assert!(
                input[i] + 2 * p >= eff,
                "{kernel}: expected the dilated kernel extent ({eff}) to fit the padded input \
                 ({}), got input size {}, kernel {k}, padding {p}",
                input[i] + 2 * p,
                input[i]
            );
            let span = input[i] + 2 * p - eff;
            let mut out = if self.ceil_mode {
                span.div_ceil(s)
            } else {
                span / s
            } + 1;
            // The last window must start inside the input or its left padding.
            if self.ceil_mode && (out - 1) * s >= input[i] + p {
                out -= 1;
            }
            out
        })
    }

    /// For output index `o` along `dim`: the kernel taps `lo..hi` that land inside `0..len`.
    fn taps(&self, dim: usize, o: usize, len: usize) -> (usize, usize) {
        let start = (o * self.stride[dim]) as isize - self.padding[dim] as isize;
        valid_range(self.kernel[dim], self.dilation[dim], start, len)
    }

    /// Input position of tap `k` of window `o` along `dim` (only for taps from `taps`).
    fn pos(&self, dim: usize, o: usize, k: usize) -> usize {
        o * self.stride[dim] + k * self.dilation[dim] - self.padding[dim]
    }
}

/// Runs `f(plane_index, out_plane)` over the `plane`-sized chunks of `out`, shared between
/// cores for large work.
pub(crate) fn planes<T: Send>(
    out: &mut [T],
    plane: usize,
    work: usize,
    f: impl Fn(usize, &mut [T]) + Sync + Send,
) {
    for_each_chunk(out, plane, work >= PARALLEL_WORK, f)
}

fn max_pool_planes<T: FloatElement>(
    kernel: &str,
    x: &[T],
    shape: [usize; 4],
    win: &Window,
) -> (Vec<T>, Vec<i64>, [usize; 4]) {
    let [b, c, h, w] = shape;
    let [oh, ow] = win.out_size(kernel, [h, w]);
    let n_out = oh * ow;
    // Every value and index is written below.
    let mut values = pool::for_overwrite::<T>(b * c * n_out);
    let mut indices = pool::for_overwrite::<i64>(b * c * n_out);
    let body = |p: usize, vals: &mut [T], idx: &mut [i64]| {
        let src = &x[p * h * w..(p + 1) * h * w];
        for oy in 0..oh {
            let (ky0, ky1) = win.taps(0, oy, h);
            for ox in 0..ow {
                let (kx0, kx1) = win.taps(1, ox, w);
                let mut best = T::neg_infinity();
                let mut best_at = 0usize;
                let mut first = true;
                for ky in ky0..ky1 {
                    let row = win.pos(0, oy, ky) * w;
                    for kx in kx0..kx1 {
                        let at = row + win.pos(1, ox, kx);
                        let v = src[at];
                        // Like PyTorch: NaN wins, and the first position is the default.
                        if first || v > best || v.is_nan() {
                            best = v;
                            best_at = at;
                            first = false;
                        }
                    }
                }
                vals[oy * ow + ox] = best;
                idx[oy * ow + ox] = best_at as i64;
            }
        }
    };
    if n_out > 0 {
        let work = values.len() * win.kernel[0] * win.kernel[1];
        if work >= PARALLEL_WORK {
            parallel::for_each_chunk_pair_mut(&mut values, n_out, &mut indices, n_out, body);
        } else {
            let chunks = values.chunks_mut(n_out).zip(indices.chunks_mut(n_out));
            chunks.enumerate().for_each(|(p, (v, i))| body(p, v, i));
        }
    }
    (values, indices, [b, c, oh, ow])
}

/// Scatter-adds `grad` into per-plane positions `indices` of a `[b, c, plane]` zero tensor.
pub(crate) fn scatter_planes<T: FloatElement>(
    kernel: &str,
    grad: &[T],
    indices: &[i64],
    planes_count: usize,
    plane: usize,
) -> Vec<T> {
    assert_eq!(
        grad.len(),
        indices.len(),
        "{kernel}: expected as many indices as gradient values ({}), got {}",
        grad.len(),
        indices.len()
    );
    if planes_count == 0 || grad.is_empty() {
        return vec![T::zero(); planes_count * plane];
    }
    // Each plane is zeroed by its task before the adds: a fresh zeroed allocation would map
    // the shared zero page on the first read and copy it on the first write, a second fault
    // per page with a TLB flush on every core.
    let mut out = pool::for_overwrite::<T>(planes_count * plane);
    assert!(
        grad.len().is_multiple_of(planes_count),
        "{kernel}: expected a gradient with a multiple of {planes_count} values (one plane per \
         batch and channel), got {}",
        grad.len()
    );
    let n_out = grad.len() / planes_count;
    planes(&mut out, plane, grad.len(), |p, dst| {
        let g = &grad[p * n_out..(p + 1) * n_out];
        dst.fill(T::zero());
        for (&v, &i) in g.iter().zip(&indices[p * n_out..(p + 1) * n_out]) {
            assert!(
                i >= 0 && (i as usize) < plane,
                "{kernel}: expected indices in 0..{plane} (the input plane), got {i}"
            );
            dst[i as usize] = dst[i as usize] + v;
        }
    });
    out
}

/// 2-d max pooling of `x` `[b, c, h, w]`; padded positions never win. Returns the values, the
/// flat in-plane index `ih * w + iw` of each maximum (PyTorch's `return_indices`), and the
/// output shape `[b, c, oh, ow]`. A window with no input position (possible only when
/// `padding` exceeds half the dilated kernel) yields `-inf` with index 0.
pub fn max_pool2d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> (Vec<T>, Vec<i64>, [usize; 4]) {
    check_len("max_pool2d", "input", x.len(), &x_shape);
    let win = Window {
        kernel: kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    };
    max_pool_planes("max_pool2d", x, x_shape, &win)
}

/// 1-d max pooling of `x` `[b, c, l]`: values, in-row indices and the shape `[b, c, ol]`.
pub fn max_pool1d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 3],
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> (Vec<T>, Vec<i64>, [usize; 3]) {
    check_len("max_pool1d", "input", x.len(), &x_shape);
    let [b, c, l] = x_shape;
    let win = Window {
        kernel: [1, kernel_size],
        stride: [1, stride],
        padding: [0, padding],
        dilation: [1, dilation],
        ceil_mode,
    };
    let (v, i, [_, _, _, ol]) = max_pool_planes("max_pool1d", x, [b, c, 1, l], &win);
    (v, i, [b, c, ol])
}

/// Gradient of [`max_pool2d`] w.r.t. `x` `[b, c, h, w]`: each `grad_out` value is added at its
/// `indices` position.
pub fn max_pool2d_backward<T: FloatElement>(
    grad_out: &[T],
    indices: &[i64],
    x_shape: [usize; 4],
) -> Vec<T> {
    let [b, c, h, w] = x_shape;
    scatter_planes("max_pool2d_backward", grad_out, indices, b * c, h * w)
}

/// Gradient of [`max_pool1d`] w.r.t. `x` `[b, c, l]`.
pub fn max_pool1d_backward<T: FloatElement>(
    grad_out: &[T],
    indices: &[i64],
    x_shape: [usize; 3],
) -> Vec<T> {
    let [b, c, l] = x_shape;
    scatter_planes("max_pool1d_backward", grad_out, indices, b * c, l)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{
        POOL_CASES, assert_close, assert_scalar_close, back, data, dot, pool_out_len, to,
    };
    use burn_std::bf16;

    /// Direct max pooling (values and in-plane indices), in f64.
    fn naive_max(
        x: &[f64],
        [b, c, h, w]: [usize; 4],
        k: [usize; 2],
        s: [usize; 2],
        p: [usize; 2],
        d: [usize; 2],
        ceil: bool,
    ) -> (Vec<f64>, Vec<i64>) {
        let oh = pool_out_len(h, k[0], s[0], p[0], d[0], ceil);
        let ow = pool_out_len(w, k[1], s[1], p[1], d[1], ceil);
        let (mut vals, mut idx) = (vec![], vec![]);
        for plane in 0..b * c {
            for oy in 0..oh {
                for ox in 0..ow {
                    let (mut best, mut at) = (f64::NEG_INFINITY, -1i64);
                    for ky in 0..k[0] {
                        for kx in 0..k[1] {
                            let y = (oy * s[0] + ky * d[0]) as isize - p[0] as isize;
                            let xx = (ox * s[1] + kx * d[1]) as isize - p[1] as isize;
                            if y < 0 || xx < 0 || y >= h as isize || xx >= w as isize {
                                continue;
                            }
                            let i = y as usize * w + xx as usize;
                            if at < 0 || x[plane * h * w + i] > best {
                                best = x[plane * h * w + i];
                                at = i as i64;
                            }
                        }
                    }
                    vals.push(best);
                    idx.push(at);
                }
            }
        }
        (vals, idx)
    }

    #[test]
    fn max_pool_matches_direct_definition_and_backward_is_adjoint() {
        for (i, &(shape, k, s, p, d)) in POOL_CASES.iter().enumerate() {
            for ceil in [false, true] {
                let what = format!("case {i} ceil {ceil}");
                let x = data(shape.iter().product(), i as f64);
                let (ev, ei) = naive_max(&x, shape, k, s, p, d, ceil);
                let (v, idx, out_shape) = max_pool2d(&x, shape, k, s, p, d, ceil);
                assert_eq!(
                    out_shape[2] * out_shape[3] * shape[0] * shape[1],
                    ev.len(),
                    "{what}"
                );
                assert_eq!(v, ev, "{what}: values");
                assert_eq!(idx, ei, "{what}: indices");
                let g = data(v.len(), 7.0 + i as f64);
                let dx = max_pool2d_backward(&g, &idx, shape);
                assert_scalar_close(dot(&x, &dx), dot(&v, &g), 1e-9, &format!("{what}: adjoint"));
                let (v32, i32_, _) = max_pool2d(&to::<f32>(&x), shape, k, s, p, d, ceil);
                assert_close(&back(&v32), &ev, 1e-6, &what);
                assert_eq!(i32_, ei, "{what}: f32 indices");
                let (vb, _, _) = max_pool2d(&to::<bf16>(&x), shape, k, s, p, d, ceil);
                assert_close(&back(&vb), &ev, 1e-2, &what);
                if shape[2] == 1 {
                    let s1 = [shape[0], shape[1], shape[3]];
                    let (v1, i1, o1) = max_pool1d(&x, s1, k[1], s[1], p[1], d[1], ceil);
                    assert_eq!(
                        (v1, &i1, o1),
                        (ev.clone(), &ei, [shape[0], shape[1], out_shape[3]])
                    );
                    assert_eq!(max_pool1d_backward(&g, &i1, s1), dx, "{what}: 1-d backward");
                }
            }
        }
    }

    #[test]
    fn known_values() {
        // F.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2, return_indices=True)
        // == ([[5., 7.], [13., 15.]], [[5, 7], [13, 15]])
        let x: Vec<f64> = (0..16).map(f64::from).collect();
        let (v, i, shape) = max_pool2d(&x, [1, 1, 4, 4], [2, 2], [2, 2], [0, 0], [1, 1], false);
        assert_eq!(
            (v, i, shape),
            (vec![5.0, 7.0, 13.0, 15.0], vec![5, 7, 13, 15], [1, 1, 2, 2])
        );
    }

    #[test]
    fn max_pool_propagates_nan() {
        // torch.nn.functional.max_pool1d(torch.tensor([[[1., nan, 3.]]]), 3) == [[[nan]]]
        let (v, i, _) = max_pool1d(&[1.0f64, f64::NAN, 3.0], [1, 1, 3], 3, 3, 0, 1, false);
        assert!(v[0].is_nan());
        assert_eq!(i, vec![1]);
    }

    #[test]
    #[should_panic(
        expected = "max_pool2d_backward: expected indices in 0..4 (the input plane), got 4"
    )]
    fn max_pool_backward_rejects_out_of_range_index() {
        max_pool2d_backward(&[1.0f64], &[4], [1, 1, 2, 2]);
    }
}
