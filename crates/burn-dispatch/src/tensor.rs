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
    /// A quantized tensor, boxed: its values, scales and scheme make it more than twice the
    /// size of the other kinds, and every operation of every kind moves this enum around.
    Quantized(Box<QuantizedTensor<B>>),
    /// A float tensor of an autodiff device (tracked or not) and its checkpointing strategy.
    #[cfg(feature = "autodiff")]
    Autodiff(
        burn_autodiff::AutodiffTensor<B>,
        crate::GradientCheckpointingStrategy,
    ),
}

impl<B: Backend> BackendTensor<B> {
    /// The kind's name, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            BackendTensor::Float(_) => "float",
            BackendTensor::Int(_) => "int",
            BackendTensor::Bool(_) => "bool",
            BackendTensor::Quantized(_) => "quantized",
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(..) => "float",
        }
    }

    /// The float primitive (of an autodiff tensor: its values, leaving the graph; of a
    /// quantized tensor: its values dequantized to the device's default float dtype); panics
    /// naming the kind found otherwise.
    #[inline]
    pub fn into_float(self) -> FloatTensor<B> {
        match self {
            BackendTensor::Float(tensor) => tensor,
            other => other.into_float_slow(),
        }
    }

    /// [`into_float`](Self::into_float) of the other kinds, out of line so that the common
    /// case inlines into every operation (W7: a tenth of its time was this call's moves).
    #[cold]
    #[inline(never)]
    fn into_float_slow(self) -> FloatTensor<B> {
        match self {
            BackendTensor::Float(tensor) => tensor,
            BackendTensor::Quantized(tensor) => burn_backend::ops::dequantize_default::<B>(*tensor),
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(tensor, _) => tensor.into_primitive(),
            other => panic!("expected a float tensor, got a {} tensor", other.kind()),
        }
    }

    /// A reference to the float primitive (of an autodiff tensor too); panics otherwise.
    pub fn float_ref(&self) -> &FloatTensor<B> {
        match self {
            BackendTensor::Float(tensor) => tensor,
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(tensor, _) => tensor.primitive(),
            other => panic!("expected a float tensor, got a {} tensor", other.kind()),
        }
    }

    /// The checkpointing strategy of an autodiff float tensor.
    pub fn checkpointing(&self) -> Option<crate::GradientCheckpointingStrategy> {
        match self {
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(_, strategy) => Some(*strategy),
            _ => None,
        }
    }

    /// Whether this is a tracked autodiff tensor.
    pub fn is_tracked(&self) -> bool {
        match self {
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(tensor, _) => tensor.is_tracked(),
            _ => false,
        }
    }

    /// Whether this is a leaf of an autodiff device that requires a gradient.
    pub fn is_require_grad(&self) -> bool {
        match self {
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(tensor, _) => {
                tensor.requirement() == burn_autodiff::Requirement::Grad
            }
            _ => false,
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
            BackendTensor::Quantized(tensor) => *tensor,
            other => panic!("expected a quantized tensor, got a {} tensor", other.kind()),
        }
    }
}

impl<B: Backend> TensorMetadata for BackendTensor<B> {
    #[inline]
    fn dtype(&self) -> DType {
        match self {
            BackendTensor::Float(t) => t.dtype(),
            BackendTensor::Int(t) => t.dtype(),
            BackendTensor::Bool(t) => t.dtype(),
            BackendTensor::Quantized(t) => t.dtype(),
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(t, _) => t.dtype(),
        }
    }

    #[inline]
    fn shape(&self) -> Shape {
        match self {
            BackendTensor::Float(t) => t.shape(),
            BackendTensor::Int(t) => t.shape(),
            BackendTensor::Bool(t) => t.shape(),
            BackendTensor::Quantized(t) => t.shape(),
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(t, _) => t.shape(),
        }
    }

    #[inline]
    fn rank(&self) -> usize {
        match self {
            BackendTensor::Float(t) => t.rank(),
            BackendTensor::Int(t) => t.rank(),
            BackendTensor::Bool(t) => t.rank(),
            BackendTensor::Quantized(t) => t.rank(),
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(t, _) => t.rank(),
        }
    }

    #[inline]
    fn dims_into(&self, out: &mut [usize]) {
        match self {
            BackendTensor::Float(t) => t.dims_into(out),
            BackendTensor::Int(t) => t.dims_into(out),
            BackendTensor::Bool(t) => t.dims_into(out),
            BackendTensor::Quantized(t) => t.dims_into(out),
            #[cfg(feature = "autodiff")]
            BackendTensor::Autodiff(t, _) => t.dims_into(out),
        }
    }
}

#[cfg(all(test, feature = "flex"))]
mod tests {
    use super::BackendTensor;

    /// Every operation moves a `BackendTensor` (inside a `DispatchTensor`) in and out: past
    /// 128 bytes the compiler turns each move into a `memcpy` call, which cost W7 (1000 `x + 1`
    /// on 16 values) a third of its time before the quantized variant was boxed.
    #[test]
    fn a_flex_tensor_of_any_kind_moves_in_registers() {
        let size = std::mem::size_of::<BackendTensor<burn_flex::Flex>>();
        assert!(size <= 128, "BackendTensor<Flex> is {size} bytes");
    }
}
