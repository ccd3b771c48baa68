//! Operations on bool tensors.

use super::defaults;
use crate::tensor::{BoolTensor, Device, FloatTensor, IntTensor};
use crate::{Backend, TensorMetadata, get_device_settings};
use burn_std::{DType, ExecutionError, FloatDType, IntDType, Scalar, Shape, Slice, TensorData};
use core::future::Future;

/// Operations on bool tensors. Semantics follow the public `Tensor` methods of the same name.
pub trait BoolTensorOps<B: Backend> {
    /// A tensor holding `data`.
    fn bool_from_data(data: TensorData, device: &Device<B>) -> BoolTensor<B>;
    /// A tensor with unspecified values.
    fn bool_empty(shape: Shape, device: &Device<B>, dtype: DType) -> BoolTensor<B>;
    /// Reads the values back to the host.
    fn bool_into_data(
        tensor: BoolTensor<B>,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send;
    /// The device the tensor lives on.
    fn bool_device(tensor: &BoolTensor<B>) -> Device<B>;
    /// The tensor moved to `device`.
    fn bool_to_device(tensor: BoolTensor<B>, device: &Device<B>) -> BoolTensor<B>;
    /// 1 for true, 0 for false, as ints of `out_dtype`.
    fn bool_into_int(tensor: BoolTensor<B>, out_dtype: IntDType) -> IntTensor<B>;
    /// 1.0 for true, 0.0 for false, as floats of `out_dtype`.
    fn bool_into_float(tensor: BoolTensor<B>, out_dtype: FloatDType) -> FloatTensor<B>;

    /// Exchanges two dims.
    fn bool_swap_dims(tensor: BoolTensor<B>, dim1: usize, dim2: usize) -> BoolTensor<B>;
    /// Reorders the dims.
    fn bool_permute(tensor: BoolTensor<B>, axes: &[usize]) -> BoolTensor<B>;
    /// Reverses the order along each of `axes`.
    fn bool_flip(tensor: BoolTensor<B>, axes: &[usize]) -> BoolTensor<B>;
    /// Another shape of as many elements.
    fn bool_reshape(tensor: BoolTensor<B>, shape: Shape) -> BoolTensor<B>;
    /// Broadcasts to `shape`.
    fn bool_expand(tensor: BoolTensor<B>, shape: Shape) -> BoolTensor<B>;
    /// The sub-tensor selected by `slices`.
    fn bool_slice(tensor: BoolTensor<B>, slices: &[Slice]) -> BoolTensor<B>;
    /// The tensor with the sub-tensor at `slices` replaced by `value`.
    fn bool_slice_assign(
        tensor: BoolTensor<B>,
        slices: &[Slice],
        value: BoolTensor<B>,
    ) -> BoolTensor<B>;

    /// Gathers along `dim`.
    fn bool_gather(dim: usize, tensor: BoolTensor<B>, indices: IntTensor<B>) -> BoolTensor<B>;
    /// The slices at `indices` along `dim`.
    fn bool_select(tensor: BoolTensor<B>, dim: usize, indices: IntTensor<B>) -> BoolTensor<B>;
    /// `value` where `mask` is true, else `tensor`.
    fn bool_mask_where(
        tensor: BoolTensor<B>,
        mask: BoolTensor<B>,
        value: BoolTensor<B>,
    ) -> BoolTensor<B>;
    /// `value` where `mask` is true, else `tensor`.
    fn bool_mask_fill(tensor: BoolTensor<B>, mask: BoolTensor<B>, value: Scalar) -> BoolTensor<B>;

    /// `lhs == rhs`.
    fn bool_equal(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
    /// Logical not.
    fn bool_not(tensor: BoolTensor<B>) -> BoolTensor<B>;
    /// Logical and.
    fn bool_and(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;
    /// Logical or.
    fn bool_or(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B>;

    // ---- defaults ---------------------------------------------------------------------------

    /// All false.
    fn bool_zeros(shape: Shape, device: &Device<B>, dtype: DType) -> BoolTensor<B> {
        B::bool_from_data(TensorData::full_dtype(shape, false, dtype), device)
    }
    /// All true.
    fn bool_ones(shape: Shape, device: &Device<B>, dtype: DType) -> BoolTensor<B> {
        B::bool_from_data(TensorData::full_dtype(shape, true, dtype), device)
    }
    /// Logical exclusive or.
    fn bool_xor(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B> {
        B::bool_not_equal(lhs, rhs)
    }
    /// `lhs != rhs`.
    fn bool_not_equal(lhs: BoolTensor<B>, rhs: BoolTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::bool_equal(lhs, rhs))
    }
    /// `lhs == rhs` for a scalar.
    fn bool_equal_elem(lhs: BoolTensor<B>, rhs: Scalar) -> BoolTensor<B> {
        if rhs.to_bool() { lhs } else { B::bool_not(lhs) }
    }
    /// Swaps the last two dims.
    fn bool_transpose(tensor: BoolTensor<B>) -> BoolTensor<B> {
        let rank = tensor.rank();
        if rank < 2 {
            return tensor;
        }
        B::bool_swap_dims(tensor, rank - 2, rank - 1)
    }
    /// Concatenates along `dim`.
    fn bool_cat(tensors: Vec<BoolTensor<B>>, dim: usize) -> BoolTensor<B> {
        let first = &tensors[0];
        let (device, dtype) = (B::bool_device(first), first.dtype());
        defaults::cat_with_slice_assign(
            tensors,
            dim,
            |shape| B::bool_empty(shape, &device, dtype),
            B::bool_slice_assign,
        )
    }
    /// Repeats the tensor `times` times along `dim`.
    fn bool_repeat_dim(tensor: BoolTensor<B>, dim: usize, times: usize) -> BoolTensor<B> {
        B::bool_cat(vec![tensor; times], dim)
    }
    /// Whether any element is true, shape `[1]`.
    fn bool_any(tensor: BoolTensor<B>) -> BoolTensor<B> {
        // Count in i64: a narrow default int dtype would wrap at 128 or 256 trues.
        B::int_greater_elem(
            B::int_sum(B::bool_into_int(tensor, IntDType::I64)),
            0.into(),
        )
    }
    /// Whether any element along `dim` is true, kept with size 1.
    fn bool_any_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B> {
        let counts = B::int_sum_dim(B::bool_into_int(tensor, IntDType::I64), dim);
        B::int_greater_elem(counts, 0.into())
    }
    /// Whether every element is true, shape `[1]`.
    fn bool_all(tensor: BoolTensor<B>) -> BoolTensor<B> {
        B::bool_not(B::bool_any(B::bool_not(tensor)))
    }
    /// Whether every element along `dim` is true, kept with size 1.
    fn bool_all_dim(tensor: BoolTensor<B>, dim: usize) -> BoolTensor<B> {
        B::bool_not(B::bool_any_dim(B::bool_not(tensor), dim))
    }
    /// The coordinates of the true elements, shape `[count, rank]`, in row-major order.
    fn bool_argwhere(tensor: BoolTensor<B>) -> IntTensor<B> {
        let device = B::bool_device(&tensor);
        let int_dtype = get_device_settings::<B>(&device).int_dtype;
        let data = crate::read_sync(B::bool_into_data(tensor))
            .unwrap_or_else(|e| panic!("bool_argwhere: reading the tensor failed: {e}"));
        B::int_from_data(
            defaults::argwhere_host(&data).convert_dtype(int_dtype.into()),
            &device,
        )
    }
}
