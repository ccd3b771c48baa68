//! Activation functions, as in `torch.nn.functional`.

use crate::AsIndex;
use crate::Tensor;
use burn_backend::ops::ActivationOps;
use burn_dispatch::Dispatch;

/// Checks a dim argument of a softmax-like function.
fn check_dim<const D: usize>(op: &str, dim: usize) {
    crate::tensor::check::dim_in_range(op, dim, D);
}

/// `max(x, 0)`.
pub fn relu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_primitive(Dispatch::relu(tensor.into_primitive()))
}

/// `x` for `x >= 0`, `negative_slope · x` otherwise.
pub fn leaky_relu<const D: usize>(tensor: Tensor<D>, negative_slope: f64) -> Tensor<D> {
    Tensor::from_primitive(Dispatch::leaky_relu(
        tensor.into_primitive(),
        negative_slope.into(),
    ))
}

/// `x · Φ(x)` (exact GELU).
pub fn gelu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_primitive(Dispatch::gelu(tensor.into_primitive()))
}

/// GELU with the tanh approximation (`approximate="tanh"` in PyTorch):
/// `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`.
pub fn gelu_approximate<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    let inner = tensor
        .clone()
        .powi_scalar(3)
        .mul_scalar(0.044715)
        .add(tensor.clone());
    let t = inner
        .mul_scalar((2.0 / core::f64::consts::PI).sqrt())
        .tanh();
    tensor.mul(t.add_scalar(1.0)).mul_scalar(0.5)
}

/// `1 / (1 + e^-x)`.
pub fn sigmoid<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_primitive(Dispatch::sigmoid(tensor.into_primitive()))
}

/// `ln(sigmoid(x))`, stable for large `|x|`.
pub fn log_sigmoid<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    Tensor::from_primitive(Dispatch::log_sigmoid(tensor.into_primitive()))
}

/// `clamp(alpha · x + beta, 0, 1)`.
pub fn hard_sigmoid<const D: usize>(tensor: Tensor<D>, alpha: f64, beta: f64) -> Tensor<D> {
    Tensor::from_primitive(Dispatch::hard_sigmoid(
        tensor.into_primitive(),
        alpha.into(),
        beta.into(),
    ))
}

/// `x · sigmoid(x)` (SiLU / swish).
pub fn silu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.clone().mul(sigmoid(tensor))
}

/// `x · sigmoid(x)`, the same as [`silu`].
pub fn swish<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    silu(tensor)
}

/// `x · tanh(softplus(x))`.
pub fn mish<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.clone().mul(softplus(tensor, 1.0).tanh())
}

/// The hyperbolic tangent.
pub fn tanh<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.tanh()
}

/// The `threshold` of [`softplus`]: above `β·x = 20` it returns `x` (as PyTorch).
pub const DEFAULT_SOFTPLUS_THRESHOLD: f64 = 20.0;

/// `ln(1 + e^(β·x)) / β`, and `x` where `β·x` exceeds [`DEFAULT_SOFTPLUS_THRESHOLD`]
/// (`torch.nn.functional.softplus(x, beta)`).
pub fn softplus<const D: usize>(tensor: Tensor<D>, beta: f64) -> Tensor<D> {
    softplus_with_threshold(tensor, beta, DEFAULT_SOFTPLUS_THRESHOLD)
}

/// `ln(1 + e^(β·x)) / β` where `β·x <= threshold`, `x` above it. Computed stably below the
/// threshold (`max(z, 0) + ln(1 + e^-|z|)` with `z = β·x`), so no exponential overflows in any
/// float dtype and the gradient stays finite on both branches.
pub fn softplus_with_threshold<const D: usize>(
    tensor: Tensor<D>,
    beta: f64,
    threshold: f64,
) -> Tensor<D> {
    let z = tensor.clone().mul_scalar(beta);
    let linear = z.clone().greater_elem(threshold);
    let tail = z.clone().abs().neg().exp().log1p();
    let smooth = z.clamp_min(0.0).add(tail).div_scalar(beta);
    smooth.mask_where(linear, tensor)
}

/// `x` for `x > 0`, `alpha · (e^x - 1)` otherwise.
pub fn elu<const D: usize>(tensor: Tensor<D>, alpha: f64) -> Tensor<D> {
    let negative = tensor.clone().lower_elem(0.0);
    let exp_part = tensor
        .clone()
        .clamp_max(0.0)
        .exp()
        .sub_scalar(1.0)
        .mul_scalar(alpha);
    tensor.mask_where(negative, exp_part)
}

/// `x` for `x > 0`, `alpha · (e^(x/alpha) - 1)` otherwise (continuously differentiable ELU).
pub fn celu<const D: usize>(tensor: Tensor<D>, alpha: f64) -> Tensor<D> {
    let negative = tensor.clone().lower_elem(0.0);
    let exp_part = tensor
        .clone()
        .clamp_max(0.0)
        .div_scalar(alpha)
        .exp()
        .sub_scalar(1.0)
        .mul_scalar(alpha);
    tensor.mask_where(negative, exp_part)
}

/// `γ · x` for `x > 0`, `γ · α · (e^x - 1)` otherwise, with the self-normalizing constants
/// `α ≈ 1.6733`, `γ ≈ 1.0507` (SELU).
pub fn selu<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    /// α of the SELU paper (Klambauer et al. 2017).
    const ALPHA: f64 = 1.673_263_242_354_377_3;
    /// γ (λ in the paper).
    const GAMMA: f64 = 1.050_700_987_355_480_5;
    elu(tensor, ALPHA).mul_scalar(GAMMA)
}

/// `clamp(x, min_val, max_val)`.
pub fn hardtanh<const D: usize>(tensor: Tensor<D>, min_val: f64, max_val: f64) -> Tensor<D> {
    tensor.clamp(min_val, max_val)
}

/// `x - tanh(x)`.
pub fn tanhshrink<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.clone().sub(tensor.tanh())
}

/// `x / (1 + |x|)`.
pub fn softsign<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.clone().div(tensor.abs().add_scalar(1.0))
}

/// `x` where `x > alpha`, 0 elsewhere.
pub fn thresholded_relu<const D: usize>(tensor: Tensor<D>, alpha: f64) -> Tensor<D> {
    threshold(tensor, alpha, 0.0)
}

/// `x` where `x > threshold`, `value` elsewhere (`torch.nn.functional.threshold`).
pub fn threshold<const D: usize>(tensor: Tensor<D>, threshold: f64, value: f64) -> Tensor<D> {
    let at_or_below = tensor.clone().lower_equal_elem(threshold);
    tensor.mask_fill(at_or_below, value)
}

/// `x` where `|x| > lambda`, 0 elsewhere.
pub fn hard_shrink<const D: usize>(tensor: Tensor<D>, lambda: f64) -> Tensor<D> {
    let inside = tensor.clone().abs().lower_equal_elem(lambda);
    tensor.mask_fill(inside, 0.0)
}

/// `x - lambda` above `lambda`, `x + lambda` below `-lambda`, 0 between.
pub fn soft_shrink<const D: usize>(tensor: Tensor<D>, lambda: f64) -> Tensor<D> {
    shrink(tensor, lambda, lambda)
}

/// `x - bias` above `lambda`, `x + bias` below `-lambda`, 0 between (ONNX `Shrink`).
pub fn shrink<const D: usize>(tensor: Tensor<D>, lambda: f64, bias: f64) -> Tensor<D> {
    let inside = tensor.clone().abs().lower_equal_elem(lambda);
    let shifted = tensor.clone().sub(tensor.sign().mul_scalar(bias));
    shifted.mask_fill(inside, 0.0)
}

/// `x` for `x >= 0`, `alpha · x` otherwise, with a learned `alpha` per channel (dim 1) or one
/// value.
pub fn prelu<const D: usize>(tensor: Tensor<D>, alpha: Tensor<1>) -> Tensor<D> {
    let count = alpha.dims()[0];
    let mut shape = [1usize; D];
    if count > 1 {
        if D < 2 || tensor.dims()[1] != count {
            crate::tensor::check::fail(
                "prelu",
                format_args!(
                    "{count} weights for a tensor of shape {:?}; expected one per channel (dim 1)",
                    tensor.dims()
                ),
            );
        }
        shape[1] = count;
    }
    let alpha: Tensor<D> = alpha.reshape(shape);
    let negative = tensor.clone().lower_elem(0.0);
    tensor.clone().mask_where(negative, tensor.mul(alpha))
}

/// `min(max(x, 0), 6)`.
pub fn relu6<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor.clamp(0.0, 6.0)
}

/// `x · relu6(x + 3) / 6`.
pub fn hard_swish<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
    tensor
        .clone()
        .mul(relu6(tensor.add_scalar(3.0)).div_scalar(6.0))
}

/// Softmax along `dim`: `e^(x - max) / Σ e^(x - max)`. Backends may compute it in one pass
/// per line (Flex does); its gradient is `s · (g - Σ g·s)`.
pub fn softmax<const D: usize>(tensor: Tensor<D>, dim: impl AsIndex) -> Tensor<D> {
    let dim = crate::tensor::check::dim("softmax", dim, D);
    check_dim::<D>("softmax", dim);
    Tensor::from_primitive(Dispatch::softmax(tensor.into_primitive(), dim))
}

/// Log-softmax along `dim`: `x - max - ln Σ e^(x - max)`; its gradient is `g - e^y · Σ g`.
pub fn log_softmax<const D: usize>(tensor: Tensor<D>, dim: impl AsIndex) -> Tensor<D> {
    let dim = crate::tensor::check::dim("log_softmax", dim, D);
    check_dim::<D>("log_softmax", dim);
    Tensor::from_primitive(Dispatch::log_softmax(tensor.into_primitive(), dim))
}

/// Softmin along `dim`: `softmax(-x)`.
pub fn softmin<const D: usize>(tensor: Tensor<D>, dim: impl AsIndex) -> Tensor<D> {
    let dim = crate::tensor::check::dim("softmin", dim, D);
    softmax(tensor.neg(), dim)
}

/// Softmax with an extra zero logit along `dim` ("softmax1"): `e^x_i / (1 + Σ e^x_j)`, so a
/// line may attend to nothing. Stable for large inputs; an all `-inf` line gives zeros.
pub fn quiet_softmax<const D: usize>(tensor: Tensor<D>, dim: impl AsIndex) -> Tensor<D> {
    let dim = crate::tensor::check::dim("quiet_softmax", dim, D);
    // Shift by max(max x, 0): the implicit zero logit joins the maximum, so every exponent is
    // at most 0 and `e^-shift` (the zero logit's term) never overflows.
    let shift = tensor.clone().detach().max_dim(dim).clamp_min(0.0);
    let exp = tensor.sub(shift.clone()).exp();
    let denominator = exp.clone().sum_dim(dim).add(shift.neg().exp());
    exp.div(denominator)
}

/// Gated linear unit along `dim`: the first half times the sigmoid of the second.
pub fn glu<const D: usize>(tensor: Tensor<D>, dim: impl AsIndex) -> Tensor<D> {
    let dim = crate::tensor::check::dim("glu", dim, D);
    check_dim::<D>("glu", dim);
    let size = tensor.dims()[dim];
    if !size.is_multiple_of(2) {
        crate::tensor::check::fail("glu", format_args!("dim {dim} has odd size {size}"));
    }
    let half = size / 2;
    let a = tensor.clone().narrow(dim, 0, half);
    let b = tensor.narrow(dim, half, half);
    a.mul(sigmoid(b))
}
