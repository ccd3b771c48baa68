//! `Fusion<B>` and what a backend provides to be fused.

use crate::client::FusionClient;
use crate::plan::Fuser;
use crate::tensor::FusionTensor;
use burn_backend::ops::{QTensorOps, TransactionOps};
use burn_backend::quantization::ComposedQTensor;
use burn_backend::{Backend, BackendTypes, DType, DTypeUsage, DeviceSettings, ExecutionError};
use core::marker::PhantomData;

/// A backend `Fusion<B>` can wrap: any backend, plus the fusers that run runs of its
/// operations as one kernel (none by default: every operation then runs through the backend,
/// still lazily).
pub trait FusionBackend: Backend {
    /// The fusers tried on every queue of `device`, in order of preference.
    fn fusers(_device: &Self::Device) -> Vec<Box<dyn Fuser<Self>>> {
        Vec::new()
    }
}

/// The fusion decorator: records operations on `B`'s device lazily and runs them in fused
/// blocks (see the crate docs).
pub struct Fusion<B: FusionBackend> {
    _backend: PhantomData<fn() -> B>,
}

impl<B: FusionBackend> Clone for Fusion<B> {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl<B: FusionBackend> Default for Fusion<B> {
    fn default() -> Self {
        Self {
            _backend: PhantomData,
        }
    }
}

impl<B: FusionBackend> core::fmt::Debug for Fusion<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Fusion<{}>", core::any::type_name::<B>())
    }
}

impl<B: FusionBackend> BackendTypes for Fusion<B> {
    type Device = B::Device;
    type FloatTensorPrimitive = FusionTensor<B>;
    type IntTensorPrimitive = FusionTensor<B>;
    type BoolTensorPrimitive = FusionTensor<B>;
    type QuantizedTensorPrimitive = ComposedQTensor<Self>;
    type GraphPrimitive = B::GraphPrimitive;
}

impl<B: FusionBackend> Backend for Fusion<B> {
    fn name(device: &Self::Device) -> String {
        format!("fusion<{}>", B::name(device))
    }

    /// Runs the queued work first, so that operations recorded before the seed draw from the
    /// generator's old state.
    fn seed(device: &Self::Device, seed: u64) {
        FusionClient::<B>::get(device).drain_all();
        B::seed(device, seed);
    }

    fn sync(device: &Self::Device) -> Result<(), ExecutionError> {
        FusionClient::<B>::get(device).drain_all();
        B::sync(device)
    }

    fn flush(device: &Self::Device) {
        FusionClient::<B>::get(device).drain_all();
        B::flush(device);
    }

    fn dtype_usage(device: &Self::Device, dtype: DType) -> DTypeUsage {
        B::dtype_usage(device, dtype)
    }

    fn default_settings(device: &Self::Device) -> DeviceSettings {
        B::default_settings(device)
    }

    fn device_count(type_id: u16) -> usize {
        B::device_count(type_id)
    }

    fn memory_cleanup(device: &Self::Device) {
        FusionClient::<B>::get(device).drain_all();
        B::memory_cleanup(device);
    }

    // Graph capture is the executing backend's: the queue runs first, so the launches of
    // operations recorded before the window stay out of it and those inside it go in.

    fn graph_prepare(device: &Self::Device) -> Result<(), ExecutionError> {
        FusionClient::<B>::get(device).drain_all();
        B::graph_prepare(device)
    }

    fn graph_start_capture(device: &Self::Device) -> Result<(), ExecutionError> {
        FusionClient::<B>::get(device).drain_all();
        B::graph_start_capture(device)
    }

    fn graph_stop_capture(device: &Self::Device) -> Result<B::GraphPrimitive, ExecutionError> {
        FusionClient::<B>::get(device).drain_all();
        B::graph_stop_capture(device)
    }

    unsafe fn graph_replay(
        device: &Self::Device,
        graph: &B::GraphPrimitive,
    ) -> Result<(), ExecutionError> {
        FusionClient::<B>::get(device).drain_all();
        // SAFETY: the caller's obligations, forwarded.
        unsafe { B::graph_replay(device, graph) }
    }
}

/// Quantized tensors are integer values and `f32` scales held as fusion tensors, so their
/// quantize and dequantize steps are recorded and fused like any other operation.
impl<B: FusionBackend> QTensorOps<Self> for Fusion<B> {
    burn_backend::composed_qtensor_ops!(Self);
}

/// Transactions read each tensor in turn (the contract's default).
impl<B: FusionBackend> TransactionOps<Self> for Fusion<B> {}
