//! `IntTensorOps` for the CubeCL backend.

use super::float::{compare, compare_scalar, reduce_all, reduce_dim};
use super::{CubeBackend, random, settings_of, to_device};
use crate::kernel::{self, BinaryOp, BitwiseOp, CompareOp, ReduceOp, ScanOp};
use crate::{CubeDevice, CubeTensor};
use burn_backend::ops::IntTensorOps;
use burn_backend::{
    Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape, Slice,
    TensorData,
};
use core::ops::Range;

type T = CubeTensor;

impl IntTensorOps<CubeBackend> for CubeBackend {
    fn int_from_data(data: TensorData, device: &CubeDevice) -> T {
        if data.dtype.is_int() {
            CubeTensor::from_data(data, device)
        } else {
            let dtype = settings_of(device).int_dtype;
            CubeTensor::from_data(data.convert_dtype(dtype.into()), device)
        }
    }
    /// Sampled in `f32` on the device, then truncated toward zero.
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        device: &CubeDevice,
        dtype: IntDType,
    ) -> T {
        let seed = random::next_seed();
        let values = kernel::random(shape, distribution, burn_backend::DType::F32, device, seed)
            .unwrap_or_else(|err| panic!("int_random: {err}"));
        kernel::cast(values, dtype.into())
    }
    fn int_empty(shape: Shape, device: &CubeDevice, dtype: IntDType) -> T {
        CubeTensor::empty(shape, dtype.into(), device)
    }
    async fn int_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        tensor.into_data().await
    }
    fn int_device(tensor: &T) -> CubeDevice {
        tensor.device().clone()
    }
    fn int_to_device(tensor: T, device: &CubeDevice) -> T {
        to_device(tensor, device)
    }
    fn int_into_float(tensor: T, out_dtype: FloatDType) -> T {
        kernel::cast(tensor, out_dtype.into())
    }
    fn int_cast(tensor: T, dtype: IntDType) -> T {
        kernel::cast(tensor, dtype.into())
    }
    fn int_full(shape: Shape, value: Scalar, device: &CubeDevice, dtype: IntDType) -> T {
        kernel::full(shape, value, dtype.into(), device)
    }
    fn int_arange_step(range: Range<i64>, step: usize, device: &CubeDevice, dtype: IntDType) -> T {
        kernel::arange(range, step, dtype.into(), device)
    }

    delegate! {
        fn int_add(lhs: T, rhs: T) -> T => kernel::binary(BinaryOp::Add, lhs, rhs);
        fn int_add_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Add, lhs, rhs);
        fn int_sub(lhs: T, rhs: T) -> T => kernel::binary(BinaryOp::Sub, lhs, rhs);
        fn int_sub_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Sub, lhs, rhs);
        fn int_mul(lhs: T, rhs: T) -> T => kernel::binary(BinaryOp::Mul, lhs, rhs);
        fn int_mul_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Mul, lhs, rhs);
        fn int_div(lhs: T, rhs: T) -> T => kernel::binary(BinaryOp::Div, lhs, rhs);
        fn int_div_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Div, lhs, rhs);
        fn int_remainder(lhs: T, rhs: T) -> T => kernel::binary(BinaryOp::Remainder, lhs, rhs);
        fn int_remainder_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Remainder, lhs, rhs);
        fn int_powi(lhs: T, rhs: T) -> T => kernel::int_powi(lhs, rhs);
        fn int_matmul(lhs: T, rhs: T) -> T => kernel::int_matmul(lhs, rhs);
        fn int_abs(tensor: T) -> T => kernel::int_abs(tensor);
        fn int_clamp_min(tensor: T, min: Scalar) -> T => kernel::binary_scalar(BinaryOp::Max, tensor, min);
        fn int_clamp_max(tensor: T, max: Scalar) -> T => kernel::binary_scalar(BinaryOp::Min, tensor, max);

        fn bitwise_and(lhs: T, rhs: T) -> T => kernel::bitwise(BitwiseOp::And, lhs, rhs);
        fn bitwise_and_scalar(lhs: T, rhs: Scalar) -> T => kernel::bitwise_scalar(BitwiseOp::And, lhs, rhs);
        fn bitwise_or(lhs: T, rhs: T) -> T => kernel::bitwise(BitwiseOp::Or, lhs, rhs);
        fn bitwise_or_scalar(lhs: T, rhs: Scalar) -> T => kernel::bitwise_scalar(BitwiseOp::Or, lhs, rhs);
        fn bitwise_xor(lhs: T, rhs: T) -> T => kernel::bitwise(BitwiseOp::Xor, lhs, rhs);
        fn bitwise_xor_scalar(lhs: T, rhs: Scalar) -> T => kernel::bitwise_scalar(BitwiseOp::Xor, lhs, rhs);
        fn bitwise_not(tensor: T) -> T => kernel::bitwise_not(tensor);
        fn bitwise_left_shift(lhs: T, rhs: T) -> T => kernel::bitwise(BitwiseOp::LeftShift, lhs, rhs);
        fn bitwise_left_shift_scalar(lhs: T, rhs: Scalar) -> T => kernel::bitwise_scalar(BitwiseOp::LeftShift, lhs, rhs);
        fn bitwise_right_shift(lhs: T, rhs: T) -> T => kernel::bitwise(BitwiseOp::RightShift, lhs, rhs);
        fn bitwise_right_shift_scalar(lhs: T, rhs: Scalar) -> T => kernel::bitwise_scalar(BitwiseOp::RightShift, lhs, rhs);

        fn int_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T => tensor.swap_dims(dim1, dim2);
        fn int_permute(tensor: T, axes: &[usize]) -> T => tensor.permute(axes);
        fn int_flip(tensor: T, axes: &[usize]) -> T => kernel::flip(tensor, axes);
        fn int_reshape(tensor: T, shape: Shape) -> T => tensor.reshape(shape);
        fn int_expand(tensor: T, shape: Shape) -> T => tensor.expand(shape);
        fn int_slice(tensor: T, slices: &[Slice]) -> T => kernel::slice(tensor, slices);
        fn int_slice_assign(tensor: T, slices: &[Slice], value: T) -> T => kernel::slice_assign(tensor, slices, value);

        fn int_gather(dim: usize, tensor: T, indices: T) -> T => kernel::gather(dim, tensor, indices);
        fn int_scatter(dim: usize, tensor: T, indices: T, value: T, update: IndexingUpdateOp) -> T => kernel::scatter(dim, tensor, indices, value, update);
        fn int_select(tensor: T, dim: usize, indices: T) -> T => kernel::select(tensor, dim, indices);
        fn int_select_add(tensor: T, dim: usize, indices: T, value: T) -> T => kernel::select_add(tensor, dim, indices, value, IndexingUpdateOp::Add);
        fn int_mask_where(tensor: T, mask: T, value: T) -> T => kernel::mask_where(tensor, mask, value);
        fn int_mask_fill(tensor: T, mask: T, value: Scalar) -> T => kernel::mask_fill(tensor, mask, value);

        fn int_equal(lhs: T, rhs: T) -> T => compare(CompareOp::Equal, lhs, rhs);
        fn int_not_equal(lhs: T, rhs: T) -> T => compare(CompareOp::NotEqual, lhs, rhs);
        fn int_greater(lhs: T, rhs: T) -> T => compare(CompareOp::Greater, lhs, rhs);
        fn int_greater_equal(lhs: T, rhs: T) -> T => compare(CompareOp::GreaterEqual, lhs, rhs);
        fn int_lower(lhs: T, rhs: T) -> T => compare(CompareOp::Lower, lhs, rhs);
        fn int_lower_equal(lhs: T, rhs: T) -> T => compare(CompareOp::LowerEqual, lhs, rhs);
        fn int_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::Equal, lhs, rhs);
        fn int_not_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::NotEqual, lhs, rhs);
        fn int_greater_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::Greater, lhs, rhs);
        fn int_greater_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::GreaterEqual, lhs, rhs);
        fn int_lower_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::Lower, lhs, rhs);
        fn int_lower_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::LowerEqual, lhs, rhs);

        fn int_sum(tensor: T) -> T => reduce_all(ReduceOp::Sum, tensor);
        fn int_prod(tensor: T) -> T => reduce_all(ReduceOp::Prod, tensor);
        fn int_max(tensor: T) -> T => reduce_all(ReduceOp::Max, tensor);
        fn int_min(tensor: T) -> T => reduce_all(ReduceOp::Min, tensor);
        fn int_sum_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Sum, tensor, dim);
        fn int_prod_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Prod, tensor, dim);
        fn int_mean_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Mean, tensor, dim);
        fn int_max_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Max, tensor, dim);
        fn int_min_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Min, tensor, dim);
        fn int_argmax(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::ArgMax, tensor, dim);
        fn int_argmin(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::ArgMin, tensor, dim);

        fn int_cumsum(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Sum, tensor, dim);
        fn int_cumprod(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Prod, tensor, dim);
        fn int_cummin(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Min, tensor, dim);
        fn int_cummax(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Max, tensor, dim);
    }
}
