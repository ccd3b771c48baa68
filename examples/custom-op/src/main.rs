//! Runs the fused operation on every backend of this build (Flex; Cube on WGPU with the `wgpu`
//! feature), without and with autodiff, and prints how far it is from the unfused composition.
//!
//! `cargo run -p custom-op` (Flex), `cargo run -p custom-op --features wgpu` (also WGPU).

use burn::tensor::{Device, Distribution, Tensor};
use custom_op::{linear_relu, linear_relu_reference};

/// The largest absolute difference between two tensors.
fn max_diff<const D: usize>(a: Tensor<D>, b: Tensor<D>) -> f32 {
    (a - b).abs().max().into_scalar::<f32>()
}

fn run(name: &str, device: &Device) {
    device.seed(7);
    let x = Tensor::<2>::random([64, 32], Distribution::Normal(0.0, 1.0), device);
    let w = Tensor::<2>::random([32, 16], Distribution::Normal(0.0, 0.2), device);
    let b = Tensor::<1>::random([16], Distribution::Normal(0.0, 0.1), device);
    let fused = linear_relu(x.clone(), w.clone(), b.clone());
    let composed = linear_relu_reference(x.clone(), w.clone(), b.clone());
    println!(
        "{name}: forward   max |fused - composed| = {:.2e}",
        max_diff(fused, composed)
    );

    let ad = device.autodiff();
    let track = |t: Tensor<2>| Tensor::<2>::from_data(t.into_data(), &ad).require_grad();
    let (x, w) = (track(x), track(w));
    let b = Tensor::<1>::from_data(b.into_data(), &ad).require_grad();
    let grads = linear_relu(x.clone(), w.clone(), b.clone())
        .sum()
        .backward();
    let (dx, dw) = (x.grad(&grads).unwrap(), w.grad(&grads).unwrap());
    let grads_ref = linear_relu_reference(x.clone(), w.clone(), b.clone())
        .sum()
        .backward();
    println!(
        "{name}: backward  max |dx - dx_ref| = {:.2e}, max |dw - dw_ref| = {:.2e}",
        max_diff(dx, x.grad(&grads_ref).unwrap()),
        max_diff(dw, w.grad(&grads_ref).unwrap())
    );
}

fn main() {
    run("flex", &Device::flex());
    #[cfg(feature = "wgpu")]
    match Device::try_vulkan(burn::tensor::DeviceKind::Cpu)
        .or_else(|_| Device::try_vulkan(burn::tensor::DeviceKind::DiscreteGpu(0)))
    {
        Ok(device) => run("wgpu", &device),
        Err(err) => println!("wgpu: skipped ({err})"),
    }
    #[cfg(feature = "cpu")]
    run("cube-cpu", &Device::cpu());
}
