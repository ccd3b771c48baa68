//! W3: the sum over the last axis of a [4096, 4096] f32 tensor → GB/s (the input read once).

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::{Distribution, Tensor};
use std::any::Any;

pub const W3: Workload = Workload {
    id: "W3",
    title: "sum over the last axis, f32",
    cases,
};

const N: usize = 4096;

fn cases() -> Vec<Case> {
    let n = N as f64;
    vec![Case {
        info: CaseInfo {
            size: format!("[{N}, {N}]"),
            figure: Figure::GbPerSec,
            flops: n * n,
            bytes: 4.0 * n * n + 4.0 * n,
        },
        setup: Box::new(|device| {
            device.seed(SEED);
            let x = Tensor::<2>::random([N, N], Distribution::Default, device);
            sync(device)?;
            let device = device.clone();
            Ok(Box::new(move || {
                let out = x.clone().sum_dim(1);
                sync(&device)?;
                Ok(Box::new(out) as Box<dyn Any>)
            }))
        }),
    }]
}
