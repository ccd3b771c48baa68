//! W4: softmax over the last axis of a [4096, 1024] f32 tensor → ms (and GB/s: the input read
//! once and the output written once at least).

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::activation::softmax;
use burn::tensor::{Distribution, Tensor};
use std::any::Any;

pub const W4: Workload = Workload {
    id: "W4",
    title: "softmax over the last axis, f32",
    cases,
};

const ROWS: usize = 4096;
const COLS: usize = 1024;

fn cases() -> Vec<Case> {
    let len = (ROWS * COLS) as f64;
    vec![Case {
        info: CaseInfo {
            size: format!("[{ROWS}, {COLS}]"),
            figure: Figure::MsPerRun,
            // max, subtract, exp, sum, divide.
            flops: 5.0 * len,
            bytes: 8.0 * len,
        },
        setup: Box::new(|device| {
            device.seed(SEED);
            let x = Tensor::<2>::random([ROWS, COLS], Distribution::Default, device);
            sync(device)?;
            let device = device.clone();
            Ok(Box::new(move || {
                let out = softmax(x.clone(), 1);
                sync(&device)?;
                Ok(Box::new(out) as Box<dyn Any>)
            }))
        }),
    }]
}
