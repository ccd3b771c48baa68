//! W1: `C = A·B`, square f32 matrices, n = 256, 1024, 2048 → GFLOP/s (2n³ per run).

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::{Distribution, Tensor};
use std::any::Any;

pub const W1: Workload = Workload {
    id: "W1",
    title: "matmul C = A·B, square, f32",
    cases,
};

const SIZES: [usize; 3] = [256, 1024, 2048];

fn cases() -> Vec<Case> {
    SIZES.into_iter().map(case).collect()
}

fn case(n: usize) -> Case {
    let nf = n as f64;
    Case {
        info: CaseInfo {
            size: format!("n={n}"),
            figure: Figure::GflopPerSec,
            flops: 2.0 * nf * nf * nf,
            // A and B read once, C written once.
            bytes: 3.0 * 4.0 * nf * nf,
        },
        setup: Box::new(move |device| {
            device.seed(SEED);
            let a = Tensor::<2>::random([n, n], Distribution::Default, device);
            let b = Tensor::<2>::random([n, n], Distribution::Default, device);
            sync(device)?;
            let device = device.clone();
            Ok(Box::new(move || {
                let c = a.clone().matmul(b.clone());
                sync(&device)?;
                Ok(Box::new(c) as Box<dyn Any>)
            }))
        }),
    }
}
