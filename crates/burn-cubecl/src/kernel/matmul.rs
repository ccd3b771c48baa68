//! Batched matrix products through cubek's matmul.

use super::int_matmul::DirectProduct;
use crate::dtype::elem_type;
use crate::{CubeTensor, RuntimeId};
use burn_backend::ExecutionError;
use cubek::matmul::definition::{MatmulElems, MatmulGlobalElems};
use cubek::matmul::launch::launch_ref;
use cubek::matmul::strategy::Strategy;
use cubek::std::InputBinding;

/// cubek's automatic choice, except on software WGPU adapters (lavapipe, llvmpipe, WARP): the
/// tiled unit kernels it falls back to without tensor cores crash Mesa 22.3's lavapipe shader
/// compiler (a segmentation fault while creating the pipeline), so those get the naive kernel.
fn strategy_for(tensor: &CubeTensor) -> Strategy {
    let software = tensor.device.runtime() == RuntimeId::Wgpu
        && tensor.client.properties().identity.physical.is_none();
    if software {
        Strategy::MultiLevel(cubek::matmul::multi_level::Strategy::Naive)
    } else {
        Strategy::default()
    }
}

/// The product of the last two dims, `[.., m, k] × [.., k, n] → [.., m, n]`, the batch dims
/// broadcast (NumPy rules) and the operands read through their strides. Float dtypes; both
/// operands of one dtype and device. cubek picks the kernel (a tensor-core one where the device
/// has them, else a unit-level one; see `strategy_for` for software adapters); no autotuning.
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
    let mut dtypes = MatmulElems::from_globals(&MatmulGlobalElems {
        lhs: elem,
        rhs: elem,
        out: elem,
    });
    let strategy = strategy_for(&lhs);
    crate::launch::record_launch();
    launch_ref(
        &strategy,
        &client,
        InputBinding::new(lhs.binding(), elem),
        InputBinding::new(rhs.binding(), elem),
        output.clone().binding(),
        &mut dtypes,
    )
    .map_err(|err| ExecutionError::unsupported("matmul", format!("{err}")))?;
    Ok(output)
}
