//! Layer, batch and group normalization composed from float operations: the default bodies of
//! [`ModuleOps::layer_norm`](super::ModuleOps::layer_norm),
//! [`ModuleOps::batch_norm`](super::ModuleOps::batch_norm),
//! [`ModuleOps::group_norm`](super::ModuleOps::group_norm) and their backwards, public so that a
//! backend with a fused kernel for some dtypes or layouts can fall back to them for the others.

use crate::tensor::FloatTensor;
use crate::{Backend, TensorMetadata};
use burn_std::{Scalar, Shape};

/// The gradients of a layer, batch or group normalization with respect to its input and
/// parameters.
#[derive(Debug, Clone)]
pub struct NormGrads<B: Backend> {
    /// The gradient of the input, its shape.
    pub x_grad: FloatTensor<B>,
    /// The gradient of the scale `γ` (one value per normalized feature or channel).
    pub gamma_grad: FloatTensor<B>,
    /// The gradient of the shift `β` (the shape of `γ`).
    pub beta_grad: FloatTensor<B>,
}

/// Checks the operands of a layer normalization over the last dim of `x`; returns that size.
pub fn check_layer_norm<B: Backend>(op: &str, x: &FloatTensor<B>, gamma: &FloatTensor<B>) -> usize {
    let shape = x.shape();
    let d = *shape
        .dims
        .last()
        .unwrap_or_else(|| panic!("{op}: expected an input of rank at least 1, got a scalar"));
    if gamma.shape().dims[..] != [d] {
        panic!(
            "{op}: expected a scale of shape [{d}] for an input of shape {:?}, got {:?}",
            shape.dims,
            gamma.shape().dims
        );
    }
    d
}

/// `[d]` seen as `[1, ..., 1, d]` against an input of rank `rank`.
fn along_last<B: Backend>(tensor: FloatTensor<B>, rank: usize) -> FloatTensor<B> {
    let mut dims = vec![1; rank];
    dims[rank - 1] = tensor.shape()[0];
    B::float_reshape(tensor, Shape::from(dims))
}

/// The mean of each row (the last dim) and `1 / √(var + ε)` with the biased variance, both
/// kept with a last dim of size 1.
fn row_statistics<B: Backend>(x: FloatTensor<B>, epsilon: f64) -> (FloatTensor<B>, FloatTensor<B>) {
    let last = x.shape().num_dims() - 1;
    let mean = B::float_mean_dim(x.clone(), last);
    let centered = B::float_sub(x, mean.clone());
    let var = B::float_mean_dim(B::float_mul(centered.clone(), centered), last);
    let inv_std = B::float_recip(B::float_sqrt(B::float_add_scalar(
        var,
        Scalar::Float(epsilon),
    )));
    (mean, inv_std)
}

/// The input gradient of a normalization, `r·(h - mean(h) - x̂·mean(h·x̂))`, from `h = grad·γ`
/// (`scaled`), `x̂` (`normalized`) and `r` (`inv_std`), `mean` averaging over what was
/// normalized together (kept as dims of size 1).
fn input_grad<B: Backend>(
    scaled: FloatTensor<B>,
    normalized: FloatTensor<B>,
    inv_std: FloatTensor<B>,
    mean: impl Fn(FloatTensor<B>) -> FloatTensor<B>,
) -> FloatTensor<B> {
    let mean_scaled = mean(scaled.clone());
    let mean_projected = mean(B::float_mul(scaled.clone(), normalized.clone()));
    B::float_mul(
        B::float_sub(
            B::float_sub(scaled, mean_scaled),
            B::float_mul(normalized, mean_projected),
        ),
        inv_std,
    )
}

/// `(x - mean) / √(var + ε) · γ + β` over the last dim of `x`, with the biased variance (as
/// `torch.nn.functional.layer_norm` over one dim).
pub fn layer_norm_fallback<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    beta: Option<FloatTensor<B>>,
    epsilon: f64,
) -> FloatTensor<B> {
    check_layer_norm::<B>("layer_norm", &x, &gamma);
    let rank = x.shape().num_dims();
    let (mean, inv_std) = row_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_mul(B::float_sub(x, mean), inv_std);
    let out = B::float_mul(normalized, along_last::<B>(gamma, rank));
    match beta {
        Some(beta) => B::float_add(out, along_last::<B>(beta, rank)),
        None => out,
    }
}

/// The gradients of [`layer_norm_fallback`] given the output's gradient `grad`: with
/// `x̂ = (x - mean)·r`, `r = 1/√(var + ε)` and `h = grad·γ` per row,
/// `∂x = r·(h - mean(h) - x̂·mean(h·x̂))`, `∂γ = Σ grad·x̂` and `∂β = Σ grad` over the rows.
pub fn layer_norm_backward_fallback<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    grad: FloatTensor<B>,
    epsilon: f64,
) -> NormGrads<B> {
    let d = check_layer_norm::<B>("layer_norm_backward", &x, &gamma);
    let shape = x.shape();
    let rank = shape.num_dims();
    let last = rank - 1;
    let (mean, inv_std) = row_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_mul(B::float_sub(x, mean), inv_std.clone());
    let scaled = B::float_mul(grad.clone(), along_last::<B>(gamma, rank));
    let x_grad = input_grad::<B>(scaled, normalized.clone(), inv_std, |t| {
        B::float_mean_dim(t, last)
    });
    let rows = shape.num_elements() / d.max(1);
    let column_sum = |t: FloatTensor<B>| {
        let t = B::float_reshape(t, Shape::new([rows, d]));
        B::float_reshape(B::float_sum_dim(t, 0), Shape::new([d]))
    };
    NormGrads {
        x_grad,
        gamma_grad: column_sum(B::float_mul(grad.clone(), normalized)),
        beta_grad: column_sum(grad),
    }
}

/// A batch normalization's output and the batch statistics it used.
#[derive(Debug, Clone)]
pub struct BatchNormOutput<B: Backend> {
    /// The normalized, scaled and shifted input, its shape.
    pub output: FloatTensor<B>,
    /// The mean of each channel over the batch and spatial dims, `[c]`.
    pub mean: FloatTensor<B>,
    /// The biased variance of each channel, `[c]`.
    pub var: FloatTensor<B>,
}

/// Checks the operands of a batch normalization of `x [n, c, ...]` (rank at least 2) with
/// per-channel `gamma`; returns `[n, c, s]`, `s` the product of the spatial dims.
pub fn check_batch_norm<B: Backend>(
    op: &str,
    x: &FloatTensor<B>,
    gamma: &FloatTensor<B>,
) -> [usize; 3] {
    let shape = x.shape();
    if shape.num_dims() < 2 {
        panic!(
            "{op}: expected an input [batch, channels, ...], got shape {:?}",
            shape.dims
        );
    }
    let (n, c) = (shape[0], shape[1]);
    if gamma.shape().dims[..] != [c] {
        panic!(
            "{op}: expected a scale of shape [{c}] for an input of shape {:?}, got {:?}",
            shape.dims,
            gamma.shape().dims
        );
    }
    let s = shape.dims[2..].iter().product();
    [n, c, s]
}

/// `[c]` seen as `[1, c, 1]`.
fn per_channel<B: Backend>(tensor: FloatTensor<B>) -> FloatTensor<B> {
    let c = tensor.shape()[0];
    B::float_reshape(tensor, Shape::new([1, c, 1]))
}

/// The mean of `t [n, c, s]` over dims 0 and 2, `[1, c, 1]`.
fn channel_mean<B: Backend>(t: FloatTensor<B>) -> FloatTensor<B> {
    B::float_mean_dim(B::float_mean_dim(t, 2), 0)
}

/// The sum of `t [n, c, s]` over dims 0 and 2, `[c]`.
fn channel_sum<B: Backend>(t: FloatTensor<B>) -> FloatTensor<B> {
    let c = t.shape()[1];
    B::float_reshape(B::float_sum_dim(B::float_sum_dim(t, 2), 0), Shape::new([c]))
}

/// The batch mean and `1 / √(var + ε)` of `x [n, c, s]`, each `[1, c, 1]`, and the variance.
fn channel_statistics<B: Backend>(
    x: FloatTensor<B>,
    epsilon: f64,
) -> (FloatTensor<B>, FloatTensor<B>, FloatTensor<B>) {
    let mean = channel_mean::<B>(x.clone());
    let centered = B::float_sub(x, mean.clone());
    let var = channel_mean::<B>(B::float_mul(centered.clone(), centered));
    let inv_std = B::float_recip(B::float_sqrt(B::float_add_scalar(
        var.clone(),
        Scalar::Float(epsilon),
    )));
    (mean, inv_std, var)
}

/// Batch normalization of `x [n, c, ...]` with the batch statistics (training mode):
/// `(x - mean) / √(var + ε) · γ + β` per channel, the mean and biased variance over the batch and
/// spatial dims (as `torch.nn.functional.batch_norm(training=True)`); returns them too.
pub fn batch_norm_fallback<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    beta: FloatTensor<B>,
    epsilon: f64,
) -> BatchNormOutput<B> {
    let [n, c, s] = check_batch_norm::<B>("batch_norm", &x, &gamma);
    let shape = x.shape();
    let x = B::float_reshape(x, Shape::new([n, c, s]));
    let (mean, inv_std, var) = channel_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_mul(B::float_sub(x, mean.clone()), inv_std);
    let output = B::float_add(
        B::float_mul(normalized, per_channel::<B>(gamma)),
        per_channel::<B>(beta),
    );
    BatchNormOutput {
        output: B::float_reshape(output, shape),
        mean: B::float_reshape(mean, Shape::new([c])),
        var: B::float_reshape(var, Shape::new([c])),
    }
}

/// The gradients of [`batch_norm_fallback`] given the output's gradient `grad`: per channel,
/// with `x̂ = (x - mean)·r` and `h = grad·γ`, `∂x = r·(h - mean(h) - x̂·mean(h·x̂))`,
/// `∂γ = Σ grad·x̂` and `∂β = Σ grad`, means and sums over the batch and spatial dims.
pub fn batch_norm_backward_fallback<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    grad: FloatTensor<B>,
    epsilon: f64,
) -> NormGrads<B> {
    let [n, c, s] = check_batch_norm::<B>("batch_norm_backward", &x, &gamma);
    let shape = x.shape();
    let flat = Shape::new([n, c, s]);
    let (x, grad) = (
        B::float_reshape(x, flat.clone()),
        B::float_reshape(grad, flat),
    );
    let (mean, inv_std, _) = channel_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_mul(B::float_sub(x, mean), inv_std.clone());
    let scaled = B::float_mul(grad.clone(), per_channel::<B>(gamma));
    let x_grad = input_grad::<B>(scaled, normalized.clone(), inv_std, channel_mean::<B>);
    NormGrads {
        x_grad: B::float_reshape(x_grad, shape),
        gamma_grad: channel_sum::<B>(B::float_mul(grad.clone(), normalized)),
        beta_grad: channel_sum::<B>(grad),
    }
}

/// Checks the operands of a group normalization of `x [n, c, ...]` (rank at least 2) in
/// `groups` groups of channels with per-channel `gamma`; returns `[n, c, s]`, `s` the product of
/// the spatial dims.
pub fn check_group_norm<B: Backend>(
    op: &str,
    x: &FloatTensor<B>,
    gamma: &FloatTensor<B>,
    groups: usize,
) -> [usize; 3] {
    let [n, c, s] = check_batch_norm::<B>(op, x, gamma);
    if groups == 0 || !c.is_multiple_of(groups) {
        panic!("{op}: expected a number of groups dividing the {c} channels, got {groups}");
    }
    [n, c, s]
}

/// `x [n, c, s]` seen as `[n, groups, c / groups · s]`: one row per sample and group.
fn grouped<B: Backend>(x: FloatTensor<B>, [n, c, s]: [usize; 3], groups: usize) -> FloatTensor<B> {
    B::float_reshape(x, Shape::new([n, groups, c / groups * s]))
}

/// Group normalization of `x [n, c, ...]`: the channels split into `groups` consecutive groups,
/// each (sample, group) normalized over its channels and spatial positions with the biased
/// variance, then `· γ + β` per channel (as `torch.nn.functional.group_norm`).
pub fn group_norm_fallback<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    beta: FloatTensor<B>,
    groups: usize,
    epsilon: f64,
) -> FloatTensor<B> {
    let dims = check_group_norm::<B>("group_norm", &x, &gamma, groups);
    let shape = x.shape();
    let x = grouped::<B>(x, dims, groups);
    let (mean, inv_std) = row_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_reshape(
        B::float_mul(B::float_sub(x, mean), inv_std),
        Shape::new(dims),
    );
    let output = B::float_add(
        B::float_mul(normalized, per_channel::<B>(gamma)),
        per_channel::<B>(beta),
    );
    B::float_reshape(output, shape)
}

/// The gradients of [`group_norm_fallback`] given the output's gradient `grad`: per (sample,
/// group), with `x̂ = (x - mean)·r` and `h = grad·γ`, `∂x = r·(h - mean(h) - x̂·mean(h·x̂))`;
/// `∂γ = Σ grad·x̂` and `∂β = Σ grad` per channel over the batch and spatial dims.
pub fn group_norm_backward_fallback<B: Backend>(
    x: FloatTensor<B>,
    gamma: FloatTensor<B>,
    grad: FloatTensor<B>,
    groups: usize,
    epsilon: f64,
) -> NormGrads<B> {
    let dims = check_group_norm::<B>("group_norm_backward", &x, &gamma, groups);
    let shape = x.shape();
    let flat = |t| B::float_reshape(t, Shape::new(dims));
    let x = grouped::<B>(x, dims, groups);
    let grad = flat(grad);
    let (mean, inv_std) = row_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_mul(B::float_sub(x, mean), inv_std.clone());
    let scaled = grouped::<B>(
        B::float_mul(grad.clone(), per_channel::<B>(gamma)),
        dims,
        groups,
    );
    let last = 2;
    let x_grad = input_grad::<B>(scaled, normalized.clone(), inv_std, |t| {
        B::float_mean_dim(t, last)
    });
    NormGrads {
        x_grad: B::float_reshape(x_grad, shape),
        gamma_grad: channel_sum::<B>(B::float_mul(grad.clone(), flat(normalized))),
        beta_grad: channel_sum::<B>(grad),
    }
}
