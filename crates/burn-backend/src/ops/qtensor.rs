//! Operations on quantized tensors. The quantization issue gives them their bodies; until
//! then every backend reports them as unsupported.

use crate::Backend;
use crate::tensor::{Device, FloatTensor, QuantizedTensor};
use burn_std::{QuantScheme, TensorData};

/// Operations on quantized tensors.
pub trait QTensorOps<B: Backend> {
    /// A quantized tensor holding `data` (of a `QFloat` dtype).
    fn q_from_data(_data: TensorData, _device: &Device<B>) -> QuantizedTensor<B> {
        panic!("q_from_data: quantized tensors are not supported by this backend yet")
    }
    /// `tensor` quantized with `scheme`, its scale computed from its values.
    fn quantize_dynamic(_tensor: FloatTensor<B>, _scheme: &QuantScheme) -> QuantizedTensor<B> {
        panic!("quantize_dynamic: quantized tensors are not supported by this backend yet")
    }
    /// The float values a quantized tensor stands for.
    fn dequantize(_tensor: QuantizedTensor<B>) -> FloatTensor<B> {
        panic!("dequantize: quantized tensors are not supported by this backend yet")
    }
}
