//! Matrix products: square and odd sizes, batched, broadcast batch dims, transposed and
//! strided operands, dot products. Tolerances scale with sqrt(k).

use burn::tensor::Tensor;
use burn_backend_tests::{Env, Layout, RefArray};

fn factor(k: usize) -> f64 {
    (k as f64).sqrt()
}

#[test]
fn small_known_product() {
    // torch.tensor([[1., 2.], [3., 4.]]) @ torch.tensor([[5., 6.], [7., 8.]]) = [[19., 22.], [43., 50.]]
    let env = Env::new(crate::device());
    let a = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0]], &env.device);
    let b = Tensor::<2>::from_floats([[5.0, 6.0], [7.0, 8.0]], &env.device);
    env.check(
        "matmul 2x2",
        a.matmul(b),
        &RefArray::new(&[2, 2], vec![19.0, 22.0, 43.0, 50.0]),
        0.0,
    );
}

#[test]
fn odd_sizes() {
    let env = Env::new(crate::device());
    for (m, k, n) in [
        (1, 1, 1),
        (1, 7, 1),
        (3, 5, 7),
        (17, 1, 9),
        (33, 65, 31),
        (1, 128, 64),
        (64, 3, 1),
    ] {
        let a = env.random(&[m, k], -1.0, 1.0, (m * 1000 + k) as u64);
        let b = env.random(&[k, n], -1.0, 1.0, (k * 1000 + n) as u64);
        let got = env.float::<2>(&a).matmul(env.float(&b));
        env.check(
            &format!("matmul {m}x{k}x{n}"),
            got,
            &a.matmul(&b),
            factor(k),
        );
    }
}

#[test]
fn large_product() {
    let env = Env::new(crate::device());
    let (m, k, n) = (130, 257, 129);
    let a = env.random(&[m, k], -1.0, 1.0, 161);
    let b = env.random(&[k, n], -1.0, 1.0, 162);
    let got = env.float::<2>(&a).matmul(env.float(&b));
    env.check("matmul 130x257x129", got, &a.matmul(&b), factor(k));
}

#[test]
fn every_operand_layout() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 6, 8], -1.0, 1.0, 163);
    let b = env.random(&[2, 8, 5], -1.0, 1.0, 164);
    let expected = a.matmul(&b);
    for la in Layout::ALL {
        for lb in Layout::ALL {
            let got = env.float_in::<3>(&a, la).matmul(env.float_in(&b, lb));
            env.check(
                &format!("matmul ({la:?}, {lb:?})"),
                got,
                &expected,
                factor(8),
            );
        }
    }
}

#[test]
fn transposed_operands() {
    // a.T @ b and a @ b.T, written with transpose() on the tensor
    let env = Env::new(crate::device());
    let a = env.random(&[7, 4], -1.0, 1.0, 165);
    let b = env.random(&[7, 3], -1.0, 1.0, 166);
    let got = env.float::<2>(&a).transpose().matmul(env.float(&b));
    env.check("aT b", got, &a.transpose().matmul(&b), factor(7));
    let c = env.random(&[5, 4], -1.0, 1.0, 167);
    let got = env.float::<2>(&a).matmul(env.float::<2>(&c).transpose());
    env.check("a cT", got, &a.matmul(&c.transpose()), factor(4));
}

#[test]
fn batched() {
    let env = Env::new(crate::device());
    let a = env.random(&[2, 3, 4, 5], -1.0, 1.0, 168);
    let b = env.random(&[2, 3, 5, 6], -1.0, 1.0, 169);
    let got = env.float::<4>(&a).matmul(env.float(&b));
    env.check("batched", got, &a.matmul(&b), factor(5));
}

#[test]
fn broadcast_batch_dims() {
    // torch.matmul broadcasts batch dims: [2, 1, 4, 5] @ [1, 3, 5, 6] -> [2, 3, 4, 6]
    let env = Env::new(crate::device());
    let cases: [([usize; 4], [usize; 4]); 3] = [
        ([2, 1, 4, 5], [1, 3, 5, 6]),
        ([1, 1, 4, 5], [2, 3, 5, 6]),
        ([2, 3, 4, 5], [1, 1, 5, 6]),
    ];
    for (k, (sa, sb)) in cases.into_iter().enumerate() {
        let a = env.random(&sa, -1.0, 1.0, 170 + k as u64);
        let b = env.random(&sb, -1.0, 1.0, 180 + k as u64);
        let got = env.float::<4>(&a).matmul(env.float(&b));
        env.check(
            &format!("matmul {sa:?} @ {sb:?}"),
            got,
            &a.matmul(&b),
            factor(5),
        );
    }
}

#[test]
fn expanded_operand() {
    let env = Env::new(crate::device());
    let small = env.random(&[1, 4, 5], -1.0, 1.0, 190);
    let (x, a) = env.expanded::<3>(&small, [3, 4, 5]);
    let b = env.random(&[3, 5, 2], -1.0, 1.0, 191);
    let got = x.matmul(env.float(&b));
    env.check("matmul expanded lhs", got, &a.matmul(&b), factor(5));
}

#[test]
fn matrix_vector_as_matrices() {
    let env = Env::new(crate::device());
    let a = env.random(&[6, 9], -1.0, 1.0, 192);
    let v = env.random(&[9, 1], -1.0, 1.0, 193);
    let got = env.float::<2>(&a).matmul(env.float(&v));
    env.check("matrix vector", got, &a.matmul(&v), factor(9));
    let w = env.random(&[1, 6], -1.0, 1.0, 194);
    let got = env.float::<2>(&w).matmul(env.float(&a));
    env.check("vector matrix", got, &w.matmul(&a), factor(6));
}

#[test]
fn mixed_float_dtypes_promote() {
    // PyTorch promotes f32 @ f64 to f64; so do the binary ops here.
    let env = Env::new(crate::device());
    if !burn_backend_tests::supports(&env.device, &[burn::tensor::DType::F64], module_path!()) {
        return;
    }
    let a = env.random(&[3, 4], -1.0, 1.0, 195);
    let b = env.random(&[4, 2], -1.0, 1.0, 196);
    let wide = Tensor::<2>::from_data(
        burn::tensor::TensorData::new(b.data.clone(), [4, 2]),
        (&env.device, burn::tensor::DType::F64),
    );
    let got = env.float::<2>(&a).matmul(wide);
    assert_eq!(
        got.dtype(),
        burn::tensor::DType::F64,
        "matmul of {} and f64",
        env.dtype
    );
    env.check_tol("matmul promoted", got, &a.matmul(&b), 1e-10, 1e-10);
}

#[test]
fn dot_product() {
    // torch.dot(a, b) = sum(a * b), shape [1] here
    let env = Env::new(crate::device());
    let a = env.random(&[37], -1.0, 1.0, 197);
    let b = env.random(&[37], -1.0, 1.0, 198);
    let expected = RefArray::scalar(a.zip(&b, |x, y| x * y).data.iter().sum());
    for layout in Layout::ALL {
        let got = env.float_in::<1>(&a, layout).dot(env.float_in(&b, layout));
        env.check(&format!("dot ({layout:?})"), got, &expected, factor(37));
    }
}
