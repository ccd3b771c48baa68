//! The backend's types, `Backend` itself, and device and tensor metadata.

use super::prelude::*;
use burn_backend::{BackendTypes, DTypeUsage, DeviceId, DeviceOps};

impl BackendTypes for Dispatch {
    type Device = DispatchDevice;
    type FloatTensorPrimitive = DispatchTensor;
    type IntTensorPrimitive = DispatchTensor;
    type BoolTensorPrimitive = DispatchTensor;
    type QuantizedTensorPrimitive = DispatchTensor;
    type GraphPrimitive = super::super::DispatchGraph;
}

impl Backend for Dispatch {
    fn name(device: &DispatchDevice) -> String {
        dispatch_device!(device, E, B => B::name(&E::device(device)))
    }
    fn seed(device: &DispatchDevice, seed: u64) {
        dispatch_device!(device, E, B => B::seed(&E::device(device), seed))
    }
    fn sync(device: &DispatchDevice) -> Result<(), ExecutionError> {
        dispatch_device!(device, E, B => B::sync(&E::device(device)))
    }
    fn flush(device: &DispatchDevice) {
        dispatch_device!(device, E, B => B::flush(&E::device(device)))
    }
    fn dtype_usage(device: &DispatchDevice, dtype: DType) -> DTypeUsage {
        dispatch_device!(device, E, B => B::dtype_usage(&E::device(device), dtype))
    }
    fn default_settings(device: &DispatchDevice) -> burn_backend::DeviceSettings {
        dispatch_device!(device, E, B => B::default_settings(&E::device(device)))
    }
    fn memory_cleanup(device: &DispatchDevice) {
        dispatch_device!(device, E, B => B::memory_cleanup(&E::device(device)))
    }
    fn ad_enabled(device: &DispatchDevice) -> bool {
        device.is_autodiff()
    }
    fn graph_prepare(device: &DispatchDevice) -> Result<(), ExecutionError> {
        dispatch_device!(device, E, B => B::graph_prepare(&E::device(device)))
    }
    fn graph_start_capture(device: &DispatchDevice) -> Result<(), ExecutionError> {
        dispatch_device!(device, E, B => B::graph_start_capture(&E::device(device)))
    }
    fn graph_stop_capture(
        device: &DispatchDevice,
    ) -> Result<super::super::DispatchGraph, ExecutionError> {
        dispatch_device!(device, E, B => B::graph_stop_capture(&E::device(device)).map(E::wrap_graph))
    }
    unsafe fn graph_replay(
        device: &DispatchDevice,
        graph: &super::super::DispatchGraph,
    ) -> Result<(), ExecutionError> {
        dispatch_device!(device, E, B => match E::graph(graph) {
            // SAFETY: the caller's obligations, forwarded.
            Some(graph) => unsafe { B::graph_replay(&E::device(device), graph) },
            None => Err(ExecutionError::unsupported(
                "graph_replay",
                format!("{graph:?} was captured by another backend than {}'s", E::NAME),
            )),
        })
    }
}

impl DeviceOps for DispatchDevice {
    /// The backend device's id, its kind tagged with the catalog index (top 4 bits) so that
    /// devices of different entries never share settings. A capture's device shares the
    /// settings of the device it records for.
    fn id(&self) -> DeviceId {
        if let Some(base) = self.recording_base() {
            return base.id();
        }
        dispatch_device!(self, E, B => {
            let inner = E::device(self).id();
            DeviceId::new((E::INDEX << 12) | (inner.type_id & 0x0fff), inner.index_id)
        })
    }
    fn kind(&self) -> burn_backend::HardwareKind {
        dispatch_device!(self, E, B => E::device(self).kind())
    }
}

impl AsRef<DispatchDevice> for DispatchDevice {
    fn as_ref(&self) -> &DispatchDevice {
        self
    }
}

impl Default for DispatchDevice {
    /// The device `BURN_DEVICE` names (a catalog variant, case-insensitive, e.g. `flex`), else
    /// the first compiled backend of the catalog.
    fn default() -> Self {
        let compiled = DispatchDevice::compiled_defaults();
        match std::env::var("BURN_DEVICE") {
            Ok(name) if !name.trim().is_empty() => compiled
                .iter()
                .find(|d| d.backend_name().eq_ignore_ascii_case(name.trim()))
                .cloned()
                .unwrap_or_else(|| {
                    let names: Vec<&str> = compiled.iter().map(|d| d.backend_name()).collect();
                    panic!(
                        "BURN_DEVICE={name:?} names no compiled backend; expected one of {names:?}"
                    )
                }),
            _ => compiled.into_iter().next().unwrap_or_else(|| {
                panic!("no backend is compiled: enable a backend feature (e.g. `flex`)")
            }),
        }
    }
}

impl burn_backend::quantization::QTensorPrimitive for DispatchTensor {
    /// The scheme of a quantized tensor; panics for other kinds.
    fn scheme(&self) -> &burn_backend::quantization::QuantScheme {
        dispatch!(self, E, B => match E::unwrap_ref(self) {
            BackendTensor::Quantized(tensor) => tensor.scheme(),
            other => panic!("scheme: expected a quantized tensor, got a {} tensor", other.kind()),
        })
    }
}

impl TensorMetadata for DispatchTensor {
    #[inline]
    fn dtype(&self) -> DType {
        dispatch!(self, E, B => E::unwrap_ref(self).dtype())
    }
    #[inline]
    fn shape(&self) -> Shape {
        dispatch!(self, E, B => E::unwrap_ref(self).shape())
    }
    #[inline]
    fn rank(&self) -> usize {
        dispatch!(self, E, B => E::unwrap_ref(self).rank())
    }
    #[inline]
    fn dims_into(&self, out: &mut [usize]) {
        dispatch!(self, E, B => E::unwrap_ref(self).dims_into(out))
    }
}
