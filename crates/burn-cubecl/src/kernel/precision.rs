//! The dtype float kernels compute in, which may be wider than the dtype they store.

use crate::{CubeTensor, RuntimeId};
use burn_backend::DType;

/// The dtype a float kernel computes in for a tensor of `dtype`.
///
/// - `f16` and `bf16` compute in `f32` and round once when stored (as PyTorch's "opmath").
/// - `f64` computes in `f64`, except the transcendental functions (`exp`, `log`, `sin`, `pow`
///   …, `transcendental` true) on WGPU: Vulkan's extended instruction set (GLSL.std.450) and
///   WGSL define them for 16- and 32-bit floats only. The element-wise kernels send those to
///   the host instead (see `host.rs`); any other kernel that reaches one computes it in `f32`
///   (about 7 significant digits) rather than returning undefined values.
pub(crate) fn compute_dtype(tensor: &CubeTensor, transcendental: bool) -> DType {
    match tensor.dtype {
        DType::F16 | DType::BF16 => DType::F32,
        DType::F64 if transcendental && tensor.device.runtime() == RuntimeId::Wgpu => DType::F32,
        dtype => dtype,
    }
}
