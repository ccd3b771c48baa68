//! `BackendTypes`, `Backend` and `AutodiffBackend`.

use crate::ops::{
    ActivationOps, BoolTensorOps, FloatTensorOps, IntTensorOps, ModuleOps, QTensorOps,
    TransactionOps,
};
use crate::quantization::QTensorPrimitive;
use crate::tensor::{BackendGraph, BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
use crate::{DeviceOps, TensorMetadata};
use burn_std::{DType, DeviceSettings, ExecutionError};

/// The types a backend works with. No element types: a tensor's dtype is in its metadata.
pub trait BackendTypes: Clone + Send + Sync + core::fmt::Debug + 'static {
    /// The device type.
    type Device: DeviceOps;
    /// The primitive of float tensors.
    type FloatTensorPrimitive: TensorMetadata + 'static;
    /// The primitive of int tensors.
    type IntTensorPrimitive: TensorMetadata + 'static;
    /// The primitive of bool tensors.
    type BoolTensorPrimitive: TensorMetadata + 'static;
    /// The primitive of quantized tensors.
    type QuantizedTensorPrimitive: TensorMetadata + QTensorPrimitive + 'static;
    /// A captured launch sequence; [`GraphUnsupported`] for backends that cannot capture.
    type GraphPrimitive: Clone + Send + Sync + core::fmt::Debug + 'static;
}

/// The graph primitive of backends without graph capture: uninhabited, since their capture
/// calls only ever return errors.
#[derive(Debug, Clone, Copy)]
pub enum GraphUnsupported {}

/// What a device can do with a dtype.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DTypeUsage {
    /// Tensors of the dtype can be stored and moved.
    pub storage: bool,
    /// Arithmetic on the dtype is supported.
    pub arithmetic: bool,
    /// The dtype has hardware-accelerated matrix products.
    pub accelerated: bool,
}

impl DTypeUsage {
    /// Storage and arithmetic, not accelerated.
    pub const fn general() -> Self {
        Self {
            storage: true,
            arithmetic: true,
            accelerated: false,
        }
    }

    /// Nothing.
    pub const fn none() -> Self {
        Self {
            storage: false,
            arithmetic: false,
            accelerated: false,
        }
    }
}

fn graph_unsupported(operation: &str) -> ExecutionError {
    ExecutionError::unsupported(operation, "graph capture is not supported by this backend")
}

/// A backend: its types and every tensor operation.
pub trait Backend:
    BackendTypes
    + FloatTensorOps<Self>
    + IntTensorOps<Self>
    + BoolTensorOps<Self>
    + ModuleOps<Self>
    + ActivationOps<Self>
    + QTensorOps<Self>
    + TransactionOps<Self>
    + Default
    + Sized
{
    /// The backend's name on `device` (e.g. `"flex"`).
    fn name(device: &Self::Device) -> String;

    /// Seeds the random generator of `device` (at least; maybe of every device).
    fn seed(device: &Self::Device, seed: u64);

    /// Waits for all queued work on `device`; reports a deferred execution error.
    fn sync(_device: &Self::Device) -> Result<(), ExecutionError> {
        Ok(())
    }

    /// Submits queued work on `device` without waiting for it.
    fn flush(_device: &Self::Device) {}

    /// What `device` can do with `dtype`.
    fn dtype_usage(device: &Self::Device, dtype: DType) -> DTypeUsage;

    /// Whether `device` can store tensors of `dtype`.
    fn supports_dtype(device: &Self::Device, dtype: DType) -> bool {
        Self::dtype_usage(device, dtype).storage
    }

    /// The settings a device gets when it is not configured.
    fn default_settings(_device: &Self::Device) -> DeviceSettings {
        DeviceSettings::default()
    }

    /// The number of devices of kind `type_id` this backend can reach.
    fn device_count(_type_id: u16) -> usize {
        1
    }

    /// Releases cached memory of `device` that no tensor uses.
    fn memory_cleanup(_device: &Self::Device) {}

    /// Whether tensors of `device` record autodiff steps.
    fn ad_enabled(_device: &Self::Device) -> bool {
        false
    }

    /// Prepares `device` for a graph capture.
    fn graph_prepare(_device: &Self::Device) -> Result<(), ExecutionError> {
        Ok(())
    }

    /// Starts recording launches on `device`.
    fn graph_start_capture(_device: &Self::Device) -> Result<(), ExecutionError> {
        Err(graph_unsupported("graph_start_capture"))
    }

    /// Stops recording and returns the captured graph.
    fn graph_stop_capture(_device: &Self::Device) -> Result<BackendGraph<Self>, ExecutionError> {
        Err(graph_unsupported("graph_stop_capture"))
    }

    /// Replays a captured graph: the recorded launches, against the buffers they used.
    ///
    /// # Safety
    /// Until the replay's work completes (a read of its output, or a `sync`): every buffer the
    /// captured work read or wrote is still alive (no tensor it used was dropped, so its memory
    /// cannot have been handed to another tensor) and is not read or written by other work;
    /// input refreshes and output reads go through the stream (the thread) the graph was
    /// captured on. Behind `Fusion`, temporaries the fusion server owned during the capture
    /// are not the caller's to keep alive: capture there only work whose every buffer the
    /// caller holds.
    unsafe fn graph_replay(
        _device: &Self::Device,
        _graph: &BackendGraph<Self>,
    ) -> Result<(), ExecutionError> {
        Err(graph_unsupported("graph_replay"))
    }
}

/// A backend that records operations for reverse-mode differentiation (implemented by
/// `burn-autodiff`'s `Autodiff<B, C>`, and by `Dispatch` for tracked tensors).
pub trait AutodiffBackend: Backend {
    /// The backend without autodiff.
    type InnerBackend: Backend<Device = Self::Device>;
    /// The gradients computed by a backward pass.
    type Gradients: Send;

    /// Runs the backward pass from `tensor` (its gradient seeded with ones).
    fn backward(tensor: FloatTensor<Self>) -> Self::Gradients;
    /// The gradient of `tensor` in `grads`, if it has one.
    fn grad(
        tensor: &FloatTensor<Self>,
        grads: &Self::Gradients,
    ) -> Option<FloatTensor<Self::InnerBackend>>;
    /// Removes and returns the gradient of `tensor`.
    fn grad_remove(
        tensor: &FloatTensor<Self>,
        grads: &mut Self::Gradients,
    ) -> Option<FloatTensor<Self::InnerBackend>>;
    /// Sets the gradient of `tensor` in `grads`, replacing any.
    fn grad_replace(
        tensor: &FloatTensor<Self>,
        grads: &mut Self::Gradients,
        grad: FloatTensor<Self::InnerBackend>,
    );
    /// The float tensor without autodiff.
    fn inner(tensor: FloatTensor<Self>) -> FloatTensor<Self::InnerBackend>;
    /// Wraps an inner float tensor (untracked).
    fn from_inner(tensor: FloatTensor<Self::InnerBackend>) -> FloatTensor<Self>;
    /// The int tensor without autodiff.
    fn int_inner(tensor: IntTensor<Self>) -> IntTensor<Self::InnerBackend>;
    /// Wraps an inner int tensor.
    fn int_from_inner(tensor: IntTensor<Self::InnerBackend>) -> IntTensor<Self>;
    /// The bool tensor without autodiff.
    fn bool_inner(tensor: BoolTensor<Self>) -> BoolTensor<Self::InnerBackend>;
    /// Wraps an inner bool tensor.
    fn bool_from_inner(tensor: BoolTensor<Self::InnerBackend>) -> BoolTensor<Self>;
    /// The quantized tensor without autodiff.
    fn q_inner(tensor: QuantizedTensor<Self>) -> QuantizedTensor<Self::InnerBackend>;
    /// Wraps an inner quantized tensor.
    fn q_from_inner(tensor: QuantizedTensor<Self::InnerBackend>) -> QuantizedTensor<Self>;
}
