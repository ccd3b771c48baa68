//! The traits behind `#[derive(ExtensionType)]`: a value holding tensors of backend `B` can be
//! converted, tensor by tensor, into the same value over another backend.

use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
use burn_backend::{Backend, BackendTypes};

/// Converts primitives of backend `From` into those of backend `To`, by kind.
pub trait TensorMap<From: BackendTypes, To: BackendTypes> {
    /// A float tensor.
    fn float(&mut self, tensor: FloatTensor<From>) -> FloatTensor<To>;
    /// An int tensor.
    fn int(&mut self, tensor: IntTensor<From>) -> IntTensor<To>;
    /// A bool tensor.
    fn bool(&mut self, tensor: BoolTensor<From>) -> BoolTensor<To>;
    /// A quantized tensor.
    fn quantized(&mut self, tensor: QuantizedTensor<From>) -> QuantizedTensor<To>;
}

/// Looks at the primitives of backend `B` a value holds, by kind.
pub trait TensorVisit<B: BackendTypes> {
    /// A float tensor.
    fn float(&mut self, tensor: &FloatTensor<B>);
    /// An int tensor.
    fn int(&mut self, tensor: &IntTensor<B>);
    /// A bool tensor.
    fn bool(&mut self, tensor: &BoolTensor<B>);
    /// A quantized tensor.
    fn quantized(&mut self, tensor: &QuantizedTensor<B>);
}

/// A struct or enum of tensors of backend `B` that a backend extension takes or returns.
/// Derive it (`#[derive(ExtensionType)]`); the routing converts its tensors between
/// `Dispatch` and the backend that runs the operation, and moves its other fields.
pub trait ExtensionType<B: Backend>: Sized {
    /// The same type over backend `T`.
    type Mapped<T: Backend>: ExtensionType<T>;

    /// Converts every tensor with `map`, moving the other fields.
    fn map<T: Backend>(self, map: &mut impl TensorMap<B, T>) -> Self::Mapped<T>;

    /// Shows every tensor to `visit`, in field order (an enum: those of its variant).
    fn visit(&self, visit: &mut impl TensorVisit<B>);
}
