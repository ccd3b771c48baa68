//! A backend extension, end to end: a fused `relu(x · weight + bias)`.
//!
//! - [`ops`]: the trait of new operations, [`FusedOps`], with `#[backend_extension]`, which
//!   generates `impl FusedOps for Dispatch` (the run-time routing);
//! - `flex.rs`: the native CPU implementation; `cube.rs`: a CubeCL kernel (feature `cube`);
//!   `fusion.rs`: the same kernel under `Cube` = `Fusion<CubeBackend>` (feature `fusion`);
//! - `autodiff.rs`: the custom backward, for every backend;
//! - [`linear_relu`] / [`linear`]: the operations as tensor functions of the public API, and
//!   [`linear_relu_reference`], the unfused composition the tests compare with.

mod autodiff;
#[cfg(feature = "cube")]
mod cube;
mod flex;
#[cfg(feature = "fusion")]
mod fusion;
pub mod ops;

pub use ops::FusedOps;

use burn::backend::Dispatch;
use burn::tensor::{Tensor, activation};

/// Checks the operands of `op` (`x` `[m, k]`, `weight` `[k, n]`, `bias` `[n]`, one dtype),
/// panicking with what was expected and what was given.
fn check(op: &str, x: &Tensor<2>, weight: &Tensor<2>, bias: &Tensor<1>) {
    let ([_, k], [k2, n], [n2]) = (x.dims(), weight.dims(), bias.dims());
    assert!(
        k == k2 && n == n2,
        "{op}: expected x [m, k], weight [k, n] and bias [n], got x {:?}, weight {:?}, bias {:?}",
        x.dims(),
        weight.dims(),
        bias.dims()
    );
    assert!(
        x.dtype() == weight.dtype() && x.dtype() == bias.dtype(),
        "{op}: expected one float dtype, got x {:?}, weight {:?}, bias {:?}",
        x.dtype(),
        weight.dtype(),
        bias.dtype()
    );
}

/// `relu(x · weight + bias)` in one fused operation, on the device of `x`; differentiable
/// when the inputs are tracked.
///
/// # Panics
///
/// When the shapes are not `[m, k]`, `[k, n]`, `[n]`, or the dtypes differ.
pub fn linear_relu(x: Tensor<2>, weight: Tensor<2>, bias: Tensor<1>) -> Tensor<2> {
    check("linear_relu", &x, &weight, &bias);
    Tensor::from_dispatch(<Dispatch as FusedOps>::linear_relu(
        x.into_dispatch(),
        weight.into_dispatch(),
        bias.into_dispatch(),
    ))
}

/// `x · weight + bias` through the extension's default body.
///
/// # Panics
///
/// As [`linear_relu`].
pub fn linear(x: Tensor<2>, weight: Tensor<2>, bias: Tensor<1>) -> Tensor<2> {
    check("linear", &x, &weight, &bias);
    Tensor::from_dispatch(<Dispatch as FusedOps>::linear(
        x.into_dispatch(),
        weight.into_dispatch(),
        bias.into_dispatch(),
    ))
}

/// The unfused composition of public tensor functions: what [`linear_relu`] must equal.
pub fn linear_relu_reference(x: Tensor<2>, weight: Tensor<2>, bias: Tensor<1>) -> Tensor<2> {
    activation::relu(x.matmul(weight) + bias.unsqueeze::<2>())
}
