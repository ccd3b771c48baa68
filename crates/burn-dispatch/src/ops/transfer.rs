//! Moving tensors between devices, within one backend or across backends.

use super::prelude::*;
use burn_backend::read_sync;

/// Moves a float tensor to `device`: the backend's own transfer when both are of one backend,
/// else a read to the host and an upload.
///
/// On an autodiff device the result is tracked-capable. A tracked tensor keeps its gradient
/// path when it moves within its backend (to a plain device too: use `inner()` to leave the
/// graph); across backends it must be detached first.
pub(super) fn float_to_device(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.is_recording() != device.recording_base().is_some() {
        return super::capture::recording_move(tensor, device);
    }
    let same_backend = tensor.backend_name() == device.backend_name();
    if super::is_quantized(&tensor) {
        if same_backend {
            return dispatch!(&tensor, E, B => E::wrap_quantized(B::q_to_device(E::quantized(tensor), &E::device(device))));
        }
        let data = read_sync(Dispatch::q_into_data(tensor))
            .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
        return Dispatch::q_from_data(data, device);
    }
    #[cfg(feature = "autodiff")]
    if let Some(strategy) = tensor.checkpointing() {
        if same_backend && (tensor.is_tracked() || device.is_autodiff()) {
            let target = device.checkpointing().unwrap_or(strategy);
            return dispatch!(&tensor, E, B => crate::with_checkpointing!(strategy, S => {
                type A = crate::__private::Autodiff<B, S>;
                E::wrap_autodiff(A::float_to_device(E::autodiff(tensor), &E::device(device)), target)
            }));
        }
        assert!(
            !tensor.is_tracked(),
            "to_device: a tracked tensor cannot move to another backend ({} to {}) inside the \
             graph; detach it first",
            tensor.backend_name(),
            device.backend_name()
        );
    }
    if same_backend {
        return dispatch!(&tensor, E, B => E::wrap_float_on(device, B::float_to_device(E::float(tensor), &E::device(device))));
    }
    let data = read_sync(Dispatch::float_into_data(tensor))
        .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
    Dispatch::float_from_data(data, device)
}

/// Moves an int tensor to `device`.
pub(super) fn int_to_device(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.is_recording() != device.recording_base().is_some() {
        return super::capture::recording_move(tensor, device);
    }
    if tensor.backend_name() == device.backend_name() {
        return dispatch!(&tensor, E, B => E::wrap_int(B::int_to_device(E::int(tensor), &E::device(device))));
    }
    let data = read_sync(Dispatch::int_into_data(tensor))
        .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
    Dispatch::int_from_data(data, device)
}

/// Moves a bool tensor to `device`.
pub(super) fn bool_to_device(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.is_recording() != device.recording_base().is_some() {
        return super::capture::recording_move(tensor, device);
    }
    if tensor.backend_name() == device.backend_name() {
        return dispatch!(&tensor, E, B => E::wrap_bool(B::bool_to_device(E::bool(tensor), &E::device(device))));
    }
    let data = read_sync(Dispatch::bool_into_data(tensor))
        .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
    Dispatch::bool_from_data(data, device)
}
