//! Memory of the autodiff graph, measured with a counting allocator (this binary's global
//! allocator) and the process's resident set:
//!
//! - balanced checkpointing keeps far less memory alive between the forward and the backward
//!   pass of a deep element-wise chain than keeping every saved value, for the same gradients;
//! - a training loop of 10,000 steps keeps the graph node count and the live memory flat:
//!   nothing of a consumed graph stays alive.
//!
//! One test function, so no other test allocates concurrently in this process.

use burn::backend::autodiff::live_node_count;
use burn::tensor::{Device, FloatDType, Tensor};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// Bytes currently allocated through the global allocator.
static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

struct Counting;

// SAFETY: every call is forwarded to `System` unchanged; only a counter is updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE_BYTES.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live_bytes() -> isize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// The resident set size in bytes (Linux), or 0 where unknown.
fn resident_bytes() -> usize {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<usize>().ok())
        .map_or(0, |pages| pages * 4096)
}

const MIB: f64 = 1024.0 * 1024.0;

/// A chain of `depth` element-wise ops from a 1 MiB leaf: the bytes alive after the forward
/// pass (beyond the leaf), and the leaf's gradient.
fn chain(device: &Device, depth: usize) -> (isize, Vec<f32>) {
    let x = Tensor::<2>::random([256, 1024], burn::tensor::Distribution::Default, device)
        .require_grad();
    let before = live_bytes();
    let mut y = x.clone();
    for _ in 0..depth {
        y = (y.sin() * 1.5).exp() - 1.0;
    }
    let loss = y.sum();
    let alive = live_bytes() - before;
    let grads = loss.backward();
    let grad = x.grad(&grads).unwrap().into_data().to_vec::<f32>().unwrap();
    (alive, grad)
}

fn balanced_checkpointing_keeps_less_memory_alive(device: &Device) {
    let depth = 32;
    device.seed(7);
    let (kept, grad_kept) = chain(&device.autodiff(), depth);
    device.seed(7);
    let (balanced, grad_balanced) = chain(&device.gradient_checkpointing(), depth);
    println!(
        "{depth}-op element-wise chain on a 1 MiB leaf, memory alive after the forward pass: \
         NoCheckpointing {:.1} MiB, BalancedCheckpointing {:.1} MiB",
        kept as f64 / MIB,
        balanced as f64 / MIB
    );
    assert!(
        balanced * 8 < kept,
        "balanced checkpointing kept {balanced} bytes, not far below the {kept} bytes kept \
         without it"
    );
    assert_eq!(grad_kept.len(), grad_balanced.len());
    for (a, b) in grad_kept.iter().zip(&grad_balanced) {
        assert!((a - b).abs() <= 1e-5 * (1.0 + a.abs()), "{a} vs {b}");
    }
}

fn training_loop_keeps_graph_and_memory_flat(device: &Device) {
    let ad = device.autodiff();
    let x = Tensor::<2>::random([32, 64], burn::tensor::Distribution::Default, &ad);
    let target = Tensor::<2>::random([32, 16], burn::tensor::Distribution::Default, &ad);
    let mut w = Tensor::<2>::random(
        [64, 16],
        burn::tensor::Distribution::Uniform(-0.1, 0.1),
        &ad,
    )
    .require_grad();
    let mut checkpoint = (0usize, 0isize, 0usize);
    let steps = 10_000;
    let mut first_loss = 0.0;
    let mut last_loss = 0.0;
    for step in 0..steps {
        let prediction = x.clone().matmul(w.clone()).tanh();
        let loss = (prediction - target.clone()).powf_scalar(2.0).mean();
        let grads = loss.backward();
        let grad = w.grad(&grads).unwrap();
        let value = loss.into_scalar::<f64>();
        if step == 0 {
            first_loss = value;
        }
        last_loss = value;
        w = Tensor::from_inner(w.inner() - grad * 0.1).require_grad();
        drop(grads);
        if step == 100 {
            checkpoint = (live_node_count(), live_bytes(), resident_bytes());
        }
    }
    let end = (live_node_count(), live_bytes(), resident_bytes());
    println!(
        "{steps} training steps: graph nodes alive {} at step 100, {} at the end; live heap \
         {:.3} MiB then {:.3} MiB; resident {:.1} MiB then {:.1} MiB; loss {first_loss:.4} -> \
         {last_loss:.4}",
        checkpoint.0,
        end.0,
        checkpoint.1 as f64 / MIB,
        end.1 as f64 / MIB,
        checkpoint.2 as f64 / MIB,
        end.2 as f64 / MIB,
    );
    assert!(
        last_loss < first_loss,
        "the loop must train: {first_loss} -> {last_loss}"
    );
    assert_eq!(end.0, checkpoint.0, "graph nodes accumulate across steps");
    assert_eq!(
        end.0, 1,
        "only the parameter's leaf node stays alive between steps"
    );
    assert!(
        (end.1 - checkpoint.1).abs() < 64 * 1024,
        "live heap grew from {} to {} bytes",
        checkpoint.1,
        end.1
    );
    assert!(
        end.2 < checkpoint.2 + 16 * 1024 * 1024,
        "resident memory grew from {} to {} bytes",
        checkpoint.2,
        end.2
    );
}

#[test]
fn autodiff_memory() {
    let device = burn_backend_tests::configured_device(Device::flex(), FloatDType::F32);
    balanced_checkpointing_keeps_less_memory_alive(&device);
    training_loop_keeps_graph_and_memory_flat(&device);
}
