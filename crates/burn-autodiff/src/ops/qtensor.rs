//! `QTensorOps` for `Autodiff<B, C>`: quantized tensors are `B`'s own and carry no gradient.
//! A float operand of `q_matmul` stays tracked (the default dequantizes the quantized side and
//! runs this backend's `float_matmul`).

use crate::checkpoint::strategy::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};
use burn_backend::ops::QTensorOps;
use burn_backend::quantization::{QuantScheme, QuantizationParametersPrimitive};
use burn_backend::tensor::{Device, FloatTensor, IntTensor, QuantizedTensor};
use burn_backend::{Backend, ExecutionError, FloatDType, Shape, Slice, TensorData};
use core::future::Future;

impl<B: Backend, C: CheckpointStrategy> QTensorOps<Self> for Autodiff<B, C> {
    delegate! {
        to B;
        fn q_from_data(data: TensorData, device: &Device<B>) -> QuantizedTensor<B>;
        fn q_device(tensor: &QuantizedTensor<B>) -> Device<B>;
        fn q_to_device(tensor: QuantizedTensor<B>, device: &Device<B>) -> QuantizedTensor<B>;
        fn q_reshape(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B>;
        fn q_expand(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B>;
        fn q_swap_dims(tensor: QuantizedTensor<B>, dim1: usize, dim2: usize) -> QuantizedTensor<B>;
        fn q_permute(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B>;
        fn q_flip(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B>;
        fn q_select(tensor: QuantizedTensor<B>, dim: usize, indices: IntTensor<B>) -> QuantizedTensor<B>;
        fn q_slice(tensor: QuantizedTensor<B>, slices: &[Slice]) -> QuantizedTensor<B>;
        fn q_gather(dim: usize, tensor: QuantizedTensor<B>, indices: IntTensor<B>) -> QuantizedTensor<B>;
        fn q_repeat_dim(tensor: QuantizedTensor<B>, dim: usize, times: usize) -> QuantizedTensor<B>;
        fn q_cat(tensors: Vec<QuantizedTensor<B>>, dim: usize) -> QuantizedTensor<B>;
        fn q_argmax(tensor: QuantizedTensor<B>, dim: usize) -> IntTensor<B>;
        fn q_argmin(tensor: QuantizedTensor<B>, dim: usize) -> IntTensor<B>;
    }

    fn q_into_data(
        tensor: QuantizedTensor<B>,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send {
        B::q_into_data(tensor)
    }

    /// Quantizes the value only: no gradient flows through quantization.
    fn quantize(
        tensor: FloatTensor<Self>,
        scheme: &QuantScheme,
        qparams: QuantizationParametersPrimitive<Self>,
    ) -> QuantizedTensor<B> {
        let qparams = QuantizationParametersPrimitive {
            scales: qparams.scales.into_primitive(),
        };
        B::quantize(tensor.into_primitive(), scheme, qparams)
    }

    /// Quantizes the value only: no gradient flows through quantization.
    fn quantize_dynamic(tensor: FloatTensor<Self>, scheme: &QuantScheme) -> QuantizedTensor<B> {
        B::quantize_dynamic(tensor.into_primitive(), scheme)
    }

    /// The result is an untracked constant.
    fn dequantize(tensor: QuantizedTensor<B>, dtype: FloatDType) -> FloatTensor<Self> {
        AutodiffTensor::new(B::dequantize(tensor, dtype))
    }
}
