//! `BoolTensorOps` for Flex (booleans are stored natively, one byte each).

use super::{BOOL, Flex, FlexDevice, int_dtype};
use crate::FlexTensor;
use crate::ops::{compare, creation, index, mask, reduce, shape};
use burn_backend::ops::BoolTensorOps;
use burn_backend::{DType, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice, TensorData};

type T = FlexTensor;

impl BoolTensorOps<Flex> for Flex {
    fn bool_from_data(data: TensorData, _device: &FlexDevice) -> T {
        let tensor = FlexTensor::from_data(data);
        if tensor.dtype().is_bool() {
            tensor
        } else {
            creation::cast(tensor, BOOL)
        }
    }
    fn bool_empty(shape: Shape, _device: &FlexDevice, _dtype: DType) -> T {
        creation::empty(shape, BOOL)
    }
    async fn bool_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        Ok(tensor.into_data())
    }
    fn bool_device(_tensor: &T) -> FlexDevice {
        FlexDevice
    }
    fn bool_to_device(tensor: T, _device: &FlexDevice) -> T {
        tensor
    }
    fn bool_into_int(tensor: T, out_dtype: IntDType) -> T {
        creation::cast(tensor, out_dtype.into())
    }
    fn bool_into_float(tensor: T, out_dtype: FloatDType) -> T {
        creation::cast(tensor, out_dtype.into())
    }

    fn bool_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T {
        tensor.swap_dims(dim1, dim2)
    }
    fn bool_permute(tensor: T, axes: &[usize]) -> T {
        tensor.permute(axes)
    }
    fn bool_flip(tensor: T, axes: &[usize]) -> T {
        tensor.flip(axes)
    }
    fn bool_reshape(tensor: T, shape: Shape) -> T {
        tensor.reshape(shape)
    }
    fn bool_expand(tensor: T, shape: Shape) -> T {
        tensor.expand(shape)
    }
    fn bool_slice(tensor: T, slices: &[Slice]) -> T {
        tensor.slice(slices)
    }
    delegate! {
        fn bool_slice_assign(tensor: T, slices: &[Slice], value: T) -> T => shape::slice_assign;
        fn bool_gather(dim: usize, tensor: T, indices: T) -> T => index::gather;
        fn bool_select(tensor: T, dim: usize, indices: T) -> T => index::select;
        fn bool_mask_where(tensor: T, mask: T, value: T) -> T => mask::mask_where;
        fn bool_mask_fill(tensor: T, mask: T, value: Scalar) -> T => mask::mask_fill;
        fn bool_equal(lhs: T, rhs: T) -> T => compare::equal;
        fn bool_not(tensor: T) -> T => compare::bool_not;
        fn bool_and(lhs: T, rhs: T) -> T => compare::bool_and;
        fn bool_or(lhs: T, rhs: T) -> T => compare::bool_or;
        fn bool_xor(lhs: T, rhs: T) -> T => compare::bool_xor;
        fn bool_not_equal(lhs: T, rhs: T) -> T => compare::not_equal;
        fn bool_equal_elem(lhs: T, rhs: Scalar) -> T => compare::equal_elem;
        fn bool_cat(tensors: Vec<T>, dim: usize) -> T => shape::cat;
        fn bool_repeat_dim(tensor: T, dim: usize, times: usize) -> T => shape::repeat_dim;
        fn bool_any(tensor: T) -> T => reduce::any;
        fn bool_any_dim(tensor: T, dim: usize) -> T => reduce::any_dim;
        fn bool_all(tensor: T) -> T => reduce::all;
        fn bool_all_dim(tensor: T, dim: usize) -> T => reduce::all_dim;
    }

    // ---- overrides of default bodies --------------------------------------------------------

    fn bool_zeros(shape: Shape, _device: &FlexDevice, _dtype: DType) -> T {
        creation::zeros(shape, BOOL)
    }
    fn bool_ones(shape: Shape, _device: &FlexDevice, _dtype: DType) -> T {
        creation::ones(shape, BOOL)
    }
    fn bool_transpose(tensor: T) -> T {
        tensor.transpose()
    }
    fn bool_argwhere(tensor: T) -> T {
        mask::argwhere(tensor, int_dtype())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::read_sync;

    fn data(t: T) -> Vec<bool> {
        read_sync(Flex::bool_into_data(t))
            .unwrap()
            .to_vec::<bool>()
            .unwrap()
    }

    #[test]
    fn bool_ops_through_the_trait() {
        let a = Flex::bool_from_data(
            TensorData::from([[true, false], [false, false]]),
            &FlexDevice,
        );
        let b = Flex::bool_from_data(TensorData::from([true, true]), &FlexDevice);
        assert_eq!(
            data(Flex::bool_xor(a.clone(), b.clone())),
            vec![false, true, true, true]
        );
        assert_eq!(data(Flex::bool_any_dim(a.clone(), 1)), vec![true, false]);
        assert_eq!(data(Flex::bool_all(b.clone())), vec![true]);
        let w = Flex::bool_argwhere(a.clone());
        assert_eq!(w.shape().dims.to_vec(), vec![1, 2]);
        assert_eq!(data(Flex::bool_repeat_dim(b, 0, 2)), vec![true; 4]);
        assert_eq!(
            data(Flex::bool_equal_elem(a, false.into())),
            vec![false, true, true, true]
        );
    }
}
