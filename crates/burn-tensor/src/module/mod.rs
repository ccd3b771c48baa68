//! Neural-network functions over tensors: convolution, pooling, interpolation, embedding,
//! linear, attention, layer, batch and group normalization. Layouts are channels-first; weights
//! follow PyTorch except `linear`'s (`[d_in, d_out]`, as Burn). The options are Burn's structs
//! (`burn::tensor::ops::{ConvOptions, MaxPoolOptions, AvgPoolOptions, InterpolateOptions, …}`).

mod conv;
mod ctc;
mod deform;
mod interpolate;
mod pool;
mod volume;

pub use burn_backend::ops::{
    CoordinateTransformMode, CubicOptions, InterpolateMode, InterpolateOptions, NearestRoundingMode,
};
pub use conv::{
    conv_output_size, conv_transpose_output_size, conv_transpose1d, conv_transpose2d, conv1d,
    conv2d, conv2d_weight_backward, fold4d, unfold4d,
};
pub use ctc::ctc_loss;
pub use deform::deform_conv2d;
pub use interpolate::{interpolate, interpolate_output_size};
pub use pool::{
    adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool_output_size, avg_pool1d, avg_pool2d,
    avg_pool2d_backward, max_pool_output_size, max_pool1d, max_pool1d_with_indices, max_pool2d,
    max_pool2d_with_indices, max_pool2d_with_indices_backward,
};
pub use volume::{
    adaptive_avg_pool3d, avg_pool3d, avg_pool3d_backward, conv_transpose3d, conv3d, max_pool3d,
    max_pool3d_with_indices, max_pool3d_with_indices_backward,
};

use crate::tensor::check;
use crate::{Bool, Int, Tensor};
use burn_backend::ops::{AttentionModuleOptions, ModuleOps};
use burn_dispatch::Dispatch;

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

/// Scaled dot-product attention: `softmax(softcap(q·kᵀ·scale) masked + attn_bias) · v` for
/// `q [b, h, lq, d]`, `k [b, h_kv, lk, d]`, `v [b, h_kv, lk, dv]`, where `h` is a multiple of
/// `h_kv` (grouped-query attention: query head `i` reads key/value head `i / (h / h_kv)`).
/// `mask` (true = may not attend) and `attn_bias` (ALiBi, relative positions) broadcast to the
/// scores `[b, h, lq, lk]`; the scale defaults to `1/√d` and the causal mask aligns as
/// `options.causal_alignment` says. A row with every key masked gives zeros.
pub fn attention(
    query: Tensor<4>,
    key: Tensor<4>,
    value: Tensor<4>,
    mask: Option<Tensor<4, Bool>>,
    attn_bias: Option<Tensor<4>>,
    options: AttentionModuleOptions,
) -> Tensor<4> {
    check_attention(&query, &key, &value, mask.as_ref(), attn_bias.as_ref());
    Tensor::from_primitive(Dispatch::attention(
        query.into_primitive(),
        key.into_primitive(),
        value.into_primitive(),
        mask.map(Tensor::into_primitive),
        attn_bias.map(Tensor::into_primitive),
        options,
    ))
}

/// [`attention`] composed from matmuls and a stable softmax on the device's backend, whatever
/// fused kernel the backend has: the reference the fused kernels are tested against.
pub fn attention_fallback(
    query: Tensor<4>,
    key: Tensor<4>,
    value: Tensor<4>,
    mask: Option<Tensor<4, Bool>>,
    attn_bias: Option<Tensor<4>>,
    options: AttentionModuleOptions,
) -> Tensor<4> {
    check_attention(&query, &key, &value, mask.as_ref(), attn_bias.as_ref());
    Tensor::from_primitive(burn_backend::ops::attention_fallback::<Dispatch>(
        query.into_primitive(),
        key.into_primitive(),
        value.into_primitive(),
        mask.map(Tensor::into_primitive),
        attn_bias.map(Tensor::into_primitive),
        options,
    ))
}

/// Checks attention's shapes: query, key and value agree on batch, heads (a multiple), lengths
/// and head size; mask and bias broadcast to the scores.
fn check_attention(
    query: &Tensor<4>,
    key: &Tensor<4>,
    value: &Tensor<4>,
    mask: Option<&Tensor<4, Bool>>,
    attn_bias: Option<&Tensor<4>>,
) {
    let op = "attention";
    let (q, k, v) = (query.dims(), key.dims(), value.dims());
    let heads_ok = k[1] > 0 && q[1].is_multiple_of(k[1]) && k[1] == v[1];
    if q[3] != k[3] || k[2] != v[2] || q[0] != k[0] || k[0] != v[0] || !heads_ok {
        check::fail(
            op,
            format_args!(
                "query {q:?}, key {k:?} and value {v:?} do not agree (expected [b, h, lq, d], [b, h_kv, lk, d], [b, h_kv, lk, dv] with h a multiple of h_kv)"
            ),
        );
    }
    let scores = crate::Shape::from([q[0], q[1], q[2], k[2]]);
    if let Some(mask) = mask {
        check::broadcast(op, &scores, &mask.shape());
        check::same_device(op, &query.device(), &mask.device());
    }
    if let Some(bias) = attn_bias {
        check::broadcast(op, &scores, &bias.shape());
        check::same_device(op, &query.device(), &bias.device());
    }
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
    check_norm_params(
        "layer_norm",
        &x,
        dims[D - 1],
        &[("gamma", Some(&gamma)), ("beta", beta.as_ref())],
    );
    Tensor::from_primitive(Dispatch::layer_norm(
        x.into_primitive(),
        gamma.into_primitive(),
        beta.map(Tensor::into_primitive),
        epsilon,
    ))
}

/// Batch normalization of `input [batch, channels, ...]` with given per-channel statistics
/// (inference, or statistics computed elsewhere): `(x - mean) / √(variance + ε) · γ + β`, every
/// parameter of shape `[channels]`. Nothing is computed from the batch or updated; see
/// [`batch_norm_train`] for the training form.
///
/// ```
/// use burn_tensor::{Device, Tensor, module::batch_norm};
///
/// let device = Device::default();
/// let x = Tensor::<3>::from_data([[[1.0, 3.0]], [[5.0, 7.0]]], &device); // [2, 1, 2]
/// let [ones, zeros] = [Tensor::<1>::ones([1], &device), Tensor::<1>::zeros([1], &device)];
/// let y = batch_norm(x, ones.clone(), zeros, Tensor::from_data([4.0], &device), ones * 4.0, 0.0);
/// assert_eq!(y.into_data().to_vec::<f32>().unwrap(), [-1.5, -0.5, 0.5, 1.5]);
/// ```
pub fn batch_norm<const D: usize>(
    input: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    mean: Tensor<1>,
    variance: Tensor<1>,
    epsilon: f64,
) -> Tensor<D> {
    let dims = input.dims();
    if D < 2 {
        check::fail(
            "batch_norm",
            format_args!("expected an input [batch, channels, ...], got shape {dims:?}"),
        );
    }
    let channels = dims[1];
    let params = [
        ("gamma", Some(&gamma)),
        ("beta", Some(&beta)),
        ("mean", Some(&mean)),
        ("variance", Some(&variance)),
    ];
    check_norm_params("batch_norm", &input, channels, &params);
    // Per-channel values as `[1, channels, 1, …]`, broadcasting over the rest.
    let per_channel = |t: Tensor<1>| -> Tensor<D> {
        let mut shape = [1usize; D];
        shape[1] = channels;
        t.reshape(shape)
    };
    let scale = gamma / (variance + epsilon).sqrt();
    let shift = beta - mean * scale.clone();
    input * per_channel(scale) + per_channel(shift)
}

/// The output of [`batch_norm_train`]: the normalized input and the batch statistics.
#[derive(Debug, Clone)]
pub struct BatchNormTrainOutput<const D: usize> {
    /// The normalized input, of the input's shape.
    pub output: Tensor<D>,
    /// The batch mean per channel, `[channels]`, detached from any graph.
    pub mean: Tensor<1>,
    /// The biased (population) batch variance per channel, `[channels]`, without ε, detached.
    pub variance: Tensor<1>,
}

/// Batch normalization of `input [batch, channels, ...]` with the batch statistics (training
/// mode): `(x - mean) / √(var + ε) · γ + β` per channel, the mean and biased variance taken over
/// the batch and spatial dims, `gamma` and `beta` of shape `[channels]`
/// (`torch.nn.functional.batch_norm(training=True)` without the running averages). The
/// gradient of the output accounts for the statistics; the returned statistics are constants.
/// One backend operation with its own backward.
///
/// ```
/// use burn_tensor::{Device, Tensor, module::batch_norm_train};
///
/// let device = Device::default();
/// let x = Tensor::<3>::from_data([[[1.0, 3.0]], [[5.0, 7.0]]], &device); // [2, 1, 2]
/// let out = batch_norm_train(x, Tensor::ones([1], &device), Tensor::zeros([1], &device), 0.0);
/// assert_eq!(out.mean.into_data().to_vec::<f32>().unwrap(), [4.0]);
/// assert_eq!(out.variance.into_data().to_vec::<f32>().unwrap(), [5.0]);
/// let y = out.output.into_data().to_vec::<f32>().unwrap();
/// assert!((y[0] + 3.0 / 5f32.sqrt()).abs() < 1e-5);
/// ```
pub fn batch_norm_train<const D: usize>(
    input: Tensor<D>,
    gamma: Tensor<1>,
    beta: Tensor<1>,
    epsilon: f64,
) -> BatchNormTrainOutput<D> {
    let dims = input.dims();
    if D < 2 {
        check::fail(
            "batch_norm_train",
            format_args!("expected an input [batch, channels, ...], got shape {dims:?}"),
        );
    }
    check_norm_params(
        "batch_norm_train",
        &input,
        dims[1],
        &[("gamma", Some(&gamma)), ("beta", Some(&beta))],
    );
    let out = Dispatch::batch_norm(
        input.into_primitive(),
        gamma.into_primitive(),
        beta.into_primitive(),
        epsilon,
    );
    BatchNormTrainOutput {
        output: Tensor::from_primitive(out.output),
        mean: Tensor::from_primitive(out.mean),
        variance: Tensor::from_primitive(out.var),
    }
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
    check_norm_params(
        "group_norm",
        &x,
        dims[1],
        &[("gamma", Some(&gamma)), ("beta", Some(&beta))],
    );
    Tensor::from_primitive(Dispatch::group_norm(
        x.into_primitive(),
        gamma.into_primitive(),
        beta.into_primitive(),
        groups,
        epsilon,
    ))
}

/// Checks a normalization's per-feature parameters (scale, shift, statistics), named as the
/// message should name them: each given one of shape `[len]` and on `x`'s device.
fn check_norm_params<const D: usize>(
    op: &str,
    x: &Tensor<D>,
    len: usize,
    params: &[(&str, Option<&Tensor<1>>)],
) {
    for &(name, param) in params {
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

/// `[f(0), …, f(N - 1)]` when every dimension has a size, else `None`: how the output-size
/// helpers combine their per-dimension rules.
fn every_dim<const N: usize>(size: impl Fn(usize) -> Option<usize>) -> Option<[usize; N]> {
    let sizes: [Option<usize>; N] = core::array::from_fn(size);
    sizes
        .iter()
        .all(Option::is_some)
        .then(|| sizes.map(Option::unwrap_or_default))
}
