//! Operations on quantized tensors.
//!
//! The required methods hold, move and reshape quantized values; the provided ones compose
//! them with the float operations (dequantize, compute, requantize where the device's
//! propagation setting asks for it). Backends may adopt
//! [`ComposedQTensor`](crate::quantization::ComposedQTensor) and write all of them with
//! [`composed_qtensor_ops!`](crate::composed_qtensor_ops).

use crate::TensorMetadata;
use crate::quantization::params::{block_max_abs, check_supported, scales_from_max_abs};
use crate::quantization::{
    BlockGeometry, QTensorPrimitive, QuantPropagation, QuantScheme,
    QuantizationParametersPrimitive, TensorPrimitive,
};
use crate::tensor::{Device, FloatTensor, IntTensor, QuantizedTensor};
use crate::{Backend, ExecutionError, FloatDType, Shape, Slice, TensorData, get_device_settings};
use core::future::Future;

/// Operations on quantized tensors.
pub trait QTensorOps<B: Backend> {
    /// A quantized tensor holding `data` (of a `QFloat` dtype).
    fn q_from_data(data: TensorData, device: &Device<B>) -> QuantizedTensor<B>;
    /// `tensor` quantized with `scheme` and the scales of `qparams`.
    fn quantize(
        tensor: FloatTensor<B>,
        scheme: &QuantScheme,
        qparams: QuantizationParametersPrimitive<B>,
    ) -> QuantizedTensor<B>;
    /// The float values a quantized tensor stands for, in `dtype`.
    fn dequantize(tensor: QuantizedTensor<B>, dtype: FloatDType) -> FloatTensor<B>;
    /// The device of a quantized tensor.
    fn q_device(tensor: &QuantizedTensor<B>) -> Device<B>;
    /// The quantized tensor on `device`.
    fn q_to_device(tensor: QuantizedTensor<B>, device: &Device<B>) -> QuantizedTensor<B>;
    /// The quantized tensor with a new shape of as many elements.
    fn q_reshape(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B>;
    /// Reads the quantized values and scales back to the host, in the scheme's byte format.
    fn q_into_data(
        tensor: QuantizedTensor<B>,
    ) -> impl Future<Output = Result<TensorData, ExecutionError>> + Send;
    /// The quantized tensor broadcast to `shape`.
    fn q_expand(tensor: QuantizedTensor<B>, shape: Shape) -> QuantizedTensor<B>;
    /// The quantized tensor with two dims exchanged.
    fn q_swap_dims(tensor: QuantizedTensor<B>, dim1: usize, dim2: usize) -> QuantizedTensor<B>;
    /// The quantized tensor with its dims in the order `axes`.
    fn q_permute(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B>;
    /// The quantized tensor reversed along `axes`.
    fn q_flip(tensor: QuantizedTensor<B>, axes: &[usize]) -> QuantizedTensor<B>;
    /// The entries at `indices` along `dim`.
    fn q_select(
        tensor: QuantizedTensor<B>,
        dim: usize,
        indices: IntTensor<B>,
    ) -> QuantizedTensor<B>;
    /// A slice of the quantized tensor.
    fn q_slice(tensor: QuantizedTensor<B>, slices: &[Slice]) -> QuantizedTensor<B>;

    /// `tensor` quantized with `scheme`, its scales computed from its values (min-max: for a
    /// symmetric scheme, the largest magnitude of each block; the same scales as
    /// `compute_range` then `compute_q_params`, in one reduction).
    fn quantize_dynamic(tensor: FloatTensor<B>, scheme: &QuantScheme) -> QuantizedTensor<B> {
        check_supported("quantize_dynamic", scheme);
        let geometry = BlockGeometry::new("quantize_dynamic", &tensor.shape(), scheme);
        let alpha = block_max_abs::<B>(&geometry, tensor.clone());
        let scales = scales_from_max_abs::<B>(scheme, alpha);
        B::quantize(tensor, scheme, QuantizationParametersPrimitive { scales })
    }
    /// The quantized tensor with its last two dims exchanged.
    fn q_transpose(tensor: QuantizedTensor<B>) -> QuantizedTensor<B> {
        let rank = crate::TensorMetadata::rank(&tensor);
        assert!(rank >= 2, "transpose: expected rank 2 or more, got {rank}");
        B::q_swap_dims(tensor, rank - 2, rank - 1)
    }
    /// Gathers along `dim` at `indices` (default: dequantize, gather, requantize).
    fn q_gather(
        dim: usize,
        tensor: QuantizedTensor<B>,
        indices: IntTensor<B>,
    ) -> QuantizedTensor<B> {
        let scheme = *tensor.scheme();
        let float = dequantize_default::<B>(tensor);
        let out = B::float_gather(dim, float, indices);
        let scheme = BlockGeometry::fitted(&out.shape(), &scheme);
        B::quantize_dynamic(out, &scheme)
    }
    /// The quantized tensor repeated `times` along `dim` (default: through float).
    fn q_repeat_dim(tensor: QuantizedTensor<B>, dim: usize, times: usize) -> QuantizedTensor<B> {
        let scheme = *tensor.scheme();
        let float = dequantize_default::<B>(tensor);
        let out = B::float_repeat_dim(float, dim, times);
        let scheme = BlockGeometry::fitted(&out.shape(), &scheme);
        B::quantize_dynamic(out, &scheme)
    }
    /// Concatenates quantized tensors along `dim`, requantized with the first one's scheme.
    fn q_cat(tensors: Vec<QuantizedTensor<B>>, dim: usize) -> QuantizedTensor<B> {
        let scheme = *tensors
            .first()
            .expect("cat: expected at least one tensor, got none")
            .scheme();
        let floats = tensors.into_iter().map(dequantize_default::<B>).collect();
        let out = B::float_cat(floats, dim);
        let scheme = BlockGeometry::fitted(&out.shape(), &scheme);
        B::quantize_dynamic(out, &scheme)
    }
    /// Detaches a quantized tensor from any graph (quantized tensors are never tracked).
    fn q_detach(tensor: QuantizedTensor<B>) -> QuantizedTensor<B> {
        tensor
    }
    /// Quantized tensors take no gradient: the flag is ignored.
    fn q_set_require_grad(tensor: QuantizedTensor<B>, _require_grad: bool) -> QuantizedTensor<B> {
        tensor
    }
    /// Always false: quantized tensors take no gradient.
    fn q_is_require_grad(_tensor: &QuantizedTensor<B>) -> bool {
        false
    }
    /// The index of the largest value along `dim`.
    fn q_argmax(tensor: QuantizedTensor<B>, dim: usize) -> IntTensor<B> {
        B::float_argmax(dequantize_default::<B>(tensor), dim)
    }
    /// The index of the smallest value along `dim`.
    fn q_argmin(tensor: QuantizedTensor<B>, dim: usize) -> IntTensor<B> {
        B::float_argmin(dequantize_default::<B>(tensor), dim)
    }
    /// The matrix product of two tensors, either or both quantized.
    ///
    /// Default: each quantized side is dequantized (to the float side's dtype, or the device's
    /// default float dtype), then `float_matmul`; the result is requantized with the scheme of
    /// the quantized operand (the right one when both are) only when the device's
    /// quantization settings say `Propagate`.
    fn q_matmul(lhs: TensorPrimitive<B>, rhs: TensorPrimitive<B>) -> TensorPrimitive<B> {
        q_matmul_dequantized::<B>(lhs, rhs)
    }
}

/// The default `q_matmul`: each quantized side dequantized (to the float side's dtype, or the
/// device's default float dtype), `float_matmul`, then requantized with the quantized operand's
/// scheme (the right one when both are) only when the device's propagation setting is
/// `Propagate`. Backends that override `q_matmul` call it for the cases they do not handle.
pub fn q_matmul_dequantized<B: Backend>(
    lhs: TensorPrimitive<B>,
    rhs: TensorPrimitive<B>,
) -> TensorPrimitive<B> {
    let float_dtype = match (&lhs, &rhs) {
        (TensorPrimitive::Float(t), _) | (_, TensorPrimitive::Float(t)) => {
            Some(FloatDType::from_dtype(crate::TensorMetadata::dtype(t)))
        }
        _ => None,
    };
    let mut quantized = None;
    let mut float = |side: TensorPrimitive<B>| match side {
        TensorPrimitive::Float(t) => t,
        TensorPrimitive::QFloat(q) => {
            let device = B::q_device(&q);
            quantized = Some((*q.scheme(), device.clone()));
            let dtype =
                float_dtype.unwrap_or_else(|| get_device_settings::<B>(&device).float_dtype);
            B::dequantize(q, dtype)
        }
    };
    let (lhs, rhs) = (float(lhs), float(rhs));
    let out = B::float_matmul(lhs, rhs);
    match quantized {
        Some((scheme, device)) => propagate::<B>(out, &scheme, &device),
        None => TensorPrimitive::Float(out),
    }
}

/// `out` requantized with `scheme` (per tensor when its blocks do not fit `out`) when
/// `device`'s propagation setting is `Propagate`, else `out` as it is.
pub fn propagate<B: Backend>(
    out: FloatTensor<B>,
    scheme: &QuantScheme,
    device: &Device<B>,
) -> TensorPrimitive<B> {
    if get_device_settings::<B>(device).quantization.propagation == QuantPropagation::Propagate {
        let scheme = BlockGeometry::fitted(&out.shape(), scheme);
        TensorPrimitive::QFloat(B::quantize_dynamic(out, &scheme))
    } else {
        TensorPrimitive::Float(out)
    }
}

/// `tensor` dequantized to its device's default float dtype.
pub fn dequantize_default<B: Backend>(tensor: QuantizedTensor<B>) -> FloatTensor<B> {
    let dtype = get_device_settings::<B>(&B::q_device(&tensor)).float_dtype;
    B::dequantize(tensor, dtype)
}
