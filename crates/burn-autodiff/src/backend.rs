//! `Autodiff<B, C>`: the backend decorator, its types, and `AutodiffBackend`.

use crate::checkpoint::strategy::{CheckpointStrategy, NoCheckpointing};
use crate::grads::Gradients;
use crate::tensor::AutodiffTensor;
use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
use burn_backend::{
    AutodiffBackend, Backend, BackendTypes, DType, DTypeUsage, DeviceSettings, ExecutionError,
};
use core::marker::PhantomData;

/// Reverse-mode automatic differentiation over backend `B`, keeping forward values as
/// checkpoint strategy `C` says.
///
/// Float tensors are [`AutodiffTensor`]s; int, bool and quantized tensors, and the device,
/// are `B`'s own. Every operation runs on `B`; an operation with a tracked input also records
/// a backward step.
#[derive(Debug)]
pub struct Autodiff<B, C = NoCheckpointing> {
    _backend: PhantomData<B>,
    _strategy: PhantomData<C>,
}

impl<B, C> Clone for Autodiff<B, C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B, C> Copy for Autodiff<B, C> {}

impl<B, C> Default for Autodiff<B, C> {
    fn default() -> Self {
        Self {
            _backend: PhantomData,
            _strategy: PhantomData,
        }
    }
}

impl<B: Backend, C: CheckpointStrategy> BackendTypes for Autodiff<B, C> {
    type Device = B::Device;
    type FloatTensorPrimitive = AutodiffTensor<B>;
    type IntTensorPrimitive = B::IntTensorPrimitive;
    type BoolTensorPrimitive = B::BoolTensorPrimitive;
    type QuantizedTensorPrimitive = B::QuantizedTensorPrimitive;
    type GraphPrimitive = B::GraphPrimitive;
}

impl<B: Backend, C: CheckpointStrategy> Backend for Autodiff<B, C> {
    fn name(device: &B::Device) -> String {
        format!("autodiff<{}>", B::name(device))
    }
    fn seed(device: &B::Device, seed: u64) {
        B::seed(device, seed)
    }
    fn sync(device: &B::Device) -> Result<(), ExecutionError> {
        B::sync(device)
    }
    fn flush(device: &B::Device) {
        B::flush(device)
    }
    fn dtype_usage(device: &B::Device, dtype: DType) -> DTypeUsage {
        B::dtype_usage(device, dtype)
    }
    fn supports_dtype(device: &B::Device, dtype: DType) -> bool {
        B::supports_dtype(device, dtype)
    }
    fn default_settings(device: &B::Device) -> DeviceSettings {
        B::default_settings(device)
    }
    fn device_count(type_id: u16) -> usize {
        B::device_count(type_id)
    }
    fn memory_cleanup(device: &B::Device) {
        B::memory_cleanup(device)
    }
    fn ad_enabled(_device: &B::Device) -> bool {
        true
    }
    fn graph_prepare(device: &B::Device) -> Result<(), ExecutionError> {
        B::graph_prepare(device)
    }
    fn graph_start_capture(device: &B::Device) -> Result<(), ExecutionError> {
        B::graph_start_capture(device)
    }
    fn graph_stop_capture(device: &B::Device) -> Result<B::GraphPrimitive, ExecutionError> {
        B::graph_stop_capture(device)
    }
    unsafe fn graph_replay(
        device: &B::Device,
        graph: &B::GraphPrimitive,
    ) -> Result<(), ExecutionError> {
        // SAFETY: the caller upholds `graph_replay`'s contract for the inner backend.
        unsafe { B::graph_replay(device, graph) }
    }
}

impl<B: Backend, C: CheckpointStrategy> AutodiffBackend for Autodiff<B, C> {
    type InnerBackend = B;
    type Gradients = Gradients;

    fn backward(tensor: AutodiffTensor<B>) -> Gradients {
        tensor.backward()
    }
    fn grad(tensor: &AutodiffTensor<B>, grads: &Gradients) -> Option<FloatTensor<B>> {
        tensor.grad(grads)
    }
    fn grad_remove(tensor: &AutodiffTensor<B>, grads: &mut Gradients) -> Option<FloatTensor<B>> {
        tensor.grad_remove(grads)
    }
    fn grad_replace(tensor: &AutodiffTensor<B>, grads: &mut Gradients, grad: FloatTensor<B>) {
        tensor.grad_replace(grads, grad)
    }
    fn inner(tensor: AutodiffTensor<B>) -> FloatTensor<B> {
        tensor.into_primitive()
    }
    fn from_inner(tensor: FloatTensor<B>) -> AutodiffTensor<B> {
        AutodiffTensor::new(tensor)
    }
    fn int_inner(tensor: IntTensor<B>) -> IntTensor<B> {
        tensor
    }
    fn int_from_inner(tensor: IntTensor<B>) -> IntTensor<B> {
        tensor
    }
    fn bool_inner(tensor: BoolTensor<B>) -> BoolTensor<B> {
        tensor
    }
    fn bool_from_inner(tensor: BoolTensor<B>) -> BoolTensor<B> {
        tensor
    }
    fn q_inner(tensor: QuantizedTensor<B>) -> QuantizedTensor<B> {
        tensor
    }
    fn q_from_inner(tensor: QuantizedTensor<B>) -> QuantizedTensor<B> {
        tensor
    }
}
