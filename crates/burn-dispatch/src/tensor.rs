//! `BackendTensor`: one backend's primitive of any kind.

use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
use burn_backend::{Backend, DType, Shape, TensorMetadata};

/// A primitive tensor of backend `B`, tagged with its kind.
#[derive(Debug, Clone)]
pub enum BackendTensor<B: Backend> {
    /// A float tensor.
    Float(FloatTensor<B>),
    /// An int tensor.
    Int(IntTensor<B>),
    /// A bool tensor.
    Bool(BoolTensor<B>),
    /// A quantized tensor.
    Quantized(QuantizedTensor<B>),
}

impl<B: Backend> BackendTensor<B> {
    /// The kind's name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            BackendTensor::Float(_) => "float",
            BackendTensor::Int(_) => "int",
            BackendTensor::Bool(_) => "bool",
            BackendTensor::Quantized(_) => "quantized",
        }
    }

    /// The float primitive; panics naming the kind found otherwise.
    pub fn into_float(self) -> FloatTensor<B> {
        match self {
            BackendTensor::Float(tensor) => tensor,
            other => panic!("expected a float tensor, got a {} tensor", other.kind()),
        }
    }

    /// The int primitive; panics naming the kind found otherwise.
    pub fn into_int(self) -> IntTensor<B> {
        match self {
            BackendTensor::Int(tensor) => tensor,
            other => panic!("expected an int tensor, got a {} tensor", other.kind()),
        }
    }

    /// The bool primitive; panics naming the kind found otherwise.
    pub fn into_bool(self) -> BoolTensor<B> {
        match self {
            BackendTensor::Bool(tensor) => tensor,
            other => panic!("expected a bool tensor, got a {} tensor", other.kind()),
        }
    }

    /// The quantized primitive; panics naming the kind found otherwise.
    pub fn into_quantized(self) -> QuantizedTensor<B> {
        match self {
            BackendTensor::Quantized(tensor) => tensor,
            other => panic!("expected a quantized tensor, got a {} tensor", other.kind()),
        }
    }
}

impl<B: Backend> TensorMetadata for BackendTensor<B> {
    fn dtype(&self) -> DType {
        match self {
            BackendTensor::Float(t) => t.dtype(),
            BackendTensor::Int(t) => t.dtype(),
            BackendTensor::Bool(t) => t.dtype(),
            BackendTensor::Quantized(t) => t.dtype(),
        }
    }

    fn shape(&self) -> Shape {
        match self {
            BackendTensor::Float(t) => t.shape(),
            BackendTensor::Int(t) => t.shape(),
            BackendTensor::Bool(t) => t.shape(),
            BackendTensor::Quantized(t) => t.shape(),
        }
    }

    fn rank(&self) -> usize {
        match self {
            BackendTensor::Float(t) => t.rank(),
            BackendTensor::Int(t) => t.rank(),
            BackendTensor::Bool(t) => t.rank(),
            BackendTensor::Quantized(t) => t.rank(),
        }
    }
}
