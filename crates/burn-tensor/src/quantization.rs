//! Quantization in the public API: the scheme types (from `burn-std`), calibration, and the
//! parameters [`Tensor::quantize`] takes.
//!
//! A quantized tensor is still a `Tensor<D>` (of kind `Float`); its [`dtype`](Tensor::dtype)
//! is `DType::QFloat(scheme)`. Layout operations (`reshape`, `permute`, `swap_dims`,
//! `transpose`, `flip`, `expand`, `slice`, `select`, `gather`, `repeat_dim`, `cat`), moving it
//! between devices and reading its data keep it quantized; `matmul` takes it as it is (the
//! backend may compute in integers); every other operation works on its dequantized values
//! and returns a float tensor.
//!
//! ```
//! use burn_tensor::{Device, Tensor, DType};
//! use burn_tensor::quantization::{QuantScheme, QuantValue};
//! let device = Device::default();
//! let x = Tensor::<1>::from_floats([-1.8, -1.0, 0.0, 0.5], &device);
//! let scheme = QuantScheme::default().with_value(QuantValue::Q8S);
//! let q = x.clone().quantize_dynamic(&scheme);
//! assert_eq!(q.dtype(), DType::QFloat(scheme));
//! let back = q.dequantize();
//! back.into_data().assert_approx_eq::<f32>(&x.into_data(), burn_tensor::Tolerance::absolute(1e-2));
//! ```

use crate::Tensor;
use burn_backend::quantization as q;
use burn_dispatch::Dispatch;

pub use burn_backend::quantization::{
    BlockScale, BlockSize, Calibration, QParams, QuantAcc, QuantConfig, QuantMode,
    QuantPropagation, QuantScheme, QuantStore, QuantValue, QuantizedBytes, ScaleDtype,
    params_shape,
};

/// The scales of a quantization as tensors: shape `[1]` per tensor, else the block grid
/// flattened (one entry per block, row-major).
pub type QuantizationParameters = QParams<Tensor<1>>;

/// The range of a tensor's values, per tensor (`[1]`) or per block (the block grid
/// flattened).
#[derive(Debug, Clone)]
pub struct CalibrationRange {
    /// The smallest value of each block.
    pub min: Tensor<1>,
    /// The largest value of each block.
    pub max: Tensor<1>,
}

/// The range of `tensor`'s values for `scheme` under `calibration`.
///
/// # Panics
///
/// When the scheme's blocks do not divide the tensor's shape.
pub fn compute_range<const D: usize>(
    scheme: &QuantScheme,
    tensor: &Tensor<D>,
    calibration: &Calibration,
) -> CalibrationRange {
    let (min, max) =
        q::compute_range::<Dispatch>(scheme, tensor.clone().into_primitive(), calibration);
    CalibrationRange {
        min: flat(min),
        max: flat(max),
    }
}

/// The symmetric scales that map `range` onto `scheme`'s values.
///
/// # Panics
///
/// When the scheme is not one this framework implements.
pub fn compute_q_params(scheme: &QuantScheme, range: CalibrationRange) -> QuantizationParameters {
    let params = q::compute_q_params::<Dispatch>(
        scheme,
        range.min.into_primitive(),
        range.max.into_primitive(),
    );
    QParams {
        scales: flat(params.scales),
        global: None,
    }
}

/// A grid of scales as a rank-1 tensor.
fn flat(tensor: burn_dispatch::DispatchTensor) -> Tensor<1> {
    use burn_backend::TensorMetadata;
    use burn_backend::ops::FloatTensorOps;
    let n = tensor.shape().num_elements();
    Tensor::from_primitive(Dispatch::float_reshape(tensor, [n].into()))
}
