//! Bool operations routed to the tensor's backend.

use super::prelude::*;

type T = DispatchTensor;

impl BoolTensorOps<Self> for Dispatch {
    fn bool_from_data(data: TensorData, device: &DispatchDevice) -> T {
        dispatch_device!(device, E, B => E::wrap_bool(B::bool_from_data(data, &E::device(device))))
    }
    fn bool_empty(shape: Shape, device: &DispatchDevice, dtype: DType) -> T {
        dispatch_device!(device, E, B => E::wrap_bool(B::bool_empty(shape, &E::device(device), dtype)))
    }
    fn bool_zeros(shape: Shape, device: &DispatchDevice, dtype: DType) -> T {
        dispatch_device!(device, E, B => E::wrap_bool(B::bool_zeros(shape, &E::device(device), dtype)))
    }
    fn bool_ones(shape: Shape, device: &DispatchDevice, dtype: DType) -> T {
        dispatch_device!(device, E, B => E::wrap_bool(B::bool_ones(shape, &E::device(device), dtype)))
    }
    async fn bool_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        dispatch!(&tensor, E, B => B::bool_into_data(E::bool(tensor)).await)
    }
    fn bool_device(tensor: &T) -> DispatchDevice {
        dispatch!(tensor, E, B => E::wrap_device(match E::unwrap_ref(tensor) {
            BackendTensor::Bool(t) => B::bool_device(t),
            other => panic!("bool_device: expected a bool tensor, got a {} tensor", other.kind()),
        }))
    }
    fn bool_to_device(tensor: T, device: &DispatchDevice) -> T {
        super::transfer::bool_to_device(tensor, device)
    }
    // Every other operation of the table routes on its tensors.
    burn_ir::bool_operations!(routed_methods);

    // Composites the table leaves to their parts (recorded decomposed), routed whole here so
    // that a backend's own kernel runs.
    forward! {
        fn bool_equal_elem(lhs: B, rhs: Val[Scalar]) -> B;
        fn bool_any(tensor: B) -> B;
        fn bool_any_dim(tensor: B, dim: Val[usize]) -> B;
        fn bool_all(tensor: B) -> B;
        fn bool_all_dim(tensor: B, dim: Val[usize]) -> B;
    }
}
