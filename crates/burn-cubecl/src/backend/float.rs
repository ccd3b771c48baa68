//! `FloatTensorOps` for the CubeCL backend.

use super::{CubeBackend, bool_dtype, expect, int_dtype, promote, random, to_device};
use crate::kernel::{self, BinaryOp, CompareOp, ReduceOp, ScanOp, UnaryOp};
use crate::{CubeDevice, CubeTensor};
use burn_backend::ops::FloatTensorOps;
use burn_backend::{
    Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape, Slice,
    TensorData, TensorMetadata,
};

type T = CubeTensor;

/// The tensor flattened to one dimension (a view when contiguous).
pub(super) fn flatten(tensor: T) -> T {
    let count = tensor.num_elements();
    tensor.reshape(Shape::new([count]))
}

/// `op` over every element, shape `[1]`.
pub(super) fn reduce_all(op: ReduceOp, tensor: T) -> T {
    let index = int_dtype(&tensor);
    expect(op.name(), kernel::reduce(op, flatten(tensor), 0, index))
}

/// `op` along `dim`, kept with size 1.
pub(super) fn reduce_dim(op: ReduceOp, tensor: T, dim: usize) -> T {
    let index = int_dtype(&tensor);
    expect(op.name(), kernel::reduce(op, tensor, dim, index))
}

impl FloatTensorOps<CubeBackend> for CubeBackend {
    fn float_from_data(data: TensorData, device: &CubeDevice) -> T {
        if data.dtype.is_float() {
            CubeTensor::from_data(data, device)
        } else {
            let dtype = super::settings_of(device).float_dtype;
            CubeTensor::from_data(data.convert_dtype(dtype.into()), device)
        }
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        device: &CubeDevice,
        dtype: FloatDType,
    ) -> T {
        let seed = random::next_seed();
        expect(
            "float_random",
            kernel::random(shape, distribution, dtype.into(), device, seed),
        )
    }
    fn float_empty(shape: Shape, device: &CubeDevice, dtype: FloatDType) -> T {
        CubeTensor::empty(shape, dtype.into(), device)
    }
    async fn float_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        tensor.into_data().await
    }
    fn float_device(tensor: &T) -> CubeDevice {
        tensor.device().clone()
    }
    fn float_to_device(tensor: T, device: &CubeDevice) -> T {
        to_device(tensor, device)
    }
    fn float_into_int(tensor: T, out_dtype: IntDType) -> T {
        kernel::cast(tensor, out_dtype.into())
    }
    fn float_cast(tensor: T, dtype: FloatDType) -> T {
        kernel::cast(tensor, dtype.into())
    }
    fn float_full(shape: Shape, value: Scalar, device: &CubeDevice, dtype: FloatDType) -> T {
        kernel::full(shape, value, dtype.into(), device)
    }

    delegate! {
        fn float_add(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Add, lhs, rhs);
        fn float_sub(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Sub, lhs, rhs);
        fn float_mul(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Mul, lhs, rhs);
        fn float_div(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Div, lhs, rhs);
        fn float_remainder(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Remainder, lhs, rhs);
        fn float_powf(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Powf, lhs, rhs);
        fn float_atan2(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Atan2, lhs, rhs);
        fn float_hypot(lhs: T, rhs: T) -> T => binary_promoted(BinaryOp::Hypot, lhs, rhs);
    }
    fn float_matmul(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        expect("float_matmul", kernel::matmul(l, r))
    }

    delegate! {
        fn float_add_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Add, lhs, rhs);
        fn float_sub_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Sub, lhs, rhs);
        fn float_mul_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Mul, lhs, rhs);
        fn float_div_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Div, lhs, rhs);
        fn float_remainder_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Remainder, lhs, rhs);
        fn float_powf_scalar(lhs: T, rhs: Scalar) -> T => kernel::binary_scalar(BinaryOp::Powf, lhs, rhs);
        fn float_recip(tensor: T) -> T => kernel::unary(UnaryOp::Recip, tensor);
        fn float_exp(tensor: T) -> T => kernel::unary(UnaryOp::Exp, tensor);
        fn float_log(tensor: T) -> T => kernel::unary(UnaryOp::Log, tensor);
        fn float_log1p(tensor: T) -> T => kernel::unary(UnaryOp::Log1p, tensor);
        fn float_sqrt(tensor: T) -> T => kernel::unary(UnaryOp::Sqrt, tensor);
        fn float_abs(tensor: T) -> T => kernel::unary(UnaryOp::Abs, tensor);
        fn float_neg(tensor: T) -> T => kernel::unary(UnaryOp::Neg, tensor);
        fn float_cos(tensor: T) -> T => kernel::unary(UnaryOp::Cos, tensor);
        fn float_sin(tensor: T) -> T => kernel::unary(UnaryOp::Sin, tensor);
        fn float_tan(tensor: T) -> T => kernel::unary(UnaryOp::Tan, tensor);
        fn float_tanh(tensor: T) -> T => kernel::unary(UnaryOp::Tanh, tensor);
        fn float_sinh(tensor: T) -> T => kernel::unary(UnaryOp::Sinh, tensor);
        fn float_cosh(tensor: T) -> T => kernel::unary(UnaryOp::Cosh, tensor);
        fn float_asin(tensor: T) -> T => kernel::unary(UnaryOp::Asin, tensor);
        fn float_acos(tensor: T) -> T => kernel::unary(UnaryOp::Acos, tensor);
        fn float_atan(tensor: T) -> T => kernel::unary(UnaryOp::Atan, tensor);
        fn float_asinh(tensor: T) -> T => kernel::unary(UnaryOp::Asinh, tensor);
        fn float_acosh(tensor: T) -> T => kernel::unary(UnaryOp::Acosh, tensor);
        fn float_atanh(tensor: T) -> T => kernel::unary(UnaryOp::Atanh, tensor);
        fn float_erf(tensor: T) -> T => kernel::unary(UnaryOp::Erf, tensor);
        fn float_round(tensor: T) -> T => kernel::unary(UnaryOp::Round, tensor);
        fn float_floor(tensor: T) -> T => kernel::unary(UnaryOp::Floor, tensor);
        fn float_ceil(tensor: T) -> T => kernel::unary(UnaryOp::Ceil, tensor);
        fn float_trunc(tensor: T) -> T => kernel::unary(UnaryOp::Trunc, tensor);
        fn float_sign(tensor: T) -> T => kernel::unary(UnaryOp::Sign, tensor);

        fn float_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T => tensor.swap_dims(dim1, dim2);
        fn float_permute(tensor: T, axes: &[usize]) -> T => tensor.permute(axes);
        fn float_flip(tensor: T, axes: &[usize]) -> T => kernel::flip(tensor, axes);
        fn float_reshape(tensor: T, shape: Shape) -> T => tensor.reshape(shape);
        fn float_expand(tensor: T, shape: Shape) -> T => tensor.expand(shape);
        fn float_slice(tensor: T, slices: &[Slice]) -> T => kernel::slice(tensor, slices);

        fn float_gather(dim: usize, tensor: T, indices: T) -> T => kernel::gather(dim, tensor, indices);
        fn float_select(tensor: T, dim: usize, indices: T) -> T => kernel::select(tensor, dim, indices);
        fn float_mask_fill(tensor: T, mask: T, value: Scalar) -> T => kernel::mask_fill(tensor, mask, value);

        fn float_sum(tensor: T) -> T => reduce_all(ReduceOp::Sum, tensor);
        fn float_mean(tensor: T) -> T => reduce_all(ReduceOp::Mean, tensor);
        fn float_prod(tensor: T) -> T => reduce_all(ReduceOp::Prod, tensor);
        fn float_max(tensor: T) -> T => reduce_all(ReduceOp::Max, tensor);
        fn float_min(tensor: T) -> T => reduce_all(ReduceOp::Min, tensor);
        fn float_sum_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Sum, tensor, dim);
        fn float_mean_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Mean, tensor, dim);
        fn float_prod_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Prod, tensor, dim);
        fn float_max_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Max, tensor, dim);
        fn float_min_dim(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::Min, tensor, dim);
        fn float_argmax(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::ArgMax, tensor, dim);
        fn float_argmin(tensor: T, dim: usize) -> T => reduce_dim(ReduceOp::ArgMin, tensor, dim);

        fn float_cumsum(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Sum, tensor, dim);
        fn float_cumprod(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Prod, tensor, dim);
        fn float_cummin(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Min, tensor, dim);
        fn float_cummax(tensor: T, dim: usize) -> T => kernel::scan(ScanOp::Max, tensor, dim);
    }

    // The value operand is converted to the tensor's dtype, as the result keeps that dtype.
    fn float_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        let value = kernel::cast(value, tensor.dtype());
        kernel::slice_assign(tensor, slices, value)
    }
    fn float_scatter(dim: usize, tensor: T, indices: T, value: T, update: IndexingUpdateOp) -> T {
        let value = kernel::cast(value, tensor.dtype());
        kernel::scatter(dim, tensor, indices, value, update)
    }
    fn float_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        let value = kernel::cast(value, tensor.dtype());
        kernel::select_add(tensor, dim, indices, value, IndexingUpdateOp::Add)
    }
    fn float_mask_where(tensor: T, mask: T, value: T) -> T {
        let value = kernel::cast(value, tensor.dtype());
        kernel::mask_where(tensor, mask, value)
    }

    delegate! {
        fn float_equal(lhs: T, rhs: T) -> T => compare(CompareOp::Equal, lhs, rhs);
        fn float_not_equal(lhs: T, rhs: T) -> T => compare(CompareOp::NotEqual, lhs, rhs);
        fn float_greater(lhs: T, rhs: T) -> T => compare(CompareOp::Greater, lhs, rhs);
        fn float_greater_equal(lhs: T, rhs: T) -> T => compare(CompareOp::GreaterEqual, lhs, rhs);
        fn float_lower(lhs: T, rhs: T) -> T => compare(CompareOp::Lower, lhs, rhs);
        fn float_lower_equal(lhs: T, rhs: T) -> T => compare(CompareOp::LowerEqual, lhs, rhs);
        fn float_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::Equal, lhs, rhs);
        fn float_not_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::NotEqual, lhs, rhs);
        fn float_greater_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::Greater, lhs, rhs);
        fn float_greater_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::GreaterEqual, lhs, rhs);
        fn float_lower_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::Lower, lhs, rhs);
        fn float_lower_equal_elem(lhs: T, rhs: Scalar) -> T => compare_scalar(CompareOp::LowerEqual, lhs, rhs);
    }

    fn float_clamp_min(tensor: T, min: Scalar) -> T {
        kernel::binary_scalar(BinaryOp::Max, tensor, min)
    }
    fn float_clamp_max(tensor: T, max: Scalar) -> T {
        kernel::binary_scalar(BinaryOp::Min, tensor, max)
    }
    fn float_clamp(tensor: T, min: Scalar, max: Scalar) -> T {
        let low = kernel::binary_scalar(BinaryOp::Max, tensor, min);
        kernel::binary_scalar(BinaryOp::Min, low, max)
    }
    fn float_is_nan(tensor: T) -> T {
        // NaN is the one value not equal to itself.
        let other = tensor.clone();
        compare(CompareOp::NotEqual, tensor, other)
    }
    fn float_sort(tensor: T, dim: usize, descending: bool) -> T {
        kernel::sort(tensor, dim, descending)
    }
    fn float_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        let index = int_dtype(&tensor);
        kernel::sort_with_indices(tensor, dim, descending, index)
    }
    fn float_argsort(tensor: T, dim: usize, descending: bool) -> T {
        let index = int_dtype(&tensor);
        kernel::argsort(tensor, dim, descending, index)
    }
}

/// `op(lhs, rhs)` with float operands promoted to the wider dtype.
fn binary_promoted(op: BinaryOp, lhs: T, rhs: T) -> T {
    let (l, r) = promote(lhs, rhs);
    kernel::binary(op, l, r)
}

/// A comparison of two tensors (float operands promoted to the wider dtype), as the device's
/// bool dtype.
pub(super) fn compare(op: CompareOp, lhs: T, rhs: T) -> T {
    let (l, r) = promote(lhs, rhs);
    let out = bool_dtype(&l);
    kernel::compare(op, l, r, out)
}

/// A comparison with a scalar, as the device's bool dtype.
pub(super) fn compare_scalar(op: CompareOp, lhs: T, rhs: Scalar) -> T {
    let out = bool_dtype(&lhs);
    kernel::compare_scalar(op, lhs, rhs, out)
}
