//! 3-d convolution and pooling of `[batch, channels, depth, height, width]` volumes, composed
//! from the 2-d operations over depth slices (convolutions sum one 2-d convolution per depth tap;
//! pooling is separable: a 2-d pool of each slice, then a pool across depth). They differentiate
//! through their parts; there is no 3-d kernel yet.

use super::adaptive_avg_pool1d;
use super::conv::{check_conv, conv_transpose2d, conv2d};
use super::pool::{adaptive_avg_pool2d, avg_pool2d, max_pool2d, pooled_len};
use crate::tensor::check;
use crate::{Device, Int, Tensor, TensorData};
use burn_backend::ops::{
    AvgPoolOptions, ConvOptions, ConvTransposeOptions, MaxPoolOptions, PadMode,
};

/// An int vector of `values` on `device`.
fn positions(values: Vec<i64>, device: &Device) -> Tensor<1, Int> {
    let len = values.len();
    Tensor::from_data(TensorData::new(values, [len]), device)
}

/// `[n, c, d, h, w]` → `[n·d, c, h, w]`: every depth slice an image of the batch.
fn slices(x: Tensor<5>) -> Tensor<4> {
    let [n, c, d, h, w] = x.dims();
    x.permute([0, 2, 1, 3, 4]).reshape([n * d, c, h, w])
}

/// `[n·d, c, h, w]` → `[n, c, d, h, w]`, the inverse of [`slices`].
fn volume(x: Tensor<4>, n: usize) -> Tensor<5> {
    let [nd, c, h, w] = x.dims();
    x.reshape([n, nd / n, c, h, w]).permute([0, 2, 1, 3, 4])
}

/// 3-d convolution of `x [n, c_in, d, h, w]` by `weight [c_out, c_in / groups, kd, kh, kw]`,
/// plus `bias [c_out]`; padding may differ between the two ends of each dimension. One 2-d
/// convolution per depth tap of the kernel, over every output depth at once.
pub fn conv3d(
    x: Tensor<5>,
    weight: Tensor<5>,
    bias: Option<Tensor<1>>,
    options: impl Into<ConvOptions<3>>,
) -> Tensor<5> {
    let op = "conv3d";
    let options = options.into();
    check_conv(op, &x, &weight, bias.as_ref(), options.groups, false);
    let [n, _, d, _, _] = x.dims();
    let [c_out, c_group, kd, kh, kw] = weight.dims();
    let (begin, end) = options.padding[0];
    let (stride, dilation) = (options.stride[0], options.dilation[0]);
    let extent = dilation * (kd - 1) + 1;
    let Some(span) = (d + begin + end).checked_sub(extent) else {
        check::fail(
            op,
            format_args!(
                "the padded depth {} is shorter than the dilated kernel {extent}",
                d + begin + end
            ),
        );
    };
    let out_depth = span / stride + 1;
    let x = x.pad_dims(
        [(0, 0), (0, 0), (begin, end), (0, 0), (0, 0)],
        PadMode::Constant(0.0),
    );
    let planar = ConvOptions::new_with_padding(
        [options.stride[1], options.stride[2]],
        [options.padding[1], options.padding[2]],
        [options.dilation[1], options.dilation[2]],
        options.groups,
    );
    let out = (0..kd)
        .map(|k| {
            let at = (0..out_depth)
                .map(|z| (z * stride + k * dilation) as i64)
                .collect();
            let taps = slices(x.clone().select(2, positions(at, &x.device())));
            let w = weight
                .clone()
                .narrow(2, k, 1)
                .reshape([c_out, c_group, kh, kw]);
            conv2d(taps, w, None, planar)
        })
        .reduce(|a, b| a + b)
        .unwrap_or_else(|| unreachable!("a kernel has at least one depth tap"));
    let out = volume(out, n);
    match bias {
        Some(bias) => out + bias.reshape([1, c_out, 1, 1, 1]),
        None => out,
    }
}

/// 3-d transposed convolution: `weight [c_in, c_out / groups, kd, kh, kw]`. One 2-d transposed
/// convolution per depth tap, each added at the output depths it reaches.
pub fn conv_transpose3d(
    x: Tensor<5>,
    weight: Tensor<5>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<3>,
) -> Tensor<5> {
    let op = "conv_transpose3d";
    check_conv(op, &x, &weight, bias.as_ref(), options.groups, true);
    let [n, _, d, _, _] = x.dims();
    let [c_in, c_group, kd, kh, kw] = weight.dims();
    let (stride, dilation, padding) = (options.stride[0], options.dilation[0], options.padding[0]);
    let full = (d.max(1) - 1) * stride + dilation * (kd - 1) + 1 + options.padding_out[0];
    let Some(out_depth) = full
        .checked_sub(2 * padding)
        .filter(|&len| len > 0 && d > 0)
    else {
        check::fail(
            op,
            format_args!("padding {padding} crops the whole output depth {full}"),
        );
    };
    let planar = ConvTransposeOptions::new(
        [options.stride[1], options.stride[2]],
        [options.padding[1], options.padding[2]],
        [options.padding_out[1], options.padding_out[2]],
        [options.dilation[1], options.dilation[2]],
        options.groups,
    );
    let image = slices(x.clone());
    let mut out: Option<Tensor<5>> = None;
    for k in 0..kd {
        let w = weight
            .clone()
            .narrow(2, k, 1)
            .reshape([c_in, c_group, kh, kw]);
        let y = volume(conv_transpose2d(image.clone(), w, None, planar), n);
        let [_, c_out, _, oh, ow] = y.dims();
        let at = (0..d).map(|z| (z * stride + k * dilation) as i64).collect();
        let acc = out
            .take()
            .unwrap_or_else(|| Tensor::zeros([n, c_out, full, oh, ow], (&x.device(), x.dtype())));
        out = Some(acc.select_add(2, positions(at, &x.device()), y));
    }
    let out = out
        .unwrap_or_else(|| unreachable!("a kernel has at least one depth tap"))
        .narrow(2, padding, out_depth);
    match bias {
        Some(bias) => {
            let c_out = out.dims()[1];
            out + bias.reshape([1, c_out, 1, 1, 1])
        }
        None => out,
    }
}

/// The depth geometry of a 3-d pool: the output depth, and the padding `(begin, end)` that makes
/// every window, ceil mode's last partial one included, lie inside the padded depth.
fn depth_windows(
    op: &str,
    depth: usize,
    kernel: usize,
    stride: usize,
    padding: (usize, usize),
    dilation: usize,
    ceil_mode: bool,
) -> (usize, (usize, usize)) {
    let Some(out) = pooled_len(depth, kernel, stride, padding, dilation, ceil_mode) else {
        check::fail(
            op,
            format_args!(
                "the options cannot pool a depth of {depth} (a zero kernel, stride or dilation, or a padded depth shorter than the dilated kernel)"
            ),
        );
    };
    let needed = (out - 1) * stride + dilation * (kernel - 1) + 1;
    (out, (padding.0, needed.saturating_sub(depth + padding.0)))
}

/// The `[n, c, out, h, w]` windows of the (padded) depth of `x` as a last dim of `kernel` taps:
/// `[n, c, out, h, w, kernel]`.
fn depth_taps(
    x: Tensor<5>,
    out: usize,
    kernel: usize,
    stride: usize,
    dilation: usize,
) -> Tensor<6> {
    let extent = dilation * (kernel - 1) + 1;
    let needed = (out - 1) * stride + extent;
    let windows: Tensor<6> = x.narrow(2, 0, needed).unfold(2, extent, stride);
    let taps = (0..kernel)
        .map(|k| (k * dilation) as i64)
        .collect::<Vec<_>>();
    let len = taps.len();
    let taps = Tensor::<1, Int>::from_data(TensorData::new(taps, [len]), &windows.device());
    windows.select(5, taps)
}

/// 3-d max pooling of `x [batch, channels, depth, height, width]`: each depth slice max-pooled
/// in 2-d, then the maximum across depth windows.
pub fn max_pool3d(x: Tensor<5>, options: MaxPoolOptions<3>) -> Tensor<5> {
    let op = "max_pool3d";
    let [n, _, d, _, _] = x.dims();
    let (out, pad) = depth_windows(
        op,
        d,
        options.kernel_size[0],
        options.stride[0],
        options.padding[0],
        options.dilation[0],
        options.ceil_mode,
    );
    let planar = MaxPoolOptions::new([options.kernel_size[1], options.kernel_size[2]])
        .with_stride([options.stride[1], options.stride[2]])
        .with_padding_pairs([options.padding[1], options.padding[2]])
        .with_dilation([options.dilation[1], options.dilation[2]])
        .with_ceil_mode(options.ceil_mode);
    let pooled = volume(max_pool2d(slices(x), planar), n);
    let pooled = pooled.pad_dims(
        [(0, 0), (0, 0), pad, (0, 0), (0, 0)],
        PadMode::Constant(f32::NEG_INFINITY),
    );
    let taps = depth_taps(
        pooled,
        out,
        options.kernel_size[0],
        options.stride[0],
        options.dilation[0],
    );
    taps.max_dim(5).squeeze_dim(5)
}

/// 3-d average pooling of `x [batch, channels, depth, height, width]` (PyTorch's divisors):
/// each depth slice average-pooled in 2-d, then the mean across depth windows, whose divisor
/// counts the padded depths with `count_include_pad` and only the real ones without.
pub fn avg_pool3d(x: Tensor<5>, options: AvgPoolOptions<3>) -> Tensor<5> {
    let op = "avg_pool3d";
    if options.dilation != [1; 3] {
        check::fail(
            op,
            format_args!(
                "dilation {:?} is not supported for average pooling; expected 1",
                options.dilation
            ),
        );
    }
    let [n, _, d, _, _] = x.dims();
    let (kernel, stride) = (options.kernel_size[0], options.stride[0]);
    let (begin, end) = options.padding[0];
    let (out, pad) = depth_windows(op, d, kernel, stride, (begin, end), 1, options.ceil_mode);
    let planar = AvgPoolOptions::new([options.kernel_size[1], options.kernel_size[2]])
        .with_stride([options.stride[1], options.stride[2]])
        .with_padding_pairs([options.padding[1], options.padding[2]])
        .with_count_include_pad(options.count_include_pad)
        .with_ceil_mode(options.ceil_mode);
    let pooled = volume(avg_pool2d(slices(x.clone()), planar), n);
    let pooled = pooled.pad_dims(
        [(0, 0), (0, 0), pad, (0, 0), (0, 0)],
        PadMode::Constant(0.0),
    );
    let sums = depth_taps(pooled, out, kernel, stride, 1)
        .sum_dim(5)
        .squeeze_dim::<5>(5);
    let divisors = depth_divisors(
        &x,
        out,
        d,
        kernel,
        stride,
        (begin, end),
        options.count_include_pad,
    );
    sums / divisors
}

/// The depth divisor of each of `out` windows over a depth of `depth` padded by `(begin, end)`,
/// as `[1, 1, out, 1, 1]` in `like`'s dtype: the window's taps inside the padded depth with
/// `count_include_pad`, inside the input without.
fn depth_divisors(
    like: &Tensor<5>,
    out: usize,
    depth: usize,
    kernel: usize,
    stride: usize,
    (begin, end): (usize, usize),
    count_include_pad: bool,
) -> Tensor<5> {
    let (low, high) = match count_include_pad {
        true => (0, depth + begin + end),
        false => (begin, begin + depth),
    };
    let divisors: Vec<f64> = (0..out)
        .map(|z| {
            let start = z * stride;
            (start..start + kernel)
                .filter(|p| (low..high).contains(p))
                .count()
                .max(1) as f64
        })
        .collect();
    let divisors = TensorData::new(divisors, [out]);
    Tensor::<1>::from_data(divisors, (&like.device(), like.dtype())).reshape([1, 1, out, 1, 1])
}

/// The gradient of `x` through [`avg_pool3d`] (symmetric padding) whose output gradient is
/// `grad`: the depth means' adjoint (each gradient spread over its window's depths), then the
/// 2-d pooling's backward on every slice.
#[allow(clippy::too_many_arguments)]
pub fn avg_pool3d_backward(
    x: Tensor<5>,
    grad: Tensor<5>,
    kernel_size: [usize; 3],
    stride: [usize; 3],
    padding: [usize; 3],
    dilation: [usize; 3],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor<5> {
    let op = "avg_pool3d_backward";
    if dilation != [1; 3] {
        check::fail(
            op,
            format_args!("dilation {dilation:?} is not supported for average pooling; expected 1"),
        );
    }
    let [n, c, d, _, _] = x.dims();
    let [k, s, p] = [kernel_size[0], stride[0], padding[0]];
    let (out, pad) = depth_windows(op, d, k, s, (p, p), 1, ceil_mode);
    let [_, _, od, oh, ow] = grad.dims();
    if od != out {
        check::fail(
            op,
            format_args!("expected a gradient of depth {out}, got {:?}", grad.dims()),
        );
    }
    let grad = grad / depth_divisors(&x, out, d, k, s, (p, p), count_include_pad);
    let device = x.device();
    let spread = (0..k).fold(
        Tensor::<5>::zeros([n, c, d + pad.0 + pad.1, oh, ow], (&device, x.dtype())),
        |acc, t| {
            let at = (0..out).map(|z| (z * s + t) as i64).collect();
            acc.select_add(2, positions(at, &device), grad.clone())
        },
    );
    let spread = spread.narrow(2, pad.0, d);
    let planar = super::pool::avg_pool2d_backward(
        slices(x),
        slices(spread),
        [kernel_size[1], kernel_size[2]],
        [stride[1], stride[2]],
        [padding[1], padding[2]],
        [1, 1],
        count_include_pad,
        ceil_mode,
    );
    volume(planar, n)
}

/// 3-d max pooling and the flat position (`(z · height + y) · width + x`) of each maximum in
/// its (unpadded) volume: every window's taps gathered, then the largest.
pub fn max_pool3d_with_indices(
    x: Tensor<5>,
    options: MaxPoolOptions<3>,
) -> (Tensor<5>, Tensor<5, Int>) {
    let op = "max_pool3d_with_indices";
    let [n, c, d, h, w] = x.dims();
    let size = [d, h, w];
    let geometry: [(usize, (usize, usize)); 3] = core::array::from_fn(|i| {
        depth_windows(
            op,
            size[i],
            options.kernel_size[i],
            options.stride[i],
            options.padding[i],
            options.dilation[i],
            options.ceil_mode,
        )
    });
    let outs = geometry.map(|(out, _)| out);
    let pads = geometry.map(|(_, pad)| pad);
    let padded: [usize; 3] = core::array::from_fn(|i| size[i] + pads[i].0 + pads[i].1);
    let device = x.device();
    let x = x.pad_dims(
        [(0, 0), (0, 0), pads[0], pads[1], pads[2]],
        PadMode::Constant(f32::NEG_INFINITY),
    );
    // For each output position and kernel tap: its flat position in the padded volume, and in
    // the input (clamped: a window of padding alone picks its nearest input value).
    let kernel = options.kernel_size;
    let windows = outs.iter().product::<usize>();
    let taps = kernel.iter().product::<usize>();
    let (mut padded_at, mut input_at) = (Vec::new(), Vec::new());
    for o in 0..windows {
        let out_pos = [
            o / (outs[1] * outs[2]),
            (o / outs[2]) % outs[1],
            o % outs[2],
        ];
        for t in 0..taps {
            let tap = [
                t / (kernel[1] * kernel[2]),
                (t / kernel[2]) % kernel[1],
                t % kernel[2],
            ];
            let pos: [usize; 3] = core::array::from_fn(|i| {
                out_pos[i] * options.stride[i] + tap[i] * options.dilation[i]
            });
            padded_at.push(((pos[0] * padded[1] + pos[1]) * padded[2] + pos[2]) as i64);
            let real: [usize; 3] =
                core::array::from_fn(|i| pos[i].saturating_sub(pads[i].0).min(size[i] - 1));
            input_at.push(((real[0] * h + real[1]) * w + real[2]) as i64);
        }
    }
    let picked: Tensor<4> = x
        .reshape([n, c, padded.iter().product::<usize>()])
        .select(2, positions(padded_at, &device))
        .reshape([n, c, windows, taps]);
    let (values, arg) = picked.max_dim_with_indices(3);
    let input_at = TensorData::new(input_at, [1, 1, windows, taps]);
    let input_at = Tensor::<4, Int>::from_data(input_at, &device).expand([n, c, windows, taps]);
    let indices = input_at.gather(3, arg);
    let shape = [n, c, outs[0], outs[1], outs[2]];
    (values.reshape(shape), indices.reshape(shape))
}

/// The gradient of `x` through [`max_pool3d_with_indices`] whose output gradient is
/// `output_grad`: each value added at the position `indices` names. The window arguments are
/// those of the forward pass; the indices already encode them.
#[allow(clippy::too_many_arguments)]
pub fn max_pool3d_with_indices_backward(
    x: Tensor<5>,
    kernel_size: [usize; 3],
    stride: [usize; 3],
    padding: [usize; 3],
    dilation: [usize; 3],
    ceil_mode: bool,
    output_grad: Tensor<5>,
    indices: Tensor<5, Int>,
) -> Tensor<5> {
    let _ = (kernel_size, stride, padding, dilation, ceil_mode);
    if output_grad.dims() != indices.dims() {
        check::fail(
            "max_pool3d_with_indices_backward",
            format_args!(
                "expected indices of the gradient's shape {:?}, got {:?}",
                output_grad.dims(),
                indices.dims()
            ),
        );
    }
    let [n, c, d, h, w] = x.dims();
    let len = output_grad.shape().num_elements() / (n * c).max(1);
    let grad: Tensor<3> = output_grad.reshape([n, c, len]);
    let at: Tensor<3, Int> = indices.reshape([n, c, len]);
    Tensor::<3>::zeros([n, c, d * h * w], (&x.device(), x.dtype()))
        .scatter(2, at, grad, burn_backend::IndexingUpdateOp::Add)
        .reshape([n, c, d, h, w])
}

/// 3-d adaptive average pooling of `x [batch, channels, depth, height, width]` to
/// `output_size`: 2-d adaptive pooling of each slice, then 1-d across depth (the windows are
/// boxes, so the means separate).
pub fn adaptive_avg_pool3d(x: Tensor<5>, output_size: [usize; 3]) -> Tensor<5> {
    let [n, c, _, _, _] = x.dims();
    let [od, oh, ow] = output_size;
    let planar = volume(adaptive_avg_pool2d(slices(x), [oh, ow]), n);
    let d = planar.dims()[2];
    let rows: Tensor<3> = planar.permute([0, 1, 3, 4, 2]).reshape([n, c * oh * ow, d]);
    adaptive_avg_pool1d(rows, od)
        .reshape([n, c, oh, ow, od])
        .permute([0, 1, 4, 2, 3])
}
