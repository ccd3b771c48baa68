//! Quantizing and dequantizing: known values, the error bound of each scheme, calibration,
//! the byte format round trip, and refusals.

use super::{assert_quantized, check_dequantized, q4_block, q8_block, q8_tensor, quantize_ref};
use burn::tensor::quantization::{
    Calibration, QuantScheme, QuantValue, QuantizedBytes, ScaleDtype, compute_q_params,
    compute_range,
};
use burn::tensor::{Tensor, TensorData};
use burn_backend_tests::{Env, RefArray, round_to};

/// The stored values and scales of a quantized tensor.
fn stored<const D: usize>(tensor: Tensor<D>) -> (Vec<i8>, Vec<f32>) {
    let data = tensor.into_data();
    let burn::tensor::DType::QFloat(scheme) = data.dtype else {
        panic!("expected quantized data, got {}", data.dtype)
    };
    QuantizedBytes::from_bytes(data.as_bytes().to_vec(), data.shape.clone(), scheme)
        .unwrap()
        .into_vec_i8()
}

#[test]
fn known_values_per_tensor() {
    // max |x| = 1.8 → scale 1.8 / 127; -1.0 / scale = -70.56 → -71; 0.5 / scale = 35.28 → 35.
    let env = Env::new(crate::device());
    let x = Tensor::<1>::from_floats([-1.8, -1.0, 0.0, 0.5], &env.device);
    let (values, scales) = stored(x.quantize_dynamic(&q8_tensor()));
    assert_eq!(values, vec![-127, -71, 0, 35]);
    assert_eq!(scales.len(), 1);
    let r = |v: f64| round_to(env.dtype, v) as f32;
    assert!(
        (scales[0] - r(1.8) / 127.0).abs() < 1e-6,
        "scale {}",
        scales[0]
    );

    let x = Tensor::<1>::from_floats([5.0, 0.0, 4.0, -12.7], &env.device);
    let (values, scales) = stored(x.quantize_dynamic(&q8_tensor()));
    assert_eq!(values, vec![50, 0, 40, -127]);
    assert!(
        (scales[0] - r(12.7) / 127.0).abs() < 1e-6,
        "scale {}",
        scales[0]
    );
}

#[test]
fn known_values_per_block() {
    // Blocks of 4: scales 4 / 7 and 0.7 / 7 = 0.1; -2.2 / (4 / 7) = -3.85 → -4.
    let env = Env::new(crate::device());
    let x = Tensor::<2>::from_floats([[4.0, -2.2, 1.0, 0.0], [0.7, 0.36, -0.1, 0.0]], &env.device);
    let scheme = QuantScheme::default()
        .with_value(QuantValue::Q4S)
        .per_block([4], ScaleDtype::F32);
    let (values, scales) = stored(x.quantize_dynamic(&scheme));
    assert_eq!(values, vec![7, -4, 2, 0, 7, 4, -1, 0]);
    let r = |v: f64| round_to(env.dtype, v) as f32;
    assert!((scales[0] - 4.0 / 7.0).abs() < 1e-6, "scale {}", scales[0]);
    assert!(
        (scales[1] - r(0.7) / 7.0).abs() < 1e-6,
        "scale {}",
        scales[1]
    );
}

#[test]
fn every_scheme_stays_within_half_a_quantum() {
    let env = Env::new(crate::device());
    let a = env.random(&[8, 64], -2.0, 2.0, 901);
    let schemes = [
        q8_tensor(),
        q8_block(&[16]),
        q8_block(&[2, 16]),
        q4_block(&[32]),
        QuantScheme::default()
            .with_value(QuantValue::Q4S)
            .per_tensor(ScaleDtype::F32),
        QuantScheme::default()
            .with_value(QuantValue::Q2S)
            .per_block([8], ScaleDtype::F32),
    ];
    for scheme in schemes {
        let q = env.float::<2>(&a).quantize_dynamic(&scheme);
        assert_quantized("quantize_dynamic", &q, &scheme);
        let (expected, quantum) = quantize_ref(&a, &scheme);
        check_dequantized(
            &env,
            &format!("quantize {scheme}"),
            q.clone(),
            &expected,
            quantum,
        );
        // And the round trip error bound against the input itself.
        let (rel, abs) = env.tolerance(4.0);
        env.check_tol(
            &format!("round trip {scheme}"),
            q.dequantize(),
            &a,
            rel,
            abs + quantum / 2.0 + 1e-6,
        );
    }
}

#[test]
fn explicit_calibration_matches_dynamic() {
    let env = Env::new(crate::device());
    let a = env.random(&[4, 32], -3.0, 1.0, 902);
    for scheme in [q8_tensor(), q8_block(&[16])] {
        let x = env.float::<2>(&a);
        let range = compute_range(&scheme, &x, &Calibration::MinMax);
        let (min, max) = (range.min.clone(), range.max.clone());
        let blocks = if scheme.block_size().is_some() { 8 } else { 1 };
        assert_eq!(min.dims(), [blocks]);
        let expected_min = if blocks == 1 {
            RefArray::new(&[1], vec![a.data.iter().cloned().fold(f64::MAX, f64::min)])
        } else {
            RefArray::from_fn(&[8], |i| {
                let (row, col) = (i[0] / 2, (i[0] % 2) * 16);
                (0..16)
                    .map(|j| a.at(&[row, col + j]))
                    .fold(f64::MAX, f64::min)
            })
        };
        env.check_tol(
            "compute_range min",
            min,
            &env.round(&expected_min),
            0.0,
            1e-6,
        );
        assert_eq!(max.dims(), [blocks]);
        let qparams = compute_q_params(&scheme, range);
        let explicit = x.clone().quantize(&scheme, qparams).into_data();
        let dynamic = x.quantize_dynamic(&scheme).into_data();
        assert_eq!(explicit.as_bytes(), dynamic.as_bytes(), "quantize {scheme}");
    }
}

#[test]
fn data_round_trips_bit_exactly() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4, 32], -1.0, 1.0, 903);
    let native = q8_block(&[8]).with_store(burn::tensor::quantization::QuantStore::Native);
    for scheme in [q8_tensor(), q8_block(&[1, 16]), q4_block(&[32]), native] {
        let data = env.float::<3>(&a).quantize_dynamic(&scheme).into_data();
        assert_eq!(data.dtype, burn::tensor::DType::QFloat(scheme));
        let back = Tensor::<3>::from_data(data.clone(), &env.device);
        assert_quantized("from_data", &back, &scheme);
        let again = back.into_data();
        assert_eq!(data.as_bytes(), again.as_bytes(), "round trip {scheme}");
    }
}

#[test]
fn quantized_data_uploads_as_given() {
    let env = Env::new(crate::device());
    let scheme = q8_tensor();
    let data = TensorData::quantized(vec![-127i8, 0, 64, 127], [2, 2], scheme, &[0.5]);
    let q = Tensor::<2>::from_data(data, &env.device);
    assert_quantized("from_data", &q, &scheme);
    env.check(
        "dequantize",
        q.dequantize(),
        &RefArray::new(&[2, 2], vec![-63.5, 0.0, 32.0, 63.5]),
        0.0,
    );
}

#[test]
#[should_panic(expected = "must divide")]
fn blocks_that_do_not_divide_the_shape_are_refused() {
    let env = Env::new(crate::device());
    let x = Tensor::<2>::ones([2, 24], &env.device);
    let _ = x.quantize_dynamic(&q8_block(&[16]));
}

#[test]
#[should_panic(expected = "not supported")]
fn float_value_schemes_are_refused() {
    let env = Env::new(crate::device());
    let x = Tensor::<1>::ones([4], &env.device);
    let _ = x.quantize_dynamic(&QuantScheme::default().with_value(QuantValue::E4M3));
}

#[test]
fn a_quantizer_leaves_parameters_its_blocks_do_not_fit_as_floats() {
    use burn::module::{Module, Quantizer};
    use burn::nn::LinearConfig;
    let env = Env::new(crate::device());
    let linear = LinearConfig::new(64, 10).init(&env.device);
    let scheme = q8_block(&[32, 1]);
    let mut quantizer = Quantizer::new(Calibration::MinMax, scheme);
    let linear = linear.quantize_weights(&mut quantizer);
    assert_quantized("weight", &linear.weight.val(), &scheme);
    let bias = linear.bias.as_ref().expect("a bias").val();
    assert!(
        !bias.is_quantized(),
        "the bias [10] cannot hold blocks of [32, 1]"
    );
    let y = linear.forward(Tensor::<2>::ones([3, 64], &env.device));
    assert_eq!(y.dims(), [3, 10]);
}

#[test]
fn quantized_data_converts_to_floats_on_the_host() {
    let data = TensorData::quantized(vec![-127i8, 0, 64, 127], [4], q8_tensor(), &[0.5]);
    let floats = data.convert_dtype(burn::tensor::DType::F32);
    assert_eq!(
        floats.to_vec::<f32>().unwrap(),
        vec![-63.5, 0.0, 32.0, 63.5]
    );
}
