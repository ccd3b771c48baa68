//! `cast`: converting a tensor to another dtype, of its own kind or another (Burn's `Cast`).
//!
//! The target picks the result's kind: a float dtype gives a float tensor, an int dtype an int
//! tensor, whatever the input's kind; a plain [`DType`] keeps the input's kind.

use super::check;
use crate::kind::Basic;
use crate::{Bool, Float, Int, Tensor};
use burn_backend::ops::{BoolTensorOps, FloatTensorOps, IntTensorOps};
use burn_backend::{DType, FloatDType, IntDType};
use burn_dispatch::Dispatch;

/// A dtype a tensor of kind `K` can be cast to, and the kind of the result.
pub trait Cast<const D: usize, K: Basic> {
    /// The kind of the cast tensor.
    type OutputKind: Basic;

    /// `tensor` converted to `dtype`.
    fn cast(tensor: Tensor<D, K>, dtype: Self) -> Tensor<D, Self::OutputKind>;
}

/// Panics naming `cast` when the tensor's device cannot hold `dtype`.
fn check_supported<const D: usize, K: Basic>(tensor: &Tensor<D, K>, dtype: DType) {
    if !tensor.device().supports_dtype(dtype) {
        check::fail("cast", format_args!("the device does not support {dtype}"));
    }
}

impl<const D: usize> Cast<D, Float> for FloatDType {
    type OutputKind = Float;
    fn cast(tensor: Tensor<D, Float>, dtype: Self) -> Tensor<D, Float> {
        check_supported(&tensor, dtype.into());
        if tensor.dtype() == DType::from(dtype) {
            return tensor;
        }
        Tensor::from_primitive(Dispatch::float_cast(tensor.into_primitive(), dtype))
    }
}

impl<const D: usize> Cast<D, Float> for IntDType {
    type OutputKind = Int;
    fn cast(tensor: Tensor<D, Float>, dtype: Self) -> Tensor<D, Int> {
        check_supported(&tensor, dtype.into());
        Tensor::from_primitive(Dispatch::float_into_int(tensor.into_primitive(), dtype))
    }
}

impl<const D: usize> Cast<D, Float> for DType {
    type OutputKind = Float;
    fn cast(tensor: Tensor<D, Float>, dtype: Self) -> Tensor<D, Float> {
        match FloatDType::try_from_dtype(dtype) {
            Some(dtype) => <FloatDType as Cast<D, Float>>::cast(tensor, dtype),
            None => check::fail(
                "cast",
                format_args!(
                    "a float tensor casts to a float dtype with a DType, got {dtype} (pass an IntDType to change kind)"
                ),
            ),
        }
    }
}

impl<const D: usize> Cast<D, Int> for IntDType {
    type OutputKind = Int;
    fn cast(tensor: Tensor<D, Int>, dtype: Self) -> Tensor<D, Int> {
        check_supported(&tensor, dtype.into());
        if tensor.dtype() == DType::from(dtype) {
            return tensor;
        }
        Tensor::from_primitive(Dispatch::int_cast(tensor.into_primitive(), dtype))
    }
}

impl<const D: usize> Cast<D, Int> for FloatDType {
    type OutputKind = Float;
    fn cast(tensor: Tensor<D, Int>, dtype: Self) -> Tensor<D, Float> {
        check_supported(&tensor, dtype.into());
        Tensor::from_primitive(Dispatch::int_into_float(tensor.into_primitive(), dtype))
    }
}

impl<const D: usize> Cast<D, Int> for DType {
    type OutputKind = Int;
    fn cast(tensor: Tensor<D, Int>, dtype: Self) -> Tensor<D, Int> {
        match IntDType::try_from_dtype(dtype) {
            Some(dtype) => <IntDType as Cast<D, Int>>::cast(tensor, dtype),
            None => check::fail(
                "cast",
                format_args!(
                    "an int tensor casts to an int dtype with a DType, got {dtype} (pass a FloatDType to change kind)"
                ),
            ),
        }
    }
}

impl<const D: usize> Cast<D, Bool> for IntDType {
    type OutputKind = Int;
    fn cast(tensor: Tensor<D, Bool>, dtype: Self) -> Tensor<D, Int> {
        check_supported(&tensor, dtype.into());
        Tensor::from_primitive(Dispatch::bool_into_int(tensor.into_primitive(), dtype))
    }
}

impl<const D: usize> Cast<D, Bool> for FloatDType {
    type OutputKind = Float;
    fn cast(tensor: Tensor<D, Bool>, dtype: Self) -> Tensor<D, Float> {
        check_supported(&tensor, dtype.into());
        Tensor::from_primitive(Dispatch::bool_into_float(tensor.into_primitive(), dtype))
    }
}

impl<const D: usize> Tensor<D, Float> {
    /// The values converted to `dtype`: another float dtype, or an int dtype (truncating toward
    /// zero, giving an int tensor).
    ///
    /// ```
    /// use burn_tensor::{Device, FloatDType, IntDType, Tensor};
    ///
    /// let x = Tensor::<1>::from_data([1.5, -2.5], &Device::default());
    /// assert_eq!(x.clone().cast(FloatDType::F64).dtype(), FloatDType::F64.into());
    /// let ints = x.cast(IntDType::I32);
    /// assert_eq!(ints.into_data().to_vec::<i32>().unwrap(), [1, -2]);
    /// ```
    pub fn cast<T: Cast<D, Float>>(self, dtype: T) -> Tensor<D, T::OutputKind> {
        T::cast(self, dtype)
    }
}

impl<const D: usize> Tensor<D, Int> {
    /// The values converted to `dtype`: another int dtype (`as` semantics), or a float dtype
    /// (giving a float tensor).
    pub fn cast<T: Cast<D, Int>>(self, dtype: T) -> Tensor<D, T::OutputKind> {
        T::cast(self, dtype)
    }
}

impl<const D: usize> Tensor<D, Bool> {
    /// The values as 1 and 0 of an int or float `dtype`.
    pub fn cast<T: Cast<D, Bool>>(self, dtype: T) -> Tensor<D, T::OutputKind> {
        T::cast(self, dtype)
    }
}
