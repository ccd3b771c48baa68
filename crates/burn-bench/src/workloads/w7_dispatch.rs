//! W7: 1000 sequential `x = x + 1` on a [16] f32 tensor, then one read → µs per operation: the
//! cost of dispatching an operation, the work itself being negligible.

use super::{Case, CaseInfo, Figure, Workload};
use burn::tensor::Tensor;
use std::any::Any;

pub const W7: Workload = Workload {
    id: "W7",
    title: "1000 × (x = x + 1) on [16], then read",
    cases,
};

const OPS: u32 = 1000;
const LEN: usize = 16;

fn cases() -> Vec<Case> {
    vec![Case {
        info: CaseInfo {
            size: format!("[{LEN}] × {OPS}"),
            figure: Figure::UsPerOp(OPS),
            flops: f64::from(OPS) * LEN as f64,
            bytes: 0.0,
        },
        setup: Box::new(|device| {
            let device = device.clone();
            Ok(Box::new(move || {
                let mut x = Tensor::<1>::zeros([LEN], &device);
                for _ in 0..OPS {
                    x = x + 1.0;
                }
                let data = x.into_data();
                Ok(Box::new(data) as Box<dyn Any>)
            }))
        }),
    }]
}
