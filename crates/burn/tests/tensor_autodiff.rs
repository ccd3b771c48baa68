//! Autodiff as a property of a tensor, written the way a Burn 0.23 user writes it: moving a
//! tensor on and off the autodiff device, its tracking state and checkpointing strategy.

use burn::prelude::*;
use burn::tensor::GradientCheckpointingStrategy;

#[test]
fn a_tensor_moves_on_and_off_autodiff() {
    let device = Device::default();
    let plain = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device);
    assert!(!plain.is_autodiff());
    assert_eq!(plain.gradient_checkpointing_strategy(), None);

    let ad = plain.clone().autodiff();
    assert!(ad.is_autodiff());
    assert!(
        !ad.is_tracked(),
        "a constant of an autodiff device is not tracked"
    );
    assert_eq!(
        ad.gradient_checkpointing_strategy(),
        Some(GradientCheckpointingStrategy::Disabled)
    );
    // Idempotent both ways.
    assert!(ad.clone().autodiff().is_autodiff());
    assert!(!plain.clone().without_autodiff().is_autodiff());

    let x = ad.require_grad();
    let y = x.clone() * x.clone();
    assert!(x.is_tracked() && y.is_tracked());
    let back = y.clone().without_autodiff();
    assert!(!back.is_autodiff());
    assert_eq!(back.into_data().to_vec::<f32>().unwrap(), [1.0, 4.0, 9.0]);
    let grads = y.sum().backward();
    let dx = x.grad(&grads).unwrap();
    assert_eq!(dx.into_data().to_vec::<f32>().unwrap(), [2.0, 4.0, 6.0]);
}

#[test]
fn the_checkpointing_strategy_follows_the_device_and_can_be_set() {
    let device = Device::default().autodiff().gradient_checkpointing();
    assert_eq!(
        device.gradient_checkpointing_strategy(),
        Some(GradientCheckpointingStrategy::Balanced)
    );
    let x = Tensor::<2>::ones([2, 2], &device).require_grad();
    assert_eq!(
        x.gradient_checkpointing_strategy(),
        Some(GradientCheckpointingStrategy::Balanced)
    );
    let x = x.with_gradient_checkpointing_strategy(GradientCheckpointingStrategy::Disabled);
    assert_eq!(
        x.gradient_checkpointing_strategy(),
        Some(GradientCheckpointingStrategy::Disabled)
    );
    // The tensor keeps its graph: the gradient still reaches it.
    let grads = (x.clone() * 3.0).sum().backward();
    let dx = x.grad(&grads).unwrap().into_data().to_vec::<f32>().unwrap();
    assert_eq!(dx, [3.0; 4]);
}

#[test]
#[should_panic(expected = "call `autodiff()` first")]
fn setting_a_strategy_on_a_plain_tensor_is_refused() {
    let x = Tensor::<1>::zeros([2], &Device::default());
    let _ = x.with_gradient_checkpointing_strategy(GradientCheckpointingStrategy::Balanced);
}

#[test]
fn float_helpers_of_burn_0_23() {
    let device = Device::default();
    let x = Tensor::<1>::from_floats([180.0, -90.0], &device);
    let radians = x.deg2rad().into_data().to_vec::<f32>().unwrap();
    assert!((radians[0] - std::f32::consts::PI).abs() < 1e-6);
    assert!((radians[1] + std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    let back = Tensor::<1>::from_floats([std::f32::consts::PI], &device).rad2deg();
    assert!((back.into_scalar::<f32>() - 180.0).abs() < 1e-4);
    let rounded = Tensor::<1>::from_floats([1.2345, 1234.5], &device).round_to(2);
    assert_eq!(rounded.into_data().to_vec::<f32>().unwrap(), [1.23, 1234.5]);
    let a = Tensor::<1>::from_floats([3.0, 1.0], &device);
    let b = Tensor::<1>::from_floats([4.0, 1.0 + 1e-7], &device);
    assert_eq!(
        a.clone()
            .hypot(b.clone())
            .into_data()
            .to_vec::<f32>()
            .unwrap()[0],
        5.0
    );
    assert!(!a.clone().all_close(b.clone(), None, None));
    assert!(
        a.slice(s![1..2])
            .all_close(b.slice(s![1..2]), None, Some(1e-6))
    );
    let nan = Tensor::<1>::from_floats([1.0, f32::NAN], &device);
    assert!(nan.contains_nan().into_scalar::<bool>());
}
