//! Burn's readouts of [`TensorData`]: the accessors (`shape()`, `dtype()`), the strict
//! `try_*_vec` (the stored dtype must be `E`), the converting `try_*_vec_as` and `try_cast*`,
//! and [`TensorReadError`], what reading a tensor's values into the host can fail with.

use crate::{DType, DataError, Element, ExecutionError, Shape, TensorData};
use core::fmt;

/// Why a tensor's values could not be read back as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TensorReadError {
    /// The device failed while producing the values.
    Execution(ExecutionError),
    /// The values could not be given in the requested form.
    Data(DataError),
    /// The tensor does not hold the number of elements the read needs (one, for a scalar).
    InvalidShape {
        /// The number of elements the read needs.
        expected: usize,
        /// The number the tensor holds.
        actual: usize,
    },
}

impl fmt::Display for TensorReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Execution(e) => write!(f, "{e}"),
            Self::Data(e) => write!(f, "{e}"),
            Self::InvalidShape { expected, actual } => {
                write!(f, "expected {expected} tensor element(s), got {actual}")
            }
        }
    }
}

impl std::error::Error for TensorReadError {}

impl From<ExecutionError> for TensorReadError {
    fn from(e: ExecutionError) -> Self {
        Self::Execution(e)
    }
}

impl From<DataError> for TensorReadError {
    fn from(e: DataError) -> Self {
        Self::Data(e)
    }
}

impl TensorData {
    /// The shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The stored dtype.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The stored values as a vector of `E`; an error unless the data holds `E`'s dtype.
    pub fn try_to_vec<E: Element>(&self) -> Result<Vec<E>, DataError> {
        Ok(self.as_slice::<E>()?.to_vec())
    }

    /// The stored values as a vector of `E`; an error unless the data holds `E`'s dtype.
    pub fn try_into_vec<E: Element>(self) -> Result<Vec<E>, DataError> {
        self.try_to_vec()
    }

    /// The values converted to `E` (`as`-cast semantics, quantized data dequantized).
    pub fn try_to_vec_as<E: Element>(&self) -> Result<Vec<E>, DataError> {
        self.clone().try_into_vec_as()
    }

    /// The values converted to `E` (`as`-cast semantics, quantized data dequantized).
    pub fn try_into_vec_as<E: Element>(self) -> Result<Vec<E>, DataError> {
        self.try_cast_as::<E>()?.try_into_vec()
    }

    /// The same values stored as `E`.
    pub fn try_cast_as<E: Element>(self) -> Result<TensorData, DataError> {
        self.try_cast(E::DTYPE)
    }

    /// The same values stored as `dtype`; quantized data is a source, not a target.
    pub fn try_cast(self, dtype: DType) -> Result<TensorData, DataError> {
        if let DType::QFloat(_) = dtype
            && dtype != self.dtype
        {
            return Err(DataError::CastError(format!(
                "cannot convert {} data to the quantized dtype {dtype} (quantize the tensor instead)",
                self.dtype
            )));
        }
        Ok(self.convert_dtype(dtype))
    }

    /// Zeros of `dtype`.
    pub fn zeros_dtype<S: Into<Shape>>(shape: S, dtype: DType) -> Self {
        Self::full_dtype(shape, 0, dtype)
    }

    /// Ones of `dtype`.
    pub fn ones_dtype<S: Into<Shape>>(shape: S, dtype: DType) -> Self {
        Self::full_dtype(shape, 1, dtype)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_reads_refuse_another_dtype_and_as_reads_convert() {
        let data = TensorData::new(vec![1.5f32, -2.0], [2]);
        assert_eq!(data.shape().dims[..], [2]);
        assert_eq!(data.dtype(), DType::F32);
        assert_eq!(data.try_to_vec::<f32>().unwrap(), [1.5, -2.0]);
        assert!(data.try_to_vec::<f64>().is_err());
        assert_eq!(data.try_to_vec_as::<f64>().unwrap(), [1.5, -2.0]);
        assert_eq!(data.clone().try_into_vec_as::<i64>().unwrap(), [1, -2]);
        assert_eq!(data.try_cast(DType::F64).unwrap().dtype(), DType::F64);
        assert_eq!(
            TensorData::ones_dtype([3], DType::I32)
                .try_to_vec::<i32>()
                .unwrap(),
            [1, 1, 1]
        );
    }

    #[test]
    fn read_errors_say_what_went_wrong() {
        let e = TensorReadError::InvalidShape {
            expected: 1,
            actual: 4,
        };
        assert_eq!(e.to_string(), "expected 1 tensor element(s), got 4");
        let e: TensorReadError = ExecutionError::generic("lost device").into();
        assert!(e.to_string().contains("lost device"));
    }
}
