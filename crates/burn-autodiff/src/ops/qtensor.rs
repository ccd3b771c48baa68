//! `QTensorOps` for `Autodiff<B, C>`: quantized tensors are `B`'s own and carry no gradient.

use crate::checkpoint::strategy::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};
use burn_backend::ops::QTensorOps;
use burn_backend::tensor::{Device, FloatTensor, QuantizedTensor};
use burn_backend::{Backend, QuantScheme, TensorData};

impl<B: Backend, C: CheckpointStrategy> QTensorOps<Self> for Autodiff<B, C> {
    delegate! {
        to B;
        fn q_from_data(data: TensorData, device: &Device<B>) -> QuantizedTensor<B>;
    }

    /// Quantizes the value only: no gradient flows through quantization.
    fn quantize_dynamic(tensor: FloatTensor<Self>, scheme: &QuantScheme) -> QuantizedTensor<B> {
        B::quantize_dynamic(tensor.into_primitive(), scheme)
    }

    /// The result is an untracked constant.
    fn dequantize(tensor: QuantizedTensor<B>) -> FloatTensor<Self> {
        AutodiffTensor::new(B::dequantize(tensor))
    }
}
