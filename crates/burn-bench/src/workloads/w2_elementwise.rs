//! W2: `exp(a*b + c)` over 2^24 f32 elements → ms and effective GB/s (16 bytes per element:
//! three inputs read, one output written).

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::{Distribution, Tensor};
use std::any::Any;

pub const W2: Workload = Workload {
    id: "W2",
    title: "exp(a*b + c), f32",
    cases,
};

const LEN: usize = 1 << 24;

fn cases() -> Vec<Case> {
    let len = LEN as f64;
    vec![Case {
        info: CaseInfo {
            size: "2^24".into(),
            figure: Figure::GbPerSec,
            // The multiply and the add; `exp` is not counted (the roof here is memory).
            flops: 2.0 * len,
            bytes: 16.0 * len,
        },
        setup: Box::new(|device| {
            device.seed(SEED);
            let a = Tensor::<1>::random([LEN], Distribution::Default, device);
            let b = Tensor::<1>::random([LEN], Distribution::Default, device);
            let c = Tensor::<1>::random([LEN], Distribution::Default, device);
            sync(device)?;
            let device = device.clone();
            Ok(Box::new(move || {
                let out = (a.clone() * b.clone() + c.clone()).exp();
                sync(&device)?;
                Ok(Box::new(out) as Box<dyn Any>)
            }))
        }),
    }]
}
