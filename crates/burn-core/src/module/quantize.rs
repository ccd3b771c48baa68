//! `Quantizer`: quantizes every float parameter of a module.

use super::{ModuleMapper, Param};
use burn_tensor::Tensor;
use burn_tensor::quantization::{Calibration, QuantScheme, compute_q_params, compute_range};

/// Quantizes every float parameter of a module (weights and biases) with `scheme`, the
/// scales from `calibration`. Used by [`Module::quantize_weights`](super::Module::quantize_weights).
///
/// ```
/// use burn_core::module::{Module, Param, Quantizer};
/// use burn_core::tensor::{DType, Device, Tensor};
/// use burn_core::tensor::quantization::{Calibration, QuantScheme, QuantValue};
///
/// let device = Device::default();
/// let weight = Param::from_tensor(Tensor::<2>::ones([4, 4], &device));
/// let scheme = QuantScheme::default().with_value(QuantValue::Q8S);
/// let mut quantizer = Quantizer { calibration: Calibration::MinMax, scheme };
/// let weight = weight.quantize_weights(&mut quantizer);
/// assert_eq!(weight.val().dtype(), DType::QFloat(scheme));
/// ```
#[derive(Debug, Clone)]
pub struct Quantizer {
    /// How the range of each parameter is measured.
    pub calibration: Calibration,
    /// The scheme every parameter is quantized with.
    pub scheme: QuantScheme,
}

impl ModuleMapper for Quantizer {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.map(|tensor| {
            let range = compute_range(&self.scheme, &tensor, &self.calibration);
            let qparams = compute_q_params(&self.scheme, range);
            tensor.quantize(&self.scheme, qparams)
        })
    }
}
