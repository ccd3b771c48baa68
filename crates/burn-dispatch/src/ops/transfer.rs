//! Moving tensors between devices, within one backend or across backends.

use super::prelude::*;
use burn_backend::read_sync;

/// Moves a float tensor to `device`: the backend's own transfer when both are of one backend,
/// else a read to the host and an upload.
pub(super) fn float_to_device(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.backend_name() == device.backend_name() {
        return dispatch!(&tensor, E, B => E::wrap_float(B::float_to_device(E::float(tensor), &E::device(device))));
    }
    let data = read_sync(Dispatch::float_into_data(tensor))
        .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
    Dispatch::float_from_data(data, device)
}

/// Moves an int tensor to `device`.
pub(super) fn int_to_device(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.backend_name() == device.backend_name() {
        return dispatch!(&tensor, E, B => E::wrap_int(B::int_to_device(E::int(tensor), &E::device(device))));
    }
    let data = read_sync(Dispatch::int_into_data(tensor))
        .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
    Dispatch::int_from_data(data, device)
}

/// Moves a bool tensor to `device`.
pub(super) fn bool_to_device(tensor: DispatchTensor, device: &DispatchDevice) -> DispatchTensor {
    if tensor.backend_name() == device.backend_name() {
        return dispatch!(&tensor, E, B => E::wrap_bool(B::bool_to_device(E::bool(tensor), &E::device(device))));
    }
    let data = read_sync(Dispatch::bool_into_data(tensor))
        .unwrap_or_else(|e| panic!("to_device: reading the tensor failed: {e}"));
    Dispatch::bool_from_data(data, device)
}
