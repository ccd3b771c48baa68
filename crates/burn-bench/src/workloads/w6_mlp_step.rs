//! W6: one training step of an MLP 784 → 1024 → 1024 → 10 (ReLU), batch 256, cross-entropy,
//! SGD with learning rate 0.01: forward, backward and update → ms per step.

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::{Distribution, Int, Tensor};
use std::any::Any;

pub const W6: Workload = Workload {
    id: "W6",
    title: "MLP 784-1024-1024-10 training step, batch 256, SGD",
    cases,
};

const BATCH: usize = 256;
const SIZES: [usize; 4] = [784, 1024, 1024, 10];
const LR: f64 = 0.01;

fn cases() -> Vec<Case> {
    let b = BATCH as f64;
    let products: f64 = SIZES.windows(2).map(|w| (w[0] * w[1]) as f64).sum();
    vec![Case {
        info: CaseInfo {
            size: format!("batch {BATCH}"),
            figure: Figure::MsPerRun,
            // Forward, and two products per layer backward (the weight's and the input's
            // gradient) except the first layer's input gradient: the data needs none.
            flops: 2.0 * b * (3.0 * products - (SIZES[0] * SIZES[1]) as f64),
            // The weights read three times and written once.
            bytes: 4.0 * 4.0 * products,
        },
        setup: Box::new(|device| {
            let device = device.autodiff();
            device.seed(SEED);
            let mut params: Vec<(Tensor<2>, Tensor<1>)> = SIZES
                .windows(2)
                .map(|w| {
                    let scale = (2.0 / w[0] as f64).sqrt();
                    let weight = Tensor::<2>::random(
                        [w[0], w[1]],
                        Distribution::Normal(0.0, scale),
                        &device,
                    );
                    (
                        weight.require_grad(),
                        Tensor::<1>::zeros([w[1]], &device).require_grad(),
                    )
                })
                .collect();
            let x = Tensor::<2>::random([BATCH, SIZES[0]], Distribution::Default, &device);
            let labels =
                Tensor::<1, Int>::random([BATCH], Distribution::Uniform(0.0, 10.0), &device);
            let targets = labels.one_hot::<2>(10).float();
            sync(&device)?;
            Ok(Box::new(move || {
                let last = params.len() - 1;
                let mut h = x.clone();
                for (i, (w, b)) in params.iter().enumerate() {
                    h = h.matmul(w.clone()) + b.clone().unsqueeze::<2>();
                    if i < last {
                        h = relu(h);
                    }
                }
                let loss = (log_softmax(h, 1) * targets.clone()).sum().neg() / BATCH as f64;
                let grads = loss.backward();
                // The parameters are consumed by their update, as `burn::optim`'s optimizers do,
                // so a backend may update a buffer nothing else holds in place.
                params = std::mem::take(&mut params)
                    .into_iter()
                    .map(|(w, b)| {
                        let gw = w.grad(&grads).expect("the weight is used");
                        let gb = b.grad(&grads).expect("the bias is used");
                        (
                            Tensor::from_inner(w.inner() - gw * LR).require_grad(),
                            Tensor::from_inner(b.inner() - gb * LR).require_grad(),
                        )
                    })
                    .collect();
                sync(&device)?;
                Ok(Box::new(loss) as Box<dyn Any>)
            }))
        }),
    }]
}
