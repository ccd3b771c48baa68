//! A recording in progress: the operations recorded so far, the constants it adopted, and the
//! thread-local slot naming the recording of the capture running on this thread.

use super::tensor::CaptureTensor;
use crate::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};
use burn_backend::{DType, DeviceSettings, Shape, TensorMetadata, get_device_settings};
use burn_ir::{OperationIr, TensorId};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The payload of the panic that stops a capture at an operation it cannot record; `capture`
/// catches it and returns [`super::CaptureError::Unsupported`].
#[derive(Debug, Clone)]
pub(crate) struct Unsupported {
    /// The backend operation.
    pub op: &'static str,
    /// Why it cannot be recorded.
    pub reason: &'static str,
}

/// Stops the capture running on this thread at `op` (its `capture` call returns the error);
/// a plain panic naming `op` when no capture runs on this thread.
pub(crate) fn unsupported(op: &'static str, reason: &'static str) -> ! {
    if ACTIVE.with(|slot| slot.borrow().is_some()) {
        quiet_refusals();
        std::panic::panic_any(Unsupported { op, reason })
    }
    panic!("{op}: {reason}")
}

/// Installs, once, a panic hook that prints nothing for a refused operation (the capture
/// returns it as an error) and hands every other panic to the hook that was there.
fn quiet_refusals() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !info.payload().is::<Unsupported>() {
                previous(info);
            }
        }));
    });
}

/// What a recording accumulates.
#[derive(Debug, Default)]
pub(crate) struct RecordedOps {
    /// The operations, in the order they were called.
    pub ops: Vec<OperationIr>,
    /// Tensors from outside the capture, by the id they have in the recording.
    pub constants: Vec<(TensorId, DispatchTensor)>,
    /// Set once the capture is over: later operations on its tensors are refused.
    pub closed: bool,
    next_id: u64,
}

/// One capture's recording, shared by its device and tensors.
#[derive(Debug)]
pub struct Recording {
    id: u64,
    base: DispatchDevice,
    settings: DeviceSettings,
    state: Mutex<RecordedOps>,
}

static NEXT_RECORDING: AtomicU64 = AtomicU64::new(0);

thread_local! {
    static ACTIVE: RefCell<Option<Arc<Recording>>> = const { RefCell::new(None) };
}

impl Recording {
    /// A new, empty recording for `base` (an executing device, without autodiff).
    pub(crate) fn new(base: DispatchDevice) -> Arc<Self> {
        let settings = get_device_settings::<Dispatch>(&base);
        Arc::new(Self {
            id: NEXT_RECORDING.fetch_add(1, Ordering::Relaxed),
            base,
            settings,
            state: Mutex::new(RecordedOps::default()),
        })
    }

    /// The recording's unique number.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// The device the recording is made for.
    pub(crate) fn base(&self) -> &DispatchDevice {
        &self.base
    }

    /// The settings (default dtypes) of the base device.
    pub(crate) fn settings(&self) -> DeviceSettings {
        self.settings
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, RecordedOps> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A fresh tensor id.
    pub(crate) fn new_id(&self) -> TensorId {
        let mut state = self.lock();
        let id = TensorId(state.next_id);
        state.next_id += 1;
        id
    }

    /// Appends `op`; panics when the capture is over.
    pub(crate) fn record(&self, op: OperationIr) {
        let mut state = self.lock();
        if state.closed {
            drop(state);
            unsupported(
                op.name(),
                "a tensor of a finished capture was used; use the tensors the captured graph's \
                 `replay` returns instead",
            );
        }
        state.ops.push(op);
    }

    /// Adopts `tensor` (of an executing device) as a constant of the recording.
    pub(crate) fn constant(self: &Arc<Self>, tensor: DispatchTensor) -> CaptureTensor {
        let (shape, dtype): (Shape, DType) = (tensor.shape(), tensor.dtype());
        let id = self.new_id();
        self.lock().constants.push((id, tensor));
        CaptureTensor::new(id, shape, dtype, self.clone())
    }

    /// Makes this the recording of the capture running on this thread until the guard drops.
    pub(crate) fn activate(self: &Arc<Self>) -> ActiveGuard {
        let previous = ACTIVE.with(|slot| slot.borrow_mut().replace(self.clone()));
        ActiveGuard { previous }
    }
}

/// Restores the previously active recording (if any) when dropped.
pub(crate) struct ActiveGuard {
    previous: Option<Arc<Recording>>,
}

impl Drop for ActiveGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        ACTIVE.with(|slot| *slot.borrow_mut() = previous);
    }
}

/// A tensor of an executing device combined with a tensor being captured: it becomes a
/// constant of the capture running on this thread (its values at capture time are what every
/// replay uses). Quantized tensors are adopted dequantized, autodiff ones as plain values.
pub fn adopt(tensor: DispatchTensor) -> BackendTensor<super::Capture> {
    let recording = ACTIVE
        .with(|slot| slot.borrow().clone())
        .unwrap_or_else(|| {
            panic!(
                "a tensor being captured was combined with a {} tensor outside the capture that \
             made it; use tensors only inside the closure passed to `capture`",
                tensor.backend_name()
            )
        });
    let kind = super::graph::TensorKind::of(&tensor);
    let plain = super::graph::plain(tensor, kind);
    let constant = recording.constant(plain);
    kind.wrap_capture(constant)
}
