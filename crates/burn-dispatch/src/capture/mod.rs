//! Graph capture: a closure's tensor operations recorded once as IR and replayed with new
//! inputs, without running the closure (or the public API's per-op work) again.
//!
//! [`capture`] runs the closure on placeholder tensors of a recording device
//! ([`CaptureDevice`], the `Capture` variant of [`DispatchDevice`]). Every operation on them
//! goes to the [`Capture`] backend, which records its [`burn_ir::OperationIr`] with the output
//! shape and dtype and runs nothing. A tensor of an executing device combined with them (a
//! model's weights, data made inside the closure) becomes a constant of the graph, holding its
//! values at capture time. [`CapturedGraph::replay`] runs the recorded operations through the
//! IR's interpreter ([`burn_ir::execute`]) on the backend of the inputs' device, resolved once
//! per replay instead of once per operation; on an autodiff device through `Dispatch`, so that
//! tracked inputs record their steps. On `Fusion<Cube>` the replayed operations are fused as
//! any others.
//!
//! Operations whose output shape depends on the data, reads, seeding and device moves cannot
//! be recorded: [`capture`] returns [`CaptureError::Unsupported`] naming the operation.

mod backend;
mod graph;
mod ops;
mod recording;
mod tensor;

pub use backend::{Capture, CaptureDevice};
pub use graph::{CaptureError, CapturedGraph, TensorKind};
pub use recording::adopt;
pub use tensor::CaptureTensor;

pub(crate) use recording::unsupported;

use crate::{BackendTensor, DispatchDevice, DispatchTensor};
use burn_backend::{DType, Shape};
use recording::{Recording, Unsupported};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

/// Records `f` applied to placeholder inputs of the given shapes and dtypes on `device`'s
/// hardware, and returns the graph of what its outputs depend on.
///
/// The closure's tensors have no values: reading one, or an operation whose output shape
/// depends on values, stops the capture with [`CaptureError::Unsupported`].
pub fn capture<F>(
    device: &DispatchDevice,
    inputs: &[(Shape, DType)],
    f: F,
) -> Result<CapturedGraph, CaptureError>
where
    F: FnOnce(Vec<DispatchTensor>) -> Vec<DispatchTensor>,
{
    if device.recording_base().is_some() {
        return Err(CaptureError::Nested);
    }
    let base = device.base().clone();
    let recording = Recording::new(base.clone());
    let _active = recording.activate();
    let placeholders: Vec<_> = inputs
        .iter()
        .map(|(shape, dtype)| (recording.new_id(), shape.clone(), *dtype))
        .collect();
    let strategy = device.checkpointing();
    let tensors = placeholders
        .iter()
        .map(|(id, shape, dtype)| {
            let tensor = CaptureTensor::new(*id, shape.clone(), *dtype, recording.clone());
            let kind = TensorKind::of_dtype(*dtype);
            match strategy {
                // On an autodiff device float placeholders can be tracked: a `backward`
                // inside the closure records the gradient's operations too.
                #[cfg(feature = "autodiff")]
                Some(strategy) if kind == TensorKind::Float => DispatchTensor::Capture(
                    BackendTensor::Autodiff(burn_autodiff::AutodiffTensor::new(tensor), strategy),
                ),
                _ => DispatchTensor::Capture(kind.wrap_capture(tensor)),
            }
        })
        .collect();
    let outputs = match catch_unwind(AssertUnwindSafe(|| f(tensors))) {
        Ok(outputs) => outputs,
        Err(payload) => {
            recording.lock().closed = true;
            match payload.downcast::<Unsupported>() {
                Ok(refused) => {
                    return Err(CaptureError::Unsupported {
                        operation: refused.op.to_string(),
                        reason: refused.reason.to_string(),
                    });
                }
                Err(other) => resume_unwind(other),
            }
        }
    };
    let mut ids = Vec::with_capacity(outputs.len());
    for (index, output) in outputs.into_iter().enumerate() {
        let tensor = match output {
            DispatchTensor::Capture(tensor) => match tensor {
                BackendTensor::Int(t) | BackendTensor::Bool(t) => t,
                other => other.into_float(),
            },
            // A tensor from outside returned as is: a constant output.
            other => recording.constant(graph::plain(other.clone(), TensorKind::of(&other))),
        };
        if tensor.recording.id() != recording.id() {
            recording.lock().closed = true;
            return Err(CaptureError::ForeignOutput { index });
        }
        ids.push(tensor.id);
    }
    let (ops, constants) = {
        let mut state = recording.lock();
        state.closed = true;
        (
            core::mem::take(&mut state.ops),
            core::mem::take(&mut state.constants),
        )
    };
    Ok(CapturedGraph::new(placeholders, ids, ops, constants, base))
}
