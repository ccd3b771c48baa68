//! Quantized tensors: quantizing (exact values of known cases, the error bound of each scheme),
//! the byte format round trip, every layout op on quantized tensors, and matrix products with
//! quantized operands, all against the float64 reference of the dequantized values.

mod layout;
mod matmul;
mod quantize;

use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
use burn::tensor::{DType, Tensor};
use burn_backend_tests::{Env, RefArray};

/// Symmetric 8-bit values, one scale per tensor.
pub fn q8_tensor() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .per_tensor(ScaleDtype::F32)
}

/// Symmetric 8-bit values, one scale per block of `block`.
pub fn q8_block(block: &[u8]) -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .per_block(block, ScaleDtype::F32)
}

/// Symmetric 4-bit values packed eight to a word, one scale per block of `block`.
pub fn q4_block(block: &[u8]) -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q4S)
        .with_store(QuantStore::PackedU32(0))
        .per_block(block, ScaleDtype::F32)
}

/// The float64 reference of quantizing `a` with `scheme` and dequantizing: per block (or the
/// whole tensor), `scale = max|x| / b` for the value range `[-b, b]`, `round(x / scale)`.
/// Also returns the largest scale (one quantum of the coarsest block).
pub fn quantize_ref(a: &RefArray, scheme: &QuantScheme) -> (RefArray, f64) {
    let rank = a.rank();
    let block = match scheme.block_size() {
        Some(b) => b.to_dim_vec(rank),
        None => a.shape.clone(),
    };
    let grid: Vec<usize> = a.shape.iter().zip(&block).map(|(s, b)| s / b).collect();
    let block_of = |index: &[usize]| -> usize {
        index
            .iter()
            .zip(&block)
            .zip(&grid)
            .fold(0, |acc, ((i, b), g)| acc * g + i / b)
    };
    let mut max_abs = vec![0.0f64; grid.iter().product()];
    for (index, v) in a.indexed() {
        let k = block_of(&index);
        max_abs[k] = max_abs[k].max(v.abs());
    }
    let (_, hi) = scheme.value.range();
    let scales: Vec<f64> = max_abs
        .iter()
        .map(|m| (m / hi as f64).max(f32::MIN_POSITIVE as f64))
        .collect();
    let out = RefArray::from_fn(&a.shape, |index| {
        let s = scales[block_of(index)];
        (a.at(index) / s).round().clamp(-(hi as f64), hi as f64) * s
    });
    (out, scales.iter().cloned().fold(0.0, f64::max))
}

/// `tensor`'s dequantized values as a reference array (read back from the device).
pub fn dequantized<const D: usize>(tensor: Tensor<D>) -> RefArray {
    let tensor = tensor.dequantize();
    let shape = tensor.dims().to_vec();
    let data = tensor.into_data().to_vec::<f64>().unwrap();
    RefArray::new(&shape, data)
}

/// Panics unless `tensor` is stored quantized with `scheme`.
pub fn assert_quantized<const D: usize>(op: &str, tensor: &Tensor<D>, scheme: &QuantScheme) {
    assert_eq!(
        tensor.dtype(),
        DType::QFloat(*scheme),
        "{op}: expected a quantized result with scheme {scheme}"
    );
}

/// Panics unless the dequantized values of `got` are within one quantum (`quantum` plus the
/// float dtype's rounding) of `expected`.
pub fn check_dequantized<const D: usize>(
    env: &Env,
    op: &str,
    got: Tensor<D>,
    expected: &RefArray,
    quantum: f64,
) {
    let (rel, abs) = env.tolerance(4.0);
    env.check_tol(op, got.dequantize(), expected, rel, abs + quantum);
}
