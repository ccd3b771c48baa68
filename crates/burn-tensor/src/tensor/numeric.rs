//! Methods of the numeric kinds (`Float` and `Int`): arithmetic, reductions, comparisons,
//! clamping, matrix products.
//!
//! Methods named like the operator traits (`add`, `neg`, …) are Burn's API; the operators
//! themselves are implemented in `operators.rs` on top of them.
#![allow(clippy::should_implement_trait)]

use super::check;
use crate::AsIndex;
use crate::kind::Numeric;
use crate::{Int, Tensor};
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

    reductions! {
        /// The sum
        sum / sum_dim / sum_dims;
        /// The product
        prod / prod_dim / prod_dims;
        /// The mean (ints truncate)
        mean / mean_dim / mean_dims;
    }

    scans! {
        /// Running sum along `dim`.
        cumsum;
        /// Running product along `dim`.
        cumprod;
    }

    /// `true` for non-zero values.
    pub fn bool(self) -> Tensor<D, crate::Bool> {
        self.not_equal_elem(0)
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
