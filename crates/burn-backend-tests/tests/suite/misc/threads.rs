//! Use from several threads: each thread creates tensors on the device and combines them; the
//! results match the reference. Clones of one tensor are also used concurrently.

use burn::tensor::Tensor;
use burn::tensor::activation::softmax;
use burn_backend_tests::Env;

#[test]
fn threads_create_and_combine_tensors() {
    let handles: Vec<_> = (0..6u64)
        .map(|t| {
            std::thread::spawn(move || {
                let env = Env::new(crate::device());
                for round in 0..5u64 {
                    let seed = 1000 * t + round;
                    let a = env.random(&[8, 16], -1.0, 1.0, seed);
                    let b = env.random(&[16, 4], -1.0, 1.0, seed + 500);
                    let got = softmax(env.float::<2>(&a).matmul(env.float(&b)).exp(), 1);
                    let expected = a.matmul(&b).map(f64::exp).softmax(1);
                    env.check(&format!("thread {t} round {round}"), got, &expected, 8.0);
                }
            })
        })
        .collect();
    for handle in handles {
        handle.join().expect("a worker thread panicked");
    }
}

#[test]
fn clones_are_used_from_several_threads() {
    let env = Env::new(crate::device());
    let a = env.random(&[32, 32], -1.0, 1.0, 411);
    let shared = env.float::<2>(&a);
    let handles: Vec<_> = (0..4)
        .map(|k| {
            let x: Tensor<2> = shared.clone();
            std::thread::spawn(move || (x.clone() * (k as f64) + x.exp()).sum_dim(0).into_data())
        })
        .collect();
    for (k, handle) in handles.into_iter().enumerate() {
        let data = handle.join().expect("a worker thread panicked");
        let expected = a.map(|v| v * k as f64 + v.exp()).sum_dim(0);
        burn_backend_tests::compare(
            &format!("clone in thread {k}"),
            &data,
            &expected,
            env.tolerance(8.0).0,
            env.tolerance(8.0).1,
        );
    }
    env.check("shared tensor after threads", shared, &a, 0.0);
}

#[test]
fn a_tensor_moved_to_another_thread_and_back_keeps_every_update() {
    // Values produced on one thread, updated in place (unique handles) on another, then read
    // on the first: no thread may see a buffer before the other thread's writes into it.
    let env = Env::new(crate::device());
    let a = env.random(&[4, 8], -1.0, 1.0, 4242);
    for round in 0..4 {
        let x = env.float::<2>(&a);
        let y = x * 2.0 + 1.0;
        let z = (y.clone() * y).exp().log();
        let moved = std::thread::spawn(move || (z + 1.0) * 0.5)
            .join()
            .expect("the worker thread panicked");
        let back = moved.clone() - 0.25;
        let expected = a.map(|v| ((2.0 * v + 1.0) * (2.0 * v + 1.0) + 1.0) * 0.5);
        env.check(&format!("round {round}: moved"), moved, &expected, 8.0);
        env.check(
            &format!("round {round}: updated back"),
            back,
            &expected.map(|v| v - 0.25),
            8.0,
        );
    }
}
