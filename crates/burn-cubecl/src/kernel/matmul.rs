//! Batched matrix products through cubek's matmul.

use super::int_matmul::DirectProduct;
use crate::dtype::elem_type;
use crate::{CubeTensor, RuntimeId};
use burn_backend::ExecutionError;
use cubek::matmul::definition::{MatmulElems, MatmulGlobalElems};
use cubek::matmul::launch::launch_ref;
use cubek::matmul::strategy::Strategy;
use cubek::std::InputBinding;

/// The strategy to launch, and the one to try if it refuses the problem: cubek's automatic
/// choice, except where the device says it would be a poor or failing one:
///
/// - On CubeCL's CPU runtime, cubek's register-blocked CPU routine (`CpuGemm`: a leaf sized to
///   the vector registers, one plane per core). The automatic choice there is the unit-level
///   GPU kernel, which ran the digits MLP's 64×128 products at 0.2–1.4 s each.
/// - On software WGPU adapters (lavapipe, llvmpipe, WARP) the naive kernel, which uses no
///   shared memory: cubecl 0.11.3's SPIR-V declares each shared-memory array as a workgroup
///   variable of pointer-to-pointer type (`lower_shared_implicit` in cubecl-spirv appears to
///   pass the pointer type where the array type belongs), which is invalid SPIR-V (`spirv-as`
///   refuses the access chains into it); Mesa 22.3's lavapipe segfaults compiling it, other
///   drivers may accept it. The tiled unit kernels cubek otherwise picks stage through shared
///   memory.
fn strategies_for(tensor: &CubeTensor) -> (Strategy, Option<Strategy>) {
    #[cfg(feature = "cpu")]
    if tensor.device.runtime() == RuntimeId::Cpu {
        let cpu_gemm = cubek::matmul::tiled::Strategy::CpuGemm(Default::default());
        // CpuGemm refuses operands contiguous in neither matrix axis; cubek's choice takes them.
        return (Strategy::Tiled(cpu_gemm), Some(Strategy::default()));
    }
    let software = tensor.device.runtime() == RuntimeId::Wgpu
        && tensor.client.properties().identity.physical.is_none();
    if software {
        let naive = cubek::matmul::multi_level::Strategy::Naive;
        (Strategy::MultiLevel(naive), None)
    } else {
        (Strategy::default(), None)
    }
}

/// The product of the last two dims, `[.., m, k] × [.., k, n] → [.., m, n]`, the batch dims
/// broadcast (NumPy rules) and the operands read through their strides. Float dtypes; both
/// operands of one dtype and device. cubek picks the kernel (a tensor-core one where the device
/// has them, else a unit-level one; `strategies_for` says what the CPU runtime and software
/// adapters get); no autotuning.
///
/// # Panics
///
/// On a rank below 2, inner dims that differ, batch dims that do not broadcast, mixed dtypes
/// or devices, or a non-float dtype.
///
/// # Errors
///
/// When cubek has no kernel for this device and problem.
pub fn matmul(lhs: CubeTensor, rhs: CubeTensor) -> Result<CubeTensor, ExecutionError> {
    assert!(
        lhs.dtype.is_float(),
        "matmul: expected float tensors, got {}",
        lhs.dtype
    );
    let product = DirectProduct::new("matmul", lhs, rhs);
    let (lhs, rhs, out_shape) = (product.lhs, product.rhs, product.out_shape);
    let dtype = lhs.dtype;
    let output = lhs.empty_contiguous_like(out_shape.clone(), dtype);
    if out_shape.num_elements() == 0 {
        return Ok(output);
    }
    if product.k == 0 {
        return Ok(super::fill::fill(output, 0.into()));
    }
    let client = lhs.client.clone();
    let elem = elem_type(dtype);
    let globals = MatmulGlobalElems {
        lhs: elem,
        rhs: elem,
        out: elem,
    };
    crate::launch::before_launch(&client);
    let (first, fallback) = strategies_for(&lhs);
    let mut refusals = Vec::new();
    for strategy in std::iter::once(first).chain(fallback) {
        // A refusing strategy may have adjusted the element types it was given.
        let mut dtypes = MatmulElems::from_globals(&globals);
        let launched = launch_ref(
            &strategy,
            &client,
            InputBinding::new(lhs.clone().binding(), elem),
            InputBinding::new(rhs.clone().binding(), elem),
            output.clone().binding(),
            &mut dtypes,
        );
        match launched {
            Ok(()) => return Ok(output),
            Err(err) => refusals.push(format!("{strategy}: {err}")),
        }
    }
    Err(ExecutionError::unsupported("matmul", refusals.join("; ")))
}
