//! The tensor API on the default device (Flex unless `BURN_DEVICE` says otherwise): creation,
//! broadcasting, reductions, indexing, and a linear regression fitted by gradient descent, its
//! gradients computed by autodiff (checked once against the hand-derived formula).

use burn::tensor::activation::softmax;
use burn::tensor::{Device, Distribution, Int, Tensor, s};

fn main() {
    let device = Device::default();
    println!("device: {device}");

    let x = Tensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    println!("x =\n{x}");
    println!("x · xᵀ =\n{}", x.clone().matmul(x.clone().transpose()));
    println!("row means = {}", x.clone().mean_dim(1));
    println!("softmax over rows =\n{:.4}", softmax(x.clone(), 1));
    println!("second column = {}", x.clone().slice(s![.., 1]));
    let order = Tensor::<1, Int>::from_ints([2, 0, 1], &device);
    println!("columns reordered =\n{}", x.select(1, order));

    fit_linear_regression(&device);
}

/// Fits `y = X·w + b` to noisy data from known weights by gradient descent on the mean
/// squared error, then prints the recovered weights next to the true ones.
fn fit_linear_regression(device: &Device) {
    device.seed(42);
    let (samples, features) = (256, 4);
    let true_w = Tensor::<2>::from_floats([[2.0], [-3.0], [0.5], [1.0]], device);
    let true_b = 0.25;
    let inputs = Tensor::<2>::random([samples, features], Distribution::Normal(0.0, 1.0), device);
    let noise = Tensor::<2>::random([samples, 1], Distribution::Normal(0.0, 0.01), device);
    let targets = inputs.clone().matmul(true_w.clone()) + true_b + noise;

    // Parameters are leaves on the autodiff view of the device; the data stays plain.
    let autodiff = device.autodiff();
    let mut w = Tensor::<2>::zeros([features, 1], &autodiff).require_grad();
    let mut b = Tensor::<2>::zeros([1, 1], &autodiff).require_grad();
    let learning_rate = 0.1;
    for step in 0..=200 {
        let error = inputs.clone().matmul(w.clone()) + b.clone() - targets.clone();
        let loss = error.clone().square().mean();
        let grads = loss.backward();
        let (grad_w, grad_b) = (w.grad(&grads).unwrap(), b.grad(&grads).unwrap());
        if step == 0 {
            // d(loss)/dw = 2/n · Xᵀ·error, computed by hand for comparison.
            let by_hand = inputs.clone().transpose().matmul(error.inner()) * (2.0 / samples as f64);
            let gap = (by_hand - grad_w.clone()).abs().max().into_scalar::<f64>();
            println!("autodiff vs hand-derived gradient: max difference {gap:.2e}");
        }
        // The update runs on the inner device (no graph), then the results become leaves again.
        w = Tensor::from_inner(w.inner() - grad_w * learning_rate).require_grad();
        b = Tensor::from_inner(b.inner() - grad_b * learning_rate).require_grad();
        if step % 50 == 0 {
            println!("step {step:3}: mse = {:.6}", loss.into_scalar::<f64>());
        }
    }
    let (w, b) = (w.inner(), b.inner());
    println!("learned w = {:.3}", w.reshape([features]));
    println!("true    w = {:.3}", true_w.reshape([features]));
    println!("learned b = {:.3} (true {true_b})", b.into_scalar::<f64>());
}
