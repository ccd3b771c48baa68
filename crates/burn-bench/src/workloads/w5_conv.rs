//! W5: conv2d of an [8, 64, 56, 56] input with a [64, 64, 3, 3] weight, stride 1, padding 1,
//! f32 → GFLOP/s (2 · n · c_out · h · w · c_in · 9 per run).

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::module::conv2d;
use burn::tensor::ops::ConvOptions;
use burn::tensor::{Distribution, Tensor};
use std::any::Any;

pub const W5: Workload = Workload {
    id: "W5",
    title: "conv2d 3x3, stride 1, padding 1, f32",
    cases,
};

const N: usize = 8;
const C: usize = 64;
const HW: usize = 56;

fn cases() -> Vec<Case> {
    let out = (N * C * HW * HW) as f64;
    vec![Case {
        info: CaseInfo {
            size: format!("[{N}, {C}, {HW}, {HW}]"),
            figure: Figure::GflopPerSec,
            flops: 2.0 * out * (C * 9) as f64,
            bytes: 4.0 * (2.0 * out + (C * C * 9) as f64),
        },
        setup: Box::new(|device| {
            device.seed(SEED);
            let x = Tensor::<4>::random([N, C, HW, HW], Distribution::Default, device);
            let w = Tensor::<4>::random([C, C, 3, 3], Distribution::Default, device);
            sync(device)?;
            let device = device.clone();
            let options = ConvOptions::new([1, 1], [1, 1], [1, 1], 1);
            Ok(Box::new(move || {
                let out = conv2d(x.clone(), w.clone(), None, options);
                sync(&device)?;
                Ok(Box::new(out) as Box<dyn Any>)
            }))
        }),
    }]
}
