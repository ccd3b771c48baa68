//! `cargo xtask bench --fusion`: what the fusion decorator does on the CubeCL backend (WGPU;
//! Mesa's lavapipe where there is no GPU), measured in one run.
//!
//! - W2, `exp(a*b + c)` over 2^24 f32, and W4, softmax over the last axis of [4096, 1024]:
//!   kernel launches per run, read from the backend (`burn_cubecl::launch_count`), and the
//!   median time, unfused (`CubeBackend`) and fused (`Fusion<CubeBackend>`), with their ratio.
//! - `relu(x·W + b)` on `[256, 512] × [512, 512]`: launches and time, unfused and fused (the
//!   bias and the activation run in the product's kernel where `supports_matmul` allows).
//! - A training step of a small MLP (64 → 128 → 10, ReLU, softmax cross-entropy, SGD) repeated
//!   100 times through the public API on `Cube` (= `Fusion<CubeBackend>`): the plan-cache hit
//!   rate of the fusion server, and the fused/unfused operation counts.

use burn::backend::CubeBackend;
use burn::tensor::activation::{log_softmax, relu};
use burn::tensor::{Device, Distribution, Tensor};
use burn_backend::tensor::FloatTensor;
use burn_backend::{Backend, TensorData};
use burn_cubecl::{CubeDevice, launch_count};
use burn_fusion::{Fusion, stats};
use std::time::Instant;

const LEN: usize = 1 << 24;
const RUNS: usize = 10;

/// Deterministic inputs in `[0, 1)`.
fn input<B: Backend<Device = CubeDevice>>(
    shape: &[usize],
    seed: u64,
    device: &CubeDevice,
) -> FloatTensor<B> {
    let len: usize = shape.iter().product();
    let values: Vec<f32> = (0..len)
        .map(|i| ((i as u64 * 2654435761 + seed) % 1000) as f32 / 1000.0)
        .collect();
    B::float_from_data(TensorData::new(values, shape.to_vec()), device)
}

/// Kernel launches of one run of `work` and the median seconds of `RUNS` timed runs (each
/// ending with a sync), after a warm-up run that compiles the kernels.
fn measure<B: Backend<Device = CubeDevice>>(
    device: &CubeDevice,
    work: impl Fn() -> FloatTensor<B>,
) -> (u64, f64) {
    let run = || {
        let out = work();
        B::sync(device).unwrap();
        out
    };
    drop(run());
    let before = launch_count();
    drop(run());
    let launches = launch_count() - before;
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            drop(run());
            start.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    (launches, times[RUNS / 2])
}

/// W2, `exp(a*b + c)` over 2^24 elements.
fn w2<B: Backend<Device = CubeDevice>>(device: &CubeDevice) -> (u64, f64) {
    let (a, b, c) = (
        input::<B>(&[LEN], 1, device),
        input::<B>(&[LEN], 2, device),
        input::<B>(&[LEN], 3, device),
    );
    measure::<B>(device, || {
        B::float_exp(B::float_add(B::float_mul(a.clone(), b.clone()), c.clone()))
    })
}

/// W4, softmax over the last axis of `[4096, 1024]`, as the public `softmax` composes it.
fn w4<B: Backend<Device = CubeDevice>>(device: &CubeDevice) -> (u64, f64) {
    let x = input::<B>(&[4096, 1024], 4, device);
    measure::<B>(device, || {
        let max = B::float_max_dim(x.clone(), 1);
        let exp = B::float_exp(B::float_sub(x.clone(), max));
        let sum = B::float_sum_dim(exp.clone(), 1);
        B::float_div(exp, sum)
    })
}

/// A linear layer and its activation, `relu(x·W + b)`, `[256, 512] × [512, 512]`.
fn linear_relu<B: Backend<Device = CubeDevice>>(device: &CubeDevice) -> (u64, f64) {
    let x = input::<B>(&[256, 512], 5, device);
    let w = input::<B>(&[512, 512], 6, device);
    let b = input::<B>(&[1, 512], 7, device);
    measure::<B>(device, || {
        B::relu(B::float_add(
            B::float_matmul(x.clone(), w.clone()),
            b.clone(),
        ))
    })
}

/// One SGD step of the MLP; returns the loss.
fn mlp_step(params: &mut [Tensor<2>; 4], x: &Tensor<2>, targets: &Tensor<2>, lr: f64) -> f32 {
    let [w1, b1, w2, b2] = params.clone();
    let hidden = relu(x.clone().matmul(w1) + b1);
    let logits = hidden.matmul(w2) + b2;
    let loss = (log_softmax(logits, 1) * targets.clone()).sum().neg() / x.dims()[0] as f64;
    let grads = loss.backward();
    for p in params.iter_mut() {
        let g = p.grad(&grads).expect("every parameter is used");
        *p = Tensor::from_inner(p.clone().inner() - g * lr).require_grad();
    }
    loss.into_scalar::<f32>()
}

fn main() {
    let device = CubeDevice::default();
    println!(
        "fusion on {} (Cube over WGPU)",
        <CubeBackend as Backend>::name(&device)
    );

    let report = |title: &str, unfused: (u64, f64), fused: (u64, f64)| {
        println!("\n{title}, median of {RUNS}:");
        println!(
            "  unfused  {} launches/run  {:8.2} ms",
            unfused.0,
            unfused.1 * 1e3
        );
        println!(
            "  fused    {} launches/run  {:8.2} ms",
            fused.0,
            fused.1 * 1e3
        );
        println!("  fused / unfused time: {:.3}", fused.1 / unfused.1);
    };
    let unfused = w2::<CubeBackend>(&device);
    let fused = w2::<Fusion<CubeBackend>>(&device);
    report("W2 exp(a*b + c), 2^24 f32", unfused, fused);
    println!(
        "  fused: {:.2} GB/s effective (16 bytes per element)",
        16.0 * LEN as f64 / fused.1 / 1e9
    );
    let unfused = w4::<CubeBackend>(&device);
    let fused = w4::<Fusion<CubeBackend>>(&device);
    report(
        "W4 softmax over the last axis of [4096, 1024] f32",
        unfused,
        fused,
    );

    let unfused = linear_relu::<CubeBackend>(&device);
    let fused = linear_relu::<Fusion<CubeBackend>>(&device);
    report(
        "relu(x·W + b), [256, 512] × [512, 512] f32 (a matmul epilogue)",
        unfused,
        fused,
    );

    let public = Device::cube(device.clone()).autodiff();
    public.seed(7);
    let x = Tensor::<2>::random([32, 64], Distribution::Default, &public);
    let labels: Vec<usize> = (0..32).map(|i| i % 10).collect();
    let mut onehot = vec![0f32; 32 * 10];
    for (row, &l) in labels.iter().enumerate() {
        onehot[row * 10 + l] = 1.0;
    }
    let targets = Tensor::<2>::from_data(TensorData::new(onehot, [32, 10]), &public);
    let init = |shape: [usize; 2], scale: f64| {
        (Tensor::<2>::random(shape, Distribution::Normal(0.0, 1.0), &public) * scale).require_grad()
    };
    let mut params = [
        init([64, 128], 0.125),
        init([1, 128], 0.0),
        init([128, 10], 0.09),
        init([1, 10], 0.0),
    ];
    let start = stats::<CubeBackend>(&device);
    let mut losses = Vec::new();
    let mut after_warmup = start;
    for step in 0..100 {
        losses.push(mlp_step(&mut params, &x, &targets, 0.1));
        if step == 2 {
            after_warmup = stats::<CubeBackend>(&device);
        }
    }
    let end = stats::<CubeBackend>(&device);
    let steady_hits = end.plan_hits - after_warmup.plan_hits;
    let steady_total = steady_hits + end.plan_misses - after_warmup.plan_misses;
    println!(
        "\nMLP 64-128-10 training step ×100 (loss {:.4} → {:.4}):",
        losses[0], losses[99]
    );
    println!(
        "  plans: {} hits, {} misses over all steps; after step 3: {steady_hits}/{steady_total} hits ({:.1} %)",
        end.plan_hits - start.plan_hits,
        end.plan_misses - start.plan_misses,
        100.0 * steady_hits as f64 / steady_total.max(1) as f64
    );
    println!(
        "  operations: {} fused in {} kernels, {} alone",
        end.fused_ops - start.fused_ops,
        end.fused_blocks - start.fused_blocks,
        end.single_ops - start.single_ops
    );
}
