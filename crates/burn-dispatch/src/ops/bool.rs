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
    fn bool_cat(tensors: Vec<T>, dim: usize) -> T {
        let route = tensors
            .iter()
            .find(|t| t.is_recording())
            .unwrap_or(&tensors[0]);
        dispatch!(route, E, B => E::wrap_bool(B::bool_cat(convert_in!(E, bools, tensors), dim)))
    }

    forward! {
        fn bool_into_int(tensor: T => bool, out_dtype: IntDType => val) -> T => int;
        fn bool_into_float(tensor: T => bool, out_dtype: FloatDType => val) -> T => float;
        fn bool_swap_dims(tensor: T => bool, dim1: usize => val, dim2: usize => val) -> T => bool;
        fn bool_transpose(tensor: T => bool) -> T => bool;
        fn bool_permute(tensor: T => bool, axes: &[usize] => val) -> T => bool;
        fn bool_flip(tensor: T => bool, axes: &[usize] => val) -> T => bool;
        fn bool_reshape(tensor: T => bool, shape: Shape => val) -> T => bool;
        fn bool_expand(tensor: T => bool, shape: Shape => val) -> T => bool;
        fn bool_slice(tensor: T => bool, slices: &[Slice] => val) -> T => bool;
        fn bool_slice_assign(tensor: T => bool, slices: &[Slice] => val, value: T => bool) -> T => bool;
        fn bool_repeat_dim(tensor: T => bool, dim: usize => val, times: usize => val) -> T => bool;
        fn bool_gather[tensor](dim: usize => val, tensor: T => bool, indices: T => int) -> T => bool;
        fn bool_select(tensor: T => bool, dim: usize => val, indices: T => int) -> T => bool;
        fn bool_mask_where(tensor: T => bool, mask: T => bool, value: T => bool) -> T => bool;
        fn bool_mask_fill(tensor: T => bool, mask: T => bool, value: Scalar => val) -> T => bool;
        fn bool_equal(lhs: T => bool, rhs: T => bool) -> T => bool;
        fn bool_not_equal(lhs: T => bool, rhs: T => bool) -> T => bool;
        fn bool_equal_elem(lhs: T => bool, rhs: Scalar => val) -> T => bool;
        fn bool_not(tensor: T => bool) -> T => bool;
        fn bool_and(lhs: T => bool, rhs: T => bool) -> T => bool;
        fn bool_or(lhs: T => bool, rhs: T => bool) -> T => bool;
        fn bool_xor(lhs: T => bool, rhs: T => bool) -> T => bool;
        fn bool_any(tensor: T => bool) -> T => bool;
        fn bool_any_dim(tensor: T => bool, dim: usize => val) -> T => bool;
        fn bool_all(tensor: T => bool) -> T => bool;
        fn bool_all_dim(tensor: T => bool, dim: usize => val) -> T => bool;
        fn bool_argwhere(tensor: T => bool) -> T => int;
    }
}
