//! The tensor API on the default device (Flex unless `BURN_DEVICE` says otherwise): creation,
//! broadcasting, reductions, indexing, and a linear regression fitted by gradient descent with
//! hand-written gradients (autodiff comes with its own issue).

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

    let mut w = Tensor::<2>::zeros([features, 1], device);
    let mut b = Tensor::<2>::zeros([1, 1], device);
    let learning_rate = 0.1;
    for step in 0..=200 {
        let error = inputs.clone().matmul(w.clone()) + b.clone() - targets.clone();
        let loss = error.clone().square().mean();
        // d(loss)/dw = 2/n · Xᵀ·error, d(loss)/db = 2/n · Σ error
        let grad_w = inputs.clone().transpose().matmul(error.clone()) * (2.0 / samples as f64);
        let grad_b = error.sum_dim(0) * (2.0 / samples as f64);
        w = w - grad_w * learning_rate;
        b = b - grad_b * learning_rate;
        if step % 50 == 0 {
            println!("step {step:3}: mse = {:.6}", loss.into_scalar().to_f64());
        }
    }
    println!("learned w = {:.3}", w.reshape([features]));
    println!("true    w = {:.3}", true_w.reshape([features]));
    println!(
        "learned b = {:.3} (true {true_b})",
        b.into_scalar().to_f64()
    );
}
