//! Batched matrix products through cubek's matmul.

use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::assert_same_device;
use crate::{CubeTensor, RuntimeId};
use burn_backend::{ExecutionError, Shape};
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
    let (ls, rs) = (lhs.shape.dims.clone(), rhs.shape.dims.clone());
    assert!(
        ls.len() >= 2 && rs.len() >= 2,
        "matmul: operands must have rank 2 or more, got {ls:?} and {rs:?}"
    );
    assert_eq!(
        lhs.dtype, rhs.dtype,
        "matmul: operands have different dtypes ({} and {})",
        lhs.dtype, rhs.dtype
    );
    assert!(
        lhs.dtype.is_float(),
        "matmul: expected float tensors, got {}",
        lhs.dtype
    );
    assert_same_device("matmul", &[&lhs, &rhs]);
    assert_arithmetic("matmul", &lhs.client, lhs.dtype);
    let (m, k) = (ls[ls.len() - 2], ls[ls.len() - 1]);
    let (k2, n) = (rs[rs.len() - 2], rs[rs.len() - 1]);
    assert_eq!(
        k, k2,
        "matmul: inner dims differ: {ls:?} × {rs:?} ({k} and {k2})"
    );
    let batch_l = Shape::from(ls[..ls.len() - 2].to_vec());
    let batch_r = Shape::from(rs[..rs.len() - 2].to_vec());
    let batch = batch_l.broadcast(&batch_r).unwrap_or_else(|| {
        panic!("matmul: batch dims of {ls:?} and {rs:?} cannot be broadcast together")
    });
    let mut out_dims = batch.dims.clone();
    out_dims.extend([m, n]);
    let rank = out_dims.len();
    let out_shape = Shape::from(out_dims);
    let dtype = lhs.dtype;
    let output = lhs.empty_contiguous_like(out_shape.clone(), dtype);
    if out_shape.num_elements() == 0 {
        return Ok(output);
    }
    if k == 0 {
        return Ok(super::fill::fill(output, 0.into()));
    }
    let client = lhs.client.clone();
    let elem = elem_type(dtype);
    let lhs = lhs.unsqueeze_to(rank);
    let rhs = rhs.unsqueeze_to(rank);
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
