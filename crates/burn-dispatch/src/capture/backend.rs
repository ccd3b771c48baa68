//! `Capture`: the recording backend, and `CaptureDevice`, the device of a capture in progress.

use super::recording::{Recording, unsupported};
use super::tensor::CaptureTensor;
use crate::{Dispatch, DispatchDevice};
use burn_backend::ops::{QTensorOps, TransactionOps};
use burn_backend::quantization::ComposedQTensor;
use burn_backend::{
    Backend, BackendTypes, DType, DTypeUsage, DeviceId, DeviceOps, DeviceSettings, GraphUnsupported,
};
use std::sync::Arc;

/// The backend of a capture in progress: every operation is recorded as IR
/// ([`burn_ir::OperationIr`]) with its output's shape and dtype, nothing runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Capture;

/// The device of a capture in progress: the recording its tensors' operations go to.
#[derive(Debug, Clone)]
pub struct CaptureDevice {
    pub(crate) recording: Arc<Recording>,
}

impl CaptureDevice {
    pub(crate) fn new(recording: Arc<Recording>) -> Self {
        Self { recording }
    }

    /// The executing device the capture records for.
    pub fn base(&self) -> &DispatchDevice {
        self.recording.base()
    }
}

impl Default for CaptureDevice {
    /// A recording for the default device that no graph will be made from.
    fn default() -> Self {
        Self::new(Recording::new(DispatchDevice::default()))
    }
}

impl PartialEq for CaptureDevice {
    fn eq(&self, other: &Self) -> bool {
        self.recording.id() == other.recording.id()
    }
}

impl Eq for CaptureDevice {}

impl core::hash::Hash for CaptureDevice {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.recording.id().hash(state);
    }
}

impl DeviceOps for CaptureDevice {
    /// The base device's id: a capture shares its device's settings.
    fn id(&self) -> DeviceId {
        self.base().id()
    }

    fn kind(&self) -> burn_backend::HardwareKind {
        self.base().kind()
    }
}

impl BackendTypes for Capture {
    type Device = CaptureDevice;
    type FloatTensorPrimitive = CaptureTensor;
    type IntTensorPrimitive = CaptureTensor;
    type BoolTensorPrimitive = CaptureTensor;
    type QuantizedTensorPrimitive = ComposedQTensor<Self>;
    type GraphPrimitive = GraphUnsupported;
}

impl Backend for Capture {
    fn name(device: &CaptureDevice) -> String {
        format!("capture<{}>", Dispatch::name(device.base()))
    }

    /// Seeding inside a capture would reseed the device once, at capture time, not at each
    /// replay: refused.
    fn seed(_device: &CaptureDevice, _seed: u64) {
        unsupported(
            "seed",
            "seeding inside a capture would not happen on replay; seed the device before \
             replaying instead",
        )
    }

    fn dtype_usage(device: &CaptureDevice, dtype: DType) -> DTypeUsage {
        Dispatch::dtype_usage(device.base(), dtype)
    }

    fn default_settings(device: &CaptureDevice) -> DeviceSettings {
        device.recording.settings()
    }
}

/// Quantized tensors of a capture are recorded as their integer and float operations.
impl QTensorOps<Self> for Capture {
    burn_backend::composed_qtensor_ops!(Self);
}

/// Transactions read each tensor in turn (the contract's default): refused like any read.
impl TransactionOps<Self> for Capture {}
