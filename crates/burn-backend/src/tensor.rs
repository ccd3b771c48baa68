//! Short names for a backend's primitive types.

use crate::BackendTypes;

/// The device type of `B`.
pub type Device<B> = <B as BackendTypes>::Device;
/// The float tensor primitive of `B`.
pub type FloatTensor<B> = <B as BackendTypes>::FloatTensorPrimitive;
/// The int tensor primitive of `B`.
pub type IntTensor<B> = <B as BackendTypes>::IntTensorPrimitive;
/// The bool tensor primitive of `B`.
pub type BoolTensor<B> = <B as BackendTypes>::BoolTensorPrimitive;
/// The quantized tensor primitive of `B`.
pub type QuantizedTensor<B> = <B as BackendTypes>::QuantizedTensorPrimitive;
/// The captured-graph primitive of `B`.
pub type BackendGraph<B> = <B as BackendTypes>::GraphPrimitive;
