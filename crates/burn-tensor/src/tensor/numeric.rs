//! Methods of the numeric kinds (`Float` and `Int`): arithmetic, reductions, comparisons,
//! clamping, matrix products.
//!
//! Methods named like the operator traits (`add`, `neg`, …) are Burn's API; the operators
//! themselves are implemented in `operators.rs` on top of them.
#![allow(clippy::should_implement_trait)]

use super::args::TensorCreationOptions;
use super::check;
use crate::AsIndex;
use crate::{Bool, Int, Numeric, Tensor};
use burn_backend::{Scalar, Shape};

/// Generates tensor-tensor and tensor-scalar arithmetic methods.
macro_rules! arithmetic {
    ($($(#[$doc:meta])* $name:ident / $scalar:ident => $op:ident, $op_scalar:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self, other: Self) -> Self {
            let (lhs, rhs) = Self::binary_operands(stringify!($name), self, other);
            Self::from_elementwise(K::$op(lhs, rhs))
        }
        $(#[$doc])*
        #[doc = "(with a scalar)"]
        pub fn $scalar<V: Into<Scalar>>(self, other: V) -> Self {
            Self::from_elementwise(K::$op_scalar(self.into_primitive(), other.into()))
        }
    )*};
}

/// Generates broadcasting comparisons and their scalar forms.
macro_rules! comparisons {
    ($($(#[$doc:meta])* $name:ident / $elem:ident / $alias:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(self, other: Self) -> Tensor<D, Bool> {
            self.compare(stringify!($name), other, K::$name)
        }
        $(#[$doc])*
        #[doc = "(with a scalar)"]
        pub fn $elem<V: Into<Scalar>>(self, other: V) -> Tensor<D, Bool> {
            Tensor::from_primitive(K::$elem(self.into_primitive(), other.into()))
        }
        $(#[$doc])*
        #[doc = "(with a scalar; the same as the `_elem` form)"]
        pub fn $alias<V: Into<Scalar>>(self, other: V) -> Tensor<D, Bool> {
            self.$elem(other)
        }
    )*};
}

/// Generates reductions along a dim (kept with size 1) and over everything (shape `[1]`).
macro_rules! reductions {
    ($($(#[$doc:meta])* $all:ident / $dim:ident / $dims:ident;)*) => {$(
        $(#[$doc])*
        #[doc = "over all elements, shape `[1]`."]
        pub fn $all(self) -> Tensor<1, K> {
            check::reducible(stringify!($all), &self.shape(), None);
            Tensor::from_primitive(K::$all(self.into_primitive()))
        }
        $(#[$doc])*
        #[doc = "along `dim`, kept with size 1."]
        pub fn $dim<I: AsIndex>(self, dim: I) -> Self {
            let dim = check::dim(stringify!($dim), dim, D);
            check::reducible(stringify!($dim), &self.shape(), Some(dim));
            Self::from_primitive(K::$dim(self.into_primitive(), dim))
        }
        $(#[$doc])*
        #[doc = "along each of `dims`, each kept with size 1."]
        pub fn $dims<I: AsIndex>(self, dims: &[I]) -> Self {
            dims.iter().fold(self, |t, &dim| t.$dim(dim))
        }
    )*};
}

/// Generates running (cumulative) ops along a dim.
macro_rules! scans {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name<I: AsIndex>(self, dim: I) -> Self {
            let dim = check::dim(stringify!($name), dim, D);
            Self::from_primitive(K::$name(self.into_primitive(), dim))
        }
    )*};
}

impl<const D: usize, K: Numeric> Tensor<D, K> {
    arithmetic! {
        /// Element-wise sum (broadcasting).
        add / add_scalar => add, add_scalar;
        /// Element-wise difference (broadcasting).
        sub / sub_scalar => sub, sub_scalar;
        /// Element-wise product (broadcasting).
        mul / mul_scalar => mul, mul_scalar;
        /// Element-wise quotient (broadcasting; ints truncate toward zero).
        div / div_scalar => div, div_scalar;
        /// Element-wise remainder with the sign of the divisor (`torch.remainder`).
        remainder / remainder_scalar => remainder, remainder_scalar;
    }

    comparisons! {
        /// Element-wise `self > other`
        greater / greater_elem / greater_scalar;
        /// Element-wise `self >= other`
        greater_equal / greater_equal_elem / greater_equal_scalar;
        /// Element-wise `self < other`
        lower / lower_elem / lower_scalar;
        /// Element-wise `self <= other`
        lower_equal / lower_equal_elem / lower_equal_scalar;
    }

    reductions! {
        /// The sum
        sum / sum_dim / sum_dims;
        /// The product
        prod / prod_dim / prod_dims;
        /// The mean (ints truncate)
        mean / mean_dim / mean_dims;
        /// The largest value
        max / max_dim / max_dims;
        /// The smallest value
        min / min_dim / min_dims;
        /// The largest absolute value
        max_abs / max_abs_dim / max_abs_dims;
    }

    scans! {
        /// Running sum along `dim`.
        cumsum;
        /// Running product along `dim`.
        cumprod;
        /// Running minimum along `dim`.
        cummin;
        /// Running maximum along `dim`.
        cummax;
    }

    /// A tensor of zeros.
    pub fn zeros<S: Into<Shape>>(shape: S, options: impl Into<TensorCreationOptions>) -> Self {
        Self::full_named("zeros", shape.into(), 0.into(), options.into())
    }

    /// A tensor of ones.
    pub fn ones<S: Into<Shape>>(shape: S, options: impl Into<TensorCreationOptions>) -> Self {
        Self::full_named("ones", shape.into(), 1.into(), options.into())
    }

    /// Zeros of this tensor's shape, device and dtype.
    pub fn zeros_like(&self) -> Self {
        self.full_like(0)
    }

    /// Ones of this tensor's shape, device and dtype.
    pub fn ones_like(&self) -> Self {
        self.full_like(1)
    }

    /// `-x`.
    pub fn neg(self) -> Self {
        Self::from_primitive(K::neg(self.into_primitive()))
    }

    /// `|x|`.
    pub fn abs(self) -> Self {
        Self::from_primitive(K::abs(self.into_primitive()))
    }

    /// -1, 0 or 1 by the sign of each element.
    pub fn sign(self) -> Self {
        Self::from_primitive(K::sign(self.into_primitive()))
    }

    /// `x²`.
    pub fn square(self) -> Self {
        self.clone().mul(self)
    }

    /// `x ^ exponent` element-wise with an int exponent tensor (broadcasting).
    pub fn powi(self, exponent: Tensor<D, Int>) -> Self {
        check::broadcast("powi", &self.shape(), &exponent.shape());
        Self::from_primitive(K::powi(self.into_primitive(), exponent.into_primitive()))
    }

    /// `x ^ exponent` for an integer scalar.
    pub fn powi_scalar<V: Into<Scalar>>(self, exponent: V) -> Self {
        Self::from_primitive(K::powi_scalar(self.into_primitive(), exponent.into()))
    }

    /// Values clamped to `[min, max]`.
    pub fn clamp<V: Into<Scalar>, W: Into<Scalar>>(self, min: V, max: W) -> Self {
        let (min, max) = (min.into(), max.into());
        if min.to_f64() > max.to_f64() {
            check::fail("clamp", format_args!("min {min} is greater than max {max}"));
        }
        Self::from_primitive(K::clamp(self.into_primitive(), min, max))
    }

    /// Values below `min` raised to `min`.
    pub fn clamp_min<V: Into<Scalar>>(self, min: V) -> Self {
        Self::from_primitive(K::clamp_min(self.into_primitive(), min.into()))
    }

    /// Values above `max` lowered to `max`.
    pub fn clamp_max<V: Into<Scalar>>(self, max: V) -> Self {
        Self::from_primitive(K::clamp_max(self.into_primitive(), max.into()))
    }

    /// The larger of `self` and `other`, element-wise (broadcasting).
    pub fn max_pair(self, other: Self) -> Self {
        let mask = self.clone().lower(other.clone());
        self.mask_where(mask, other)
    }

    /// The smaller of `self` and `other`, element-wise (broadcasting).
    pub fn min_pair(self, other: Self) -> Self {
        let mask = self.clone().greater(other.clone());
        self.mask_where(mask, other)
    }

    /// The largest value along `dim` and its index.
    pub fn max_dim_with_indices<I: AsIndex>(self, dim: I) -> (Self, Tensor<D, Int>) {
        let dim = check::dim("max_dim_with_indices", dim, D);
        check::reducible("max_dim_with_indices", &self.shape(), Some(dim));
        let (values, indices) = K::max_dim_with_indices(self.into_primitive(), dim);
        (
            Self::from_primitive(values),
            Tensor::from_primitive(indices),
        )
    }

    /// The smallest value along `dim` and its index.
    pub fn min_dim_with_indices<I: AsIndex>(self, dim: I) -> (Self, Tensor<D, Int>) {
        let dim = check::dim("min_dim_with_indices", dim, D);
        check::reducible("min_dim_with_indices", &self.shape(), Some(dim));
        let (values, indices) = K::min_dim_with_indices(self.into_primitive(), dim);
        (
            Self::from_primitive(values),
            Tensor::from_primitive(indices),
        )
    }

    /// The index of the largest value along `dim` (first on ties), kept with size 1.
    pub fn argmax(self, dim: impl AsIndex) -> Tensor<D, Int> {
        let dim = check::dim("argmax", dim, D);
        check::reducible("argmax", &self.shape(), Some(dim));
        Tensor::from_primitive(K::argmax(self.into_primitive(), dim))
    }

    /// The index of the smallest value along `dim` (first on ties), kept with size 1.
    pub fn argmin(self, dim: impl AsIndex) -> Tensor<D, Int> {
        let dim = check::dim("argmin", dim, D);
        check::reducible("argmin", &self.shape(), Some(dim));
        Tensor::from_primitive(K::argmin(self.into_primitive(), dim))
    }

    /// Batched matrix product over the last two dims; batch dims broadcast.
    pub fn matmul(self, other: Self) -> Self {
        if D < 2 {
            check::fail(
                "matmul",
                format_args!("expected tensors of rank 2 or more, got rank {D}"),
            );
        }
        let (a, b) = (self.dims(), other.dims());
        if a[D - 1] != b[D - 2] {
            check::fail(
                "matmul",
                format_args!(
                    "inner sizes differ: lhs {a:?} has {} columns, rhs {b:?} has {} rows",
                    a[D - 1],
                    b[D - 2]
                ),
            );
        }
        let batch = |s: &[usize; D]| Shape::from(s[..D - 2].to_vec());
        check::broadcast("matmul", &batch(&a), &batch(&b));
        let (lhs, rhs) =
            super::promote::align_dtypes("matmul", self.into_primitive(), other.into_primitive());
        check::same_device("matmul", &K::device(&lhs), &K::device(&rhs));
        Self::from_primitive(K::matmul(lhs, rhs))
    }

    /// Sorted along `dim`, ascending (stable).
    pub fn sort<I: AsIndex>(self, dim: I) -> Self {
        let dim = check::dim("sort", dim, D);
        Self::from_primitive(K::sort(self.into_primitive(), dim, false))
    }

    /// Sorted along `dim`, descending (stable).
    pub fn sort_descending<I: AsIndex>(self, dim: I) -> Self {
        let dim = check::dim("sort_descending", dim, D);
        Self::from_primitive(K::sort(self.into_primitive(), dim, true))
    }

    /// Sorted along `dim` ascending, with the indices that sort it.
    pub fn sort_with_indices<I: AsIndex>(self, dim: I) -> (Self, Tensor<D, Int>) {
        let dim = check::dim("sort_with_indices", dim, D);
        let (v, i) = K::sort_with_indices(self.into_primitive(), dim, false);
        (Self::from_primitive(v), Tensor::from_primitive(i))
    }

    /// Sorted along `dim` descending, with the indices that sort it.
    pub fn sort_descending_with_indices<I: AsIndex>(self, dim: I) -> (Self, Tensor<D, Int>) {
        let dim = check::dim("sort_descending_with_indices", dim, D);
        let (v, i) = K::sort_with_indices(self.into_primitive(), dim, true);
        (Self::from_primitive(v), Tensor::from_primitive(i))
    }

    /// The indices that sort along `dim` ascending.
    pub fn argsort<I: AsIndex>(self, dim: I) -> Tensor<D, Int> {
        let dim = check::dim("argsort", dim, D);
        Tensor::from_primitive(K::argsort(self.into_primitive(), dim, false))
    }

    /// The indices that sort along `dim` descending.
    pub fn argsort_descending<I: AsIndex>(self, dim: I) -> Tensor<D, Int> {
        let dim = check::dim("argsort_descending", dim, D);
        Tensor::from_primitive(K::argsort(self.into_primitive(), dim, true))
    }

    /// The indices of the `k` largest values along `dim`, largest first.
    pub fn argtopk(self, k: usize, dim: impl AsIndex) -> Tensor<D, Int> {
        let dim = check::dim("argtopk", dim, D);
        self.topk_with_indices(k, dim).1
    }

    /// Combines the slices of `values` into `self` at `indices` along `dim` with `update`
    /// (`index_add`, `index_copy`, `index_reduce`): a [`scatter`](Self::scatter) with the
    /// indices broadcast over `values`.
    pub fn select_assign(
        self,
        dim: impl AsIndex,
        indices: Tensor<1, Int>,
        values: Self,
        update: burn_backend::IndexingUpdateOp,
    ) -> Self {
        let dim = check::dim("select_assign", dim, D);
        let (mut expected, got) = (self.dims(), values.dims());
        expected[dim] = indices.dims()[0];
        if expected != got {
            check::fail(
                "select_assign",
                format_args!("values have shape {got:?}, expected {expected:?}"),
            );
        }
        let mut index_shape = [1usize; D];
        index_shape[dim] = got[dim];
        let indices: Tensor<D, Int> = indices.reshape(index_shape);
        let indices = indices.expand(got.map(|d| d as i64));
        self.scatter(dim, indices, values, update)
    }

    /// The remainder with the sign of the dividend (C's `fmod`, `torch.fmod`).
    pub fn fmod(self, other: Self) -> Self {
        let quotient_sign = self.clone().sign();
        let magnitude = self.abs().remainder(other.abs());
        magnitude.mul(quotient_sign)
    }

    /// The remainder by a scalar with the sign of the dividend (`torch.fmod`).
    pub fn fmod_scalar<V: Into<Scalar>>(self, other: V) -> Self {
        let other = other.into();
        let divisor = Scalar::Float(other.to_f64().abs());
        let sign = self.clone().sign();
        self.abs().remainder_scalar(divisor).mul(sign)
    }

    /// The `k` largest values along `dim`, largest first.
    pub fn topk<I: AsIndex>(self, k: usize, dim: I) -> Self {
        let dim = check::dim("topk", dim, D);
        self.topk_with_indices(k, dim).0
    }

    /// The `k` largest values along `dim` and their indices, largest first.
    pub fn topk_with_indices<I: AsIndex>(self, k: usize, dim: I) -> (Self, Tensor<D, Int>) {
        let dim = check::dim("topk_with_indices", dim, D);
        check::dim_in_range("topk", dim, D);
        let size = self.dims()[dim];
        if k > size {
            check::fail(
                "topk",
                format_args!("k = {k} exceeds the size {size} of dim {dim}"),
            );
        }
        let (values, indices) = K::topk_with_indices(self.into_primitive(), k, dim);
        (
            Tensor::from_primitive(values),
            Tensor::from_primitive(indices),
        )
    }

    /// Keeps the elements on and below the `diagonal`-th diagonal of the last two dims
    /// (`torch.tril`), zeroing the rest.
    pub fn tril(self, diagonal: i64) -> Self {
        let mask = super::triangle::triangle_mask::<D>("tril", &self, diagonal, false);
        self.mask_fill(mask, 0)
    }

    /// Keeps the elements on and above the `diagonal`-th diagonal of the last two dims
    /// (`torch.triu`), zeroing the rest.
    pub fn triu(self, diagonal: i64) -> Self {
        let mask = super::triangle::triangle_mask::<D>("triu", &self, diagonal, true);
        self.mask_fill(mask, 0)
    }

    /// The dot product of two 1-d tensors, shape `[1]`.
    pub fn dot(self, other: Self) -> Tensor<1, K> {
        if D != 1 {
            check::fail("dot", format_args!("expected 1-d tensors, got rank {D}"));
        }
        check::same_shape("dot", &self.shape(), &other.shape());
        self.mul(other).sum()
    }
}
