//! A model with quantized weights, and helpers to read and rewrite a file's metadata.

use burn_core as burn;

use burn::module::{Module, Param};
use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
use burn::tensor::{DType, Device, Tensor, TensorData};
use safetensors::SafeTensors;
use std::collections::HashMap;

/// Two weights (quantized or not) and a float bias.
#[derive(Module, Debug)]
pub struct QNet {
    /// `[3, 5]`, quantized per tensor.
    pub per_tensor: Param<Tensor<2>>,
    /// `[4, 32]`, quantized per block of 16.
    pub per_block: Param<Tensor<2>>,
    /// `[5]`, always float.
    pub bias: Param<Tensor<1>>,
}

/// Q8S, one f32 scale per tensor, packed in `u32` words along the last dim.
pub fn q8s() -> QuantScheme {
    QuantScheme::default().with_value(QuantValue::Q8S)
}

/// Q4S packed eight to a `u32` word, one f32 scale per block of 16.
pub fn q4s_block() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q4S)
        .with_store(QuantStore::PackedU32(0))
        .per_block([16], ScaleDtype::F32)
}

fn float<const D: usize>(shape: [usize; D], seed: f32, device: &Device) -> Param<Tensor<D>> {
    let n = shape.iter().product();
    Param::from_tensor(Tensor::from_data(
        TensorData::new(super::values(n, seed), shape),
        device,
    ))
}

/// A float `QNet` whose values depend on `seed`.
pub fn float_qnet(device: &Device, seed: f32) -> QNet {
    QNet {
        per_tensor: float([3, 5], seed, device),
        per_block: float([4, 32], seed + 1.0, device),
        bias: float([5], seed + 2.0, device),
    }
}

/// [`float_qnet`] with `per_tensor` quantized by [`q8s`] and `per_block` by [`q4s_block`].
pub fn quantized_qnet(device: &Device, seed: f32) -> QNet {
    let net = float_qnet(device, seed);
    QNet {
        per_tensor: net.per_tensor.map(|t| t.quantize_dynamic(&q8s())),
        per_block: net.per_block.map(|t| t.quantize_dynamic(&q4s_block())),
        bias: net.bias,
    }
}

/// The dtype of each parameter of `net`.
pub fn dtypes(net: &QNet) -> [DType; 3] {
    [
        net.per_tensor.val().dtype(),
        net.per_block.val().dtype(),
        net.bias.val().dtype(),
    ]
}

/// The metadata of a safetensors file.
pub fn metadata_of(bytes: &[u8]) -> HashMap<String, String> {
    let (_, header) = SafeTensors::read_metadata(bytes).unwrap();
    header.metadata().clone().unwrap_or_default()
}

/// The file `bytes` with its tensors kept and its metadata changed by `edit`, written again
/// with the safetensors crate.
pub fn with_metadata(bytes: &[u8], edit: impl FnOnce(&mut HashMap<String, String>)) -> Vec<u8> {
    let mut metadata = metadata_of(bytes);
    edit(&mut metadata);
    let tensors = SafeTensors::deserialize(bytes).unwrap();
    safetensors::serialize(tensors.tensors(), Some(metadata)).unwrap()
}
