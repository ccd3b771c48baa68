//! Indexing: select, gather, scatter, masks, comparisons of any kind.

use super::check;
use crate::AsIndex;
use crate::kind::{Basic, Numeric};
use crate::{Bool, Int, Tensor};
use burn_backend::ops::{FloatTensorOps, IntTensorOps};
use burn_backend::{IndexingUpdateOp, Scalar, Shape, TensorMetadata};
use burn_dispatch::Dispatch;

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// The slices at `indices` along `dim` (`torch.index_select`).
    pub fn select(self, dim: impl AsIndex, indices: Tensor<1, Int>) -> Self {
        let dim = check::dim("select", dim, D);
        check::same_device("select", &self.device(), &indices.device());
        Self::from_primitive(K::select(
            self.into_primitive(),
            dim,
            indices.into_primitive(),
        ))
    }

    /// `out[i][j] = self[i][indices[i][j]]` along `dim` (`torch.gather`); `indices` has the
    /// rank of `self` and sizes no larger outside `dim`.
    pub fn gather(self, dim: impl AsIndex, indices: Tensor<D, Int>) -> Self {
        let dim = check::dim("gather", dim, D);
        let (dims, idx) = (self.dims(), indices.dims());
        for d in (0..D).filter(|&d| d != dim) {
            if idx[d] > dims[d] {
                check::fail(
                    "gather",
                    format_args!("indices shape {idx:?} exceeds tensor shape {dims:?} at dim {d}"),
                );
            }
        }
        check::same_device("gather", &self.device(), &indices.device());
        Self::from_primitive(K::gather(
            dim,
            self.into_primitive(),
            indices.into_primitive(),
        ))
    }

    /// `value` where `mask` is true, else `self` (mask and value broadcast).
    pub fn mask_where(self, mask: Tensor<D, Bool>, value: Self) -> Self {
        check::broadcast("mask_where", &self.shape(), &mask.shape());
        check::broadcast("mask_where", &self.shape(), &value.shape());
        check::same_device("mask_where", &self.device(), &mask.device());
        Self::from_primitive(K::mask_where(
            self.into_primitive(),
            mask.into_primitive(),
            value.into_primitive(),
        ))
    }

    /// `value` where `mask` is true, else `self`.
    pub fn mask_fill<V: Into<Scalar>>(self, mask: Tensor<D, Bool>, value: V) -> Self {
        check::broadcast("mask_fill", &self.shape(), &mask.shape());
        check::same_device("mask_fill", &self.device(), &mask.device());
        Self::from_primitive(K::mask_fill(
            self.into_primitive(),
            mask.into_primitive(),
            value.into(),
        ))
    }

    /// Element-wise `self == other` (broadcasting).
    pub fn equal(self, other: Self) -> Tensor<D, Bool> {
        self.compare("equal", other, K::equal)
    }

    /// Element-wise `self != other` (broadcasting).
    pub fn not_equal(self, other: Self) -> Tensor<D, Bool> {
        self.compare("not_equal", other, K::not_equal)
    }

    /// Element-wise `self == value`.
    pub fn equal_elem<V: Into<Scalar>>(self, value: V) -> Tensor<D, Bool> {
        Tensor::from_primitive(K::equal_elem(self.into_primitive(), value.into()))
    }

    /// Element-wise `self != value`.
    pub fn not_equal_elem<V: Into<Scalar>>(self, value: V) -> Tensor<D, Bool> {
        Tensor::<D, Bool>::from_primitive(K::equal_elem(self.into_primitive(), value.into()))
            .bool_not()
    }

    /// Whether any element is non-zero (or true), shape `[1]`.
    pub fn any(self) -> Tensor<1, Bool> {
        Tensor::from_primitive(K::any(self.into_primitive()))
    }

    /// Whether any element along `dim` is non-zero, kept with size 1.
    pub fn any_dim(self, dim: impl AsIndex) -> Tensor<D, Bool> {
        let dim = check::dim("any_dim", dim, D);
        Tensor::from_primitive(K::any_dim(self.into_primitive(), dim))
    }

    /// Whether every element is non-zero (or true), shape `[1]`.
    pub fn all(self) -> Tensor<1, Bool> {
        Tensor::from_primitive(K::all(self.into_primitive()))
    }

    /// Whether every element along `dim` is non-zero, kept with size 1.
    pub fn all_dim(self, dim: impl AsIndex) -> Tensor<D, Bool> {
        let dim = check::dim("all_dim", dim, D);
        Tensor::from_primitive(K::all_dim(self.into_primitive(), dim))
    }

    /// Checks and runs a broadcasting comparison.
    pub(crate) fn compare(
        self,
        op: &str,
        other: Self,
        f: impl FnOnce(
            burn_dispatch::DispatchTensor,
            burn_dispatch::DispatchTensor,
        ) -> burn_dispatch::DispatchTensor,
    ) -> Tensor<D, Bool> {
        let (lhs, rhs) = Self::binary_operands(op, self, other);
        Tensor::from_primitive(f(lhs, rhs))
    }

    /// Checks two operands of a broadcasting op (shapes, devices) and aligns their dtypes
    /// (floats promote to the wider type; other kinds must match).
    pub(crate) fn binary_operands(
        op: &str,
        lhs: Self,
        rhs: Self,
    ) -> (burn_dispatch::DispatchTensor, burn_dispatch::DispatchTensor) {
        let (a, b) = (lhs.dims(), rhs.dims());
        if a != b {
            check::broadcast(op, &Shape::from(a), &Shape::from(b));
        }
        check::same_device(op, &lhs.device(), &rhs.device());
        let (a, b) = (lhs.into_primitive(), rhs.into_primitive());
        super::promote::align_dtypes(op, a, b)
    }
}

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// Combines `values` into `self` at `indices` along `dim` with `update` (`torch.scatter`,
    /// `scatter_add`, `scatter_reduce`). Bool tensors combine as integers: `Add` and `Max` are
    /// a logical or, `Mul` and `Min` a logical and.
    pub fn scatter(
        self,
        dim: impl AsIndex,
        indices: Tensor<D, Int>,
        values: Self,
        update: IndexingUpdateOp,
    ) -> Self {
        let dim = check::dim("scatter", dim, D);
        check::same_shape("scatter", &indices.shape(), &values.shape());
        check::same_device("scatter", &self.device(), &indices.device());
        if self.dtype().is_bool() {
            let this = Self::new_tensor::<D, Bool>(self.into_primitive());
            let values = Self::new_tensor::<D, Bool>(values.into_primitive());
            let out = this
                .int()
                .scatter(dim, indices, values.int(), update)
                .bool();
            return Self::new_tensor(out.into_primitive());
        }
        let (tensor, indices, values) = (
            self.into_primitive(),
            indices.into_primitive(),
            values.into_primitive(),
        );
        Self::from_primitive(if tensor.dtype().is_float() {
            Dispatch::float_scatter(dim, tensor, indices, values, update)
        } else {
            Dispatch::int_scatter(dim, tensor, indices, values, update)
        })
    }
}

impl<const D: usize, K: Numeric> Tensor<D, K> {
    /// Adds the slices of `values` into `self` at `indices` along `dim` (`index_add`).
    pub fn select_add(self, dim: usize, indices: Tensor<1, Int>, values: Self) -> Self {
        check::dim_in_range("select_add", dim, D);
        let (mut expected, got) = (self.dims(), values.dims());
        expected[dim] = indices.dims()[0];
        if expected != got {
            check::fail(
                "select_add",
                format_args!("values have shape {got:?}, expected {expected:?}"),
            );
        }
        Self::from_primitive(K::select_add(
            self.into_primitive(),
            dim,
            indices.into_primitive(),
            values.into_primitive(),
        ))
    }
}
