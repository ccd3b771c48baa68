//! A quantized tensor whose description is wrong (metadata edited or written by hand) fails
//! the load with a typed error naming the tensor, never a panic, and leaves the model as it
//! was.
#![cfg(feature = "flex")]

mod common;

use burn_core as burn;

use burn::module::{Module, Param};
use burn::tensor::quantization::{QuantValue, ScaleDtype};
use burn::tensor::{Device, Int, Shape, Tensor, TensorData};
use burn_store::{LoadOptions, ModuleSnapshot, SafetensorsStore, StoreError, TensorSnapshot};
use common::quant::*;
use common::*;
use safetensors::tensor::{Dtype, TensorView};

/// The bytes of a saved quantized `QNet`.
fn saved_bytes() -> Vec<u8> {
    let mut store = SafetensorsStore::from_bytes(None);
    quantized_qnet(&Device::flex(), 1.0)
        .save_into(&mut store)
        .unwrap();
    store.to_bytes().unwrap()
}

/// Loads `bytes` into a float model, which must be left as it was; returns the error.
fn fails_cleanly(bytes: Vec<u8>) -> StoreError {
    let mut model = float_qnet(&Device::flex(), 2.0);
    let before = dump(&model);
    let error = model
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes)))
        .unwrap_err();
    assert_same(&dump(&model), &before);
    error
}

/// Asserts `error` is `InvalidQuantized` for `key` with a reason containing `wanted`.
fn assert_invalid(error: &StoreError, key: &str, wanted: &str) {
    match error {
        StoreError::InvalidQuantized {
            file,
            key: k,
            reason,
        } => {
            assert_eq!((file.as_str(), k.as_str()), ("<memory>", key), "{error}");
            assert!(reason.contains(wanted), "{error}");
        }
        other => panic!("expected InvalidQuantized for `{key}`, got {other:?}"),
    }
    let message = error.to_string();
    assert!(
        message.starts_with(&format!(
            "<memory>: quantized tensor `{key}` cannot be read: "
        )),
        "{message}"
    );
}

#[test]
fn a_scheme_that_is_not_json_is_invalid() {
    let bytes = with_metadata(&saved_bytes(), |m| {
        m.insert("burn.qscheme.per_block".into(), "{\"value\":".into());
    });
    let error = fails_cleanly(bytes);
    assert_invalid(
        &error,
        "per_block",
        "`burn.qscheme.per_block` is not a scheme",
    );
}

#[test]
fn a_shape_that_is_not_json_is_invalid() {
    let bytes = with_metadata(&saved_bytes(), |m| {
        m.insert("burn.qshape.per_tensor".into(), "3x5".into());
    });
    assert_invalid(&fails_cleanly(bytes), "per_tensor", "is not a shape");
}

#[test]
fn a_shape_or_scheme_that_does_not_match_the_byte_count_is_invalid() {
    for (entry, value) in [
        ("burn.qshape.per_tensor", "[3,9]".to_string()),
        ("burn.qshape.per_tensor", "[15]".to_string()),
        (
            "burn.qscheme.per_tensor",
            serde_json::to_string(&q8s().per_block([5], ScaleDtype::F32)).unwrap(),
        ),
        (
            "burn.qscheme.per_tensor",
            serde_json::to_string(&q8s().with_value(QuantValue::Q4S)).unwrap(),
        ),
    ] {
        let bytes = with_metadata(&saved_bytes(), |m| {
            m.insert(entry.into(), value.clone());
        });
        assert_invalid(&fails_cleanly(bytes), "per_tensor", "28 bytes, but scheme");
    }
}

#[test]
fn a_scheme_the_shape_cannot_hold_is_invalid_without_panicking() {
    for (scheme, wanted) in [
        (
            q8s().per_block([2, 2, 2], ScaleDtype::F32),
            "blocks of more dims",
        ),
        (
            q8s().with_store(burn::tensor::quantization::QuantStore::PackedU32(3)),
            "packs dim 3",
        ),
    ] {
        let bytes = with_metadata(&saved_bytes(), |m| {
            m.insert(
                "burn.qscheme.per_tensor".into(),
                serde_json::to_string(&scheme).unwrap(),
            );
        });
        assert_invalid(&fails_cleanly(bytes), "per_tensor", wanted);
    }
    let bytes = with_metadata(&saved_bytes(), |m| {
        m.insert(
            "burn.qshape.per_tensor".into(),
            format!("[{}, 2]", usize::MAX),
        );
    });
    assert_invalid(
        &fails_cleanly(bytes),
        "per_tensor",
        "more values than 28 bytes",
    );
}

#[test]
fn a_scheme_this_build_cannot_hold_is_an_unsupported_dtype() {
    let e4m3 = q8s()
        .with_value(QuantValue::E4M3)
        .per_tensor(ScaleDtype::F32);
    let bytes = with_metadata(&saved_bytes(), |m| {
        m.insert(
            "burn.qscheme.per_tensor".into(),
            serde_json::to_string(&e4m3).unwrap(),
        );
    });
    match fails_cleanly(bytes) {
        StoreError::UnsupportedDType { file, key, dtype } => {
            assert_eq!((file.as_str(), key.as_str()), ("<memory>", "per_tensor"));
            assert!(dtype.starts_with("qfloat e4m3/tensor ("), "{dtype}");
        }
        other => panic!("expected UnsupportedDType, got {other:?}"),
    }
}

#[test]
fn half_a_description_is_invalid() {
    for (removed, wanted) in [
        ("burn.qshape.per_block", "without `burn.qshape.per_block`"),
        ("burn.qscheme.per_block", "without `burn.qscheme.per_block`"),
    ] {
        let bytes = with_metadata(&saved_bytes(), |m| {
            m.remove(removed).unwrap();
        });
        assert_invalid(&fails_cleanly(bytes), "per_block", wanted);
    }
}

#[test]
fn a_description_of_no_tensor_is_invalid() {
    let bytes = with_metadata(&saved_bytes(), |m| {
        m.insert(
            "burn.qscheme.ghost".into(),
            serde_json::to_string(&q8s()).unwrap(),
        );
        m.insert("burn.qshape.ghost".into(), "[4]".into());
    });
    assert_invalid(&fails_cleanly(bytes), "ghost", "names no tensor");
}

#[test]
fn a_described_tensor_must_be_one_dimensional_bytes() {
    let floats = TensorData::new(vec![0.5f32; 7], [7]);
    let bytes_2d = [0u8; 28];
    let raw = [
        (Dtype::F32, vec![7], floats.as_bytes()),
        (Dtype::U8, vec![4, 7], &bytes_2d[..]),
    ];
    for (dtype, shape, data) in raw {
        let view = TensorView::new(dtype, shape, data).unwrap();
        let metadata = [
            (
                "burn.qscheme.w".to_string(),
                serde_json::to_string(&q8s()).unwrap(),
            ),
            ("burn.qshape.w".to_string(), "[3,5]".to_string()),
        ]
        .into_iter()
        .collect();
        let bytes = safetensors::serialize([("w", view)], Some(metadata)).unwrap();
        let error = SafetensorsStore::from_bytes(Some(bytes))
            .read_keys()
            .unwrap_err();
        assert_invalid(&error, "w", "expected 1-D U8 bytes");
    }
}

#[test]
fn a_quantized_tensor_of_another_shape_is_a_shape_mismatch() {
    let mut store = SafetensorsStore::from_bytes(None);
    let device = Device::flex();
    let net = float_qnet(&device, 1.0);
    QNet {
        per_tensor: Param::from_tensor(Tensor::<2>::ones([5, 3], &device).quantize_dynamic(&q8s())),
        ..net
    }
    .save_into(&mut store)
    .unwrap();
    let error = fails_cleanly(store.to_bytes().unwrap());
    assert_eq!(
        error,
        StoreError::ShapeMismatch {
            file: "<memory>".into(),
            key: "per_tensor".into(),
            expected: vec![3, 5],
            found: vec![5, 3],
        }
    );
}

#[test]
fn quantized_data_for_an_int_parameter_is_a_kind_mismatch() {
    #[derive(Module, Debug)]
    struct Counts {
        per_tensor: Param<Tensor<2, Int>>,
    }
    let mut counts = Counts {
        per_tensor: Param::from_tensor(Tensor::zeros([3, 5], &Device::flex())),
    };
    let error = counts
        .load_from(&mut SafetensorsStore::from_bytes(Some(saved_bytes())))
        .unwrap_err();
    assert!(
        matches!(
            &error,
            StoreError::KindMismatch { key, expected: "Int", found, .. }
                if key == "per_tensor" && *found == burn::tensor::DType::QFloat(q8s())
        ),
        "{error:?}"
    );
}

#[test]
fn metadata_keys_of_the_quantized_format_are_reserved_on_save() {
    let mut store = SafetensorsStore::from_bytes(None).metadata("burn.qscheme.per_tensor", "mine");
    let error = quantized_qnet(&Device::flex(), 1.0)
        .save_into(&mut store)
        .unwrap_err();
    assert!(
        matches!(&error, StoreError::Encode { reason, .. } if reason.contains("reserved")),
        "{error:?}"
    );
}

#[test]
fn inconsistent_quantized_snapshots_are_refused_without_panicking() {
    let device = Device::flex();
    let mut snapshots = quantized_qnet(&device, 1.0).collect().unwrap();
    let TensorSnapshot { data, .. } = &mut snapshots[0];
    data.shape = Shape::new([3, 6]);
    let mut model = float_qnet(&device, 2.0);
    let before = dump(&model);
    let error = model.apply(&snapshots, &LoadOptions::new()).unwrap_err();
    assert_same(&dump(&model), &before);
    match &error {
        StoreError::ShapeMismatch { key, .. } => assert_eq!(key, "per_tensor"),
        other => panic!("expected ShapeMismatch, got {other:?}"),
    }
    snapshots[0].data.shape = Shape::new([3, 5]);
    let mut truncated = snapshots[1].data.as_bytes().to_vec();
    truncated.pop();
    let len = truncated.len();
    snapshots[1].data = TensorData::from_bytes_slice(&truncated, [len], burn::tensor::DType::U8);
    snapshots[1].data.dtype = burn::tensor::DType::QFloat(q4s_block());
    snapshots[1].data.shape = Shape::new([4, 32]);
    let error = model.apply(&snapshots, &LoadOptions::new()).unwrap_err();
    assert_same(&dump(&model), &before);
    let StoreError::InvalidQuantized { file, key, reason } = &error else {
        panic!("expected InvalidQuantized, got {error:?}");
    };
    assert_eq!((file.as_str(), key.as_str()), ("<snapshots>", "per_block"));
    assert!(
        reason.starts_with(&format!("{len} bytes, but scheme")),
        "{reason}"
    );
}
