//! Int operations routed to the tensor's backend.

use super::prelude::*;
use core::ops::Range;

type T = DispatchTensor;

impl IntTensorOps<Self> for Dispatch {
    fn int_from_data(data: TensorData, device: &DispatchDevice) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_from_data(data, &E::device(device))))
    }
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &DispatchDevice,
        dtype: IntDType,
    ) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_random(shape, distribution, &E::device(device), dtype)))
    }
    fn int_empty(shape: Shape, device: &DispatchDevice, dtype: IntDType) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_empty(shape, &E::device(device), dtype)))
    }
    fn int_zeros(shape: Shape, device: &DispatchDevice, dtype: IntDType) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_zeros(shape, &E::device(device), dtype)))
    }
    fn int_ones(shape: Shape, device: &DispatchDevice, dtype: IntDType) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_ones(shape, &E::device(device), dtype)))
    }
    fn int_full(shape: Shape, value: Scalar, device: &DispatchDevice, dtype: IntDType) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_full(shape, value, &E::device(device), dtype)))
    }
    fn int_arange_step(
        range: Range<i64>,
        step: usize,
        device: &DispatchDevice,
        dtype: IntDType,
    ) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_arange_step(range, step, &E::device(device), dtype)))
    }
    async fn int_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        dispatch!(&tensor, E, B => B::int_into_data(E::int(tensor)).await)
    }
    fn int_device(tensor: &T) -> DispatchDevice {
        dispatch!(tensor, E, B => E::wrap_device(match E::unwrap_ref(tensor) {
            BackendTensor::Int(t) => B::int_device(t),
            other => panic!("int_device: expected an int tensor, got a {} tensor", other.kind()),
        }))
    }
    fn int_to_device(tensor: T, device: &DispatchDevice) -> T {
        super::transfer::int_to_device(tensor, device)
    }
    /// Routed on the device (the contract's default builds it from `int_arange_step`).
    fn int_arange(range: Range<i64>, device: &DispatchDevice, dtype: IntDType) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_arange(range, &E::device(device), dtype)))
    }
    // Every other operation of the table routes on its tensors.
    burn_ir::int_operations!(routed_methods);

    // Composites the table leaves to their parts (recorded decomposed), routed whole here so
    // that a backend's own kernel runs.
    forward! {
        fn int_mean(tensor: I) -> I;
        fn int_max_dim_with_indices(tensor: I, dim: Val[usize]) -> II;
        fn int_min_dim_with_indices(tensor: I, dim: Val[usize]) -> II;
        fn int_any(tensor: I) -> B;
        fn int_any_dim(tensor: I, dim: Val[usize]) -> B;
        fn int_all(tensor: I) -> B;
        fn int_all_dim(tensor: I, dim: Val[usize]) -> B;
        fn int_topk_with_indices(tensor: I, k: Val[usize], dim: Val[usize]) -> II;
    }
}
