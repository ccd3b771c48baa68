//! `DeviceSettings`: the default dtypes a device gives new tensors, and its quantization
//! defaults.

use crate::{BoolStore, DType, FloatDType, IntDType, QuantConfig};

/// The dtypes a device uses when an operation does not name one. Locked at the device's first
/// tensor (see `burn-backend`'s settings registry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeviceSettings {
    /// Default float dtype.
    pub float_dtype: FloatDType,
    /// Default int dtype.
    pub int_dtype: IntDType,
    /// Default bool dtype.
    pub bool_dtype: DType,
    /// Quantization defaults: the scheme used when none is named, and whether operations on
    /// quantized tensors requantize their results.
    pub quantization: QuantConfig,
}

impl DeviceSettings {
    /// Settings with the given dtypes and the default [`QuantConfig`].
    pub fn new(float_dtype: FloatDType, int_dtype: IntDType, bool_store: BoolStore) -> Self {
        Self {
            float_dtype,
            int_dtype,
            bool_dtype: DType::Bool(bool_store),
            quantization: QuantConfig::default(),
        }
    }
}

impl Default for DeviceSettings {
    /// `f32`, `i64`, native `bool` and the default [`QuantConfig`].
    fn default() -> Self {
        Self::new(FloatDType::F32, IntDType::I64, BoolStore::Native)
    }
}
