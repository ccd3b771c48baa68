//! Quantized weights: saved as `U8` bytes with their scheme and shape in the metadata, and
//! loaded back bit-identically into a float model, which becomes quantized.
#![cfg(feature = "flex")]

mod common;

use burn_core as burn;

use burn_core::module::Module;
use burn_core::tensor::quantization::{QuantScheme, ScaleDtype};
use burn_core::tensor::{DType, Device, Tensor, TensorData, Tolerance};
use burn_store::{KeyRemapper, LoadOptions, ModuleSnapshot, SafetensorsStore};
use common::quant::*;
use common::*;
use safetensors::SafeTensors;
use safetensors::tensor::Dtype;

/// Asserts `loaded` holds the values of `saved`: the quantized weights with the same scheme
/// and bit-identical bytes, the bias equal.
fn assert_loaded(loaded: &QNet, saved: &QNet) {
    assert_eq!(
        dtypes(loaded),
        [DType::QFloat(q8s()), DType::QFloat(q4s_block()), DType::F32]
    );
    for (key, got, want) in [
        ("per_tensor", &loaded.per_tensor, &saved.per_tensor),
        ("per_block", &loaded.per_block, &saved.per_block),
    ] {
        let (got, want) = (got.val().into_data(), want.val().into_data());
        assert_eq!(got.shape, want.shape, "{key}");
        assert_eq!(got.as_bytes(), want.as_bytes(), "bytes of `{key}`");
    }
    assert_eq!(loaded.bias.val().into_data(), saved.bias.val().into_data());
}

#[test]
fn a_quantized_module_round_trips_bit_identically_into_a_float_model() {
    let device = Device::flex();
    let saved = quantized_qnet(&device, 1.0);
    let file = TempFile::new("quantized");
    saved
        .save_into(&mut SafetensorsStore::from_file(file.path()))
        .unwrap();

    let mut model = float_qnet(&device, 2.0);
    let ids = (model.per_tensor.id, model.per_block.id, model.bias.id);
    let result = model
        .load_from(&mut SafetensorsStore::from_file(file.path()))
        .unwrap();
    assert_eq!(result.applied, ["per_tensor", "per_block", "bias"]);
    assert!(result.is_exact());
    assert_loaded(&model, &saved);
    assert_eq!(
        ids,
        (model.per_tensor.id, model.per_block.id, model.bias.id)
    );
}

#[test]
fn the_file_stores_bytes_with_the_scheme_and_shape_in_its_metadata() {
    let saved = quantized_qnet(&Device::flex(), 1.0);
    let mut store = SafetensorsStore::from_bytes(None).metadata("epoch", "3");
    saved.save_into(&mut store).unwrap();
    let bytes = store.to_bytes().unwrap();

    let file = SafeTensors::deserialize(&bytes).unwrap();
    for (key, param, scheme, shape) in [
        ("per_tensor", &saved.per_tensor, q8s(), "[3,5]"),
        ("per_block", &saved.per_block, q4s_block(), "[4,32]"),
    ] {
        let data = param.val().into_data();
        let entry = file.tensor(key).unwrap();
        assert_eq!(entry.dtype(), Dtype::U8);
        assert_eq!(entry.shape(), [data.as_bytes().len()]);
        assert_eq!(entry.data(), data.as_bytes());
        let metadata = store.read_metadata().unwrap();
        let json = &metadata[&format!("burn.qscheme.{key}")];
        assert_eq!(serde_json::from_str::<QuantScheme>(json).unwrap(), scheme);
        assert_eq!(metadata[&format!("burn.qshape.{key}")], shape);
    }
    assert_eq!(file.tensor("bias").unwrap().dtype(), Dtype::F32);
    let metadata = store.read_metadata().unwrap();
    assert_eq!(metadata["epoch"], "3");
    assert!(!metadata.contains_key("burn.qscheme.bias"));
    assert_eq!(
        store.read_keys().unwrap(),
        ["bias", "per_block", "per_tensor"]
    );
}

#[test]
fn a_file_written_by_hand_in_the_documented_format_loads() {
    // Q8S per tensor, 3×5, scale 0.5: values packed four to a word, rows padded to words.
    let values: Vec<i8> = (0..15).map(|i| i as i8 - 7).collect();
    let data = TensorData::quantized(values.clone(), [3, 5], q8s(), &[0.5]);
    assert_eq!(data.as_bytes().len(), 3 * 8 + 4);
    let bias = TensorData::new(vec![1.0f32; 5], [5]);
    let block = quantized_qnet(&Device::flex(), 1.0)
        .per_block
        .val()
        .into_data();
    let views = [
        ("per_tensor", Dtype::U8, vec![28], data.as_bytes()),
        (
            "per_block",
            Dtype::U8,
            vec![block.as_bytes().len()],
            block.as_bytes(),
        ),
        ("bias", Dtype::F32, vec![5], bias.as_bytes()),
    ]
    .map(|(key, dtype, shape, bytes)| {
        let view = safetensors::tensor::TensorView::new(dtype, shape, bytes).unwrap();
        (key, view)
    });
    let metadata = [
        (
            "burn.qscheme.per_tensor",
            serde_json::to_string(&q8s()).unwrap(),
        ),
        ("burn.qshape.per_tensor", "[3, 5]".to_string()),
        (
            "burn.qscheme.per_block",
            serde_json::to_string(&q4s_block()).unwrap(),
        ),
        ("burn.qshape.per_block", "[4, 32]".to_string()),
    ]
    .map(|(k, v)| (k.to_string(), v))
    .into_iter()
    .collect();
    let bytes = safetensors::serialize(views, Some(metadata)).unwrap();

    let mut model = float_qnet(&Device::flex(), 2.0);
    model
        .load_from(&mut SafetensorsStore::from_bytes(Some(bytes)))
        .unwrap();
    let weight = model.per_tensor.val();
    assert_eq!(weight.dtype(), DType::QFloat(q8s()));
    assert_eq!(weight.clone().into_data(), data);
    let expected: Vec<f32> = values.iter().map(|&v| f32::from(v) * 0.5).collect();
    assert_eq!(
        weight.dequantize().into_data().to_vec::<f32>().unwrap(),
        expected
    );
}

#[test]
fn save_file_keeps_quantized_weights_exact() {
    let device = Device::flex();
    let saved = quantized_qnet(&device, 1.0);
    let file = TempFile::new("quantized-burnpack");
    let written = format!("{}.bpk", file.path().display());

    saved.clone().save_file(&written).unwrap();
    let loaded = float_qnet(&device, 2.0).load_file(&written);
    assert_loaded(&loaded, &saved);
    std::fs::remove_file(written).unwrap();
}

#[test]
fn snapshots_carry_quantized_data() {
    let device = Device::flex();
    let saved = quantized_qnet(&device, 1.0);
    let snapshots = saved.collect().unwrap();
    assert_eq!(snapshots[0].dtype(), DType::QFloat(q8s()));
    assert_eq!(snapshots[0].shape(), [3, 5]);
    let mut model = float_qnet(&device, 2.0);
    model.apply(&snapshots, &LoadOptions::new()).unwrap();
    assert_loaded(&model, &saved);
}

#[test]
fn keys_of_quantized_tensors_remap_like_any_other() {
    #[derive(Module, Debug)]
    struct Outer {
        inner: QNet,
    }
    let device = Device::flex();
    let saved = quantized_qnet(&device, 1.0);
    let mut store = SafetensorsStore::from_bytes(None);
    Outer {
        inner: saved.clone(),
    }
    .save_into(&mut store)
    .unwrap();
    assert!(
        store
            .read_metadata()
            .unwrap()
            .contains_key("burn.qscheme.inner.per_block")
    );

    let mut store = SafetensorsStore::from_bytes(Some(store.to_bytes().unwrap()))
        .with_key_remapper(KeyRemapper::new().prefix("inner.", ""));
    let mut model = float_qnet(&device, 2.0);
    model.load_from(&mut store).unwrap();
    assert_loaded(&model, &saved);
}

#[test]
fn quantized_weights_load_onto_an_autodiff_device() {
    let saved = quantized_qnet(&Device::flex(), 1.0);
    let mut store = SafetensorsStore::from_bytes(None);
    saved.save_into(&mut store).unwrap();

    let device = Device::flex().autodiff();
    let mut model = float_qnet(&device, 2.0);
    model.load_from(&mut store).unwrap();
    assert_loaded(&model, &saved);
    let bias = model.bias.val();
    assert!(bias.device().is_autodiff() && bias.is_require_grad());
    // Quantized weights are where quantizing on that device puts them (today the inner
    // device: quantized tensors are not tracked by autodiff).
    let quantized = quantized_qnet(&device, 1.0);
    assert_eq!(
        model.per_tensor.val().device(),
        quantized.per_tensor.val().device()
    );
}

#[test]
fn a_quantized_model_quantizes_float_weights_with_its_own_schemes() {
    let device = Device::flex();
    let float = float_qnet(&device, 1.0);
    let mut store = SafetensorsStore::from_bytes(None);
    float.save_into(&mut store).unwrap();

    let mut model = quantized_qnet(&device, 2.0);
    model.load_from(&mut store).unwrap();
    assert_eq!(
        dtypes(&model),
        [DType::QFloat(q8s()), DType::QFloat(q4s_block()), DType::F32]
    );
    let expected = quantized_qnet(&device, 1.0);
    assert_loaded(&model, &expected);
    model
        .per_tensor
        .val()
        .dequantize()
        .into_data()
        .assert_approx_eq::<f32>(
            &float.per_tensor.val().into_data(),
            Tolerance::absolute(2e-2),
        );
}

#[test]
fn stored_quantized_data_keeps_its_scheme_in_a_quantized_model() {
    let device = Device::flex();
    let saved = quantized_qnet(&device, 1.0);
    let mut store = SafetensorsStore::from_bytes(None);
    saved.save_into(&mut store).unwrap();

    // Both weights quantized the other way round.
    let net = float_qnet(&device, 2.0);
    let q8_block = q8s().per_block([16], ScaleDtype::F32);
    let mut model = QNet {
        per_tensor: net
            .per_tensor
            .map(|t: Tensor<2>| t.quantize_dynamic(&q8s().per_tensor(ScaleDtype::F16))),
        per_block: net.per_block.map(|t| t.quantize_dynamic(&q8_block)),
        bias: net.bias,
    };
    model.load_from(&mut store).unwrap();
    assert_loaded(&model, &saved);
}

#[test]
fn lazy_parameters_load_quantized_without_running_their_initializer() {
    use burn::module::{Param, ParamId};
    use burn::tensor::Shape;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    let device = Device::flex();
    let saved = quantized_qnet(&device, 1.0);
    let mut store = SafetensorsStore::from_bytes(None);
    saved.save_into(&mut store).unwrap();

    let runs = Arc::new(AtomicUsize::new(0));
    let lazy = |shape: [usize; 2]| {
        let runs = runs.clone();
        Param::uninitialized(
            ParamId::new(),
            move |device, _| {
                runs.fetch_add(1, Ordering::SeqCst);
                Tensor::<2>::zeros(shape, device)
            },
            device.clone(),
            false,
            Shape::from(shape),
        )
    };
    let mut model = QNet {
        per_tensor: lazy([3, 5]),
        per_block: lazy([4, 32]),
        bias: float_qnet(&device, 2.0).bias,
    };
    model.load_from(&mut store).unwrap();
    assert_eq!(Initialized::of(&model).lazy, 0);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    assert_loaded(&model, &saved);
}
