//! Quantized operations routed to the tensor's backend.
//!
//! Quantized tensors are never tracked: on an autodiff device they are the inner backend's,
//! `quantize` takes the values of a tracked tensor, and `dequantize` gives an untracked float
//! tensor of the device (so later float operations may still be recorded).

use super::prelude::*;
use burn_backend::quantization::{QuantScheme, QuantizationParametersPrimitive, TensorPrimitive};

type T = DispatchTensor;

impl QTensorOps<Self> for Dispatch {
    fn q_from_data(data: TensorData, device: &DispatchDevice) -> T {
        dispatch_device!(device, E, B => E::wrap_quantized(B::q_from_data(data, &E::device(device))))
    }
    fn quantize(
        tensor: T,
        scheme: &QuantScheme,
        qparams: QuantizationParametersPrimitive<Self>,
    ) -> T {
        dispatch!(&tensor, E, B => {
            let qparams = QuantizationParametersPrimitive { scales: E::float(qparams.scales) };
            E::wrap_quantized(B::quantize(E::float(tensor), scheme, qparams))
        })
    }
    fn quantize_dynamic(tensor: T, scheme: &QuantScheme) -> T {
        dispatch!(&tensor, E, B => E::wrap_quantized(B::quantize_dynamic(E::float(tensor), scheme)))
    }
    fn dequantize(tensor: T, dtype: FloatDType) -> T {
        let device = Dispatch::q_device(&tensor);
        dispatch!(&tensor, E, B => E::wrap_float_on(&device, B::dequantize(E::quantized(tensor), dtype)))
    }
    fn q_device(tensor: &T) -> DispatchDevice {
        dispatch!(tensor, E, B => match E::unwrap_ref(tensor) {
            BackendTensor::Quantized(q) => E::wrap_device(B::q_device(q)),
            other => panic!("q_device: expected a quantized tensor, got a {} tensor", other.kind()),
        })
    }
    fn q_to_device(tensor: T, device: &DispatchDevice) -> T {
        Dispatch::float_to_device(tensor, device)
    }
    async fn q_into_data(tensor: T) -> Result<TensorData, ExecutionError> {
        dispatch!(&tensor, E, B => B::q_into_data(E::quantized(tensor)).await)
    }
    fn q_matmul(lhs: TensorPrimitive<Self>, rhs: TensorPrimitive<Self>) -> TensorPrimitive<Self> {
        let unwrap = |t: TensorPrimitive<Self>| match t {
            TensorPrimitive::Float(t) | TensorPrimitive::QFloat(t) => t,
        };
        let out = Dispatch::float_matmul(unwrap(lhs), unwrap(rhs));
        if matches!(out.dtype(), DType::QFloat(_)) {
            TensorPrimitive::QFloat(out)
        } else {
            TensorPrimitive::Float(out)
        }
    }

    forward! {
        fn q_reshape(tensor: Q, shape: Val[Shape]) -> Q;
        fn q_expand(tensor: Q, shape: Val[Shape]) -> Q;
        fn q_swap_dims(tensor: Q, dim1: Val[usize], dim2: Val[usize]) -> Q;
        fn q_permute(tensor: Q, axes: Slice[usize]) -> Q;
        fn q_flip(tensor: Q, axes: Slice[usize]) -> Q;
        fn q_select(tensor: Q, dim: Val[usize], indices: I) -> Q;
        fn q_slice(tensor: Q, slices: Slice[Slice]) -> Q;
        fn q_gather(dim: Val[usize], tensor: Q, indices: I) -> Q;
        fn q_repeat_dim(tensor: Q, dim: Val[usize], times: Val[usize]) -> Q;
        fn q_cat(tensors: VecQ, dim: Val[usize]) -> Q;
        fn q_argmax(tensor: Q, dim: Val[usize]) -> I;
        fn q_argmin(tensor: Q, dim: Val[usize]) -> I;
    }
}
