//! Layer normalization composed from float operations: the default bodies of
//! [`ModuleOps::layer_norm`](super::ModuleOps::layer_norm) and its backward, public so that a
//! backend with a fused kernel for some dtypes or layouts can fall back to them for the others.

use crate::tensor::FloatTensor;
use crate::{Backend, TensorMetadata};
use burn_std::{Scalar, Shape};

/// The gradients of a layer normalization with respect to its input and parameters.
#[derive(Debug, Clone)]
pub struct LayerNormGrads<B: Backend> {
    /// The gradient of the input, its shape `[..., d]`.
    pub x_grad: FloatTensor<B>,
    /// The gradient of the scale `γ`, `[d]`.
    pub gamma_grad: FloatTensor<B>,
    /// The gradient of the shift `β`, `[d]`.
    pub beta_grad: FloatTensor<B>,
}

/// Checks the operands of a layer normalization over the last dim of `x`; returns that size.
pub fn check_layer_norm<B: Backend>(op: &str, x: &FloatTensor<B>, gamma: &FloatTensor<B>) -> usize {
    let shape = x.shape();
    let d = *shape
        .dims
        .last()
        .unwrap_or_else(|| panic!("{op}: expected an input of rank at least 1, got a scalar"));
    if gamma.shape().dims != [d] {
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
) -> LayerNormGrads<B> {
    let d = check_layer_norm::<B>("layer_norm_backward", &x, &gamma);
    let shape = x.shape();
    let rank = shape.num_dims();
    let last = rank - 1;
    let (mean, inv_std) = row_statistics::<B>(x.clone(), epsilon);
    let normalized = B::float_mul(B::float_sub(x, mean), inv_std.clone());
    let scaled = B::float_mul(grad.clone(), along_last::<B>(gamma, rank));
    let mean_scaled = B::float_mean_dim(scaled.clone(), last);
    let mean_projected = B::float_mean_dim(B::float_mul(scaled.clone(), normalized.clone()), last);
    let x_grad = B::float_mul(
        B::float_sub(
            B::float_sub(scaled, mean_scaled),
            B::float_mul(normalized.clone(), mean_projected),
        ),
        inv_std,
    );
    let rows = shape.num_elements() / d.max(1);
    let column_sum = |t: FloatTensor<B>| {
        let t = B::float_reshape(t, Shape::new([rows, d]));
        B::float_reshape(B::float_sum_dim(t, 0), Shape::new([d]))
    };
    LayerNormGrads {
        x_grad,
        gamma_grad: column_sum(B::float_mul(grad.clone(), normalized)),
        beta_grad: column_sum(grad),
    }
}
