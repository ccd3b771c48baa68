//! A host reference of symmetric min-max quantization, which backends are checked against.
//!
//! Per tensor or per block: `alpha = max |x|` over the block, `scale = 2·alpha / (b − a)` for the
//! value range `(a, b)` (Q8S: `alpha / 127`, Q8F: `2·alpha / 255`), rounded **up** onto the
//! scale dtype's grid; a zero or non-finite scale becomes the dtype's smallest positive normal
//! value. Then `q = clamp(round(x / scale), a, b)` (ties away from zero) and `x̂ = q · scale`.

use super::{BlockLayout, QuantMode, QuantScheme};

/// Panics naming `op` unless the reference can quantize with `scheme`: symmetric, an integer
/// value, one level (any scale dtype and store).
fn check(op: &str, shape: &[usize], scheme: &QuantScheme) {
    let QuantMode::Symmetric = scheme.mode;
    assert!(
        !scheme.value.is_float(),
        "{op}: float codes ({}) are not supported",
        scheme.value
    );
    assert_eq!(
        scheme.num_levels(),
        1,
        "{op}: two-level schemes are not supported ({scheme})"
    );
    if let Some(block) = scheme.block_size() {
        assert!(
            block.as_slice().len() <= shape.len(),
            "{op}: block {block} has more dims than shape {shape:?}"
        );
    }
}

/// Quantizes row-major `values` of `shape` under `scheme`: the codes (one `i8` each, row-major)
/// and the scales (one per tensor, or the block grid row-major).
///
/// Golden (upstream test): `[-1.8, -1.0, 0.0, 0.5]` per-tensor Q8S gives `[-127, -71, 0, 35]`
/// with scale `1.8 / 127`.
pub fn quantize_values(
    values: &[f32],
    shape: &[usize],
    scheme: &QuantScheme,
) -> (Vec<i8>, Vec<f32>) {
    check("quantize_values", shape, scheme);
    let count: usize = shape.iter().product();
    assert_eq!(
        values.len(),
        count,
        "quantize_values: {} values for shape {shape:?}",
        values.len()
    );
    let layout = BlockLayout::of_scheme(shape, scheme);
    let blocks: Vec<usize> = (0..count).map(|i| layout.block_of(i)).collect();

    let mut alpha = vec![0.0f32; layout.num_blocks()];
    for (&x, &block) in values.iter().zip(&blocks) {
        // `f32::max` skips NaN, so a NaN value leaves its block's range alone.
        alpha[block] = alpha[block].max(x.abs());
    }
    let (a, b) = scheme.value.range();
    let dtype = scheme.scale_dtype();
    let scales: Vec<f32> = alpha
        .iter()
        .map(|&alpha| {
            let scale = 2.0 * alpha / (b - a);
            if scale.is_finite() && scale > 0.0 {
                dtype.round_up(scale)
            } else {
                dtype.min_positive()
            }
        })
        .collect();

    let codes = values
        .iter()
        .zip(&blocks)
        .map(|(&x, &block)| (x / scales[block]).round().clamp(a, b) as i8)
        .collect();
    (codes, scales)
}

/// The floats `codes` of `shape` stand for under `scheme` with `scales` (as
/// [`quantize_values`] returns them): `code · scale` of its block.
pub fn dequantize_values(
    codes: &[i8],
    shape: &[usize],
    scheme: &QuantScheme,
    scales: &[f32],
) -> Vec<f32> {
    check("dequantize_values", shape, scheme);
    let layout = BlockLayout::of_scheme(shape, scheme);
    let count: usize = shape.iter().product();
    assert!(
        codes.len() == count && scales.len() == layout.num_blocks(),
        "dequantize_values: {} codes and {} scales for shape {shape:?} (expected {count} and {})",
        codes.len(),
        scales.len(),
        layout.num_blocks()
    );
    codes
        .iter()
        .enumerate()
        .map(|(i, &code)| code as f32 * scales[layout.block_of(i)])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TensorData;
    use crate::quantization::{QuantStore, QuantValue, ScaleDtype};
    use rand::{Rng, SeedableRng, rngs::StdRng};

    fn q8s() -> QuantScheme {
        QuantScheme::default().with_value(QuantValue::Q8S)
    }

    #[test]
    fn per_tensor_goldens() {
        // Upstream burn test `quantize`: scale 0.014173228 (= 1.8 / 127).
        let (codes, scales) = quantize_values(&[-1.8, -1.0, 0.0, 0.5], &[4], &q8s());
        assert_eq!(codes, [-127, -71, 0, 35]);
        assert_eq!(scales.len(), 1);
        assert!((scales[0] - 1.8 / 127.0).abs() <= f32::EPSILON * 0.02);

        // Upstream `quantize_dynamic` golden: scale 0.1 (= 12.7 / 127).
        let (codes, scales) = quantize_values(&[5.0, 0.0, 4.0, -12.7], &[2, 2], &q8s());
        assert_eq!(codes, [50, 0, 40, -127]);
        assert!((scales[0] - 0.1).abs() <= 1e-7, "{}", scales[0]);

        // Q8F spans 255 steps: alpha 127.5 gives scale 1, and ±127.5 round to ±128 (clamped).
        let q8f = QuantScheme::default();
        let (codes, scales) = quantize_values(&[127.5, -127.5, 3.5], &[3], &q8f);
        assert_eq!(scales, [1.0]);
        assert_eq!(codes, [127, -128, 4]);
    }

    #[test]
    fn zero_and_non_finite_scales_fall_back_to_the_smallest_normal() {
        let (codes, scales) = quantize_values(&[0.0; 3], &[3], &q8s());
        assert_eq!((codes, scales), (vec![0; 3], vec![f32::MIN_POSITIVE]));
        let f16 = q8s().per_tensor(ScaleDtype::F16);
        let (_, scales) = quantize_values(&[0.0, f32::INFINITY], &[2], &f16);
        assert_eq!(scales, [half::f16::MIN_POSITIVE.to_f32()]);
    }

    #[test]
    fn scales_round_up_onto_the_dtype() {
        let bf16 = q8s().per_tensor(ScaleDtype::BF16);
        let (codes, scales) = quantize_values(&[1.0, -0.3], &[2], &bf16);
        assert!(scales[0] >= 1.0 / 127.0);
        assert_eq!(half::bf16::from_f32(scales[0]).to_f32(), scales[0]);
        // Rounding the scale up by at most one bf16 step (2^-8 relative) costs at most one code.
        assert!((126..=127).contains(&codes[0]), "{codes:?}");
    }

    #[test]
    fn per_block_scales_differ_per_block() {
        // [2, 4] in blocks of [2]: four blocks, alpha 1, 2, 3 and 4.
        let values = [1.0, -0.25, 2.0, 1.5, -3.0, 0.0, 4.0, 4.0];
        let scheme = q8s().per_block([2], ScaleDtype::F32);
        let (codes, scales) = quantize_values(&values, &[2, 4], &scheme);
        let expected: Vec<f32> = [1.0f32, 2.0, 3.0, 4.0].iter().map(|a| a / 127.0).collect();
        assert_eq!(scales, expected);
        // -0.25 · 127 = -31.75; 1.5 · 127 / 2 = 95.25.
        assert_eq!(codes, [127, -32, 127, 95, -127, 0, 127, 127]);
    }

    #[test]
    fn dequantize_is_within_half_a_step() {
        let mut rng = StdRng::seed_from_u64(9);
        let shape = [6, 20];
        let values: Vec<f32> = (0..120).map(|_| rng.random_range(-3.0..3.0)).collect();
        for value in [
            QuantValue::Q8S,
            QuantValue::Q8F,
            QuantValue::Q4S,
            QuantValue::Q4F,
            QuantValue::Q2S,
        ] {
            for scheme in [
                QuantScheme::default().with_value(value),
                QuantScheme::default()
                    .with_value(value)
                    .per_block([4, 8], ScaleDtype::F16),
            ] {
                let (codes, scales) = quantize_values(&values, &shape, &scheme);
                let restored = dequantize_values(&codes, &shape, &scheme, &scales);
                let layout = BlockLayout::of_scheme(&shape, &scheme);
                for (i, (x, y)) in values.iter().zip(&restored).enumerate() {
                    let half_step = scales[layout.block_of(i)] / 2.0;
                    assert!((x - y).abs() <= half_step * 1.0001, "{scheme}: {x} -> {y}");
                }
            }
        }
    }

    #[test]
    fn quantized_data_round_trips_the_codes() {
        let scheme = QuantScheme::default()
            .with_value(QuantValue::Q4S)
            .with_store(QuantStore::PackedU32(1))
            .per_block([2, 3], ScaleDtype::BF16);
        let values: Vec<f32> = (0..35).map(|i| (i as f32 * 0.37).sin()).collect();
        let (codes, scales) = quantize_values(&values, &[5, 7], &scheme);
        assert_eq!(scales.len(), 3 * 3);
        let data = TensorData::quantized(codes.clone(), [5, 7], scheme, &scales);
        assert_eq!(data.as_quantized().unwrap().into_vec_i8(), (codes, scales));
    }
}
