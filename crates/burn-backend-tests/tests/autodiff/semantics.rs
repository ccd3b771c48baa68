//! The rules of autodiff as a device property: what is tracked, what backward consumes,
//! what may be reused, and the errors for misuse.

use super::device;
use burn::tensor::{BackwardError, Device, Tensor, TensorData};

fn ad() -> Device {
    device().autodiff()
}

fn values(tensor: Tensor<1>) -> Vec<f64> {
    tensor
        .into_data()
        .convert_dtype(burn::tensor::DType::F64)
        .to_vec::<f64>()
        .unwrap()
}

/// The message of a caught panic (`panic!` with or without arguments).
fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}

fn leaf(values: &[f64]) -> Tensor<1> {
    Tensor::<1>::from_data(TensorData::from(values), &ad()).require_grad()
}

#[test]
fn autodiff_devices_wrap_their_inner_device() {
    let plain = device();
    let ad = plain.autodiff();
    assert!(ad.is_autodiff() && !plain.is_autodiff());
    assert!(plain.gradient_checkpointing().is_autodiff());
    assert_eq!(ad.inner(), plain);
    assert!(!ad.inner().is_autodiff());
    // An autodiff view shares the inner device's settings.
    assert_eq!(ad.settings(), plain.settings());
    let x = Tensor::<1>::ones([2], &ad);
    assert!(x.device().is_autodiff());
}

#[test]
fn enabling_autodiff_tracks_nothing_by_itself() {
    let x = Tensor::<1>::from_floats([1.0, 2.0], &ad());
    assert!(!x.is_require_grad());
    let y = x.clone().exp().sum();
    assert!(!y.is_require_grad());
    let grads = y.backward();
    assert!(grads.is_empty());
    assert!(x.grad(&grads).is_none());
}

#[test]
fn only_ops_depending_on_a_tracked_leaf_record_steps() {
    let x = leaf(&[1.0, 2.0]);
    let c = Tensor::<1>::from_floats([3.0, 4.0], &ad());
    assert!(x.is_require_grad());
    // `is_require_grad` is about leaves (as in Burn): an intermediate answers false.
    assert!(!(x.clone() * c.clone()).is_require_grad());
    // An op on untracked inputs records nothing: its backward reaches no gradient.
    assert!((c.clone() * 2.0).sum().backward().is_empty());
    let grads = (x.clone() * c).sum().backward();
    assert_eq!(values(x.grad(&grads).unwrap()), vec![3.0, 4.0]);
}

#[test]
fn a_node_reached_twice_gets_the_sum_of_its_gradients() {
    let x = leaf(&[1.0, -2.0]);
    let y = x.clone() + x.clone() * x.clone();
    let grads = y.sum().backward();
    assert_eq!(values(x.grad(&grads).unwrap()), vec![3.0, -3.0]);
}

#[test]
fn a_second_backward_through_consumed_steps_is_rejected() {
    let x = leaf(&[1.0, 2.0]);
    let loss = x.clone().exp().sum();
    let _ = loss.backward();
    let err = loss.try_backward().unwrap_err();
    assert!(matches!(err, BackwardError::AlreadyConsumed { .. }));
    // Mixing strategies is allowed: a checkpointed activation times an updated leaf.
    let checkpointed = Tensor::<1>::ones([2], &device().gradient_checkpointing());
    let grads = (checkpointed.sin() * x.clone()).sum().backward();
    assert!(x.grad(&grads).is_some());
    assert!(err.to_string().contains("already consumed"), "{err}");
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| loss.backward()))
        .expect_err("a second backward must panic");
    let message = panic_message(panic);
    assert!(message.contains("already consumed"), "{message}");
}

#[test]
fn backward_consumes_steps_shared_by_clones() {
    let x = leaf(&[0.5, 1.5]);
    let y = x.clone().exp();
    let shared = y.clone();
    let _ = y.sum().backward();
    // `shared` is the same node as `y`: its step ran in the first pass.
    assert!((shared * 2.0).sum().try_backward().is_err());
}

#[test]
fn a_refused_backward_consumes_nothing() {
    let x = leaf(&[1.0, 2.0]);
    let y = x.clone().exp();
    let z = x.clone().sin();
    let _ = y.clone().sum().backward();
    // Reaches y's consumed step and z's pending one: refused, so z's step is still there.
    assert!((y + z.clone()).sum().try_backward().is_err());
    let grads = z.sum().backward();
    let expected: Vec<f64> = [1.0f64, 2.0].iter().map(|v| v.cos()).collect();
    let got = values(x.grad(&grads).unwrap());
    for (g, e) in got.iter().zip(&expected) {
        assert!((g - e).abs() < 1e-5, "{got:?} vs {expected:?}");
    }
}

#[test]
fn parameter_leaves_are_reusable_across_forward_passes() {
    let w = leaf(&[1.0, 2.0]);
    for step in 1..=5 {
        let x = Tensor::<1>::from_floats([step as f32, 1.0], &ad());
        let grads = (w.clone() * x).sum().backward();
        assert_eq!(values(w.grad(&grads).unwrap()), vec![step as f64, 1.0]);
    }
}

#[test]
fn detach_and_set_require_grad_cut_the_graph() {
    let x = leaf(&[1.0, 2.0]);
    let y = x.clone().exp().detach();
    assert!(!y.is_require_grad());
    let z = (y * x.clone()).sum();
    let grads = z.backward();
    let expected: Vec<f64> = [1.0f64, 2.0].iter().map(|v| v.exp()).collect();
    let got = values(x.grad(&grads).unwrap());
    for (g, e) in got.iter().zip(&expected) {
        assert!((g - e).abs() < 1e-4, "{got:?} vs {expected:?}");
    }
    let untracked = x.clone().set_require_grad(false);
    assert!(!untracked.is_require_grad());
    assert!(x.is_require_grad());
}

#[test]
fn require_grad_panics_on_an_intermediate_and_is_ignored_on_a_plain_device() {
    let x = leaf(&[1.0]);
    let y = x.exp();
    let err = std::panic::catch_unwind(|| y.require_grad()).expect_err("not a leaf");
    let message = panic_message(err);
    assert!(message.contains("not a leaf"), "{message}");
    let plain = Tensor::<1>::from_floats([1.0], &device()).require_grad();
    assert!(!plain.is_require_grad(), "a plain device tracks nothing");
}

#[test]
fn untracked_tensors_of_the_inner_device_are_constants() {
    let x = leaf(&[1.0, 2.0]);
    let plain = Tensor::<1>::from_floats([5.0, 7.0], &device());
    let grads = (x.clone() * plain).sum().backward();
    assert_eq!(values(x.grad(&grads).unwrap()), vec![5.0, 7.0]);
}

#[test]
fn inner_and_from_inner_move_between_the_devices() {
    let x = leaf(&[1.0, 2.0]);
    let inner = x.clone().inner();
    assert!(!inner.device().is_autodiff());
    // Inference on the inner device records nothing.
    let y = inner.clone().exp();
    assert!(!y.is_require_grad());
    let back = Tensor::from_inner(inner);
    assert!(back.device().is_autodiff());
    assert!(!back.is_require_grad());
}

#[test]
fn gradients_can_be_removed_and_replaced() {
    let x = leaf(&[1.0, 2.0]);
    let mut grads = (x.clone() * 3.0).sum().backward();
    assert_eq!(values(x.grad_remove(&mut grads).unwrap()), vec![3.0, 3.0]);
    assert!(x.grad(&grads).is_none());
    x.grad_replace(&mut grads, Tensor::<1>::from_floats([9.0, 9.0], &device()));
    assert_eq!(values(x.grad(&grads).unwrap()), vec![9.0, 9.0]);
}

#[test]
fn gradients_keep_the_dtype_of_their_leaf() {
    use burn::tensor::{DType, FloatDType};
    if !burn_backend_tests::supports(&ad(), &[DType::F32, DType::F64], "autodiff leaf dtypes") {
        return;
    }
    let x = Tensor::<1>::from_data(TensorData::from([1.0f32, 2.0]), (&ad(), FloatDType::F32))
        .require_grad();
    let c = Tensor::<1>::from_data(TensorData::from([3.0f64, 4.0]), (&ad(), FloatDType::F64));
    let grads = (x.clone() * c).sum().backward();
    let grad = x.grad(&grads).unwrap();
    assert_eq!(grad.dtype(), DType::F32);
    assert_eq!(values(grad), vec![3.0, 4.0]);
}

#[test]
fn a_quantized_weight_is_a_constant_and_the_float_input_keeps_its_gradient() {
    use burn::tensor::quantization::{QuantScheme, QuantValue};
    let scheme = QuantScheme::default().with_value(QuantValue::Q8S);
    let w = Tensor::<2>::from_floats([[0.5, -1.0], [2.0, 0.25]], &ad()).quantize_dynamic(&scheme);
    assert!(w.is_quantized());
    let x = Tensor::<2>::from_floats([[1.0, 2.0]], &ad()).require_grad();
    let y = x.clone().matmul(w.clone()).sum();
    let grads = y.backward();
    // d(sum(x·W))/dx = row sums of W (dequantized): [0.5 - 1.0, 2.0 + 0.25].
    let grad = x.grad(&grads).expect("x has a gradient");
    let wd = w.dequantize().into_data().to_vec::<f32>().unwrap();
    let expected = [wd[0] + wd[1], wd[2] + wd[3]];
    let got = grad.into_data().to_vec::<f32>().unwrap();
    assert!(
        (got[0] - expected[0]).abs() < 1e-6 && (got[1] - expected[1]).abs() < 1e-6,
        "{got:?}"
    );
    assert!((expected[0] + 0.5).abs() < 0.02 && (expected[1] - 2.25).abs() < 0.02);
}
