//! The fused operation against the unfused composition, values and gradients, on every
//! backend this build has: Flex always, Cube on WGPU with the `wgpu` feature (lavapipe where
//! there is no GPU; skipped without an adapter unless `BURN_REQUIRE_WGPU=1`), Cube on CubeCL's
//! CPU runtime with the `cpu` feature.

use burn::tensor::{Device, Tensor, TensorData};
use custom_op::{linear, linear_relu, linear_relu_reference};

/// `len` values in [-1, 1) from a fixed linear congruential sequence (no device RNG, so every
/// backend sees the same numbers).
fn values(len: usize, seed: u64) -> Vec<f32> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn tensor<const D: usize>(shape: [usize; D], seed: u64, device: &Device) -> Tensor<D> {
    let len = shape.iter().product();
    Tensor::from_data(TensorData::new(values(len, seed), shape), device)
}

/// The devices to run on.
fn devices() -> Vec<Device> {
    #[allow(unused_mut)]
    let mut devices = vec![Device::flex()];
    #[cfg(feature = "wgpu")]
    devices.extend(wgpu_device());
    #[cfg(feature = "cpu")]
    devices.push(Device::cpu());
    devices
}

#[cfg(feature = "wgpu")]
fn wgpu_device() -> Option<Device> {
    use burn::tensor::DeviceKind;
    let kinds = [
        DeviceKind::DiscreteGpu(0),
        DeviceKind::IntegratedGpu(0),
        DeviceKind::Cpu,
    ];
    let found = kinds
        .into_iter()
        .find_map(|kind| Device::try_vulkan(kind).ok());
    if found.is_none() {
        if std::env::var("BURN_REQUIRE_WGPU").is_ok_and(|v| v == "1") {
            panic!("no Vulkan adapter (BURN_REQUIRE_WGPU=1 makes this a failure)");
        }
        eprintln!("WGPU skipped: no Vulkan adapter (install mesa-vulkan-drivers)");
    }
    found
}

fn assert_close<const D: usize>(what: &str, actual: Tensor<D>, expected: Tensor<D>) {
    let (a, e) = (actual.into_data(), expected.into_data());
    assert_eq!(a.shape, e.shape, "{what}: shapes differ");
    let (a, e) = (a.to_vec::<f32>().unwrap(), e.to_vec::<f32>().unwrap());
    for (i, (x, y)) in a.iter().zip(&e).enumerate() {
        assert!(
            (x - y).abs() <= 1e-5 * (1.0 + y.abs()),
            "{what}: element {i}: fused {x}, composed {y}\nfused    {a:?}\ncomposed {e:?}"
        );
    }
}

/// Shapes with a shared dim that is no multiple of anything, and enough negatives that the
/// ReLU clamps some outputs and not others.
const M: usize = 5;
const K: usize = 7;
const N: usize = 3;

#[test]
fn values_match_the_composition() {
    for device in devices() {
        let (x, w, b) = (
            tensor([M, K], 1, &device),
            tensor([K, N], 2, &device),
            tensor([N], 3, &device),
        );
        let fused = linear_relu(x.clone(), w.clone(), b.clone());
        let clamped = fused.clone().into_data().to_vec::<f32>().unwrap();
        assert!(clamped.contains(&0.0) && clamped.iter().any(|&v| v > 0.0));
        assert_close(
            &format!("linear_relu on {device:?}"),
            fused,
            linear_relu_reference(x.clone(), w.clone(), b.clone()),
        );
        let reference = x.matmul(w.clone()) + b.clone().unsqueeze::<2>();
        assert_close(
            &format!("linear on {device:?}"),
            linear(tensor([M, K], 1, &device), w, b),
            reference,
        );
    }
}

/// The gradients of `sum(f(x, w, b) * c)` for every input, `c` fixed (so that each output
/// element weighs differently).
fn gradients(
    f: fn(Tensor<2>, Tensor<2>, Tensor<1>) -> Tensor<2>,
    device: &Device,
) -> [Vec<f32>; 3] {
    let device = device.autodiff();
    let x = tensor([M, K], 1, &device).require_grad();
    let w = tensor([K, N], 2, &device).require_grad();
    let b = tensor([N], 3, &device).require_grad();
    let c = tensor([M, N], 4, &device);
    let grads = (f(x.clone(), w.clone(), b.clone()) * c).sum().backward();
    let read = |t: Option<Tensor<2>>| t.expect("a gradient").into_data().to_vec::<f32>().unwrap();
    [
        read(x.grad(&grads)),
        read(w.grad(&grads)),
        b.grad(&grads)
            .expect("a gradient")
            .into_data()
            .to_vec::<f32>()
            .unwrap(),
    ]
}

fn assert_grads_close(what: &str, actual: [Vec<f32>; 3], expected: [Vec<f32>; 3]) {
    for (name, (a, e)) in ["x", "weight", "bias"]
        .iter()
        .zip(actual.iter().zip(&expected))
    {
        assert_eq!(a.len(), e.len());
        assert!(e.iter().any(|&v| v != 0.0), "{what}: d{name} is all zeros");
        for (x, y) in a.iter().zip(e) {
            assert!(
                (x - y).abs() <= 1e-5 * (1.0 + y.abs()),
                "{what}: d{name}: {a:?} vs {e:?}"
            );
        }
    }
}

#[test]
fn custom_backward_matches_the_composed_gradient() {
    for device in devices() {
        let fused = gradients(linear_relu, &device);
        let composed = gradients(linear_relu_reference, &device);
        assert_grads_close(&format!("linear_relu on {device:?}"), fused, composed);
    }
}

#[test]
fn default_body_is_differentiated_by_composition() {
    fn reference(x: Tensor<2>, w: Tensor<2>, b: Tensor<1>) -> Tensor<2> {
        x.matmul(w) + b.unsqueeze::<2>()
    }
    for device in devices() {
        let composed = gradients(reference, &device);
        assert_grads_close(
            &format!("linear on {device:?}"),
            gradients(linear, &device),
            composed,
        );
    }
}

#[test]
fn untracked_inputs_on_an_autodiff_device_stay_there_untracked() {
    for device in devices() {
        let device = device.autodiff();
        let out = linear_relu(
            tensor([M, K], 1, &device),
            tensor([K, N], 2, &device),
            tensor([N], 3, &device),
        );
        assert!(out.device().is_autodiff());
        assert!(!out.primitive().is_tracked());
    }
}

#[test]
#[should_panic(expected = "linear_relu: expected x [m, k], weight [k, n] and bias [n]")]
fn mismatched_shapes_are_rejected_at_the_api() {
    let device = Device::flex();
    linear_relu(
        tensor([M, K], 1, &device),
        tensor([N, K], 2, &device),
        tensor([N], 3, &device),
    );
}
