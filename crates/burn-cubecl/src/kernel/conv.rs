//! Direct 2-d convolutions (NCHW, PyTorch weight layouts): one unit per output element sums
//! its taps in the accumulation type. The transposed convolution is written as a gather too
//! (each output element finds the input positions that reach it), so nothing is scattered.

use super::nn::{
    assert_float, assert_like, assert_positive, coords4, dims4, float_dtypes, offset4, output_like,
    shape_divmod, window_out_len,
};
use crate::CubeTensor;
use crate::launch::{address_type, elementwise_geometry};
use burn_backend::{ConvOptions, ConvTransposeOptions};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Stride, padding and dilation along `(h, w)`, and the number of groups.
#[derive(CubeLaunch, CubeType)]
struct ConvParams {
    stride_h: usize,
    stride_w: usize,
    pad_h: usize,
    pad_w: usize,
    dil_h: usize,
    dil_w: usize,
    groups: usize,
}

fn conv_params(
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
) -> ConvParamsLaunch {
    ConvParamsLaunch::new(
        stride[0],
        stride[1],
        padding[0],
        padding[1],
        dilation[0],
        dilation[1],
        groups,
    )
}

/// The bias of output channel `co`, or zero.
#[cube]
fn bias_or_zero<F: Float, A: Float>(bias: ComptimeOption<&Tensor<F>>, co: usize) -> A {
    let bias: ComptimeOption<A> = bias.map(|b| A::cast_from(b[co * b.stride(0)]));
    bias.unwrap_or(A::new(0.0))
}

/// Output `[n, co, oy, ox]` = bias + Σ over the group's input channels and the kernel taps
/// inside the input of `x[n, ci, oy·s + ky·d − p, ox·s + kx·d − p] · w[co, ci, ky, kx]`.
#[cube(launch, address_type = "dynamic")]
fn conv2d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    weight: &Tensor<F>,
    bias: ComptimeOption<&Tensor<F>>,
    output: &mut Tensor<F>,
    out_shape: Sequence<FastDivmod<usize>>,
    params: ConvParams,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, co, oy, ox) = coords4(ABSOLUTE_POS, &out_shape);
    let in_per_group = weight.shape(1);
    let out_per_group = weight.shape(0) / params.groups;
    let first_in = (co / out_per_group) * in_per_group;
    let (height, width) = (x.shape(2), x.shape(3));
    let (kernel_h, kernel_w) = (weight.shape(2), weight.shape(3));
    let mut acc = bias_or_zero::<F, A>(bias, co);
    for ci in 0..in_per_group {
        for ky in 0..kernel_h {
            // In padded coordinates, so that positions stay unsigned.
            let py = oy * params.stride_h + ky * params.dil_h;
            if py >= params.pad_h && py < height + params.pad_h {
                let iy = py - params.pad_h;
                for kx in 0..kernel_w {
                    let px = ox * params.stride_w + kx * params.dil_w;
                    if px >= params.pad_w && px < width + params.pad_w {
                        let ix = px - params.pad_w;
                        let value = x[offset4(x, n, first_in + ci, iy, ix)];
                        let tap = weight[offset4(weight, co, ci, ky, kx)];
                        acc += A::cast_from(value) * A::cast_from(tap);
                    }
                }
            }
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// Output `[n, co, oy, ox]` of the transposed convolution = bias + Σ over the group's input
/// channels `ci` and the taps `(ky, kx)` with `iy·s + ky·d − p = oy` (and likewise along `w`)
/// for an input position `(iy, ix)` inside the input, of `x[n, ci, iy, ix] · w[ci, o, ky, kx]`.
#[cube(launch, address_type = "dynamic")]
fn conv_transpose2d_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    weight: &Tensor<F>,
    bias: ComptimeOption<&Tensor<F>>,
    output: &mut Tensor<F>,
    out_shape: Sequence<FastDivmod<usize>>,
    params: ConvParams,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, co, oy, ox) = coords4(ABSOLUTE_POS, &out_shape);
    let out_per_group = weight.shape(1);
    let in_per_group = weight.shape(0) / params.groups;
    let group = co / out_per_group;
    let o = co % out_per_group;
    let first_in = group * in_per_group;
    let (height, width) = (x.shape(2), x.shape(3));
    let (kernel_h, kernel_w) = (weight.shape(2), weight.shape(3));
    // Output positions shifted by the padding: `iy·s + ky·d = py`.
    let py = oy + params.pad_h;
    let px = ox + params.pad_w;
    let mut acc = bias_or_zero::<F, A>(bias, co);
    for ky in 0..kernel_h {
        let reach_y = ky * params.dil_h;
        if reach_y <= py && (py - reach_y).is_multiple_of(params.stride_h) {
            let iy = (py - reach_y) / params.stride_h;
            if iy < height {
                for kx in 0..kernel_w {
                    let reach_x = kx * params.dil_w;
                    if reach_x <= px && (px - reach_x).is_multiple_of(params.stride_w) {
                        let ix = (px - reach_x) / params.stride_w;
                        if ix < width {
                            for ci in 0..in_per_group {
                                let c = first_in + ci;
                                let value = x[offset4(x, n, c, iy, ix)];
                                let tap = weight[offset4(weight, c, o, ky, kx)];
                                acc += A::cast_from(value) * A::cast_from(tap);
                            }
                        }
                    }
                }
            }
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// Checks the bias (rank 1, `channels` values, `x`'s dtype and device).
fn check_bias(op: &str, x: &CubeTensor, bias: Option<&CubeTensor>, channels: usize) {
    if let Some(bias) = bias {
        assert_like(op, "a bias", x, bias);
        assert_eq!(
            bias.shape.dims[..],
            [channels],
            "{op}: expected a bias of shape [{channels}] (one value per output channel), got {:?}",
            bias.shape.dims
        );
    }
}

/// Launches `kernel` over every element of `output` (when there is one) and returns it.
macro_rules! launch_conv {
    ($kernel:ident, $x:expr, $weight:expr, $bias:expr, $output:expr, $params:expr) => {{
        let output: CubeTensor = $output;
        let count = output.num_elements();
        if count > 0 {
            let (x, weight, bias): (CubeTensor, CubeTensor, Option<CubeTensor>) =
                ($x, $weight, $bias);
            let client = x.client.clone();
            let (cube_count, cube_dim) = elementwise_geometry(&client, count);
            let addresses = address_type(&[&x, &weight, &output]);
            let dtypes = float_dtypes(&x);
            crate::launch::before_launch(&client);
            $kernel::launch(
                &client,
                cube_count,
                cube_dim,
                addresses,
                x.binding().into_tensor_arg(),
                weight.binding().into_tensor_arg(),
                bias.map(|b| b.binding().into_tensor_arg()).into(),
                output.clone().binding().into_tensor_arg(),
                shape_divmod(&output.shape.dims),
                $params,
                dtypes,
            );
        }
        output
    }};
}

/// 2-d convolution of `x [n, c_in, h, w]` with `weight [c_out, c_in / groups, kh, kw]` and an
/// optional `bias [c_out]`, as `ModuleOps::conv2d`: zero padding on both sides, strides and
/// dilations per axis, channel groups. The output is `[n, c_out, oh, ow]` with
/// `oh = (h + 2·p − d·(kh − 1) − 1) / s + 1` (likewise `ow`). Operands are read through their
/// strides (any layout); `f16` accumulates in `f32`.
///
/// # Panics
///
/// When the operands are not rank-4 float tensors of one dtype and device, the channels do not
/// match the weight and groups, a stride, dilation, group count or kernel size is zero, the
/// dilated kernel exceeds the padded input, or the bias is not `[c_out]`.
pub fn conv2d(
    x: CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    options: ConvOptions<2>,
) -> CubeTensor {
    const OP: &str = "conv2d";
    let [n, c_in, h, w] = dims4(OP, "x", &x);
    let [c_out, in_per_group, kh, kw] = dims4(OP, "weight", &weight);
    assert_float(OP, &x);
    assert_like(OP, "a weight", &x, &weight);
    assert_positive(OP, "stride", &options.stride);
    assert_positive(OP, "dilation", &options.dilation);
    assert_positive(OP, "kernel size", &[kh, kw]);
    let groups = options.groups;
    assert!(groups > 0, "{OP}: expected groups > 0, got 0");
    assert_eq!(
        c_in,
        in_per_group * groups,
        "{OP}: expected {} input channels (weight {:?} with {groups} groups), got input {:?}",
        in_per_group * groups,
        weight.shape.dims,
        x.shape.dims
    );
    assert!(
        c_out.is_multiple_of(groups),
        "{OP}: expected output channels ({c_out}) divisible by groups ({groups}), got weight {:?}",
        weight.shape.dims
    );
    check_bias(OP, &x, bias.as_ref(), c_out);
    let padding = options.symmetric_padding();
    let out_len = |i: usize, input: usize, k: usize| {
        let window = [k, options.stride[i], padding[i], options.dilation[i]];
        window_out_len(OP, input, window, false)
    };
    let shape = [n, c_out, out_len(0, h, kh), out_len(1, w, kw)];
    let output = output_like(&x, shape, x.dtype);
    let params = conv_params(options.stride, padding, options.dilation, groups);
    launch_conv!(conv2d_kernel, x, weight, bias, output, params)
}

/// 2-d transposed convolution of `x [n, c_in, h, w]` with `weight [c_in, c_out / groups, kh,
/// kw]` and an optional `bias [c_out]`, as `ModuleOps::conv_transpose2d`: the adjoint of the
/// convolution with the same stride, padding, dilation and groups, its output
/// `oh = (h − 1)·s + d·(kh − 1) + padding_out + 1 − 2·p` (likewise `ow`). Operands are read
/// through their strides; `f16` accumulates in `f32`.
///
/// # Panics
///
/// When the operands are not rank-4 float tensors of one dtype and device, `c_in` does not
/// match the weight or is not divisible by the groups, a stride, dilation, group count or
/// kernel size is zero, the output would be empty, or the bias is not `[c_out]`.
pub fn conv_transpose2d(
    x: CubeTensor,
    weight: CubeTensor,
    bias: Option<CubeTensor>,
    options: ConvTransposeOptions<2>,
) -> CubeTensor {
    const OP: &str = "conv_transpose2d";
    let [n, c_in, h, w] = dims4(OP, "x", &x);
    let [w_in, out_per_group, kh, kw] = dims4(OP, "weight", &weight);
    assert_float(OP, &x);
    assert_like(OP, "a weight", &x, &weight);
    assert_positive(OP, "stride", &options.stride);
    assert_positive(OP, "dilation", &options.dilation);
    assert_positive(OP, "kernel size", &[kh, kw]);
    let groups = options.groups;
    assert!(groups > 0, "{OP}: expected groups > 0, got 0");
    assert_eq!(
        c_in, w_in,
        "{OP}: expected {w_in} input channels (weight {:?}), got input {:?}",
        weight.shape.dims, x.shape.dims
    );
    assert!(
        c_in.is_multiple_of(groups),
        "{OP}: expected input channels ({c_in}) divisible by groups ({groups})"
    );
    let c_out = out_per_group * groups;
    check_bias(OP, &x, bias.as_ref(), c_out);
    let out_len = |i: usize, input: usize, k: usize| {
        let full = input.saturating_sub(1) * options.stride[i]
            + options.dilation[i] * (k - 1)
            + options.padding_out[i]
            + 1;
        assert!(
            input > 0 && full > 2 * options.padding[i],
            "{OP}: expected a positive output size, got input {:?}, weight {:?}, padding {:?}",
            x.shape.dims,
            weight.shape.dims,
            options.padding
        );
        full - 2 * options.padding[i]
    };
    let shape = [n, c_out, out_len(0, h, kh), out_len(1, w, kw)];
    let output = output_like(&x, shape, x.dtype);
    let params = conv_params(options.stride, options.padding, options.dilation, groups);
    launch_conv!(conv_transpose2d_kernel, x, weight, bias, output, params)
}
