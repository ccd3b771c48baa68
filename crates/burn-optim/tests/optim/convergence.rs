//! End to end: optimizers drive a least-squares loss down on an autodiff device.

use burn_core as burn;

use burn::module::{Module, Param};
use burn::tensor::{Device, Distribution, Tensor};
use burn_optim::{AdamConfig, GradientsParams, Optimizer, SgdConfig};

#[derive(Module, Debug)]
struct Linear {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

impl Linear {
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        x.matmul(self.weight.val()) + self.bias.val().unsqueeze::<2>()
    }
}

/// The mean squared error of fitting `y = x·W* + b*` after `steps` steps of `optim`: the first
/// and the last loss.
fn fit<O: Optimizer<Linear>>(mut optim: O, lr: f64, steps: usize) -> (f64, f64) {
    let device = Device::flex().autodiff();
    device.seed(3);
    let x = Tensor::<2>::random([32, 4], Distribution::Normal(0.0, 1.0), &device);
    let w_true =
        Tensor::<2>::from_floats([[1.0, -2.0], [0.5, 0.0], [-1.5, 1.0], [2.0, 0.25]], &device);
    let y = x.clone().matmul(w_true) + Tensor::<2>::from_floats([[0.3, -0.7]], &device);
    let mut model = Linear {
        weight: Param::from_tensor(Tensor::zeros([4, 2], &device)),
        bias: Param::from_tensor(Tensor::zeros([2], &device)),
    };
    let mut losses = Vec::new();
    for _ in 0..steps {
        let loss = (model.forward(x.clone()) - y.clone()).square().mean();
        losses.push(loss.clone().into_scalar::<f64>());
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(lr, model, grads);
    }
    (losses[0], *losses.last().unwrap())
}

#[test]
fn adam_reduces_a_quadratic_loss() {
    let (first, last) = fit(AdamConfig::new().init(), 0.05, 300);
    assert!(first > 1.0, "{first}");
    assert!(last < 1e-3 * first, "Adam went from {first} to {last}");
}

#[test]
fn sgd_reduces_a_quadratic_loss() {
    let (first, last) = fit(SgdConfig::new().init(), 0.1, 300);
    assert!(last < 1e-3 * first, "SGD went from {first} to {last}");
}
