//! Neural-network functions over tensors: convolution, pooling, interpolation, embedding,
//! linear, attention, layer, batch and group normalization. Layouts are channels-first; weights follow
//! PyTorch.

use crate::tensor::check;
use crate::{Bool, Int, Tensor};
use burn_backend::ops::{
    AttentionModuleOptions, ConvOptions, ConvTransposeOptions, InterpolateOptions, ModuleOps,
};
use burn_dispatch::Dispatch;

/// Checks the channels of a convolution: input channels must equal the weight's in-channels
/// times `groups`.
fn check_conv(op: &str, x: &[usize], w: &[usize], groups: usize, transposed: bool) {
    if groups == 0 {
        check::fail(op, "groups must be positive");
    }
    let (in_channels, expected) = if transposed {
        (x[1], w[0])
    } else {
        (x[1], w[1] * groups)
    };
    if in_channels != expected || !w[0].is_multiple_of(groups) {
        check::fail(
            op,
            format_args!(
                "input {x:?} and weight {w:?} do not agree for groups = {groups} (expected {expected} input channels)"
            ),
        );
    }
}

/// 1-d convolution: `x [n, c_in, l]`, `weight [c_out, c_in / groups, k]`, `bias [c_out]`.
pub fn conv1d(
    x: Tensor<3>,
    weight: Tensor<3>,
    bias: Option<Tensor<1>>,
    options: ConvOptions<1>,
) -> Tensor<3> {
    check_conv("conv1d", &x.dims(), &weight.dims(), options.groups, false);
    Tensor::from_primitive(Dispatch::conv1d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 2-d convolution: `x [n, c_in, h, w]`, `weight [c_out, c_in / groups, kh, kw]`.
pub fn conv2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    bias: Option<Tensor<1>>,
    options: ConvOptions<2>,
) -> Tensor<4> {
    check_conv("conv2d", &x.dims(), &weight.dims(), options.groups, false);
    Tensor::from_primitive(Dispatch::conv2d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 1-d transposed convolution: `weight [c_in, c_out / groups, k]`.
pub fn conv_transpose1d(
    x: Tensor<3>,
    weight: Tensor<3>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<1>,
) -> Tensor<3> {
    check_conv(
        "conv_transpose1d",
        &x.dims(),
        &weight.dims(),
        options.groups,
        true,
    );
    Tensor::from_primitive(Dispatch::conv_transpose1d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 2-d transposed convolution: `weight [c_in, c_out / groups, kh, kw]`.
pub fn conv_transpose2d(
    x: Tensor<4>,
    weight: Tensor<4>,
    bias: Option<Tensor<1>>,
    options: ConvTransposeOptions<2>,
) -> Tensor<4> {
    check_conv(
        "conv_transpose2d",
        &x.dims(),
        &weight.dims(),
        options.groups,
        true,
    );
    Tensor::from_primitive(Dispatch::conv_transpose2d(
        x.into_primitive(),
        weight.into_primitive(),
        bias.map(Tensor::into_primitive),
        options,
    ))
}

/// 1-d max pooling of `x [n, c, l]`.
pub fn max_pool1d(
    x: Tensor<3>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> Tensor<3> {
    Tensor::from_primitive(Dispatch::max_pool1d(
        x.into_primitive(),
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    ))
}

/// 2-d max pooling of `x [n, c, h, w]`.
pub fn max_pool2d(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> Tensor<4> {
    Tensor::from_primitive(Dispatch::max_pool2d(
        x.into_primitive(),
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    ))
}

/// 2-d max pooling and the flat index (`h · width + w`) of each maximum in its plane.
pub fn max_pool2d_with_indices(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
) -> (Tensor<4>, Tensor<4, Int>) {
    let out = Dispatch::max_pool2d_with_indices(
        x.into_primitive(),
        kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    );
    (
        Tensor::from_primitive(out.output),
        Tensor::from_primitive(out.indices),
    )
}

/// 1-d average pooling.
pub fn avg_pool1d(
    x: Tensor<3>,
    kernel_size: usize,
    stride: usize,
    padding: usize,
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor<3> {
    Tensor::from_primitive(Dispatch::avg_pool1d(
        x.into_primitive(),
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

/// 2-d average pooling.
pub fn avg_pool2d(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor<4> {
    Tensor::from_primitive(Dispatch::avg_pool2d(
        x.into_primitive(),
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

/// 1-d adaptive average pooling to `output_size`.
pub fn adaptive_avg_pool1d(x: Tensor<3>, output_size: usize) -> Tensor<3> {
    Tensor::from_primitive(Dispatch::adaptive_avg_pool1d(
        x.into_primitive(),
        output_size,
    ))
}

/// 2-d adaptive average pooling to `output_size`.
pub fn adaptive_avg_pool2d(x: Tensor<4>, output_size: [usize; 2]) -> Tensor<4> {
    Tensor::from_primitive(Dispatch::adaptive_avg_pool2d(
        x.into_primitive(),
        output_size,
    ))
}

/// Resizes `x [n, c, h, w]` to `output_size`.
pub fn interpolate(
    x: Tensor<4>,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> Tensor<4> {
    if output_size.contains(&0) {
        check::fail(
            "interpolate",
            format_args!("output size {output_size:?} has a zero"),
        );
    }
    Tensor::from_primitive(Dispatch::interpolate(
        x.into_primitive(),
        output_size,
        options,
    ))
}

/// Rows of `weights [n, d]` picked by `indices [batch, seq]`: `[batch, seq, d]`.
pub fn embedding(weights: Tensor<2>, indices: Tensor<2, Int>) -> Tensor<3> {
    check::same_device("embedding", &weights.device(), &indices.device());
    Tensor::from_primitive(Dispatch::embedding(
        weights.into_primitive(),
        indices.into_primitive(),
    ))
}

/// `x · weight + bias` over the last dim, with `weight [d_in, d_out]` (Burn's layout).
pub fn linear<const D: usize>(
    x: Tensor<D>,
    weight: Tensor<2>,
    bias: Option<Tensor<1>>,
) -> Tensor<D> {
    let [d_in, d_out] = weight.dims();
    let dims = x.dims();
    if dims[D - 1] != d_in {
        check::fail(
            "linear",
            format_args!(
                "input {dims:?} has {} features, weight {:?} expects {d_in}",
                dims[D - 1],
                [d_in, d_out]
            ),
        );
    }
    if D == 1 {
        // A single vector: compute as a one-row matrix.
        let row: Tensor<2> = x.unsqueeze();
        let out = linear(row, weight, bias);
        return out.reshape([-1i64; D].map(|_| d_out as i64));
    }
    let weight: Tensor<D> = weight.unsqueeze();
    let out = x.matmul(weight);
    match bias {
        Some(bias) => out.add(bias.unsqueeze()),
        None => out,
    }
}

/// Scaled dot-product attention: `softmax(q·kᵀ·scale + mask) · v` for `q [b, h, lq, d]`,
/// `k [b, h, lk, d]`, `v [b, h, lk, dv]`; `mask` (true = may not attend) broadcasts to
/// `[b, h, lq, lk]`.
pub fn attention(
    query: Tensor<4>,
    key: Tensor<4>,
    value: Tensor<4>,
    mask: Option<Tensor<4, Bool>>,
    options: AttentionModuleOptions,
) -> Tensor<4> {
    let (q, k, v) = (query.dims(), key.dims(), value.dims());
    if q[3] != k[3] || k[2] != v[2] || q[0] != k[0] || q[1] != k[1] {
        check::fail(
            "attention",
            format_args!("query {q:?}, key {k:?} and value {v:?} do not agree"),
        );
    }
    Tensor::from_primitive(Dispatch::attention(
        query.into_primitive(),
        key.into_primitive(),
        value.into_primitive(),
        mask.map(Tensor::into_primitive),
        options,
    ))
}

/// Layer normalization over the last dim of `x [..., d]`: `(x - mean) / √(var + ε) · γ + β` with
/// the biased variance, `gamma` and `beta` of shape `[d]` (`torch.nn.functional.layer_norm` over
/// the last dim). One backend operation with its own backward: Flex normalizes each row in one
/// read of it.
///
/// ```
/// use burn_tensor::{Device, Tensor, module::layer_norm};
///
/// let device = Device::default();
/// let x = Tensor::<2>::from_data([[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]], &device);
/// let gamma = Tensor::<1>::ones([3], &device);
/// let y = layer_norm(x, gamma, None, 1e-5);
/// let row = y.into_data().to_vec::<f32>().unwrap();
/// assert!((row[0] + 1.2247).abs() < 1e-3 && row[1].abs() < 1e-6 && row[3].abs() < 1e-6);
/// ```
pub fn layer_norm<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Option<Tensor<1>>,
    epsilon: f64,
) -> Tensor<D> {
    let dims = x.dims();
    if D == 0 {
        check::fail(
            "layer_norm",
            format_args!("expected an input of rank at least 1, got a scalar"),
        );
    }
    check_norm_params("layer_norm", &x, dims[D - 1], [Some(&gamma), beta.as_ref()]);
    Tensor::from_primitive(Dispatch::layer_norm(
        x.into_primitive(),
        gamma.into_primitive(),
        beta.map(Tensor::into_primitive),
        epsilon,
    ))
}

/// Batch normalization of `x [batch, channels, ...]` with the batch statistics (training mode):
/// `(x - mean) / √(var + ε) · γ + β` per channel, the mean and biased variance taken over the
/// batch and spatial dims, `gamma` and `beta` of shape `[channels]`
/// (`torch.nn.functional.batch_norm(training=True)` without the running averages). Returns the
/// output, and the mean and biased variance `[channels]` as constants (no gradient flows through
/// them; the gradient of the output accounts for the statistics).
///
/// ```
/// use burn_tensor::{Device, Tensor, module::batch_norm};
///
/// let device = Device::default();
/// let x = Tensor::<3>::from_data([[[1.0, 3.0]], [[5.0, 7.0]]], &device); // [2, 1, 2]
/// let (y, mean, var) = batch_norm(x, Tensor::ones([1], &device), Tensor::zeros([1], &device), 0.0);
/// assert_eq!(mean.into_data().to_vec::<f32>().unwrap(), [4.0]);
/// assert_eq!(var.into_data().to_vec::<f32>().unwrap(), [5.0]);
/// let y = y.into_data().to_vec::<f32>().unwrap();
/// assert!((y[0] + 3.0 / 5f32.sqrt()).abs() < 1e-5);
/// ```
pub fn batch_norm<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    epsilon: f64,
) -> (Tensor<D>, Tensor<1>, Tensor<1>) {
    let dims = x.dims();
    if D < 2 {
        check::fail(
            "batch_norm",
            format_args!("expected an input [batch, channels, ...], got shape {dims:?}"),
        );
    }
    check_norm_params("batch_norm", &x, dims[1], [Some(&gamma), Some(&beta)]);
    let out = Dispatch::batch_norm(
        x.into_primitive(),
        gamma.into_primitive(),
        beta.into_primitive(),
        epsilon,
    );
    (
        Tensor::from_primitive(out.output),
        Tensor::from_primitive(out.mean),
        Tensor::from_primitive(out.var),
    )
}

/// Group normalization of `x [batch, channels, ...]`: the channels split into `groups`
/// consecutive groups, each (sample, group) normalized over its channels and spatial positions
/// with the biased variance, then `· γ + β` per channel, `gamma` and `beta` of shape
/// `[channels]` (`torch.nn.functional.group_norm`). One backend operation with its own backward:
/// Flex normalizes each (sample, group) in one read of it.
///
/// ```
/// use burn_tensor::{Device, Tensor, module::group_norm};
///
/// let device = Device::default();
/// // One sample, two channels of two values, one group: normalized over all four values.
/// let x = Tensor::<3>::from_data([[[1.0, 3.0], [5.0, 7.0]]], &device);
/// let y = group_norm(x, Tensor::ones([2], &device), Tensor::zeros([2], &device), 1, 0.0);
/// let y = y.into_data().to_vec::<f32>().unwrap();
/// assert!((y[0] + 3.0 / 5f32.sqrt()).abs() < 1e-5 && (y[3] - 3.0 / 5f32.sqrt()).abs() < 1e-5);
/// ```
pub fn group_norm<const D: usize>(
    x: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    groups: usize,
    epsilon: f64,
) -> Tensor<D> {
    let dims = x.dims();
    if D < 2 {
        check::fail(
            "group_norm",
            format_args!("expected an input [batch, channels, ...], got shape {dims:?}"),
        );
    }
    if groups == 0 || !dims[1].is_multiple_of(groups) {
        check::fail(
            "group_norm",
            format_args!(
                "expected a number of groups dividing the {} channels of {dims:?}, got {groups}",
                dims[1]
            ),
        );
    }
    check_norm_params("group_norm", &x, dims[1], [Some(&gamma), Some(&beta)]);
    Tensor::from_primitive(Dispatch::group_norm(
        x.into_primitive(),
        gamma.into_primitive(),
        beta.into_primitive(),
        groups,
        epsilon,
    ))
}

/// Checks a normalization's scale (`gamma`) and shift (`beta`, when given): each of shape
/// `[len]` and on `x`'s device.
fn check_norm_params<const D: usize>(
    op: &str,
    x: &Tensor<D>,
    len: usize,
    [gamma, beta]: [Option<&Tensor<1>>; 2],
) {
    for (name, param) in [("gamma", gamma), ("beta", beta)] {
        let Some(param) = param else { continue };
        if param.dims() != [len] {
            check::fail(
                op,
                format_args!(
                    "expected {name} of shape [{len}] for an input {:?}, got {:?}",
                    x.dims(),
                    param.dims()
                ),
            );
        }
        check::same_device(op, &x.device(), &param.device());
    }
}
