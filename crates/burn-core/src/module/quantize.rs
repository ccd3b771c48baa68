//! `Quantizer`: quantizes the float parameters of a module (all, or a group).

use super::{ModuleMapper, Param, ParamGroup};
use burn_tensor::Tensor;
use burn_tensor::quantization::{Calibration, QuantScheme, compute_q_params, compute_range};

/// Quantizes the float parameters of a module (weights and biases) in `group` (all by default)
/// with `scheme`, the scales from `calibration`. Used by
/// [`Module::quantize_weights`](super::Module::quantize_weights) and
/// [`quantize_weights_group`](super::Module::quantize_weights_group).
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
/// let mut quantizer = Quantizer::new(Calibration::MinMax, scheme);
/// let weight = weight.quantize_weights(&mut quantizer);
/// assert_eq!(weight.val().dtype(), DType::QFloat(scheme));
/// ```
#[derive(Debug, Clone)]
pub struct Quantizer {
    /// The path of the module being mapped.
    path: Vec<String>,
    /// How the range of each parameter is measured.
    pub calibration: Calibration,
    /// The scheme every parameter is quantized with.
    pub scheme: QuantScheme,
    /// The parameters quantized.
    pub group: ParamGroup,
}

impl Quantizer {
    /// A quantizer of every float parameter.
    pub fn new(calibration: Calibration, scheme: QuantScheme) -> Self {
        Self {
            path: Vec::new(),
            calibration,
            scheme,
            group: ParamGroup::all(),
        }
    }

    /// Quantizes only the parameters of `group`.
    pub fn set_param_group(&mut self, group: ParamGroup) {
        self.group = group;
    }
}

impl ModuleMapper for Quantizer {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }

    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }

    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if !self.group.matches(&param.id, Some(&self.path.join("."))) {
            return param;
        }
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
