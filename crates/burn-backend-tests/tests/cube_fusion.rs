//! Fusion on the CubeCL backend through the public API (`Cube` = `Fusion<CubeBackend>`,
//! feature `fusion`), on the Cube device `BURN_TEST_DEVICE` names (WGPU/Vulkan when unset, or
//! `cpu-f32`: CubeCL's CPU runtime): values equal to the CPU backend's on the patterns fusion
//! rewrites (element-wise chains, softmax, a normalisation with its epilogue, a linear layer and
//! its activation), the fusion statistics showing they ran fused, the plan cache hit by a
//! repeated step, a tensor read in the middle of a queue, a tensor produced on one thread and
//! used on another, and buffers reused only when unshared.
#![cfg(feature = "fusion")]

use burn::backend::cube::launch_count;
use burn::backend::{CubeBackend, CubeDevice, DispatchDevice, fusion};
use burn::tensor::activation::{relu, softmax};
use burn::tensor::{Device, Distribution, FloatDType, Tensor};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The tests read the device's statistics: one at a time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The Cube device `BURN_TEST_DEVICE` names (WGPU/Vulkan when unset), in f32.
fn device() -> (Device, CubeDevice) {
    let device = burn_backend_tests::cube_device_under_test();
    assert_eq!(
        device.settings().float_dtype,
        FloatDType::F32,
        "the fusion suite checks f32 values: run it with an `-f32` BURN_TEST_DEVICE"
    );
    let DispatchDevice::Cube(cube) = device.dispatch().clone() else {
        panic!("cube_device gave a device of another backend: {device:?}");
    };
    (device, cube)
}

fn stats(cube: &CubeDevice) -> fusion::FusionStats {
    fusion::stats::<CubeBackend>(cube)
}

/// The same values on the CPU backend.
fn on_flex<const D: usize>(t: &Tensor<D>) -> Tensor<D> {
    Tensor::from_data(t.to_data(), &Device::flex())
}

fn assert_close<const D: usize>(what: &str, got: Tensor<D>, expected: Tensor<D>) {
    let got = got.into_data().to_vec::<f32>().unwrap();
    let expected = expected.into_data().to_vec::<f32>().unwrap();
    assert_eq!(got.len(), expected.len(), "{what}: lengths");
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert!(
            (g - e).abs() <= 1e-5 + 1e-5 * e.abs(),
            "{what}: element {i} is {g}, expected {e}"
        );
    }
}

#[test]
fn elementwise_chain_runs_fused_with_the_cpu_values() {
    let _serial = serial();
    let (device, cube) = device();
    let a = Tensor::<2>::random([64, 48], Distribution::Default, &device);
    let b = Tensor::<2>::random([64, 48], Distribution::Default, &device);
    let c = Tensor::<1>::random([48], Distribution::Default, &device);
    let expected = (on_flex(&a) * on_flex(&b) + on_flex(&c).unsqueeze::<2>()).exp();
    device.sync().unwrap();
    let before = stats(&cube);
    let got = (a * b + c.unsqueeze::<2>()).exp();
    assert_close("exp(a*b + c)", got, expected);
    let after = stats(&cube);
    assert!(
        after.fused_ops >= before.fused_ops + 3,
        "{before:?} → {after:?}"
    );
}

#[test]
fn softmax_and_a_normalisation_fuse_their_reductions() {
    let _serial = serial();
    let (device, cube) = device();
    let x = Tensor::<2>::random([32, 200], Distribution::Normal(0.0, 2.0), &device);
    let expected = softmax(on_flex(&x), 1);
    device.sync().unwrap();
    let before = stats(&cube);
    assert_close("softmax", softmax(x.clone(), 1), expected);
    let after = stats(&cube);
    assert!(
        after.fused_blocks > before.fused_blocks,
        "{before:?} → {after:?}"
    );

    // (x - mean)^2 averaged, then 1 / sqrt(var + eps): a reduction with a prologue and an
    // epilogue.
    let norm = |x: Tensor<2>| {
        let centered = x.clone() - x.mean_dim(1);
        (centered.clone() * centered)
            .mean_dim(1)
            .add_scalar(1e-5)
            .sqrt()
            .recip()
    };
    let expected = norm(on_flex(&x));
    let before = stats(&cube);
    assert_close("normalisation", norm(x), expected);
    let after = stats(&cube);
    assert!(
        after.fused_ops >= before.fused_ops + 4,
        "{before:?} → {after:?}"
    );
}

#[test]
fn a_linear_layer_and_its_activation_run_as_one_product_kernel() {
    let _serial = serial();
    let (device, cube) = device();
    let x = Tensor::<2>::random([24, 40], Distribution::Normal(0.0, 1.0), &device);
    let w = Tensor::<2>::random([40, 16], Distribution::Normal(0.0, 0.3), &device);
    let b = Tensor::<1>::random([16], Distribution::Normal(0.0, 0.3), &device);
    let layer = |x: Tensor<2>, w: Tensor<2>, b: Tensor<1>| relu(x.matmul(w) + b.unsqueeze());
    let expected = layer(on_flex(&x), on_flex(&w), on_flex(&b));
    device.sync().unwrap();
    let before = stats(&cube);
    let launches = launch_count();
    let got = layer(x.clone(), w.clone(), b.clone());
    device.sync().unwrap();
    let (after, launches) = (stats(&cube), launch_count() - launches);
    assert_eq!(
        launches, 1,
        "relu(x·W + b) in one launch; {before:?} → {after:?}"
    );
    assert_eq!(after.fused_blocks, before.fused_blocks + 1);
    assert!(
        after.fused_ops >= before.fused_ops + 3,
        "{before:?} → {after:?}"
    );
    assert_close("relu(x·W + b)", got, expected);

    // The product read again after the run is written as well.
    let both = |x: Tensor<2>, w: Tensor<2>, b: Tensor<1>| {
        let product = x.matmul(w);
        let activated = relu(product.clone() + b.unsqueeze());
        (activated, product)
    };
    let (expected_act, expected_product) = both(on_flex(&x), on_flex(&w), on_flex(&b));
    let (act, product) = both(x, w, b);
    assert_close("activation", act, expected_act);
    assert_close("product kept", product, expected_product);
}

#[test]
fn views_of_tensors_a_run_reads_do_not_free_them_early() {
    // The reshapes of a fused block run before its kernel takes its inputs: a reshape that is
    // the last use of a tensor the kernel also reads must not free it first.
    let _serial = serial();
    let (device, _) = device();
    let x = Tensor::<2>::random([3, 1], Distribution::Normal(0.0, 1.0), &device);
    let w = Tensor::<2>::random([1, 3], Distribution::Normal(0.0, 1.0), &device);
    let product_and_view = |x: Tensor<2>, w: Tensor<2>| x.clone().matmul(w) + x.reshape([1, 3]);
    let expected = product_and_view(on_flex(&x), on_flex(&w));
    assert_close(
        "x·w + a view of x",
        product_and_view(x.clone(), w),
        expected,
    );
    let chain_and_view = |x: Tensor<2>| x.clone().exp() + x.reshape([1, 3]).reshape([3, 1]);
    let expected = chain_and_view(on_flex(&x));
    assert_close("exp(x) + a view of x", chain_and_view(x), expected);
}

#[test]
fn a_repeated_step_hits_the_plan_cache() {
    let _serial = serial();
    let (device, cube) = device();
    let w = Tensor::<2>::random([16, 16], Distribution::Default, &device);
    let before = stats(&cube);
    for step in 0..12 {
        let x = Tensor::<2>::random([16, 16], Distribution::Default, &device);
        let y = ((x.matmul(w.clone()) * (0.1 * step as f64)).tanh() + 1.0).sum();
        assert!(y.into_scalar::<f32>().is_finite());
    }
    let after = stats(&cube);
    let hits = after.plan_hits - before.plan_hits;
    let misses = after.plan_misses - before.plan_misses;
    assert!(hits >= 10 && misses <= 2, "{hits} hits, {misses} misses");
}

#[test]
fn reads_in_the_middle_and_tensors_shared_across_threads() {
    let _serial = serial();
    let (device, _) = device();
    let x = Tensor::<1>::from_floats([1.0, -2.0, 3.0], &device);
    let y = x.clone() * 2.0 + 1.0;
    assert_eq!(y.to_data().to_vec::<f32>().unwrap(), vec![3.0, -3.0, 7.0]);
    let z = (y.clone() * y).exp().log();
    let moved = std::thread::spawn(move || (z + 1.0) * 0.5).join().unwrap();
    assert_close(
        "across threads",
        moved,
        Tensor::<1>::from_floats([5.0, 5.0, 25.0], &Device::flex()),
    );
    assert_eq!(x.into_data().to_vec::<f32>().unwrap(), vec![1.0, -2.0, 3.0]);
}

#[test]
fn buffers_are_reused_only_when_unshared() {
    let _serial = serial();
    let (device, _) = device();
    let mut x = Tensor::<1>::from_floats([1.0, 2.0, 3.0, 4.0], &device);
    let kept = x.clone();
    for _ in 0..5 {
        x = (x * 2.0 + 1.0).sqrt();
    }
    let mut expected = [1.0f32, 2.0, 3.0, 4.0];
    for _ in 0..5 {
        expected = expected.map(|v| (v * 2.0 + 1.0).sqrt());
    }
    assert_close(
        "chain",
        x,
        Tensor::<1>::from_floats(expected, &Device::flex()),
    );
    assert_eq!(
        kept.into_data().to_vec::<f32>().unwrap(),
        vec![1.0, 2.0, 3.0, 4.0]
    );
}
