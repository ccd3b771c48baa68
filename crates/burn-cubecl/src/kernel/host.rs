//! `f64` functions computed on the host, for runtimes whose kernels lack them at `f64` precision.
//!
//! Vulkan's extended instruction set (GLSL.std.450) and WGSL define `exp`, `log`, `sin`, `pow`
//! … for 16- and 32-bit floats only, so on WGPU an `f64` tensor cannot get them at full
//! precision from a kernel. CubeCL's CPU runtime has them all through LLVM but `erf`, which
//! cubecl computes with its polynomial polyfill (maximum error 1.5e-7: right for `f32`, not for
//! `f64`). Rather than return `f32`-accurate values in an `f64` tensor, the values are read back,
//! computed with Rust's `f64` functions and uploaded again: slower, but exact to the last few
//! ulps. Every other `f64` operation stays on the device.

use super::binary::BinaryOp;
use super::unary::UnaryOp;
use crate::{CubeTensor, RuntimeId};
use burn_backend::{DType, Shape, TensorData};

/// Whether `runtime`'s kernels compute the unary `op` on `f64` below `f64` precision.
pub(crate) fn f64_unary_on_host(runtime: RuntimeId, op: UnaryOp) -> bool {
    match runtime {
        RuntimeId::Wgpu => op.is_transcendental(),
        RuntimeId::Cpu => op == UnaryOp::Erf,
        _ => false,
    }
}

/// Whether `runtime`'s kernels compute the binary `op` on `f64` below `f64` precision.
pub(crate) fn f64_binary_on_host(runtime: RuntimeId, op: BinaryOp) -> bool {
    runtime == RuntimeId::Wgpu && op.is_transcendental()
}

/// Whether the unary `op` on `tensor` must be computed on the host (see the module docs).
pub(crate) fn unary_needs_host(tensor: &CubeTensor, op: UnaryOp) -> bool {
    tensor.dtype == DType::F64 && f64_unary_on_host(tensor.device.runtime(), op)
}

/// Whether the binary `op` on `tensor` must be computed on the host (see the module docs).
pub(crate) fn binary_needs_host(tensor: &CubeTensor, op: BinaryOp) -> bool {
    tensor.dtype == DType::F64 && f64_binary_on_host(tensor.device.runtime(), op)
}

/// The values of an `f64` tensor, row-major.
fn values(tensor: CubeTensor, op: &str) -> (Vec<f64>, Shape) {
    let shape = tensor.shape.clone();
    let data = tensor
        .into_data_sync()
        .unwrap_or_else(|err| panic!("{op}: reading the f64 operand failed: {err}"));
    let values = data
        .to_vec::<f64>()
        .unwrap_or_else(|err| panic!("{op}: expected f64 values: {err:?}"));
    (values, shape)
}

/// `op` of every element, computed on the host.
pub(crate) fn unary_f64(op: UnaryOp, tensor: CubeTensor) -> CubeTensor {
    let device = tensor.device.clone();
    let (values, shape) = values(tensor, op.name());
    let f = host_function(op);
    let out: Vec<f64> = values.into_iter().map(f).collect();
    CubeTensor::from_data(TensorData::new(out, shape), &device)
}

/// `op(lhs, rhs)` for operands already broadcast to one shape, computed on the host.
pub(crate) fn binary_f64(op: BinaryOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    let device = lhs.device.clone();
    let (a, shape) = values(lhs.into_contiguous(), op.name());
    let (b, _) = values(rhs.into_contiguous(), op.name());
    let f = match op {
        BinaryOp::Powf => f64::powf,
        BinaryOp::Atan2 => f64::atan2,
        BinaryOp::Hypot => f64::hypot,
        other => panic!("{}: no host form", other.name()),
    };
    let out: Vec<f64> = a.into_iter().zip(b).map(|(x, y)| f(x, y)).collect();
    CubeTensor::from_data(TensorData::new(out, shape), &device)
}

/// The Rust `f64` function of a transcendental unary operation.
fn host_function(op: UnaryOp) -> fn(f64) -> f64 {
    match op {
        UnaryOp::Exp => f64::exp,
        UnaryOp::Log => f64::ln,
        UnaryOp::Log1p => f64::ln_1p,
        UnaryOp::Sin => f64::sin,
        UnaryOp::Cos => f64::cos,
        UnaryOp::Tan => f64::tan,
        UnaryOp::Tanh => f64::tanh,
        UnaryOp::Sinh => f64::sinh,
        UnaryOp::Cosh => f64::cosh,
        UnaryOp::Asin => f64::asin,
        UnaryOp::Acos => f64::acos,
        UnaryOp::Atan => f64::atan,
        UnaryOp::Asinh => f64::asinh,
        UnaryOp::Acosh => f64::acosh,
        UnaryOp::Atanh => f64::atanh,
        UnaryOp::Erf => libm::erf,
        UnaryOp::Sigmoid => |x| 1.0 / (1.0 + (-x).exp()),
        other => panic!("{}: not a transcendental function", other.name()),
    }
}
