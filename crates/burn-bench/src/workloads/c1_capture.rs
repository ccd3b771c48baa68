//! C1: graph capture against eager execution on models of many small operations, where the
//! per-operation overhead dominates → µs per operation, eager and replayed:
//!
//! - `chain`: W7's 1000 sequential `x = x + 1` on a [16] tensor, then one read;
//! - `mlp`: an 8-layer MLP of width 16 on one row (`Linear` + ReLU per layer, then softmax:
//!   25 operations), then one read — a served model's step;
//! - `sgd`: a training step of the same MLP without biases on a [4, 16] batch (forward, mean
//!   squared error, backward, `w - 0.01·grad` for every weight) → ms per step: eager on an
//!   autodiff device against the captured step (forward, gradient and update in one graph)
//!   replayed on the plain device.
//!
//! The replayed cases capture the step once (in the setup, outside the clock) and call
//! `replay` in each run.

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::module::Module;
use burn::nn::{Linear, LinearConfig};
use burn::tensor::{Device, Tensor, activation};
use std::any::Any;

pub const C1: Workload = Workload {
    id: "C1",
    title: "many small ops, eager vs captured replay: 1000 × (x + 1) on [16]; 8 × Linear(16) + ReLU on [1, 16]; its SGD step",
    cases,
};

const CHAIN_OPS: u32 = 1000;
const LEN: usize = 16;
const DEPTH: usize = 8;
/// 3 operations per layer (matmul, bias add, ReLU) and the softmax.
const MLP_OPS: u32 = DEPTH as u32 * 3 + 1;

fn chain(mut x: Tensor<1>) -> Tensor<1> {
    for _ in 0..CHAIN_OPS {
        x = x + 1.0;
    }
    x
}

#[derive(Module, Debug)]
struct Mlp {
    layers: Vec<Linear>,
}

impl Mlp {
    fn new(device: &Device) -> Self {
        Self {
            layers: (0..DEPTH)
                .map(|_| LinearConfig::new(LEN, LEN).init(device))
                .collect(),
        }
    }

    fn forward(&self, mut x: Tensor<2>) -> Tensor<2> {
        for layer in &self.layers {
            x = activation::relu(layer.forward(x));
        }
        activation::softmax(x, 1)
    }
}

/// One SGD step of the bias-free MLP: the loss and the updated weights.
fn sgd_step((x, weights): (Tensor<2>, Vec<Tensor<2>>)) -> (Tensor<1>, Vec<Tensor<2>>) {
    let weights: Vec<Tensor<2>> = weights.into_iter().map(Tensor::require_grad).collect();
    let mut h = x;
    for w in &weights {
        h = activation::relu(h.matmul(w.clone()));
    }
    let loss = (h - 0.5).powi_scalar(2).mean();
    let grads = loss.backward();
    let updated = weights
        .iter()
        .map(|w| {
            let grad = w.grad(&grads).expect("every weight is tracked");
            w.clone().inner() - grad * 0.01
        })
        .collect();
    (loss.inner(), updated)
}

/// The inputs of an SGD step on `device`.
fn sgd_inputs(device: &Device) -> (Tensor<2>, Vec<Tensor<2>>) {
    use burn::tensor::Distribution;
    let x = Tensor::<2>::random([4, LEN], Distribution::Uniform(-1.0, 1.0), device);
    let weights = (0..DEPTH)
        .map(|_| Tensor::<2>::random([LEN, LEN], Distribution::Uniform(-0.3, 0.3), device))
        .collect();
    (x, weights)
}

fn info(size: &str, ops: u32) -> CaseInfo {
    CaseInfo {
        size: size.to_string(),
        figure: Figure::UsPerOp(ops),
        flops: 0.0,
        bytes: 0.0,
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            info: info("chain eager", CHAIN_OPS),
            setup: Box::new(|device| {
                let device = device.clone();
                Ok(Box::new(move || {
                    let x = chain(Tensor::<1>::zeros([LEN], &device));
                    Ok(Box::new(x.into_data()) as Box<dyn Any>)
                }))
            }),
        },
        Case {
            info: info("chain replay", CHAIN_OPS),
            setup: Box::new(|device| {
                let example = Tensor::<1>::zeros([LEN], device);
                let graph = device.capture(&example, chain).map_err(|e| e.to_string())?;
                Ok(Box::new(move || {
                    let x = graph.replay(example.clone()).map_err(|e| e.to_string())?;
                    Ok(Box::new(x.into_data()) as Box<dyn Any>)
                }))
            }),
        },
        Case {
            info: info("mlp eager", MLP_OPS),
            setup: Box::new(|device| {
                device.seed(SEED);
                let model = Mlp::new(device);
                let x = Tensor::<2>::ones([1, LEN], device);
                sync(device)?;
                Ok(Box::new(move || {
                    let y = model.forward(x.clone());
                    Ok(Box::new(y.into_data()) as Box<dyn Any>)
                }))
            }),
        },
        Case {
            info: info("mlp replay", MLP_OPS),
            setup: Box::new(|device| {
                device.seed(SEED);
                let model = Mlp::new(device);
                let x = Tensor::<2>::ones([1, LEN], device);
                let graph = device
                    .capture(&x, |x| model.forward(x))
                    .map_err(|e| e.to_string())?;
                sync(device)?;
                Ok(Box::new(move || {
                    let y = graph.replay(x.clone()).map_err(|e| e.to_string())?;
                    Ok(Box::new(y.into_data()) as Box<dyn Any>)
                }))
            }),
        },
        Case {
            info: CaseInfo {
                figure: Figure::MsPerRun,
                ..info("sgd eager", 1)
            },
            setup: Box::new(|device| {
                device.seed(SEED);
                let train = device.autodiff();
                let inputs = sgd_inputs(&train);
                sync(device)?;
                Ok(Box::new(move || {
                    let (loss, weights) = sgd_step(inputs.clone());
                    let _ = weights;
                    Ok(Box::new(loss.into_data()) as Box<dyn Any>)
                }))
            }),
        },
        Case {
            info: CaseInfo {
                figure: Figure::MsPerRun,
                ..info("sgd replay", 1)
            },
            setup: Box::new(|device| {
                device.seed(SEED);
                let train = device.autodiff();
                let graph = train
                    .capture(&sgd_inputs(&train), sgd_step)
                    .map_err(|e| e.to_string())?;
                let inputs = sgd_inputs(device);
                sync(device)?;
                Ok(Box::new(move || {
                    let (loss, weights) =
                        graph.replay(inputs.clone()).map_err(|e| e.to_string())?;
                    let _ = weights;
                    Ok(Box::new(loss.into_data()) as Box<dyn Any>)
                }))
            }),
        },
    ]
}
