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
    fn int_arange(range: Range<i64>, device: &DispatchDevice, dtype: IntDType) -> T {
        dispatch_device!(device, E, B => E::wrap_int(B::int_arange(range, &E::device(device), dtype)))
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
    fn int_cat(tensors: Vec<T>, dim: usize) -> T {
        let route = tensors
            .iter()
            .find(|t| t.is_recording())
            .unwrap_or(&tensors[0]);
        dispatch!(route, E, B => E::wrap_int(B::int_cat(convert_in!(E, ints, tensors), dim)))
    }

    forward! {
        fn int_into_float(tensor: T => int, out_dtype: FloatDType => val) -> T => float;
        fn int_cast(tensor: T => int, dtype: IntDType => val) -> T => int;
        fn int_add(lhs: T => int, rhs: T => int) -> T => int;
        fn int_add_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_sub(lhs: T => int, rhs: T => int) -> T => int;
        fn int_sub_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_mul(lhs: T => int, rhs: T => int) -> T => int;
        fn int_mul_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_div(lhs: T => int, rhs: T => int) -> T => int;
        fn int_div_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_remainder(lhs: T => int, rhs: T => int) -> T => int;
        fn int_remainder_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_powi(lhs: T => int, rhs: T => int) -> T => int;
        fn int_powi_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_matmul(lhs: T => int, rhs: T => int) -> T => int;
        fn int_abs(tensor: T => int) -> T => int;
        fn int_neg(tensor: T => int) -> T => int;
        fn int_sign(tensor: T => int) -> T => int;
        fn int_clamp(tensor: T => int, min: Scalar => val, max: Scalar => val) -> T => int;
        fn int_clamp_min(tensor: T => int, min: Scalar => val) -> T => int;
        fn int_clamp_max(tensor: T => int, max: Scalar => val) -> T => int;
        fn bitwise_and(lhs: T => int, rhs: T => int) -> T => int;
        fn bitwise_and_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn bitwise_or(lhs: T => int, rhs: T => int) -> T => int;
        fn bitwise_or_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn bitwise_xor(lhs: T => int, rhs: T => int) -> T => int;
        fn bitwise_xor_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn bitwise_not(tensor: T => int) -> T => int;
        fn bitwise_left_shift(lhs: T => int, rhs: T => int) -> T => int;
        fn bitwise_left_shift_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn bitwise_right_shift(lhs: T => int, rhs: T => int) -> T => int;
        fn bitwise_right_shift_scalar(lhs: T => int, rhs: Scalar => val) -> T => int;
        fn int_swap_dims(tensor: T => int, dim1: usize => val, dim2: usize => val) -> T => int;
        fn int_transpose(tensor: T => int) -> T => int;
        fn int_permute(tensor: T => int, axes: &[usize] => val) -> T => int;
        fn int_flip(tensor: T => int, axes: &[usize] => val) -> T => int;
        fn int_reshape(tensor: T => int, shape: Shape => val) -> T => int;
        fn int_expand(tensor: T => int, shape: Shape => val) -> T => int;
        fn int_slice(tensor: T => int, slices: &[Slice] => val) -> T => int;
        fn int_slice_assign(tensor: T => int, slices: &[Slice] => val, value: T => int) -> T => int;
        fn int_repeat_dim(tensor: T => int, dim: usize => val, times: usize => val) -> T => int;
        fn int_gather[tensor](dim: usize => val, tensor: T => int, indices: T => int) -> T => int;
        fn int_scatter[tensor](dim: usize => val, tensor: T => int, indices: T => int, value: T => int, update: IndexingUpdateOp => val) -> T => int;
        fn int_select(tensor: T => int, dim: usize => val, indices: T => int) -> T => int;
        fn int_select_add(tensor: T => int, dim: usize => val, indices: T => int, value: T => int) -> T => int;
        fn int_mask_where(tensor: T => int, mask: T => bool, value: T => int) -> T => int;
        fn int_mask_fill(tensor: T => int, mask: T => bool, value: Scalar => val) -> T => int;
        fn int_equal(lhs: T => int, rhs: T => int) -> T => bool;
        fn int_equal_elem(lhs: T => int, rhs: Scalar => val) -> T => bool;
        fn int_not_equal(lhs: T => int, rhs: T => int) -> T => bool;
        fn int_not_equal_elem(lhs: T => int, rhs: Scalar => val) -> T => bool;
        fn int_greater(lhs: T => int, rhs: T => int) -> T => bool;
        fn int_greater_elem(lhs: T => int, rhs: Scalar => val) -> T => bool;
        fn int_greater_equal(lhs: T => int, rhs: T => int) -> T => bool;
        fn int_greater_equal_elem(lhs: T => int, rhs: Scalar => val) -> T => bool;
        fn int_lower(lhs: T => int, rhs: T => int) -> T => bool;
        fn int_lower_elem(lhs: T => int, rhs: Scalar => val) -> T => bool;
        fn int_lower_equal(lhs: T => int, rhs: T => int) -> T => bool;
        fn int_lower_equal_elem(lhs: T => int, rhs: Scalar => val) -> T => bool;
        fn int_sum(tensor: T => int) -> T => int;
        fn int_sum_dim(tensor: T => int, dim: usize => val) -> T => int;
        fn int_prod(tensor: T => int) -> T => int;
        fn int_prod_dim(tensor: T => int, dim: usize => val) -> T => int;
        fn int_mean(tensor: T => int) -> T => int;
        fn int_mean_dim(tensor: T => int, dim: usize => val) -> T => int;
        fn int_max(tensor: T => int) -> T => int;
        fn int_max_dim(tensor: T => int, dim: usize => val) -> T => int;
        fn int_max_dim_with_indices(tensor: T => int, dim: usize => val) -> (T, T) => int_int;
        fn int_min(tensor: T => int) -> T => int;
        fn int_min_dim(tensor: T => int, dim: usize => val) -> T => int;
        fn int_min_dim_with_indices(tensor: T => int, dim: usize => val) -> (T, T) => int_int;
        fn int_max_abs(tensor: T => int) -> T => int;
        fn int_max_abs_dim(tensor: T => int, dim: usize => val) -> T => int;
        fn int_argmax(tensor: T => int, dim: usize => val) -> T => int;
        fn int_argmin(tensor: T => int, dim: usize => val) -> T => int;
        fn int_any(tensor: T => int) -> T => bool;
        fn int_any_dim(tensor: T => int, dim: usize => val) -> T => bool;
        fn int_all(tensor: T => int) -> T => bool;
        fn int_all_dim(tensor: T => int, dim: usize => val) -> T => bool;
        fn int_cumsum(tensor: T => int, dim: usize => val) -> T => int;
        fn int_cumprod(tensor: T => int, dim: usize => val) -> T => int;
        fn int_cummin(tensor: T => int, dim: usize => val) -> T => int;
        fn int_cummax(tensor: T => int, dim: usize => val) -> T => int;
        fn int_sort(tensor: T => int, dim: usize => val, descending: bool => val) -> T => int;
        fn int_sort_with_indices(tensor: T => int, dim: usize => val, descending: bool => val) -> (T, T) => int_int;
        fn int_argsort(tensor: T => int, dim: usize => val, descending: bool => val) -> T => int;
        fn int_topk_with_indices(tensor: T => int, k: usize => val, dim: usize => val) -> (T, T) => int_int;
    }
}
