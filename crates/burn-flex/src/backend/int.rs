//! `IntTensorOps` for Flex.

use super::{Flex, FlexDevice, int_dtype};
use crate::FlexTensor;
use crate::ops::{
    binary, compare, creation, index, int, mask, matmul, random, reduce, scan, shape, sort, unary,
};
use burn_backend::ops::IntTensorOps;
use burn_backend::{
    Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape, Slice,
    TensorData,
};
use core::ops::Range;

type T = FlexTensor;

impl IntTensorOps<Flex> for Flex {
    fn int_from_data(data: TensorData, _device: &FlexDevice) -> T {
        let tensor = FlexTensor::from_data(data);
        if tensor.dtype().is_int() {
            tensor
        } else {
            creation::cast(tensor, int_dtype())
        }
    }
    fn int_random(
        shape: Shape,
        distribution: Distribution,
        _device: &FlexDevice,
        dtype: IntDType,
    ) -> T {
        random::random(shape, distribution, dtype.into())
    }
    fn int_empty(shape: Shape, _device: &FlexDevice, dtype: IntDType) -> T {
        creation::empty(shape, dtype.into())
    }
    async fn int_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        Ok(tensor.into_data())
    }
    fn int_device(_tensor: &T) -> FlexDevice {
        FlexDevice
    }
    fn int_to_device(tensor: T, _device: &FlexDevice) -> T {
        tensor
    }
    fn int_into_float(tensor: T, out_dtype: FloatDType) -> T {
        creation::cast(tensor, out_dtype.into())
    }
    fn int_cast(tensor: T, dtype: IntDType) -> T {
        creation::cast(tensor, dtype.into())
    }

    delegate! {
        fn int_add(lhs: T, rhs: T) -> T => binary::add;
        fn int_add_scalar(lhs: T, rhs: Scalar) -> T => binary::add_scalar;
        fn int_sub(lhs: T, rhs: T) -> T => binary::sub;
        fn int_sub_scalar(lhs: T, rhs: Scalar) -> T => binary::sub_scalar;
        fn int_mul(lhs: T, rhs: T) -> T => binary::mul;
        fn int_mul_scalar(lhs: T, rhs: Scalar) -> T => binary::mul_scalar;
        fn int_div(lhs: T, rhs: T) -> T => binary::div;
        fn int_div_scalar(lhs: T, rhs: Scalar) -> T => binary::div_scalar;
        fn int_remainder(lhs: T, rhs: T) -> T => binary::remainder;
        fn int_remainder_scalar(lhs: T, rhs: Scalar) -> T => binary::remainder_scalar;
        fn int_powi(lhs: T, rhs: T) -> T => binary::powi;
        fn int_matmul(lhs: T, rhs: T) -> T => matmul::matmul;
        fn int_abs(tensor: T) -> T => unary::abs;
        fn bitwise_and(lhs: T, rhs: T) -> T => int::bitwise_and;
        fn bitwise_and_scalar(lhs: T, rhs: Scalar) -> T => int::bitwise_and_scalar;
        fn bitwise_or(lhs: T, rhs: T) -> T => int::bitwise_or;
        fn bitwise_or_scalar(lhs: T, rhs: Scalar) -> T => int::bitwise_or_scalar;
        fn bitwise_xor(lhs: T, rhs: T) -> T => int::bitwise_xor;
        fn bitwise_xor_scalar(lhs: T, rhs: Scalar) -> T => int::bitwise_xor_scalar;
        fn bitwise_not(tensor: T) -> T => int::bitwise_not;
        fn bitwise_left_shift(lhs: T, rhs: T) -> T => int::bitwise_left_shift;
        fn bitwise_left_shift_scalar(lhs: T, rhs: Scalar) -> T => int::bitwise_left_shift_scalar;
        fn bitwise_right_shift(lhs: T, rhs: T) -> T => int::bitwise_right_shift;
        fn bitwise_right_shift_scalar(lhs: T, rhs: Scalar) -> T => int::bitwise_right_shift_scalar;
        fn int_slice_assign(tensor: T, slices: &[Slice], value: T) -> T => shape::slice_assign;
        fn int_gather(dim: usize, tensor: T, indices: T) -> T => index::gather;
        fn int_scatter(dim: usize, tensor: T, indices: T, value: T, update: IndexingUpdateOp) -> T => index::scatter;
        fn int_select(tensor: T, dim: usize, indices: T) -> T => index::select;
        fn int_mask_where(tensor: T, mask: T, value: T) -> T => mask::mask_where;
        fn int_mask_fill(tensor: T, mask: T, value: Scalar) -> T => mask::mask_fill;
        fn int_equal(lhs: T, rhs: T) -> T => compare::equal;
        fn int_equal_elem(lhs: T, rhs: Scalar) -> T => compare::equal_elem;
        fn int_greater(lhs: T, rhs: T) -> T => compare::greater;
        fn int_greater_elem(lhs: T, rhs: Scalar) -> T => compare::greater_elem;
        fn int_greater_equal(lhs: T, rhs: T) -> T => compare::greater_equal;
        fn int_greater_equal_elem(lhs: T, rhs: Scalar) -> T => compare::greater_equal_elem;
        fn int_lower(lhs: T, rhs: T) -> T => compare::lower;
        fn int_lower_elem(lhs: T, rhs: Scalar) -> T => compare::lower_elem;
        fn int_lower_equal(lhs: T, rhs: T) -> T => compare::lower_equal;
        fn int_lower_equal_elem(lhs: T, rhs: Scalar) -> T => compare::lower_equal_elem;
        fn int_sum(tensor: T) -> T => reduce::sum;
        fn int_sum_dim(tensor: T, dim: usize) -> T => reduce::sum_dim;
        fn int_prod_dim(tensor: T, dim: usize) -> T => reduce::prod_dim;
        fn int_mean_dim(tensor: T, dim: usize) -> T => reduce::mean_dim;
        fn int_cumsum(tensor: T, dim: usize) -> T => scan::cumsum;
        fn int_cumprod(tensor: T, dim: usize) -> T => scan::cumprod;
        fn int_cummin(tensor: T, dim: usize) -> T => scan::cummin;
        fn int_cummax(tensor: T, dim: usize) -> T => scan::cummax;
        fn int_neg(tensor: T) -> T => unary::neg;
        fn int_powi_scalar(lhs: T, rhs: Scalar) -> T => unary::powi_scalar;
        fn int_sign(tensor: T) -> T => unary::sign;
        fn int_clamp_min(tensor: T, min: Scalar) -> T => unary::clamp_min;
        fn int_clamp_max(tensor: T, max: Scalar) -> T => unary::clamp_max;
        fn int_clamp(tensor: T, min: Scalar, max: Scalar) -> T => unary::clamp;
        fn int_not_equal(lhs: T, rhs: T) -> T => compare::not_equal;
        fn int_not_equal_elem(lhs: T, rhs: Scalar) -> T => compare::not_equal_elem;
        fn int_cat(tensors: Vec<T>, dim: usize) -> T => shape::cat;
        fn int_repeat_dim(tensor: T, dim: usize, times: usize) -> T => shape::repeat_dim;
        fn int_mean(tensor: T) -> T => reduce::mean;
        fn int_prod(tensor: T) -> T => reduce::prod;
        fn int_max_dim(tensor: T, dim: usize) -> T => reduce::max_dim;
        fn int_min_dim(tensor: T, dim: usize) -> T => reduce::min_dim;
        fn int_max(tensor: T) -> T => reduce::max;
        fn int_min(tensor: T) -> T => reduce::min;
        fn int_any(tensor: T) -> T => reduce::any;
        fn int_any_dim(tensor: T, dim: usize) -> T => reduce::any_dim;
        fn int_all(tensor: T) -> T => reduce::all;
        fn int_all_dim(tensor: T, dim: usize) -> T => reduce::all_dim;
        fn int_sort(tensor: T, dim: usize, descending: bool) -> T => sort::sort;
    }

    fn int_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T {
        tensor.swap_dims(dim1, dim2)
    }
    fn int_permute(tensor: T, axes: &[usize]) -> T {
        tensor.permute(axes)
    }
    fn int_flip(tensor: T, axes: &[usize]) -> T {
        tensor.flip(axes)
    }
    fn int_reshape(tensor: T, shape: Shape) -> T {
        tensor.reshape(shape)
    }
    fn int_expand(tensor: T, shape: Shape) -> T {
        tensor.expand(shape)
    }
    fn int_slice(tensor: T, slices: &[Slice]) -> T {
        tensor.slice(slices)
    }

    fn int_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        index::select_assign(tensor, dim, indices, value, IndexingUpdateOp::Add)
    }

    fn int_argmax(tensor: T, dim: usize) -> T {
        reduce::argmax(tensor, dim, int_dtype())
    }
    fn int_argmin(tensor: T, dim: usize) -> T {
        reduce::argmin(tensor, dim, int_dtype())
    }

    // ---- overrides of default bodies --------------------------------------------------------

    fn int_full(shape: Shape, value: Scalar, _device: &FlexDevice, dtype: IntDType) -> T {
        creation::full(shape, value, dtype.into())
    }
    fn int_zeros(shape: Shape, _device: &FlexDevice, dtype: IntDType) -> T {
        creation::zeros(shape, dtype.into())
    }
    fn int_ones(shape: Shape, _device: &FlexDevice, dtype: IntDType) -> T {
        creation::ones(shape, dtype.into())
    }
    fn int_arange_step(range: Range<i64>, step: usize, _device: &FlexDevice, dtype: IntDType) -> T {
        creation::arange(range, step, dtype.into())
    }
    fn int_arange(range: Range<i64>, _device: &FlexDevice, dtype: IntDType) -> T {
        creation::arange(range, 1, dtype.into())
    }
    fn int_transpose(tensor: T) -> T {
        tensor.transpose()
    }
    fn int_max_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        reduce::max_dim_with_indices(tensor, dim, int_dtype())
    }
    fn int_min_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        reduce::min_dim_with_indices(tensor, dim, int_dtype())
    }
    fn int_max_abs(tensor: T) -> T {
        reduce::max(unary::abs(tensor))
    }
    fn int_max_abs_dim(tensor: T, dim: usize) -> T {
        reduce::max_dim(unary::abs(tensor), dim)
    }
    fn int_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        sort::sort_with_indices(tensor, dim, descending, int_dtype())
    }
    fn int_topk_with_indices(tensor: T, k: usize, dim: usize) -> (T, T) {
        sort::topk_with_indices(tensor, k, dim, int_dtype())
    }
    fn int_argsort(tensor: T, dim: usize, descending: bool) -> T {
        sort::argsort(tensor, dim, descending, int_dtype())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::read_sync;

    fn data(t: T) -> Vec<i64> {
        read_sync(Flex::int_into_data(t))
            .unwrap()
            .to_vec::<i64>()
            .unwrap()
    }

    #[test]
    fn int_ops_through_the_trait() {
        let a = Flex::int_from_data(TensorData::from([[7i64, -7], [3, 4]]), &FlexDevice);
        assert_eq!(
            data(Flex::int_div_scalar(a.clone(), 2.into())),
            vec![3, -3, 1, 2]
        );
        assert_eq!(
            data(Flex::int_remainder_scalar(a.clone(), 3.into())),
            vec![1, 2, 0, 1]
        );
        assert_eq!(
            data(Flex::int_arange_step(0..7, 3, &FlexDevice, IntDType::I64)),
            vec![0, 3, 6]
        );
        assert_eq!(data(Flex::int_argmax(a.clone(), 1)), vec![0, 1]);
        assert_eq!(data(Flex::int_sort(a.clone(), 1, false)), vec![-7, 7, 3, 4]);
        assert_eq!(
            data(Flex::int_matmul(a.clone(), a.clone())),
            vec![28, -77, 33, -5]
        );
        assert_eq!(data(Flex::int_sum(a.clone())), vec![7]);
        let u = Flex::int_cast(a, IntDType::U8);
        assert_eq!(
            read_sync(Flex::int_into_data(u))
                .unwrap()
                .to_vec::<u8>()
                .unwrap(),
            vec![7, 249, 3, 4]
        );
    }
}
