//! Reading a tensor's values into the host in the form asked for, as Burn reads them: as
//! another element type (`*_as::<E>()`), as another dtype (`*_dtype(dtype)`), keeping the tensor
//! (`to_*`) or consuming it (`into_*`), panicking (naming the operation) or returning why not
//! (`try_*`).

use super::check;
use crate::Tensor;
use crate::kind::Basic;
use burn_backend::{DType, Element, ExecutionError, TensorData, TensorReadError};

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// The values, keeping the tensor, or the deferred execution error.
    pub fn try_to_data(&self) -> Result<TensorData, ExecutionError> {
        self.clone().try_into_data()
    }

    /// The values converted to `E`'s dtype, or why they could not be read.
    pub fn try_into_data_as<E: Element>(self) -> Result<TensorData, TensorReadError> {
        self.try_into_data_dtype(E::DTYPE)
    }

    /// The values converted to `E`'s dtype, keeping the tensor, or why they could not be read.
    pub fn try_to_data_as<E: Element>(&self) -> Result<TensorData, TensorReadError> {
        self.clone().try_into_data_as::<E>()
    }

    /// The values converted to `dtype`, or why they could not be read.
    pub fn try_into_data_dtype(self, dtype: DType) -> Result<TensorData, TensorReadError> {
        Ok(self.try_into_data()?.try_cast(dtype)?)
    }

    /// The values converted to `dtype`, keeping the tensor, or why they could not be read.
    pub fn try_to_data_dtype(&self, dtype: DType) -> Result<TensorData, TensorReadError> {
        self.clone().try_into_data_dtype(dtype)
    }

    /// The values converted to `E`'s dtype.
    #[track_caller]
    pub fn into_data_as<E: Element>(self) -> TensorData {
        self.try_into_data_as::<E>()
            .unwrap_or_else(|e| check::fail("into_data_as", e))
    }

    /// The values converted to `E`'s dtype, keeping the tensor.
    #[track_caller]
    pub fn to_data_as<E: Element>(&self) -> TensorData {
        self.try_to_data_as::<E>()
            .unwrap_or_else(|e| check::fail("to_data_as", e))
    }

    /// The values converted to `dtype`.
    #[track_caller]
    pub fn into_data_dtype(self, dtype: DType) -> TensorData {
        self.try_into_data_dtype(dtype)
            .unwrap_or_else(|e| check::fail("into_data_dtype", e))
    }

    /// The values converted to `dtype`, keeping the tensor.
    #[track_caller]
    pub fn to_data_dtype(&self, dtype: DType) -> TensorData {
        self.try_to_data_dtype(dtype)
            .unwrap_or_else(|e| check::fail("to_data_dtype", e))
    }

    /// The values as a vector of `E` (converted), or why they could not be read.
    pub fn try_into_vec_as<E: Element>(self) -> Result<Vec<E>, TensorReadError> {
        Ok(self.try_into_data()?.try_into_vec_as::<E>()?)
    }

    /// The values as a vector of `E` (converted), keeping the tensor, or why they could not be
    /// read.
    pub fn try_to_vec_as<E: Element>(&self) -> Result<Vec<E>, TensorReadError> {
        self.clone().try_into_vec_as::<E>()
    }

    /// Element-wise `self == value`, for any element type (Burn's name of
    /// [`equal_elem`](Self::equal_elem)).
    pub fn equal_scalar<E: Element>(self, value: E) -> Tensor<D, crate::Bool> {
        self.equal_elem(value.to_scalar())
    }

    /// Element-wise `self != value` (Burn's name of [`not_equal_elem`](Self::not_equal_elem)).
    pub fn not_equal_scalar<E: Element>(self, value: E) -> Tensor<D, crate::Bool> {
        self.not_equal_elem(value.to_scalar())
    }

    /// A tensor of unspecified values with this tensor's shape, device and dtype.
    pub fn empty_like(&self) -> Self {
        Self::empty(self.shape(), (&self.device(), self.dtype()))
    }
}
