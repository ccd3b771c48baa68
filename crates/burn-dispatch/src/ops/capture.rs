//! What graph capture needs from the routing: plain values of a float tensor, and the run of
//! recorded operations on a device (through its backend directly, or through `Dispatch` on an
//! autodiff device so that tracked inputs record their steps).

use super::prelude::*;
use burn_ir::{ExecutionContext, Handle, OperationIr, TensorId};

/// The kind a tensor is stored under in an execution context, from its dtype.
fn handle_of<B: Backend>(
    dtype: DType,
    tensor: DispatchTensor,
    float: impl FnOnce(DispatchTensor) -> FloatTensor<B>,
    int: impl FnOnce(DispatchTensor) -> IntTensor<B>,
    bool: impl FnOnce(DispatchTensor) -> BoolTensor<B>,
) -> Handle<B> {
    if dtype.is_bool() {
        Handle::Bool(bool(tensor))
    } else if dtype.is_int() {
        Handle::Int(int(tensor))
    } else {
        Handle::Float(float(tensor))
    }
}

/// Runs `ops` on `B` from the tensors in `handles` and returns the tensors `outputs` name.
fn run<B: Backend>(
    ops: &[OperationIr],
    device: B::Device,
    handles: Vec<(TensorId, Handle<B>)>,
    outputs: &[TensorId],
    num_ids: usize,
) -> Vec<Handle<B>> {
    let mut ctx = ExecutionContext::with_dense_ids(device, num_ids);
    for (id, handle) in handles {
        ctx.insert(id, handle);
    }
    for op in ops {
        burn_ir::execute(op, &mut ctx, false);
    }
    outputs
        .iter()
        .map(|id| {
            ctx.get(*id)
                .cloned()
                .unwrap_or_else(|| panic!("replay: output {id:?} was not computed"))
        })
        .collect()
}

impl Dispatch {
    /// `tensor` as plain float values: a quantized tensor dequantized, an autodiff one without
    /// its graph.
    pub(crate) fn plain_float(tensor: DispatchTensor) -> DispatchTensor {
        dispatch!(&tensor, E, B => match E::unwrap(tensor) {
            BackendTensor::Float(t) => E::wrap_float(t),
            other if other.kind() == "float" || other.kind() == "quantized" => {
                E::wrap_float(other.into_float())
            }
            other => E::wrap(other),
        })
    }

    /// Runs recorded operations on `device`, the inputs and constants in `handles` (all on
    /// `device`), and returns the tensors `outputs` name; ids run from 0 to `num_ids - 1`.
    pub(crate) fn execute_ir(
        ops: &[OperationIr],
        device: &DispatchDevice,
        handles: Vec<(TensorId, DispatchTensor)>,
        outputs: &[TensorId],
        num_ids: usize,
    ) -> Vec<DispatchTensor> {
        if device.is_autodiff() {
            let handles = handles
                .into_iter()
                .map(|(id, t)| (id, handle_of::<Dispatch>(t.dtype(), t, |t| t, |t| t, |t| t)))
                .collect();
            return run::<Dispatch>(ops, device.clone(), handles, outputs, num_ids)
                .into_iter()
                .map(|handle| match handle {
                    Handle::Float(t) | Handle::Int(t) | Handle::Bool(t) => t,
                })
                .collect();
        }
        dispatch_device!(device, E, B => {
            let handles = handles
                .into_iter()
                .map(|(id, t)| (id, handle_of::<B>(t.dtype(), t, E::float, E::int, E::bool)))
                .collect();
            run::<B>(ops, E::device(device), handles, outputs, num_ids)
                .into_iter()
                .map(|handle| match handle {
                    Handle::Float(t) => E::wrap_float(t),
                    Handle::Int(t) => E::wrap_int(t),
                    Handle::Bool(t) => E::wrap_bool(t),
                })
                .collect()
        })
    }
}

/// A move into or out of a capture: a tensor from outside becomes a constant of the capture;
/// a tensor being captured cannot leave it.
pub(super) fn recording_move(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.is_recording() {
        crate::capture::unsupported(
            "to_device",
            "a tensor being captured cannot leave its capture; return it from the closure",
        );
    }
    dispatch_device!(device, E, B => E::wrap(E::unwrap(tensor)))
}
