//! `Quantizer`: quantizes every float parameter of a module.

use super::{ModuleMapper, Param};
use burn_tensor::Tensor;
use burn_tensor::quantization::{Calibration, QuantScheme, compute_q_params, compute_range};

/// Quantizes every float parameter of a module (weights and biases) with `scheme`, the
/// scales from `calibration`. Used by [`Module::quantize_weights`](super::Module::quantize_weights).
///
/// A parameter the scheme's blocks do not fit (a bias `[10]` under blocks of `[32, 1]`, a
/// dim not a multiple of the block) stays float.
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
            if !blocks_fit(&self.scheme, &tensor.dims()) {
                return tensor;
            }
            let range = compute_range(&self.scheme, &tensor, &self.calibration);
            let qparams = compute_q_params(&self.scheme, range);
            tensor.quantize(&self.scheme, qparams)
        })
    }
}

/// Whether `scheme`'s blocks fit a tensor of `dims` (per-tensor schemes fit everything).
fn blocks_fit(scheme: &QuantScheme, dims: &[usize]) -> bool {
    let Some(block) = scheme.block_size() else {
        return true;
    };
    block.as_slice().len() <= dims.len()
        && block
            .to_dim_vec(dims.len())
            .iter()
            .zip(dims)
            .all(|(&b, &s)| s % b == 0)
}
