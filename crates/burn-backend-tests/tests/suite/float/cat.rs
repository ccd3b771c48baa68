//! Joining and repeating: cat, stack, repeat_dim, repeat.

use burn::tensor::Tensor;
use burn_backend_tests::{Env, Layout, RefArray};

#[test]
fn cat_along_each_dim() {
    let env = Env::new(crate::device());
    for dim in 0..3 {
        let mut shapes = [[2, 3, 4], [2, 3, 4], [2, 3, 4]];
        shapes[1][dim] = 1;
        shapes[2][dim] = 5;
        let parts: Vec<RefArray> = shapes
            .iter()
            .enumerate()
            .map(|(k, s)| env.random(s, -2.0, 2.0, 100 + k as u64))
            .collect();
        let expected = RefArray::cat(&parts, dim);
        for (k, layout) in Layout::ALL.into_iter().enumerate() {
            // Mix layouts among the parts.
            let tensors: Vec<Tensor<3>> = parts
                .iter()
                .enumerate()
                .map(|(j, p)| env.float_in(p, Layout::ALL[(j + k) % 4]))
                .collect();
            let got = Tensor::cat(tensors, dim);
            env.check(
                &format!("cat dim {dim} (from {layout:?})"),
                got,
                &expected,
                0.0,
            );
        }
    }
}

#[test]
fn cat_of_one_tensor_is_identity() {
    let env = Env::new(crate::device());
    let a = env.random(&[3, 2], -1.0, 1.0, 104);
    env.check("cat one", Tensor::cat(vec![env.float::<2>(&a)], 1), &a, 0.0);
}

#[test]
fn cat_of_many_small_tensors() {
    let env = Env::new(crate::device());
    let parts: Vec<RefArray> = (0..20)
        .map(|k| env.random(&[1, 3], -1.0, 1.0, 200 + k))
        .collect();
    let tensors = parts.iter().map(|p| env.float::<2>(p)).collect();
    env.check(
        "cat 20",
        Tensor::cat(tensors, 0),
        &RefArray::cat(&parts, 0),
        0.0,
    );
}

#[test]
fn stack_along_each_new_dim() {
    // torch.stack([a, b, c], dim) for a, b, c of shape [2, 3]
    let env = Env::new(crate::device());
    let parts: Vec<RefArray> = (0..3)
        .map(|k| env.random(&[2, 3], -2.0, 2.0, 110 + k))
        .collect();
    for dim in 0..3 {
        let tensors: Vec<Tensor<2>> = parts
            .iter()
            .zip(Layout::ALL)
            .map(|(p, layout)| env.float_in(p, layout))
            .collect();
        let got: Tensor<3> = Tensor::stack(tensors, dim);
        env.check(
            &format!("stack dim {dim}"),
            got,
            &RefArray::stack(&parts, dim),
            0.0,
        );
    }
}

#[test]
fn repeat_dim() {
    // torch.Tensor.repeat with ones except `times` at `dim`
    let env = Env::new(crate::device());
    let a = env.random(&[2, 1, 3], -2.0, 2.0, 120);
    for layout in Layout::ALL {
        for (dim, times) in [(0, 3), (1, 4), (2, 2)] {
            let got = env.float_in::<3>(&a, layout).repeat_dim(dim, times);
            let label = format!("repeat_dim {dim} x{times} ({layout:?})");
            env.check(&label, got, &a.repeat_dim(dim, times), 0.0);
        }
    }
}

#[test]
fn repeat_every_dim() {
    // torch.Tensor.repeat(2, 3, 1)
    let env = Env::new(crate::device());
    let a = env.random(&[2, 1, 3], -2.0, 2.0, 121);
    let expected = a.repeat_dim(0, 2).repeat_dim(1, 3);
    for layout in Layout::ALL {
        let got = env.float_in::<3>(&a, layout).repeat(&[2, 3, 1]);
        env.check(
            &format!("repeat [2, 3, 1] ({layout:?})"),
            got,
            &expected,
            0.0,
        );
    }
}
