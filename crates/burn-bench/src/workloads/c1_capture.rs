//! C1: graph capture against eager execution on models of many small operations, where the
//! per-operation overhead dominates → µs per operation, eager and replayed:
//!
//! - `chain`: W7's 1000 sequential `x = x + 1` on a [16] tensor, then one read;
//! - `mlp`: an 8-layer MLP of width 16 on one row (`Linear` + ReLU per layer, then softmax:
//!   25 operations), then one read — a served model's step.
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
    title: "many small ops, eager vs captured replay: 1000 × (x + 1) on [16]; 8 × Linear(16) + ReLU on [1, 16]",
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

#[derive(Module, Debug, Clone)]
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
    ]
}
