//! Average pooling (PyTorch's divisor rules for `count_include_pad` and `ceil_mode`) and
//! adaptive average pooling, with their backward kernels written as gathers: one unit per
//! input element sums the shares of the output windows that cover it, so nothing is
//! scattered and no atomics are needed.

use super::nn::{
    PoolParams, Window, assert_float, assert_like, assert_shape, coords4, dims4, float_dtypes,
    offset4, output_like, shape_divmod,
};
use crate::CubeTensor;
use crate::launch::{address_type, elementwise_geometry};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// The rows (or columns) of averaging window `o` along an axis of `len` inputs: the clamped
/// input range `start..end` and the window's extent inside the padded input (the
/// `count_include_pad` divisor). Computed in padded coordinates so everything stays unsigned.
#[cube]
fn avg_span(
    o: usize,
    kernel: usize,
    stride: usize,
    pad: usize,
    len: usize,
) -> (usize, usize, usize) {
    let start = o * stride;
    let end = min(start + kernel, len + 2 * pad);
    let lo = max(start, pad);
    let hi = max(min(end, len + pad), lo);
    (lo - pad, hi - pad, end - start)
}

/// The divisor of averaging window `(oy, ox)` (0 when it covers no input and padding does not
/// count).
#[cube]
fn avg_divisor(
    rows: (usize, usize, usize),
    cols: (usize, usize, usize),
    #[comptime] count_include_pad: bool,
) -> usize {
    let (y0, y1, padded_h) = rows;
    let (x0, x1, padded_w) = cols;
    if comptime![count_include_pad] {
        padded_h * padded_w
    } else {
        (y1 - y0) * (x1 - x0)
    }
}

#[cube(launch, address_type = "dynamic")]
fn avg_pool2d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    output: &mut Tensor<F>,
    out_shape: Sequence<FastDivmod<usize>>,
    params: PoolParams,
    #[comptime] count_include_pad: bool,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, oy, ox) = coords4(ABSOLUTE_POS, &out_shape);
    let rows = avg_span(
        oy,
        params.kernel_h,
        params.stride_h,
        params.pad_h,
        x.shape(2),
    );
    let cols = avg_span(
        ox,
        params.kernel_w,
        params.stride_w,
        params.pad_w,
        x.shape(3),
    );
    let mut sum = A::new(0.0);
    for y in rows.0..rows.1 {
        for xx in cols.0..cols.1 {
            sum += A::cast_from(x[offset4(x, n, c, y, xx)]);
        }
    }
    let divisor = avg_divisor(rows, cols, count_include_pad);
    let mean = sum / A::cast_from(max(divisor, 1));
    output[ABSOLUTE_POS] = F::cast_from(select(divisor > 0, mean, A::new(0.0)));
}

/// The output windows `lo..hi` along an axis whose averaging window holds input `i` (a
/// window `[o·s, o·s + k)` in padded coordinates holds `i + p`).
#[cube]
fn covering(i: usize, kernel: usize, stride: usize, pad: usize, out: usize) -> (usize, usize) {
    let pos = i + pad;
    let lo = select(pos + 1 > kernel, (pos + 1 - kernel).div_ceil(stride), 0);
    (lo, min(pos / stride + 1, out))
}

/// Input gradient `[n, c, y, x]` = Σ over the windows holding `(y, x)` of `grad / divisor`.
#[cube(launch, address_type = "dynamic")]
fn avg_pool2d_backward_kernel<F: Float, A: Float>(
    grad: &Tensor<F>,
    output: &mut Tensor<F>,
    in_shape: Sequence<FastDivmod<usize>>,
    params: PoolParams,
    #[comptime] count_include_pad: bool,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, y, x) = coords4(ABSOLUTE_POS, &in_shape);
    let (height, width) = (output.shape(2), output.shape(3));
    let (oy0, oy1) = covering(
        y,
        params.kernel_h,
        params.stride_h,
        params.pad_h,
        grad.shape(2),
    );
    let (ox0, ox1) = covering(
        x,
        params.kernel_w,
        params.stride_w,
        params.pad_w,
        grad.shape(3),
    );
    let mut acc = A::new(0.0);
    for oy in oy0..oy1 {
        let rows = avg_span(oy, params.kernel_h, params.stride_h, params.pad_h, height);
        for ox in ox0..ox1 {
            let cols = avg_span(ox, params.kernel_w, params.stride_w, params.pad_w, width);
            let divisor = avg_divisor(rows, cols, count_include_pad);
            if divisor > 0 {
                acc += A::cast_from(grad[offset4(grad, n, c, oy, ox)]) / A::cast_from(divisor);
            }
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// The input range of adaptive cell `o` of `out` over `len` inputs:
/// `floor(o·len/out) .. ceil((o+1)·len/out)`.
#[cube]
fn cell(o: usize, len: usize, out: usize) -> (usize, usize) {
    (o * len / out, ((o + 1) * len).div_ceil(out))
}

#[cube(launch, address_type = "dynamic")]
fn adaptive_avg_pool2d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    output: &mut Tensor<F>,
    out_shape: Sequence<FastDivmod<usize>>,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, oy, ox) = coords4(ABSOLUTE_POS, &out_shape);
    let (y0, y1) = cell(oy, x.shape(2), output.shape(2));
    let (x0, x1) = cell(ox, x.shape(3), output.shape(3));
    let mut sum = A::new(0.0);
    for y in y0..y1 {
        for xx in x0..x1 {
            sum += A::cast_from(x[offset4(x, n, c, y, xx)]);
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(sum / A::cast_from((y1 - y0) * (x1 - x0)));
}

/// Input gradient `[n, c, y, x]` = Σ over the adaptive cells holding `(y, x)` of
/// `grad / cell size`. Cell `o` holds input `i` when `floor(o·len/out) <= i <
/// ceil((o+1)·len/out)`, i.e. for `o` in `floor(i·out/len) .. ceil((i+1)·out/len)`; each
/// candidate is checked against its cell anyway.
#[cube(launch, address_type = "dynamic")]
fn adaptive_avg_pool2d_backward_kernel<F: Float, A: Float>(
    grad: &Tensor<F>,
    output: &mut Tensor<F>,
    in_shape: Sequence<FastDivmod<usize>>,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, y, x) = coords4(ABSOLUTE_POS, &in_shape);
    let (height, width) = (output.shape(2), output.shape(3));
    let (out_h, out_w) = (grad.shape(2), grad.shape(3));
    let oy1 = min(((y + 1) * out_h).div_ceil(height), out_h);
    let ox1 = min(((x + 1) * out_w).div_ceil(width), out_w);
    let mut acc = A::new(0.0);
    for oy in y * out_h / height..oy1 {
        let (y0, y1) = cell(oy, height, out_h);
        if y0 <= y && y < y1 {
            for ox in x * out_w / width..ox1 {
                let (x0, x1) = cell(ox, width, out_w);
                if x0 <= x && x < x1 {
                    let count = A::cast_from((y1 - y0) * (x1 - x0));
                    acc += A::cast_from(grad[offset4(grad, n, c, oy, ox)]) / count;
                }
            }
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// Launches one of the kernels above over every element of `output` (a new contiguous
/// tensor), reading `input`, with the extra arguments given, and returns `output`.
macro_rules! launch_over {
    ($kernel:ident, $input:expr, $output:expr $(, $arg:expr)*) => {{
        let (input, output): (CubeTensor, CubeTensor) = ($input, $output);
        let count = output.num_elements();
        if count > 0 {
            let client = input.client.clone();
            let (cube_count, cube_dim) = elementwise_geometry(&client, count);
            let addresses = address_type(&[&input, &output]);
            let dtypes = float_dtypes(&input);
            crate::launch::before_launch(&client);
            $kernel::launch(
                &client,
                cube_count,
                cube_dim,
                addresses,
                input.binding().into_tensor_arg(),
                output.clone().binding().into_tensor_arg(),
                shape_divmod(&output.shape.dims),
                $($arg,)*
                dtypes,
            );
        }
        output
    }};
}

/// The averaging window (no dilation) and its output size over `x`'s plane.
fn avg_window(
    op: &str,
    x: &CubeTensor,
    kernel: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    ceil_mode: bool,
) -> ([usize; 4], Window, [usize; 4]) {
    let [n, c, h, w] = dims4(op, "x", x);
    assert_float(op, x);
    let window = Window {
        kernel,
        stride,
        padding,
        dilation: [1, 1],
        ceil_mode,
    };
    let [oh, ow] = window.out_size(op, [h, w]);
    ([n, c, h, w], window, [n, c, oh, ow])
}

/// 2-d average pooling of `x [n, c, h, w]`, as `ModuleOps::avg_pool2d` (PyTorch's rules): the
/// window `[o·s − p, o·s − p + k)` is cut at the end of the padded input, its mean divides by
/// the cut window's size with `count_include_pad`, else by the number of input elements it
/// holds (an empty window gives 0); `ceil_mode` keeps a partial last window that starts inside
/// the input or its left padding. `x` is read through its strides; `f16` accumulates in `f32`.
///
/// # Panics
///
/// When `x` is not a rank-4 float tensor, a kernel size or stride is zero, or the kernel
/// exceeds the padded input.
pub fn avg_pool2d(
    x: CubeTensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> CubeTensor {
    const OP: &str = "avg_pool2d";
    let (_, window, out_shape) = avg_window(OP, &x, kernel_size, stride, padding, ceil_mode);
    let output = output_like(&x, out_shape, x.dtype);
    let params = window.params();
    launch_over!(avg_pool2d_kernel, x, output, params, count_include_pad)
}

/// The gradient of [`avg_pool2d`] with respect to `x`, from the output gradient `grad`
/// (`[n, c, oh, ow]`), as `ModuleOps::avg_pool2d_backward`. Only `x`'s shape, dtype and device
/// are used.
///
/// # Panics
///
/// As [`avg_pool2d`], and when `grad` is not of the pooled shape, dtype and device.
pub fn avg_pool2d_backward(
    x: CubeTensor,
    grad: CubeTensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> CubeTensor {
    const OP: &str = "avg_pool2d_backward";
    let (in_shape, window, out_shape) = avg_window(OP, &x, kernel_size, stride, padding, ceil_mode);
    assert_like(OP, "an output gradient", &x, &grad);
    assert_shape(OP, "an output gradient", &grad, &out_shape);
    let output = output_like(&x, in_shape, x.dtype);
    let params = window.params();
    launch_over!(
        avg_pool2d_backward_kernel,
        grad,
        output,
        params,
        count_include_pad
    )
}

/// 2-d adaptive average pooling of `x [n, c, h, w]` to `[n, c, oh, ow]`, as
/// `ModuleOps::adaptive_avg_pool2d`: output cell `(i, j)` averages rows
/// `floor(i·h/oh) .. ceil((i+1)·h/oh)` and likewise columns. `x` is read through its strides;
/// `f16` accumulates in `f32`.
///
/// # Panics
///
/// When `x` is not a rank-4 float tensor, or its plane is empty while the output is not.
pub fn adaptive_avg_pool2d(x: CubeTensor, output_size: [usize; 2]) -> CubeTensor {
    const OP: &str = "adaptive_avg_pool2d";
    let [n, c, h, w] = dims4(OP, "x", &x);
    assert_float(OP, &x);
    check_adaptive(OP, [h, w], output_size);
    let output = output_like(&x, [n, c, output_size[0], output_size[1]], x.dtype);
    launch_over!(adaptive_avg_pool2d_kernel, x, output)
}

/// The gradient of [`adaptive_avg_pool2d`] with respect to `x`, from `grad [n, c, oh, ow]` (the
/// output size is `grad`'s), as `ModuleOps::adaptive_avg_pool2d_backward`.
///
/// # Panics
///
/// When the tensors are not rank-4 floats of one dtype and device, their batch or channel
/// counts differ, or `x`'s plane is empty while `grad`'s is not.
pub fn adaptive_avg_pool2d_backward(x: CubeTensor, grad: CubeTensor) -> CubeTensor {
    const OP: &str = "adaptive_avg_pool2d_backward";
    let [n, c, h, w] = dims4(OP, "x", &x);
    let [gn, gc, oh, ow] = dims4(OP, "an output gradient", &grad);
    assert_float(OP, &x);
    assert_like(OP, "an output gradient", &x, &grad);
    assert!(
        [gn, gc] == [n, c],
        "{OP}: expected an output gradient of batch and channels [{n}, {c}] (x {:?}), got {:?}",
        x.shape.dims,
        grad.shape.dims
    );
    check_adaptive(OP, [h, w], [oh, ow]);
    let output = output_like(&x, [n, c, h, w], x.dtype);
    if oh * ow == 0 {
        return super::fill::fill(output, burn_backend::Scalar::Int(0));
    }
    launch_over!(adaptive_avg_pool2d_backward_kernel, grad, output)
}

/// Panics, naming `op`, when an empty input plane is pooled into cells.
fn check_adaptive(op: &str, [h, w]: [usize; 2], [oh, ow]: [usize; 2]) {
    assert!(
        (h > 0 || oh == 0) && (w > 0 || ow == 0),
        "{op}: expected a non-empty input plane to pool into {:?} cells, got {:?}",
        [oh, ow],
        [h, w]
    );
}
