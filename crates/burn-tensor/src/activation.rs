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

/// GELU with the tanh approximation (`approximate="tanh"` in PyTorch).
pub fn gelu_tanh<const D: usize>(tensor: Tensor<D>) -> Tensor<D> {
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

/// `ln(1 + e^(β·x)) / β`, computed stably (`max(z, 0) + ln(1 + e^-|z|)` with `z = β·x`).
pub fn softplus<const D: usize>(tensor: Tensor<D>, beta: f64) -> Tensor<D> {
    let z = tensor.mul_scalar(beta);
    let tail = z.clone().abs().neg().exp().log1p();
    z.clamp_min(0.0).add(tail).div_scalar(beta)
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
