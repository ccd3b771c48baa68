//! `FloatTensorOps` for Flex.

use super::{Flex, FlexDevice, float_dtype, float_like, int_dtype, promote};
use crate::FlexTensor;
use crate::fuse::{self, Binary, Unary};
use crate::ops::reduce::LineReduce;
use crate::ops::{
    binary, compare, creation, index, mask, matmul, random, reduce, scan, shape, sort, unary,
};
use burn_backend::ops::FloatTensorOps;
use burn_backend::{
    Distribution, ExecutionError, FloatDType, IndexingUpdateOp, IntDType, Scalar, Shape, Slice,
    TensorData,
};

type T = FlexTensor;

/// Float operations that [`fuse`] may defer, each with its eager form for when it does not.
macro_rules! fused {
    (
        binary { $($bname:ident => $bop:ident, $beager:path;)* }
        scalar { $($sname:ident => $sop:ident, $seager:path;)* }
        reduce { $($rname:ident => $rop:ident, $reager:path;)* }
        unary { $($uname:ident => $uop:ident, $ueager:path;)* }
    ) => {
        $(fn $bname(lhs: T, rhs: T) -> T {
            let (l, r) = promote(lhs, rhs);
            fuse::binary(Binary::$bop, l, r).unwrap_or_else(|(l, r)| $beager(l, r))
        })*
        $(fn $sname(lhs: T, rhs: Scalar) -> T {
            fuse::scalar(Binary::$sop, lhs, rhs).unwrap_or_else(|t| $seager(t, rhs))
        })*
        $(fn $rname(tensor: T, dim: usize) -> T {
            fuse::reduce(LineReduce::$rop, tensor, dim).unwrap_or_else(|t| $reager(t, dim))
        })*
        $(fn $uname(tensor: T) -> T {
            fuse::unary(Unary::$uop, tensor).unwrap_or_else($ueager)
        })*
    };
}

impl FloatTensorOps<Flex> for Flex {
    fn float_from_data(data: TensorData, _device: &FlexDevice) -> T {
        let tensor = FlexTensor::from_data(data);
        if tensor.dtype().is_float() {
            tensor
        } else {
            creation::cast(tensor, float_dtype())
        }
    }
    fn float_random(
        shape: Shape,
        distribution: Distribution,
        _device: &FlexDevice,
        dtype: FloatDType,
    ) -> T {
        random::random(shape, distribution, dtype.into())
    }
    fn float_empty(shape: Shape, _device: &FlexDevice, dtype: FloatDType) -> T {
        creation::empty(shape, dtype.into())
    }
    async fn float_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        Ok(tensor.into_data())
    }
    fn float_device(_tensor: &T) -> FlexDevice {
        FlexDevice
    }
    fn float_to_device(tensor: T, _device: &FlexDevice) -> T {
        tensor
    }
    fn float_into_int(tensor: T, out_dtype: IntDType) -> T {
        creation::cast(tensor, out_dtype.into())
    }
    fn float_cast(tensor: T, dtype: FloatDType) -> T {
        creation::cast(tensor, dtype.into())
    }

    fused! {
        binary {
            float_add => Add, binary::add;
            float_sub => Sub, binary::sub;
            float_mul => Mul, binary::mul;
            float_div => Div, binary::div;
        }
        scalar {
            float_add_scalar => Add, binary::add_scalar;
            float_sub_scalar => Sub, binary::sub_scalar;
            float_mul_scalar => Mul, binary::mul_scalar;
            float_div_scalar => Div, binary::div_scalar;
        }
        reduce {
            float_sum_dim => Sum, reduce::sum_dim;
            float_mean_dim => Mean, reduce::mean_dim;
            float_max_dim => Max, reduce::max_dim;
            float_min_dim => Min, reduce::min_dim;
        }
        unary {
            float_exp => Exp, unary::exp;
            float_log => Log, unary::log;
            float_neg => Neg, unary::neg;
            float_abs => Abs, unary::abs;
            float_sqrt => Sqrt, unary::sqrt;
            float_recip => Recip, unary::recip;
            float_tanh => Tanh, unary::tanh;
        }
    }
    delegate! {
        fn float_remainder_scalar(lhs: T, rhs: Scalar) -> T => binary::remainder_scalar;
        fn float_powf_scalar(lhs: T, rhs: Scalar) -> T => unary::powf_scalar;
        fn float_log1p(tensor: T) -> T => unary::log1p;
        fn float_cos(tensor: T) -> T => unary::cos;
        fn float_sin(tensor: T) -> T => unary::sin;
        fn float_erf(tensor: T) -> T => unary::erf;
        fn float_round(tensor: T) -> T => unary::round;
        fn float_floor(tensor: T) -> T => unary::floor;
        fn float_ceil(tensor: T) -> T => unary::ceil;
        fn float_trunc(tensor: T) -> T => unary::trunc;
        fn float_gather(dim: usize, tensor: T, indices: T) -> T => index::gather;
        fn float_select(tensor: T, dim: usize, indices: T) -> T => index::select;
        fn float_mask_fill(tensor: T, mask: T, value: Scalar) -> T => mask::mask_fill;
        fn float_equal_elem(lhs: T, rhs: Scalar) -> T => compare::equal_elem;
        fn float_greater_elem(lhs: T, rhs: Scalar) -> T => compare::greater_elem;
        fn float_greater_equal_elem(lhs: T, rhs: Scalar) -> T => compare::greater_equal_elem;
        fn float_lower_elem(lhs: T, rhs: Scalar) -> T => compare::lower_elem;
        fn float_lower_equal_elem(lhs: T, rhs: Scalar) -> T => compare::lower_equal_elem;
        fn float_sum(tensor: T) -> T => reduce::sum;
        fn float_prod_dim(tensor: T, dim: usize) -> T => reduce::prod_dim;
        fn float_cumsum(tensor: T, dim: usize) -> T => scan::cumsum;
        fn float_cumprod(tensor: T, dim: usize) -> T => scan::cumprod;
        fn float_cummin(tensor: T, dim: usize) -> T => scan::cummin;
        fn float_cummax(tensor: T, dim: usize) -> T => scan::cummax;
        fn float_powi(lhs: T, rhs: T) -> T => binary::powi;
        fn float_powi_scalar(lhs: T, rhs: Scalar) -> T => unary::powi_scalar;
        fn float_tan(tensor: T) -> T => unary::tan;
        fn float_cosh(tensor: T) -> T => unary::cosh;
        fn float_sinh(tensor: T) -> T => unary::sinh;
        fn float_asin(tensor: T) -> T => unary::asin;
        fn float_acos(tensor: T) -> T => unary::acos;
        fn float_atan(tensor: T) -> T => unary::atan;
        fn float_asinh(tensor: T) -> T => unary::asinh;
        fn float_acosh(tensor: T) -> T => unary::acosh;
        fn float_atanh(tensor: T) -> T => unary::atanh;
        fn float_sign(tensor: T) -> T => unary::sign;
        fn float_is_nan(tensor: T) -> T => unary::is_nan;
        fn float_is_inf(tensor: T) -> T => unary::is_inf;
        fn float_clamp_min(tensor: T, min: Scalar) -> T => unary::clamp_min;
        fn float_clamp_max(tensor: T, max: Scalar) -> T => unary::clamp_max;
        fn float_clamp(tensor: T, min: Scalar, max: Scalar) -> T => unary::clamp;
        fn float_not_equal_elem(lhs: T, rhs: Scalar) -> T => compare::not_equal_elem;
        fn float_repeat_dim(tensor: T, dim: usize, times: usize) -> T => shape::repeat_dim;
        fn float_mean(tensor: T) -> T => reduce::mean;
        fn float_prod(tensor: T) -> T => reduce::prod;
        fn float_max(tensor: T) -> T => reduce::max;
        fn float_min(tensor: T) -> T => reduce::min;
        fn float_any(tensor: T) -> T => reduce::any;
        fn float_any_dim(tensor: T, dim: usize) -> T => reduce::any_dim;
        fn float_all(tensor: T) -> T => reduce::all;
        fn float_all_dim(tensor: T, dim: usize) -> T => reduce::all_dim;
        fn float_sort(tensor: T, dim: usize, descending: bool) -> T => sort::sort;
    }
    fn float_remainder(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        binary::remainder(l, r)
    }
    fn float_powf(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        binary::powf(l, r)
    }
    fn float_matmul(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        matmul::matmul(l, r)
    }

    fn float_swap_dims(tensor: T, dim1: usize, dim2: usize) -> T {
        tensor.swap_dims(dim1, dim2)
    }
    fn float_permute(tensor: T, axes: &[usize]) -> T {
        tensor.permute(axes)
    }
    fn float_flip(tensor: T, axes: &[usize]) -> T {
        tensor.flip(axes)
    }
    fn float_reshape(tensor: T, shape: Shape) -> T {
        tensor.reshape(shape)
    }
    fn float_expand(tensor: T, shape: Shape) -> T {
        tensor.expand(shape)
    }
    fn float_slice(tensor: T, slices: &[Slice]) -> T {
        tensor.slice(slices)
    }
    fn float_slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
        let value = float_like(value, tensor.dtype());
        shape::slice_assign(tensor, slices, value)
    }

    fn float_scatter(dim: usize, tensor: T, indices: T, value: T, update: IndexingUpdateOp) -> T {
        let value = float_like(value, tensor.dtype());
        index::scatter(dim, tensor, indices, value, update)
    }
    fn float_select_add(tensor: T, dim: usize, indices: T, value: T) -> T {
        let value = float_like(value, tensor.dtype());
        index::select_assign(tensor, dim, indices, value, IndexingUpdateOp::Add)
    }
    fn float_mask_where(tensor: T, mask: T, value: T) -> T {
        let value = float_like(value, tensor.dtype());
        mask::mask_where(tensor, mask, value)
    }

    fn float_equal(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        compare::equal(l, r)
    }
    fn float_greater(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        compare::greater(l, r)
    }
    fn float_greater_equal(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        compare::greater_equal(l, r)
    }
    fn float_lower(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        compare::lower(l, r)
    }
    fn float_lower_equal(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        compare::lower_equal(l, r)
    }

    fn float_argmax(tensor: T, dim: usize) -> T {
        reduce::argmax(tensor, dim, int_dtype())
    }
    fn float_argmin(tensor: T, dim: usize) -> T {
        reduce::argmin(tensor, dim, int_dtype())
    }

    // ---- overrides of default bodies --------------------------------------------------------

    fn float_full(shape: Shape, value: Scalar, _device: &FlexDevice, dtype: FloatDType) -> T {
        creation::full(shape, value, dtype.into())
    }
    fn float_zeros(shape: Shape, _device: &FlexDevice, dtype: FloatDType) -> T {
        creation::zeros(shape, dtype.into())
    }
    fn float_ones(shape: Shape, _device: &FlexDevice, dtype: FloatDType) -> T {
        creation::ones(shape, dtype.into())
    }
    fn float_atan2(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        binary::atan2(l, r)
    }
    fn float_hypot(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        binary::hypot(l, r)
    }
    fn float_not_equal(lhs: T, rhs: T) -> T {
        let (l, r) = promote(lhs, rhs);
        compare::not_equal(l, r)
    }
    fn float_transpose(tensor: T) -> T {
        tensor.transpose()
    }
    fn float_cat(tensors: Vec<T>, dim: usize) -> T {
        let dtype = tensors
            .first()
            .expect("float_cat: expected at least one tensor, got none")
            .dtype();
        shape::cat(
            tensors.into_iter().map(|t| float_like(t, dtype)).collect(),
            dim,
        )
    }
    fn float_max_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        reduce::max_dim_with_indices(tensor, dim, int_dtype())
    }
    fn float_min_dim_with_indices(tensor: T, dim: usize) -> (T, T) {
        reduce::min_dim_with_indices(tensor, dim, int_dtype())
    }
    fn float_max_abs(tensor: T) -> T {
        reduce::max(unary::abs(tensor))
    }
    fn float_max_abs_dim(tensor: T, dim: usize) -> T {
        reduce::max_dim(unary::abs(tensor), dim)
    }
    fn float_sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) {
        sort::sort_with_indices(tensor, dim, descending, int_dtype())
    }
    fn float_topk_with_indices(tensor: T, k: usize, dim: usize) -> (T, T) {
        sort::topk_with_indices(tensor, k, dim, int_dtype())
    }
    fn float_argsort(tensor: T, dim: usize, descending: bool) -> T {
        sort::argsort(tensor, dim, descending, int_dtype())
    }
}

#[cfg(test)]
mod tests {
    use super::super::BOOL;
    use super::*;
    use burn_backend::read_sync;

    fn data(t: T) -> Vec<f32> {
        read_sync(Flex::float_into_data(t))
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
    }

    #[test]
    fn float_ops_through_the_trait() {
        let a = Flex::float_from_data(TensorData::from([[1.0f32, -2.0], [3.0, 4.0]]), &FlexDevice);
        let b = Flex::float_from_data(TensorData::from([10.0f32, 20.0]), &FlexDevice);
        assert_eq!(
            data(Flex::float_add(a.clone(), b)),
            vec![11.0, 18.0, 13.0, 24.0]
        );
        let t = Flex::float_transpose(a.clone());
        assert_eq!(
            data(Flex::float_matmul(a.clone(), t)),
            vec![5.0, -5.0, -5.0, 25.0]
        );
        let (v, i) = Flex::float_max_dim_with_indices(a.clone(), 1);
        assert_eq!(data(v), vec![1.0, 4.0]);
        assert_eq!(i.dtype(), int_dtype());
        let s = Flex::float_sum_dim(a.clone(), 0);
        assert_eq!(s.shape().dims.to_vec(), vec![1, 2]);
        assert_eq!(data(s), vec![4.0, 2.0]);
        let m = Flex::float_lower_elem(a.clone(), 0.0.into());
        assert_eq!(m.dtype(), BOOL);
        assert_eq!(
            data(Flex::float_mask_fill(a.clone(), m, 0.0.into())),
            vec![1.0, 0.0, 3.0, 4.0]
        );
        let c = Flex::float_cat(vec![a.clone(), a.clone()], 0);
        assert_eq!(c.shape().dims.to_vec(), vec![4, 2]);
        let wide = Flex::float_cast(a.clone(), FloatDType::F64);
        assert_eq!(Flex::float_add(a, wide).dtype(), burn_backend::DType::F64);
    }

    #[test]
    fn hypot_kernel_matches_the_contract_default() {
        // Broadcast [2, 3] against [3], with zeros, signs, an infinity against a NaN, and
        // values whose squares overflow f32.
        let inf = f32::INFINITY;
        let a = [[3.0f32, 0.0, -5.0], [3e30, inf, 1e-30]];
        let b = [4.0f32, 0.0, f32::NAN];
        let lhs = Flex::float_from_data(TensorData::from(a), &FlexDevice);
        let rhs = Flex::float_from_data(TensorData::from(b), &FlexDevice);
        let kernel = data(Flex::float_hypot(lhs.clone(), rhs.clone()));
        let default = data(burn_backend::ops::float_hypot_fallback::<Flex>(lhs, rhs));
        let expected: Vec<f32> = a
            .iter()
            .flat_map(|row| row.iter().zip(b).map(|(x, y)| x.hypot(y)))
            .collect();
        for ((k, d), e) in kernel.iter().zip(&default).zip(&expected) {
            let close =
                |x: f32| (x.is_nan() && e.is_nan()) || x == *e || (x - e).abs() <= 1e-6 * e.abs();
            assert!(
                close(*k) && close(*d),
                "hypot: kernel {k}, default {d}, expected {e}"
            );
        }
    }
}
