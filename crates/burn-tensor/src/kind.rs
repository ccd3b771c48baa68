//! Tensor kinds (`Float`, `Int`, `Bool`), the table that maps each kind-generic operation to
//! the backend operation of each kind (`BasicOps`, `NumericOps`), and the bounds `Tensor`'s
//! methods are written with, as Burn names them: [`Basic`] (every kind), [`Numeric`] and
//! [`Ordered`] (`Float`, `Int`), [`FloatMath`] and [`Autodiff`] (`Float`).

use crate::BridgeTensor;
use burn_backend::ops::{BoolTensorOps, FloatTensorOps, IntTensorOps};
use burn_backend::{
    DType, DeviceSettings, ExecutionError, IndexingUpdateOp, Scalar, Shape, Slice, TensorData,
};
use burn_backend::{FloatDType, IntDType, TensorMetadata};
use burn_dispatch::{Dispatch, DispatchDevice, DispatchTensor};

type B = Dispatch;
use core::future::Future;

/// Which kind a tensor is, as a value ([`TensorKind::KIND`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Float tensors.
    Float,
    /// Integer tensors.
    Int,
    /// Boolean tensors.
    Bool,
}

impl Kind {
    /// The kind's name: `"Float"`, `"Int"` or `"Bool"`.
    pub fn as_str(&self) -> &'static str {
        kind_name(*self)
    }
}

/// [`Kind::as_str`] in constant contexts (`TensorKind::NAME`).
const fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::Float => "Float",
        Kind::Int => "Int",
        Kind::Bool => "Bool",
    }
}

/// The kind of float tensors (the default kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Float;

/// The kind of integer tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Int;

/// The kind of boolean tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Bool;

type T = DispatchTensor;
type D = DispatchDevice;

/// What every kind provides; implemented by [`Float`], [`Int`] and [`Bool`].
pub trait TensorKind: Clone + Copy + core::fmt::Debug + Default + Send + Sync + 'static {
    /// Which kind this is.
    const KIND: Kind;
    /// The kind's name, for messages.
    const NAME: &'static str = kind_name(Self::KIND);
    /// The kind's name: `"Float"`, `"Int"` or `"Bool"`.
    fn name() -> &'static str {
        Self::KIND.as_str()
    }
    /// Whether `dtype` belongs to this kind.
    fn accepts(dtype: DType) -> bool;
    /// The kind's default dtype under `settings`.
    fn default_dtype(settings: &DeviceSettings) -> DType;
    /// Tags a dispatch tensor of this kind.
    fn bridge(tensor: T) -> BridgeTensor;
    /// A tensor with unspecified values.
    fn empty(shape: Shape, device: &D, dtype: DType) -> T;
    /// A tensor filled with `value`.
    fn full(shape: Shape, value: Scalar, device: &D, dtype: DType) -> T;
    /// Reads the values back to the host.
    fn into_data_async(
        tensor: T,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send;
}

impl TensorKind for Float {
    const KIND: Kind = Kind::Float;
    #[inline]
    fn bridge(tensor: T) -> BridgeTensor {
        if matches!(tensor.dtype(), DType::QFloat(_)) {
            BridgeTensor::QFloat(tensor)
        } else {
            BridgeTensor::Float(tensor)
        }
    }
    fn empty(shape: Shape, device: &D, dtype: DType) -> T {
        B::float_empty(shape, device, float_of(dtype, device))
    }
    fn full(shape: Shape, value: Scalar, device: &D, dtype: DType) -> T {
        B::float_full(shape, value, device, float_of(dtype, device))
    }
    fn into_data_async(
        tensor: T,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        B::float_into_data(tensor)
    }
    fn accepts(dtype: DType) -> bool {
        dtype.is_float() || matches!(dtype, DType::QFloat(_))
    }
    fn default_dtype(settings: &DeviceSettings) -> DType {
        settings.float_dtype.into()
    }
}

/// The float dtype new values of `dtype` take: itself, or for a quantized dtype (`zeros_like`
/// of a quantized tensor) the device's default float dtype.
fn float_of(dtype: DType, device: &D) -> FloatDType {
    match dtype {
        DType::QFloat(_) => burn_backend::get_device_settings::<B>(device).float_dtype,
        other => FloatDType::from_dtype(other),
    }
}

impl TensorKind for Int {
    const KIND: Kind = Kind::Int;
    fn bridge(tensor: T) -> BridgeTensor {
        BridgeTensor::Int(tensor)
    }
    fn empty(shape: Shape, device: &D, dtype: DType) -> T {
        B::int_empty(shape, device, IntDType::from_dtype(dtype))
    }
    fn full(shape: Shape, value: Scalar, device: &D, dtype: DType) -> T {
        B::int_full(shape, value, device, IntDType::from_dtype(dtype))
    }
    fn into_data_async(
        tensor: T,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        B::int_into_data(tensor)
    }
    fn accepts(dtype: DType) -> bool {
        dtype.is_int()
    }
    fn default_dtype(settings: &DeviceSettings) -> DType {
        settings.int_dtype.into()
    }
}

impl TensorKind for Bool {
    const KIND: Kind = Kind::Bool;
    fn bridge(tensor: T) -> BridgeTensor {
        BridgeTensor::Bool(tensor)
    }
    fn empty(shape: Shape, device: &D, dtype: DType) -> T {
        B::bool_empty(shape, device, dtype)
    }
    fn full(shape: Shape, value: Scalar, device: &D, dtype: DType) -> T {
        if value.to_bool() {
            B::bool_ones(shape, device, dtype)
        } else {
            B::bool_zeros(shape, device, dtype)
        }
    }
    fn into_data_async(
        tensor: T,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        B::bool_into_data(tensor)
    }
    fn accepts(dtype: DType) -> bool {
        dtype.is_bool()
    }
    fn default_dtype(settings: &DeviceSettings) -> DType {
        settings.bool_dtype
    }
}

/// Generates a trait from a table of operations and its impl for each listed kind, each method
/// forwarding to the backend op named in that kind's column.
macro_rules! kind_table {
    (
        $(#[$trait_meta:meta])*
        pub trait $trait:ident: $super:ident for [$($kind:ident),*] {
            $(
                $(#[$meta:meta])*
                fn $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => [$($backend_op:ident),*];
            )*
        }
    ) => {
        $(#[$trait_meta])*
        pub trait $trait: $super {
            $(
                $(#[$meta])*
                fn $name($($arg: $ty),*) -> $ret;
            )*
        }
        kind_table!(@impls $trait [$($kind),*] $( $name ($($arg: $ty),*) -> $ret => [$($backend_op),*]; )*);
    };
    (@impls $trait:ident [] $($rest:tt)*) => {};
    (@impls $trait:ident [$kind:ident $(, $kinds:ident)*]
        $( $name:ident ($($arg:ident: $ty:ty),*) -> $ret:ty => [$op:ident $(, $ops:ident)*]; )*
    ) => {
        impl $trait for $kind {
            $(
                fn $name($($arg: $ty),*) -> $ret {
                    Dispatch::$op($($arg),*)
                }
            )*
        }
        kind_table!(@impls $trait [$($kinds),*] $( $name ($($arg: $ty),*) -> $ret => [$($ops),*]; )*);
    };
}

kind_table! {
    /// Operations every kind has; the `Tensor` methods of all kinds are built on them.
    pub trait BasicOps: TensorKind for [Float, Int, Bool] {
        /// A tensor holding `data` on `device`.
        fn from_data(data: TensorData, device: &D) -> T => [float_from_data, int_from_data, bool_from_data];
        /// The device of the tensor.
        fn device(tensor: &T) -> D => [float_device, int_device, bool_device];
        /// The tensor moved to `device`.
        fn to_device(tensor: T, device: &D) -> T => [float_to_device, int_to_device, bool_to_device];
        /// Another shape of as many elements.
        fn reshape(tensor: T, shape: Shape) -> T => [float_reshape, int_reshape, bool_reshape];
        /// Exchanges two dims.
        fn swap_dims(tensor: T, dim1: usize, dim2: usize) -> T => [float_swap_dims, int_swap_dims, bool_swap_dims];
        /// Reorders the dims.
        fn permute(tensor: T, axes: &[usize]) -> T => [float_permute, int_permute, bool_permute];
        /// Reverses along axes.
        fn flip(tensor: T, axes: &[usize]) -> T => [float_flip, int_flip, bool_flip];
        /// Broadcasts to a shape.
        fn expand(tensor: T, shape: Shape) -> T => [float_expand, int_expand, bool_expand];
        /// A sub-tensor.
        fn slice(tensor: T, slices: &[Slice]) -> T => [float_slice, int_slice, bool_slice];
        /// Replaces a sub-tensor.
        fn slice_assign(tensor: T, slices: &[Slice], value: T) -> T => [float_slice_assign, int_slice_assign, bool_slice_assign];
        /// Concatenates along a dim.
        fn cat(tensors: Vec<T>, dim: usize) -> T => [float_cat, int_cat, bool_cat];
        /// Repeats along a dim.
        fn repeat_dim(tensor: T, dim: usize, times: usize) -> T => [float_repeat_dim, int_repeat_dim, bool_repeat_dim];
        /// Element-wise equality.
        fn equal(lhs: T, rhs: T) -> T => [float_equal, int_equal, bool_equal];
        /// Element-wise inequality.
        fn not_equal(lhs: T, rhs: T) -> T => [float_not_equal, int_not_equal, bool_not_equal];
        /// Equality with a scalar.
        fn equal_elem(lhs: T, rhs: Scalar) -> T => [float_equal_elem, int_equal_elem, bool_equal_elem];
        /// Slices at indices along a dim.
        fn select(tensor: T, dim: usize, indices: T) -> T => [float_select, int_select, bool_select];
        /// Gathers along a dim.
        fn gather(dim: usize, tensor: T, indices: T) -> T => [float_gather, int_gather, bool_gather];
        /// `value` where `mask`, else `tensor`.
        fn mask_where(tensor: T, mask: T, value: T) -> T => [float_mask_where, int_mask_where, bool_mask_where];
        /// A scalar where `mask`, else `tensor`.
        fn mask_fill(tensor: T, mask: T, value: Scalar) -> T => [float_mask_fill, int_mask_fill, bool_mask_fill];
        /// Whether any element is non-zero / true.
        fn any(tensor: T) -> T => [float_any, int_any, bool_any];
        /// Whether any element along a dim is non-zero / true.
        fn any_dim(tensor: T, dim: usize) -> T => [float_any_dim, int_any_dim, bool_any_dim];
        /// Whether every element is non-zero / true.
        fn all(tensor: T) -> T => [float_all, int_all, bool_all];
        /// Whether every element along a dim is non-zero / true.
        fn all_dim(tensor: T, dim: usize) -> T => [float_all_dim, int_all_dim, bool_all_dim];
    }
}

kind_table! {
    /// Operations of the numeric kinds (`Float` and `Int`).
    pub trait NumericOps: BasicOps for [Float, Int] {
        /// `lhs + rhs`.
        fn add(lhs: T, rhs: T) -> T => [float_add, int_add];
        /// `lhs + scalar`.
        fn add_scalar(lhs: T, rhs: Scalar) -> T => [float_add_scalar, int_add_scalar];
        /// `lhs - rhs`.
        fn sub(lhs: T, rhs: T) -> T => [float_sub, int_sub];
        /// `lhs - scalar`.
        fn sub_scalar(lhs: T, rhs: Scalar) -> T => [float_sub_scalar, int_sub_scalar];
        /// `lhs * rhs`.
        fn mul(lhs: T, rhs: T) -> T => [float_mul, int_mul];
        /// `lhs * scalar`.
        fn mul_scalar(lhs: T, rhs: Scalar) -> T => [float_mul_scalar, int_mul_scalar];
        /// `lhs / rhs`.
        fn div(lhs: T, rhs: T) -> T => [float_div, int_div];
        /// `lhs / scalar`.
        fn div_scalar(lhs: T, rhs: Scalar) -> T => [float_div_scalar, int_div_scalar];
        /// Remainder with the divisor's sign.
        fn remainder(lhs: T, rhs: T) -> T => [float_remainder, int_remainder];
        /// Remainder by a scalar.
        fn remainder_scalar(lhs: T, rhs: Scalar) -> T => [float_remainder_scalar, int_remainder_scalar];
        /// `-x`.
        fn neg(tensor: T) -> T => [float_neg, int_neg];
        /// `|x|`.
        fn abs(tensor: T) -> T => [float_abs, int_abs];
        /// The sign.
        fn sign(tensor: T) -> T => [float_sign, int_sign];
        /// Matrix product.
        fn matmul(lhs: T, rhs: T) -> T => [float_matmul, int_matmul];
        /// `x ^ y` element-wise: integer powers for ints, `powf` for floats (as Burn's `powi`,
        /// whose float exponent tensor need not hold integers).
        fn powi(lhs: T, rhs: T) -> T => [float_powf, int_powi];
        /// `x ^ n` for an int scalar.
        fn powi_scalar(lhs: T, rhs: Scalar) -> T => [float_powi_scalar, int_powi_scalar];
        /// Clamp to a range.
        fn clamp(tensor: T, min: Scalar, max: Scalar) -> T => [float_clamp, int_clamp];
        /// Clamp from below.
        fn clamp_min(tensor: T, min: Scalar) -> T => [float_clamp_min, int_clamp_min];
        /// Clamp from above.
        fn clamp_max(tensor: T, max: Scalar) -> T => [float_clamp_max, int_clamp_max];
        /// `lhs > rhs`.
        fn greater(lhs: T, rhs: T) -> T => [float_greater, int_greater];
        /// `lhs > scalar`.
        fn greater_elem(lhs: T, rhs: Scalar) -> T => [float_greater_elem, int_greater_elem];
        /// `lhs >= rhs`.
        fn greater_equal(lhs: T, rhs: T) -> T => [float_greater_equal, int_greater_equal];
        /// `lhs >= scalar`.
        fn greater_equal_elem(lhs: T, rhs: Scalar) -> T => [float_greater_equal_elem, int_greater_equal_elem];
        /// `lhs < rhs`.
        fn lower(lhs: T, rhs: T) -> T => [float_lower, int_lower];
        /// `lhs < scalar`.
        fn lower_elem(lhs: T, rhs: Scalar) -> T => [float_lower_elem, int_lower_elem];
        /// `lhs <= rhs`.
        fn lower_equal(lhs: T, rhs: T) -> T => [float_lower_equal, int_lower_equal];
        /// `lhs <= scalar`.
        fn lower_equal_elem(lhs: T, rhs: Scalar) -> T => [float_lower_equal_elem, int_lower_equal_elem];
        /// Sum of all elements.
        fn sum(tensor: T) -> T => [float_sum, int_sum];
        /// Sum along a dim.
        fn sum_dim(tensor: T, dim: usize) -> T => [float_sum_dim, int_sum_dim];
        /// Product of all elements.
        fn prod(tensor: T) -> T => [float_prod, int_prod];
        /// Product along a dim.
        fn prod_dim(tensor: T, dim: usize) -> T => [float_prod_dim, int_prod_dim];
        /// Mean of all elements.
        fn mean(tensor: T) -> T => [float_mean, int_mean];
        /// Mean along a dim.
        fn mean_dim(tensor: T, dim: usize) -> T => [float_mean_dim, int_mean_dim];
        /// Largest element.
        fn max(tensor: T) -> T => [float_max, int_max];
        /// Largest along a dim.
        fn max_dim(tensor: T, dim: usize) -> T => [float_max_dim, int_max_dim];
        /// Largest along a dim and where.
        fn max_dim_with_indices(tensor: T, dim: usize) -> (T, T) => [float_max_dim_with_indices, int_max_dim_with_indices];
        /// Smallest element.
        fn min(tensor: T) -> T => [float_min, int_min];
        /// Smallest along a dim.
        fn min_dim(tensor: T, dim: usize) -> T => [float_min_dim, int_min_dim];
        /// Smallest along a dim and where.
        fn min_dim_with_indices(tensor: T, dim: usize) -> (T, T) => [float_min_dim_with_indices, int_min_dim_with_indices];
        /// Largest absolute value.
        fn max_abs(tensor: T) -> T => [float_max_abs, int_max_abs];
        /// Largest absolute value along a dim.
        fn max_abs_dim(tensor: T, dim: usize) -> T => [float_max_abs_dim, int_max_abs_dim];
        /// Index of the largest along a dim.
        fn argmax(tensor: T, dim: usize) -> T => [float_argmax, int_argmax];
        /// Index of the smallest along a dim.
        fn argmin(tensor: T, dim: usize) -> T => [float_argmin, int_argmin];
        /// Running sum.
        fn cumsum(tensor: T, dim: usize) -> T => [float_cumsum, int_cumsum];
        /// Running product.
        fn cumprod(tensor: T, dim: usize) -> T => [float_cumprod, int_cumprod];
        /// Running minimum.
        fn cummin(tensor: T, dim: usize) -> T => [float_cummin, int_cummin];
        /// Running maximum.
        fn cummax(tensor: T, dim: usize) -> T => [float_cummax, int_cummax];
        /// Sorted along a dim.
        fn sort(tensor: T, dim: usize, descending: bool) -> T => [float_sort, int_sort];
        /// Sorted along a dim, with the indices.
        fn sort_with_indices(tensor: T, dim: usize, descending: bool) -> (T, T) => [float_sort_with_indices, int_sort_with_indices];
        /// The indices that sort along a dim.
        fn argsort(tensor: T, dim: usize, descending: bool) -> T => [float_argsort, int_argsort];
        /// The `k` largest along a dim, largest first, with their indices.
        fn topk_with_indices(tensor: T, k: usize, dim: usize) -> (T, T) => [float_topk_with_indices, int_topk_with_indices];
        /// Combines values at indices along a dim.
        fn scatter(dim: usize, tensor: T, indices: T, value: T, update: IndexingUpdateOp) -> T => [float_scatter, int_scatter];
        /// Adds slices at indices along a dim.
        fn select_add(tensor: T, dim: usize, indices: T, value: T) -> T => [float_select_add, int_select_add];
    }
}

kind_table! {
    /// Float math (Burn's `FloatMathOps`): the operations behind [`FloatMath`]'s methods.
    pub trait FloatMathOps: NumericOps for [Float] {
        /// `e^x`.
        fn exp(tensor: T) -> T => [float_exp];
        /// Natural logarithm.
        fn log(tensor: T) -> T => [float_log];
        /// `ln(1 + x)`.
        fn log1p(tensor: T) -> T => [float_log1p];
        /// Square root.
        fn sqrt(tensor: T) -> T => [float_sqrt];
        /// Sine.
        fn sin(tensor: T) -> T => [float_sin];
        /// Cosine.
        fn cos(tensor: T) -> T => [float_cos];
        /// Tangent.
        fn tan(tensor: T) -> T => [float_tan];
        /// Hyperbolic sine.
        fn sinh(tensor: T) -> T => [float_sinh];
        /// Hyperbolic cosine.
        fn cosh(tensor: T) -> T => [float_cosh];
        /// Hyperbolic tangent.
        fn tanh(tensor: T) -> T => [float_tanh];
        /// Arc sine.
        fn asin(tensor: T) -> T => [float_asin];
        /// Arc cosine.
        fn acos(tensor: T) -> T => [float_acos];
        /// Arc tangent.
        fn atan(tensor: T) -> T => [float_atan];
        /// Inverse hyperbolic sine.
        fn asinh(tensor: T) -> T => [float_asinh];
        /// Inverse hyperbolic cosine.
        fn acosh(tensor: T) -> T => [float_acosh];
        /// Inverse hyperbolic tangent.
        fn atanh(tensor: T) -> T => [float_atanh];
        /// `atan2(lhs, rhs)`.
        fn atan2(lhs: T, rhs: T) -> T => [float_atan2];
    }
}

/// Every kind (`Float`, `Int`, `Bool`): the bound of the methods all tensors have.
pub trait Basic: BasicOps {}
impl<K: BasicOps> Basic for K {}

/// The kinds a [`Transaction`](crate::Transaction) can read: every kind.
pub trait Transaction: Basic {}
impl<K: Basic> Transaction for K {}

/// The numeric kinds (`Float`, `Int`): arithmetic, sums and products, matrix products.
pub trait Numeric: Basic + NumericOps {}
impl<K: Basic + NumericOps> Numeric for K {}

/// The kinds whose values are ordered (`Float`, `Int`): comparisons, clamping, extremes,
/// sorting.
pub trait Ordered: Numeric {}
impl<K: Numeric> Ordered for K {}

/// The kinds with float math (`Float`): exponentials, logarithms, trigonometry.
pub trait FloatMath: Numeric + FloatMathOps {}
impl<K: Numeric + FloatMathOps> FloatMath for K {}

/// The kinds that carry gradients (`Float`).
pub trait Autodiff: Basic {}
impl Autodiff for Float {}
