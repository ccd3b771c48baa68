//! The cubek-backed kernels: matmul, reductions along a dim, random generators.

use crate::device_or_skip;
use crate::harness::{assert_close, coords, random_values, read, rng, round_to, tensor, tolerance};
use crate::unary::float_dtypes;
use burn_backend::{DType, Distribution, Shape};
use burn_cubecl::dtype::device_dtype_usage;
use burn_cubecl::kernel::{ReduceOp, matmul, random, reduce};

/// `[.., m, k] × [.., k, n]` on the host, batch dims broadcast.
fn matmul_reference(a: &[f64], ls: &[usize], b: &[f64], rs: &[usize]) -> (Vec<f64>, Vec<usize>) {
    let (m, k, n) = (ls[ls.len() - 2], ls[ls.len() - 1], rs[rs.len() - 1]);
    let lb = Shape::from(ls[..ls.len() - 2].to_vec());
    let rb = Shape::from(rs[..rs.len() - 2].to_vec());
    let batch = lb.broadcast(&rb).unwrap().to_vec();
    let nb: usize = batch.iter().product();
    let mut out = vec![0.0; nb * m * n];
    for bi in 0..nb {
        let c = coords(bi, &batch);
        let index = |shape: &[usize]| crate::harness::broadcast_index(&c, shape);
        let (la, rb_) = (index(&lb.dims), index(&rb.dims));
        for i in 0..m {
            for j in 0..n {
                out[(bi * m + i) * n + j] = (0..k)
                    .map(|p| a[(la * m + i) * k + p] * b[(rb_ * k + p) * n + j])
                    .sum();
            }
        }
    }
    let mut shape = batch;
    shape.extend([m, n]);
    (out, shape)
}

#[test]
fn matmul_shapes_batches_and_layouts() {
    let device = device_or_skip!();
    let cases: [(&[usize], &[usize]); 5] = [
        (&[4, 5], &[5, 3]),
        (&[1, 7], &[7, 1]),
        (&[2, 1, 3, 4], &[5, 4, 6]),
        (&[3, 16, 32], &[3, 32, 8]),
        (&[33, 17], &[17, 9]),
    ];
    for dtype in float_dtypes(&device) {
        for (i, (ls, rs)) in cases.iter().enumerate() {
            let mut r = rng(i as u64);
            let a = random_values(&mut r, &[ls.iter().product()], dtype, -1.0, 1.0);
            let b = random_values(&mut r, &[rs.iter().product()], dtype, -1.0, 1.0);
            let (expected, shape) = matmul_reference(&a, ls, &b, rs);
            let out = matmul(
                tensor(&device, &a, ls, dtype),
                tensor(&device, &b, rs, dtype),
            )
            .expect("matmul");
            let k = ls[ls.len() - 1] as f64;
            let (abs, rel) = tolerance(dtype);
            assert_close(
                &format!("matmul {dtype} {ls:?} x {rs:?}"),
                &read(out, &shape, dtype),
                &round_to(&expected, dtype),
                (abs * k * 4.0, rel * 4.0),
            );
        }
        // A transposed rhs: the [6, 5] tensor seen as [5, 6].
        let mut r = rng(9);
        let a = random_values(&mut r, &[20], dtype, -1.0, 1.0);
        let bt = random_values(&mut r, &[30], dtype, -1.0, 1.0);
        let b: Vec<f64> = (0..30).map(|i| bt[(i % 6) * 5 + i / 6]).collect();
        let (expected, shape) = matmul_reference(&a, &[4, 5], &b, &[5, 6]);
        let rhs = tensor(&device, &bt, &[6, 5], dtype).swap_dims(0, 1);
        let out = matmul(tensor(&device, &a, &[4, 5], dtype), rhs).expect("matmul");
        let (abs, rel) = tolerance(dtype);
        assert_close(
            &format!("matmul {dtype} transposed rhs"),
            &read(out, &shape, dtype),
            &round_to(&expected, dtype),
            (abs * 20.0, rel * 4.0),
        );
    }
}

fn reduce_reference(op: ReduceOp, x: &[f64], shape: &[usize], dim: usize) -> Vec<f64> {
    let mut out_shape = shape.to_vec();
    out_shape[dim] = 1;
    let n: usize = out_shape.iter().product();
    (0..n)
        .map(|o| {
            let c = coords(o, &out_shape);
            let values: Vec<f64> = (0..shape[dim])
                .map(|j| {
                    let mut cc = c.clone();
                    cc[dim] = j;
                    x[cc.iter()
                        .zip(crate::harness::strides(shape))
                        .map(|(a, s)| a * s)
                        .sum::<usize>()]
                })
                .collect();
            let first = |better: fn(f64, f64) -> bool| {
                let mut best = 0;
                for (j, &v) in values.iter().enumerate() {
                    if better(v, values[best]) {
                        best = j;
                    }
                }
                best as f64
            };
            match op {
                ReduceOp::Sum => values.iter().sum(),
                ReduceOp::Mean => values.iter().sum::<f64>() / values.len() as f64,
                ReduceOp::Prod => values.iter().product(),
                ReduceOp::Max => values.iter().copied().fold(f64::MIN, f64::max),
                ReduceOp::Min => values.iter().copied().fold(f64::MAX, f64::min),
                ReduceOp::ArgMax => first(|a, b| a > b),
                ReduceOp::ArgMin => first(|a, b| a < b),
            }
        })
        .collect()
}

#[test]
fn reductions_every_op_and_dim() {
    let device = device_or_skip!();
    let index_dtype = DType::I32;
    let mut dtypes = float_dtypes(&device);
    dtypes.push(DType::I32);
    if device_dtype_usage(&device, DType::I64).arithmetic {
        dtypes.push(DType::I64);
    }
    let shape = [3, 5, 8];
    for dtype in dtypes {
        for op in ReduceOp::ALL {
            // Products stay small; ties (small integers) test the first-index rule.
            let (low, high) = match op {
                ReduceOp::Prod => (0.5, 1.5),
                ReduceOp::ArgMax | ReduceOp::ArgMin => (0.0, 4.0),
                _ => (-4.0, 4.0),
            };
            let x = random_values(&mut rng(3), &[120], dtype, low, high);
            let x = if matches!(op, ReduceOp::ArgMax | ReduceOp::ArgMin) {
                x.iter().map(|v| v.floor()).collect()
            } else {
                x
            };
            for dim in 0..3 {
                let expected = reduce_reference(op, &x, &shape, dim);
                let out = reduce(op, tensor(&device, &x, &shape, dtype), dim, index_dtype)
                    .expect("reduce");
                let mut out_shape = shape.to_vec();
                out_shape[dim] = 1;
                let (out_dtype, expected, tol) = match op {
                    ReduceOp::ArgMax | ReduceOp::ArgMin => (index_dtype, expected, (0.0, 0.0)),
                    ReduceOp::Mean if !dtype.is_float() => (
                        dtype,
                        expected.iter().map(|v| v.trunc()).collect(),
                        (1.0, 0.0),
                    ),
                    _ => {
                        let (abs, rel) = tolerance(dtype);
                        (dtype, round_to(&expected, dtype), (abs * 8.0, rel * 8.0))
                    }
                };
                assert_close(
                    &format!("{} {dtype} dim {dim}", op.name()),
                    &read(out, &out_shape, out_dtype),
                    &expected,
                    tol,
                );
            }
        }
    }
    // A transposed input.
    let x = random_values(&mut rng(5), &[24], DType::F32, -1.0, 1.0);
    let t = tensor(&device, &x, &[4, 6], DType::F32).swap_dims(0, 1);
    let xt: Vec<f64> = (0..24).map(|i| x[(i % 4) * 6 + i / 4]).collect();
    let out = reduce(ReduceOp::Sum, t, 1, index_dtype).expect("reduce");
    assert_close(
        "sum_dim transposed",
        &read(out, &[6, 1], DType::F32),
        &reduce_reference(ReduceOp::Sum, &xt, &[6, 4], 1),
        (1e-5, 1e-5),
    );
}

#[test]
fn random_distributions_and_seeds() {
    let device = device_or_skip!();
    let n = 1 << 16;
    let shape = Shape::new([n]);
    let stats = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / v.len() as f64;
        (mean, var.sqrt())
    };
    for dtype in float_dtypes(&device) {
        let u = random(
            shape.clone(),
            Distribution::Uniform(-2.0, 3.0),
            dtype,
            &device,
            Some(7),
        )
        .expect("uniform");
        let v = read(u, &[n], dtype);
        assert!(
            v.iter().all(|&x| (-2.0..=3.0).contains(&x)),
            "uniform {dtype} range"
        );
        let (mean, std) = stats(&v);
        assert!((mean - 0.5).abs() < 0.05, "uniform {dtype} mean {mean}");
        assert!(
            (std - 5.0 / 12f64.sqrt()).abs() < 0.05,
            "uniform {dtype} std {std}"
        );

        let g = random(
            shape.clone(),
            Distribution::Normal(1.0, 2.0),
            dtype,
            &device,
            Some(8),
        )
        .expect("normal");
        let (mean, std) = stats(&read(g, &[n], dtype));
        assert!((mean - 1.0).abs() < 0.05, "normal {dtype} mean {mean}");
        assert!((std - 2.0).abs() < 0.05, "normal {dtype} std {std}");

        let b = random(
            shape.clone(),
            Distribution::Bernoulli(0.3),
            dtype,
            &device,
            Some(9),
        )
        .expect("bernoulli");
        let v = read(b, &[n], dtype);
        assert!(
            v.iter().all(|&x| x == 0.0 || x == 1.0),
            "bernoulli {dtype} values"
        );
        let (mean, _) = stats(&v);
        assert!((mean - 0.3).abs() < 0.02, "bernoulli {dtype} mean {mean}");
    }
    // The same seed gives the same values; another seed does not.
    let draw = |seed| {
        let t = random(
            Shape::new([256]),
            Distribution::Default,
            DType::F32,
            &device,
            Some(seed),
        )
        .expect("random");
        read(t, &[256], DType::F32)
    };
    assert_eq!(draw(42), draw(42));
    assert_ne!(draw(42), draw(43));
}
