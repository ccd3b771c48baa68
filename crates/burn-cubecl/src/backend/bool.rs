//! `BoolTensorOps` for the CubeCL backend. Booleans live in the device's store (`Bool(U8)` or
//! `Bool(U32)`, 0 or 1) and are read back as native booleans.

use super::float::compare;
use super::to_device;
use super::CubeBackend;
use crate::kernel::{self, CompareOp};
use crate::{CubeDevice, CubeTensor};
use burn_backend::ops::BoolTensorOps;
use burn_backend::{
    BoolStore, DType, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice, TensorData,
};

type T = CubeTensor;

/// Data of any bool store re-encoded as native booleans (one byte each, 0 or 1).
fn into_native(data: TensorData) -> TensorData {
    let shape = data.shape.clone();
    let native = DType::Bool(BoolStore::Native);
    match data.dtype {
        DType::Bool(BoolStore::U32) => {
            let words: &[u32] = bytemuck::cast_slice(data.as_bytes());
            let bytes: Vec<u8> = words.iter().map(|&w| u8::from(w != 0)).collect();
            TensorData::from_bytes_slice(&bytes, shape, native)
        }
        DType::Bool(_) => TensorData::from_bytes_slice(data.as_bytes(), shape, native),
        other => panic!("bool_into_data: expected a bool tensor, got {other}"),
    }
}

impl BoolTensorOps<CubeBackend> for CubeBackend {
    fn bool_from_data(data: TensorData, device: &CubeDevice) -> T {
        let data = if data.dtype.is_bool() {
            data
        } else {
            data.convert_dtype(DType::Bool(BoolStore::Native))
        };
        CubeTensor::from_data(data, device)
    }
    /// An empty tensor of the device's bool store (whatever store `dtype` names).
    fn bool_empty(shape: Shape, device: &CubeDevice, _dtype: DType) -> T {
        let dtype = crate::dtype::bool_dtype(&device.client());
        CubeTensor::empty(shape, dtype, device)
    }
    async fn bool_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        tensor.into_data().await.map(into_native)
    }
    fn bool_device(tensor: &T) -> CubeDevice {
        tensor.device().clone()
    }
    fn bool_to_device(tensor: T, device: &CubeDevice) -> T {
        to_device(tensor, device)
    }
    fn bool_into_int(tensor: T, out_dtype: IntDType) -> T {
        kernel::cast(tensor, out_dtype.into())
    }
    fn bool_into_float(tensor: T, out_dtype: FloatDType) -> T {
        kernel::cast(tensor, out_dtype.into())
    }
    fn bool_zeros(shape: Shape, device: &CubeDevice, _dtype: DType) -> T {
        let dtype = crate::dtype::bool_dtype(&device.client());
        kernel::zeros(shape, dtype, device)
    }
    fn bool_ones(shape: Shape, device: &CubeDevice, _dtype: DType) -> T {
        let dtype = crate::dtype::bool_dtype(&device.client());
        kernel::ones(shape, dtype, device)
    }

    delegate! {
        fn bool_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T => tensor.swap_dims(dim1, dim2);
        fn bool_permute(tensor: T, axes: &[usize]) -> T => tensor.permute(axes);
        fn bool_flip(tensor: T, axes: &[usize]) -> T => kernel::flip(tensor, axes);
        fn bool_reshape(tensor: T, shape: Shape) -> T => tensor.reshape(shape);
        fn bool_expand(tensor: T, shape: Shape) -> T => tensor.expand(shape);
        fn bool_slice(tensor: T, slices: &[Slice]) -> T => kernel::slice(tensor, slices);
        fn bool_slice_assign(tensor: T, slices: &[Slice], value: T) -> T => kernel::slice_assign(tensor, slices, value);
        fn bool_gather(dim: usize, tensor: T, indices: T) -> T => kernel::gather(dim, tensor, indices);
        fn bool_select(tensor: T, dim: usize, indices: T) -> T => kernel::select(tensor, dim, indices);
        fn bool_mask_where(tensor: T, mask: T, value: T) -> T => kernel::mask_where(tensor, mask, value);
        fn bool_mask_fill(tensor: T, mask: T, value: Scalar) -> T => kernel::mask_fill(tensor, mask, value);
        fn bool_equal(lhs: T, rhs: T) -> T => compare(CompareOp::Equal, lhs, rhs);
        fn bool_not_equal(lhs: T, rhs: T) -> T => compare(CompareOp::NotEqual, lhs, rhs);
        fn bool_xor(lhs: T, rhs: T) -> T => compare(CompareOp::NotEqual, lhs, rhs);
        fn bool_not(tensor: T) -> T => kernel::bool_not(tensor);
        fn bool_and(lhs: T, rhs: T) -> T => kernel::bool_and(lhs, rhs);
        fn bool_or(lhs: T, rhs: T) -> T => kernel::bool_or(lhs, rhs);
    }
}
