//! The module side of the optimizers: which gradients are collected, which parameters are
//! updated and how they come back, gradient clipping, and where the state lives.

use super::common;

use burn_core as burn;

use super::common::{INIT, Tiny, device, grads, loss, tiny, values};
use burn::module::Module;
use burn::tensor::{Device, Tensor};
use burn_optim::{GradientClipping, GradientClippingConfig, GradientsParams, Optimizer, SgdConfig};

#[test]
fn gradients_params_collect_every_trainable_parameter() {
    let model = tiny(&device());
    let grads = grads(&model);
    assert_eq!(grads.len(), 2);
    // g = A·θ + C.
    let bias = grads.get::<1>(model.bias.id).unwrap();
    assert!(!bias.device().is_autodiff());
    let expected: Vec<f32> = (0..3)
        .map(|k| (common::A[k] * INIT[k] + common::C[k]) as f32)
        .collect();
    assert_eq!(bias.into_data().to_vec::<f32>().unwrap(), expected);
    assert_eq!(grads.get::<2>(model.weight.id).unwrap().dims(), [2, 2]);
}

#[test]
fn gradients_params_skip_frozen_parameters_and_filter_by_id() {
    let device = device();
    let mut model = tiny(&device);
    model.weight = model.weight.set_require_grad(false);
    let grads = GradientsParams::from_grads(loss(&model).backward(), &model);
    assert_eq!(grads.len(), 1);
    assert!(grads.get::<2>(model.weight.id).is_none());

    let model = tiny(&device);
    let mut backward = loss(&model).backward();
    let only_weight = GradientsParams::from_params(&mut backward, &model, &[model.weight.id]);
    assert_eq!(only_weight.ids().collect::<Vec<_>>(), vec![model.weight.id]);
    // The bias gradient is still in the backward gradients.
    let rest = GradientsParams::from_module(&mut backward, &model);
    assert_eq!(rest.ids().collect::<Vec<_>>(), vec![model.bias.id]);
}

#[test]
fn gradients_params_register_get_and_remove() {
    let device = device();
    let model = tiny(&device);
    let mut grads = GradientsParams::new();
    assert!(grads.is_empty());
    grads.register(model.bias.id, Tensor::<1>::ones([3], &device));
    assert_eq!(grads.len(), 1);
    // Registered gradients live on the inner device.
    assert!(
        !grads
            .get::<1>(model.bias.id)
            .unwrap()
            .device()
            .is_autodiff()
    );
    assert!(grads.remove::<1>(model.bias.id).is_some());
    assert!(grads.remove::<1>(model.bias.id).is_none());
    assert!(grads.is_empty());
}

#[test]
#[should_panic(expected = "has rank 1, not the requested rank 2")]
fn gradients_params_check_the_rank() {
    let device = device();
    let model = tiny(&device);
    let mut grads = GradientsParams::new();
    grads.register(model.bias.id, Tensor::<1>::ones([3], &device));
    let _ = grads.get::<2>(model.bias.id);
}

#[test]
fn updated_parameters_keep_their_ids_and_are_trainable_leaves() {
    let device = device();
    let model = tiny(&device);
    let (bias_id, weight_id) = (model.bias.id, model.weight.id);
    let mut optim = SgdConfig::new().init::<Tiny>();
    let grads = grads(&model);
    let model = optim.step(0.1, model, grads);
    assert_eq!((model.bias.id, model.weight.id), (bias_id, weight_id));
    for value in [model.bias.val().device(), model.weight.val().device()] {
        assert!(value.is_autodiff());
    }
    assert!(model.bias.val().is_require_grad());
    assert!(model.weight.is_require_grad());
    // The next backward pass reaches the updated parameters.
    assert_eq!(common::grads(&model).len(), 2);
}

#[test]
fn parameters_without_a_gradient_are_left_as_they_are() {
    let device = device();
    let model = tiny(&device);
    let mut grads = grads(&model);
    grads.remove::<2>(model.weight.id);
    let mut optim = SgdConfig::new().init::<Tiny>();
    let model = optim.step(1.0, model, grads);
    assert_eq!(
        values(&model)[3..],
        INIT[3..]
            .iter()
            .map(|&x| x as f32 as f64)
            .collect::<Vec<_>>()[..]
    );
    assert_ne!(values(&model)[0], INIT[0]);
    assert!(optim.state(model.weight.id).is_none());
    assert_eq!(optim.state(model.bias.id).unwrap().step(), 1);
}

#[test]
fn a_module_on_a_plain_device_is_updated_too() {
    let model = tiny(&device()).valid();
    assert!(!model.bias.val().device().is_autodiff());
    let mut grads = GradientsParams::new();
    grads.register(model.bias.id, Tensor::<1>::ones([3], &Device::flex()));
    let mut optim = SgdConfig::new().init::<Tiny>();
    let model = optim.step(0.5, model, grads);
    assert_eq!(values(&model)[..3], [0.0, -1.5, 1.5]);
    assert!(!model.bias.val().device().is_autodiff());
}

#[test]
fn state_lives_on_the_inner_device_of_the_parameter() {
    let device = device();
    let model = tiny(&device);
    let mut optim = burn_optim::AdamConfig::new().init::<Tiny>();
    let grads = grads(&model);
    let model = optim.step(0.1, model, grads);
    let state = optim.state(model.weight.id).unwrap();
    assert_eq!(state.device(), Some(&device.inner()));
    let moment = state.get::<2>("moment_1").unwrap();
    assert!(!moment.device().is_autodiff());
    assert_eq!(state.names().collect::<Vec<_>>(), ["moment_1", "moment_2"]);
}

#[test]
fn clipping_by_value_clamps_each_element() {
    let device = Device::flex();
    let grad = Tensor::<1>::from_floats([-3.0, 0.5, 2.0, -0.25], &device);
    let clipped = GradientClipping::Value(1.0).clip_gradient(grad);
    assert_eq!(
        clipped.into_data().to_vec::<f32>().unwrap(),
        [-1.0, 0.5, 1.0, -0.25]
    );
}

#[test]
fn clipping_by_norm_rescales_large_gradients_only() {
    let device = Device::flex();
    let grad = Tensor::<2>::from_floats([[3.0, 0.0], [0.0, 4.0]], &device);
    let clipped = GradientClipping::Norm(1.0).clip_gradient(grad.clone());
    let scale = 1.0 / (5.0 + 1e-6);
    let expected = [3.0 * scale, 0.0, 0.0, 4.0 * scale];
    for (x, y) in clipped.into_data().iter::<f32>().zip(expected) {
        assert!((f64::from(x) - y).abs() < 1e-6, "{x} vs {y}");
    }
    let kept = GradientClipping::Norm(10.0).clip_gradient(grad.clone());
    assert_eq!(kept.into_data(), grad.into_data());
}

/// SGD with lr 1 and clipping: the update is the clipped gradient, per parameter.
#[test]
fn optimizers_clip_each_parameter_gradient_before_the_update() {
    let gradient = |k: usize| common::A[k] * INIT[k] + common::C[k];
    let model = tiny(&device());

    let mut by_value = SgdConfig::new()
        .with_grad_clipping(Some(GradientClippingConfig::Value(0.5)))
        .init::<Tiny>();
    assert!(by_value.has_gradient_clipping());
    let updated = values(&by_value.step(1.0, model.clone(), grads(&model)));
    for k in 0..7 {
        let expected = INIT[k] - gradient(k).clamp(-0.5, 0.5);
        assert!(
            (updated[k] - expected).abs() < 1e-6,
            "{k}: {} vs {expected}",
            updated[k]
        );
    }

    let mut by_norm = SgdConfig::new()
        .with_gradient_clipping(Some(GradientClippingConfig::Norm(1.0)))
        .init::<Tiny>();
    let updated = values(&by_norm.step(1.0, model.clone(), grads(&model)));
    for range in [0..3, 3..7] {
        let norm = range
            .clone()
            .map(|k| gradient(k).powi(2))
            .sum::<f64>()
            .sqrt();
        assert!(norm > 1.0, "the test needs gradients to clip");
        let scale = 1.0 / (norm + 1e-6);
        for k in range {
            let expected = INIT[k] - gradient(k) * scale;
            assert!(
                (updated[k] - expected).abs() < 1e-6,
                "{k}: {} vs {expected}",
                updated[k]
            );
        }
    }
}

#[test]
#[should_panic(expected = "GradientClippingConfig: the threshold must be a positive finite number")]
fn clipping_thresholds_must_be_positive() {
    let _ = GradientClippingConfig::Norm(0.0).init();
}

#[test]
fn optimizer_configs_round_trip_as_json() {
    use burn::config::Config;
    let config = SgdConfig::new()
        .with_grad_clipping(Some(GradientClippingConfig::Norm(2.0)))
        .with_momentum(Some(burn_optim::momentum::MomentumConfig::new()));
    let json = config.to_string();
    assert_eq!(SgdConfig::load_binary(json.as_bytes()).unwrap(), config);
}

#[test]
fn loaded_state_moves_to_the_parameter_device_at_its_next_update() {
    let device = device();
    let model = tiny(&device);
    let mut optim = burn_optim::AdamConfig::new().init::<Tiny>();
    let model = optim.step(0.1, model.clone(), grads(&model));
    let mut loaded = burn_optim::AdamConfig::new()
        .init::<Tiny>()
        .load_record(optim.to_record());
    let state = loaded.state(model.bias.id).unwrap();
    assert_eq!((state.step(), state.device()), (1, None));
    let _ = loaded.step(0.1, model.clone(), grads(&model));
    let state = loaded.state(model.bias.id).unwrap();
    assert_eq!((state.step(), state.device()), (2, Some(&device.inner())));
    assert!(!state.get::<1>("moment_1").unwrap().device().is_autodiff());
}

#[test]
fn parameters_stay_on_a_checkpointing_device() {
    let device = Device::flex().gradient_checkpointing();
    let model = tiny(&device);
    let mut optim = SgdConfig::new().init::<Tiny>();
    let model = optim.step(0.1, model.clone(), grads(&model));
    assert_eq!(model.devices(), vec![device]);
    assert!(model.weight.val().is_require_grad());
}
