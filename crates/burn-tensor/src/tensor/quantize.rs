//! Quantizing and dequantizing float tensors.

use crate::quantization::{QuantScheme, QuantizationParameters};
use crate::{Float, Tensor};
use burn_backend::ops::QTensorOps;
use burn_backend::quantization::QuantizationParametersPrimitive;
use burn_backend::{DType, get_device_settings};
use burn_dispatch::Dispatch;

impl<const D: usize> Tensor<D, Float> {
    /// The tensor quantized with `scheme` and the scales of `qparams` (from
    /// [`compute_q_params`](crate::quantization::compute_q_params)): each value becomes
    /// `clamp(round(x / scale), a, b)` for the scheme's value range `[a, b]`. The result's
    /// dtype is `DType::QFloat(scheme)`.
    ///
    /// # Panics
    ///
    /// When the scheme is not supported, its blocks do not divide the shape, or the number of
    /// scales does not match the number of blocks.
    pub fn quantize(self, scheme: &QuantScheme, qparams: QuantizationParameters) -> Self {
        let qparams = QuantizationParametersPrimitive {
            scales: qparams.scales.into_primitive(),
        };
        let tensor = self.dequantize().into_primitive();
        Self::from_primitive(Dispatch::quantize(tensor, scheme, qparams))
    }

    /// The tensor quantized with `scheme`, each scale taken from the largest magnitude of its
    /// block (min-max calibration).
    ///
    /// # Panics
    ///
    /// When the scheme is not supported or its blocks do not divide the shape.
    pub fn quantize_dynamic(self, scheme: &QuantScheme) -> Self {
        let tensor = self.dequantize().into_primitive();
        Self::from_primitive(Dispatch::quantize_dynamic(tensor, scheme))
    }

    /// The float values a quantized tensor stands for, in its device's default float dtype;
    /// a float tensor is returned as it is.
    pub fn dequantize(self) -> Self {
        if !matches!(self.dtype(), DType::QFloat(_)) {
            return self;
        }
        let device = self.device();
        let dtype = get_device_settings::<Dispatch>(device.dispatch()).float_dtype;
        Self::from_primitive(Dispatch::dequantize(self.into_primitive(), dtype))
    }

    /// Whether the tensor is stored quantized.
    pub fn is_quantized(&self) -> bool {
        matches!(self.dtype(), DType::QFloat(_))
    }
}
