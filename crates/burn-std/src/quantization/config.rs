//! Settings around a scheme: a device's quantization defaults, the calibration, the accumulation
//! precision and the parameters a quantization takes.

use super::QuantScheme;
use serde::{Deserialize, Serialize};

/// Whether an operation on quantized tensors returns a quantized tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum QuantPropagation {
    /// Requantize the result with the input's scheme.
    Propagate,
    /// Return the float result.
    #[default]
    Inhibit,
}

/// The precision quantized operations accumulate in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum QuantAcc {
    /// 32-bit float.
    #[default]
    F32,
    /// 16-bit IEEE half float.
    F16,
    /// 16-bit brain float.
    BF16,
}

/// A device's quantization defaults (the `quantization` field of `DeviceSettings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub struct QuantConfig {
    /// The scheme used when an operation quantizes without naming one.
    pub scheme: QuantScheme,
    /// Whether operations on quantized tensors return quantized tensors.
    pub propagation: QuantPropagation,
}

/// How the range a tensor is quantized over is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Calibration {
    /// The minimum and maximum of the values (of the tensor, or of each block).
    #[default]
    MinMax,
}

/// The parameters of a quantization: the scales (one per tensor or per block) and, for
/// two-level schemes, the global scale.
#[derive(Debug, Clone, PartialEq)]
pub struct QParams<S> {
    /// The scales of the innermost level.
    pub scales: S,
    /// The global scale of a two-level scheme.
    pub global: Option<S>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults() {
        let config = QuantConfig::default();
        assert_eq!(config.scheme, QuantScheme::default());
        assert_eq!(config.propagation, QuantPropagation::Inhibit);
        assert_eq!(QuantAcc::default(), QuantAcc::F32);
        assert_eq!(Calibration::default(), Calibration::MinMax);
        let params = QParams {
            scales: vec![0.5f32],
            global: None,
        };
        assert_eq!(params.clone(), params);
    }
}
