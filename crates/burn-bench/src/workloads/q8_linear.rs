//! Q8: a quantized `Linear` layer against the float one — `y = x·W` with `x` [256, 1024] and
//! `W` [1024, 1024] → GFLOP/s (2·256·1024² per run), in three forms:
//!
//! - `f32`: both operands float;
//! - `f32·q8`: the weight quantized (symmetric int8, one scale), `x` float: the weight is
//!   dequantized and the product runs in float (a quarter of the weight's memory);
//! - `q8·q8`: `x` quantized on every run (its scale from its values: dynamic quantization, in
//!   the clock) and the product summed in integers (AVX-512 VNNI on Flex where the CPU has it).

use super::{Case, CaseInfo, Figure, SEED, Workload, sync};
use burn::tensor::quantization::{QuantScheme, QuantValue, ScaleDtype};
use burn::tensor::{Distribution, Tensor};
use std::any::Any;

pub const Q8: Workload = Workload {
    id: "Q8",
    title: "Linear x·W [256,1024]·[1024,1024]: f32, f32·q8 weight, q8·q8",
    cases,
};

const M: usize = 256;
const K: usize = 1024;
const N: usize = 1024;

/// How the product is formed.
#[derive(Clone, Copy)]
enum Form {
    Float,
    QuantizedWeight,
    Integer,
}

fn cases() -> Vec<Case> {
    [
        ("f32", Form::Float),
        ("f32·q8", Form::QuantizedWeight),
        ("q8·q8", Form::Integer),
    ]
    .into_iter()
    .map(|(name, form)| case(name, form))
    .collect()
}

fn case(name: &'static str, form: Form) -> Case {
    let (m, k, n) = (M as f64, K as f64, N as f64);
    let weight_bytes = match form {
        Form::Float => 4.0,
        _ => 1.0,
    };
    Case {
        info: CaseInfo {
            size: name.to_string(),
            figure: Figure::GflopPerSec,
            flops: 2.0 * m * k * n,
            bytes: 4.0 * m * k + weight_bytes * k * n + 4.0 * m * n,
        },
        setup: Box::new(move |device| {
            device.seed(SEED);
            let scheme = QuantScheme::default()
                .with_value(QuantValue::Q8S)
                .per_tensor(ScaleDtype::F32);
            let x = Tensor::<2>::random([M, K], Distribution::Uniform(-1.0, 1.0), device);
            let w = Tensor::<2>::random([K, N], Distribution::Uniform(-0.05, 0.05), device);
            let w = match form {
                Form::Float => w,
                _ => w.quantize_dynamic(&scheme),
            };
            sync(device)?;
            let device = device.clone();
            Ok(Box::new(move || {
                let x = match form {
                    Form::Integer => x.clone().quantize_dynamic(&scheme),
                    _ => x.clone(),
                };
                let y = x.matmul(w.clone());
                sync(&device)?;
                Ok(Box::new(y) as Box<dyn Any>)
            }))
        }),
    }
}
