//! Helpers shared by the layer tests: deterministic inputs, reading tensors back as `f64`,
//! comparing with float64 references computed by plain loops.
#![allow(dead_code)]

use burn_core::tensor::{Device, Int, Tensor, TensorData};

/// The devices every layer is checked on: the plain CPU device and its autodiff view.
pub fn devices() -> [Device; 2] {
    [Device::flex(), Device::flex().autodiff()]
}

/// `n` deterministic values in `[-1, 1)`, already rounded to `f32` so that a float64
/// reference sees exactly what the tensor holds.
pub fn sample(n: usize, seed: u64) -> Vec<f64> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            (2.0 * unit - 1.0) as f32 as f64
        })
        .collect()
}

/// A float tensor of `shape` holding `values`.
pub fn tensor<const D: usize>(values: &[f64], shape: [usize; D], device: &Device) -> Tensor<D> {
    let data: Vec<f32> = values.iter().map(|&v| v as f32).collect();
    Tensor::from_data(TensorData::new(data, shape), device)
}

/// An int tensor of `shape` holding `values`.
pub fn int_tensor<const D: usize>(
    values: &[i64],
    shape: [usize; D],
    device: &Device,
) -> Tensor<D, Int> {
    Tensor::from_data(TensorData::new(values.to_vec(), shape), device)
}

/// The values of a float tensor as `f64`.
pub fn values<const D: usize>(tensor: Tensor<D>) -> Vec<f64> {
    let data = tensor.into_data().convert::<f64>();
    data.to_vec::<f64>().expect("float data")
}

/// Panics unless `actual` and `expected` agree within `tol · (1 + |expected|)` everywhere.
#[track_caller]
pub fn assert_close(actual: &[f64], expected: &[f64], tol: f64) {
    assert_eq!(actual.len(), expected.len(), "lengths differ");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        assert!(
            (a - e).abs() <= tol * (1.0 + e.abs()),
            "element {i}: got {a}, expected {e} (tolerance {tol})\nactual: {actual:?}\nexpected: {expected:?}"
        );
    }
}

/// The index of `[i, j, …]` in a row-major array of `dims`.
pub fn at(dims: &[usize], index: &[usize]) -> usize {
    dims.iter().zip(index).fold(0, |acc, (d, i)| acc * d + i)
}
