//! `BridgeTensor`: the kind tag over one dispatch tensor.

use burn_dispatch::DispatchTensor;

/// A dispatch tensor tagged with its kind. Float tensors may be stored quantized (`QFloat`);
/// the tag says so, the static kind of `Tensor` cannot. A `Tensor` stores only its primitive:
/// [`Tensor::into_bridge`](crate::Tensor::into_bridge) builds the tag from the kind and dtype.
#[derive(Debug, Clone)]
pub enum BridgeTensor {
    /// A float tensor.
    Float(DispatchTensor),
    /// A float tensor stored quantized.
    QFloat(DispatchTensor),
    /// An int tensor.
    Int(DispatchTensor),
    /// A bool tensor.
    Bool(DispatchTensor),
}

impl BridgeTensor {
    /// The dispatch tensor, whatever the tag.
    pub fn primitive(&self) -> &DispatchTensor {
        match self {
            BridgeTensor::Float(t)
            | BridgeTensor::QFloat(t)
            | BridgeTensor::Int(t)
            | BridgeTensor::Bool(t) => t,
        }
    }

    /// The dispatch tensor, whatever the tag.
    pub fn into_primitive(self) -> DispatchTensor {
        match self {
            BridgeTensor::Float(t)
            | BridgeTensor::QFloat(t)
            | BridgeTensor::Int(t)
            | BridgeTensor::Bool(t) => t,
        }
    }
}
