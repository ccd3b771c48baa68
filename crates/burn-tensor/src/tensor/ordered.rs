//! Methods of the ordered kinds (`Float` and `Int`; Burn's `kind::Ordered`): comparisons,
//! clamping, extremes, sorting and top-k.

use super::check;
use crate::AsIndex;
use crate::kind::Ordered;
use crate::{Bool, Int, Tensor};
use burn_backend::Scalar;

impl<const D: usize, K: Ordered> Tensor<D, K> {
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
        /// The largest value
        max / max_dim / max_dims;
        /// The smallest value
        min / min_dim / min_dims;
        /// The largest absolute value
        max_abs / max_abs_dim / max_abs_dims;
    }

    scans! {
        /// Running minimum along `dim`.
        cummin;
        /// Running maximum along `dim`.
        cummax;
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
}
