//! Fused products: `lhs × rhs` followed by an element-wise program in one launch, compared
//! with a float64 host evaluation: `relu(x·W + b)` with a broadcast bias, the product kept as
//! well, rows read as vectors or one value at a time, batched operands with broadcast batch
//! dims, a transposed operand, f16.

use crate::device_or_skip;
use crate::harness::{assert_close, random_values, read, rng, tensor, tolerance};
use burn_backend::DType;
use burn_cubecl::fused::{
    FusedArg, FusedEpilogue, FusedInstr, FusedProgram, launch_fused_matmul, supports_matmul,
};
use burn_cubecl::kernel::BinaryOp;
use burn_cubecl::launch_count;

use FusedArg::{Input, Local, Scalar};

/// `max(p + b, 0)` where `b` is input 0 and the product `p` input 1 (the last).
fn bias_relu(dtype: DType) -> FusedProgram {
    FusedProgram {
        inputs: vec![dtype, dtype],
        scalars: vec![dtype],
        locals: vec![dtype, dtype],
        instrs: vec![
            FusedInstr::Binary {
                op: BinaryOp::Add,
                lhs: Input(1),
                rhs: Input(0),
                out: 0,
            },
            FusedInstr::Binary {
                op: BinaryOp::Max,
                lhs: Local(0),
                rhs: Scalar(0),
                out: 1,
            },
        ],
        outputs: vec![1],
    }
}

/// `[.., m, k] × [.., k, n]` in float64, batch dims broadcast (rank 2 or 3 operands).
fn host_matmul(
    a: &[f64],
    a_shape: &[usize],
    b: &[f64],
    b_shape: &[usize],
) -> (Vec<f64>, Vec<usize>) {
    let batch = |s: &[usize]| if s.len() == 3 { s[0] } else { 1 };
    let (ba, bb) = (batch(a_shape), batch(b_shape));
    let batches = ba.max(bb);
    let (m, k) = (a_shape[a_shape.len() - 2], a_shape[a_shape.len() - 1]);
    let n = b_shape[b_shape.len() - 1];
    let mut out = Vec::with_capacity(batches * m * n);
    for t in 0..batches {
        let (ta, tb) = (if ba == 1 { 0 } else { t }, if bb == 1 { 0 } else { t });
        for i in 0..m {
            for j in 0..n {
                let dot: f64 = (0..k)
                    .map(|l| a[ta * m * k + i * k + l] * b[tb * k * n + l * n + j])
                    .sum();
                out.push(dot);
            }
        }
    }
    let mut shape = vec![m, n];
    if a_shape.len() == 3 || b_shape.len() == 3 {
        shape.insert(0, batches);
    }
    (out, shape)
}

/// `relu(p + bias)` with `bias` of length `n` broadcast over the rows.
fn host_bias_relu(product: &[f64], bias: &[f64]) -> Vec<f64> {
    let n = bias.len();
    product
        .iter()
        .enumerate()
        .map(|(i, p)| (p + bias[i % n]).max(0.0))
        .collect()
}

#[test]
fn bias_and_relu_run_in_the_product_kernel() {
    let device = device_or_skip!();
    // n = 24: four adjacent outputs per unit (vector loads of `rhs`); n = 19: one.
    let cases = [
        (DType::F32, 13, 37, 19),
        (DType::F16, 13, 37, 19),
        (DType::F32, 9, 33, 24),
    ];
    for (dtype, m, k, n) in cases {
        let x = random_values(&mut rng(1), &[m, k], dtype, -1.0, 1.0);
        let w = random_values(&mut rng(2), &[k, n], dtype, -1.0, 1.0);
        let b = random_values(&mut rng(3), &[n], dtype, -0.5, 0.5);
        let program = bias_relu(dtype);
        let supported = supports_matmul(&[m, k].into(), &[k, n].into(), dtype, &program, &device);
        if dtype == DType::F16 && !supported {
            eprintln!("f16 unsupported on this device: skipped");
            continue;
        }
        assert!(supported, "{dtype} {m}x{k}x{n}");
        let epilogue = FusedEpilogue {
            program,
            inputs: vec![tensor(&device, &b, &[n], dtype)],
            scalars: vec![0.0.into()],
        };
        let fused = launch_fused_matmul(
            tensor(&device, &x, &[m, k], dtype),
            tensor(&device, &w, &[k, n], dtype),
            epilogue,
            true,
        );
        let (product, _) = host_matmul(&x, &[m, k], &w, &[k, n]);
        let tol = if dtype == DType::F16 {
            (1e-2, 1e-2)
        } else {
            tolerance(dtype)
        };
        let kept = fused.product.expect("asked for the product");
        assert_close("product", &read(kept, &[m, n], dtype), &product, tol);
        let [out]: [_; 1] = fused.outputs.try_into().expect("one output");
        assert_close(
            "relu(x·W + b)",
            &read(out, &[m, n], dtype),
            &host_bias_relu(&product, &b),
            tol,
        );
    }
}

#[test]
fn batched_broadcast_and_transposed_operands_in_one_launch() {
    let device = device_or_skip!();
    let dtype = DType::F32;
    let (batches, m, k, n) = (3, 5, 8, 6);
    let x = random_values(&mut rng(4), &[batches, m, k], dtype, -1.0, 1.0);
    // `w` is stored as [n, k] and read transposed: a strided operand.
    let w_stored = random_values(&mut rng(5), &[n, k], dtype, -1.0, 1.0);
    let w: Vec<f64> = (0..k * n).map(|i| w_stored[(i % n) * k + i / n]).collect();
    let b = random_values(&mut rng(6), &[n], dtype, -0.5, 0.5);
    let upload = || {
        (
            tensor(&device, &x, &[batches, m, k], dtype),
            tensor(&device, &w_stored, &[n, k], dtype).swap_dims(0, 1),
            FusedEpilogue {
                program: bias_relu(dtype),
                inputs: vec![tensor(&device, &b, &[n], dtype)],
                scalars: vec![0.0.into()],
            },
        )
    };
    // Other tests launch concurrently: the smallest count over a few tries is this call's.
    let mut launches = u64::MAX;
    let mut result = None;
    for _ in 0..4 {
        let (lhs, rhs, epilogue) = upload();
        let before = launch_count();
        let fused = launch_fused_matmul(lhs, rhs, epilogue, false);
        launches = launches.min(launch_count() - before);
        result = Some(fused);
    }
    assert_eq!(launches, 1, "a fused product is one launch");
    let fused = result.expect("ran");
    assert!(fused.product.is_none());
    let (product, shape) = host_matmul(&x, &[batches, m, k], &w, &[k, n]);
    assert_eq!(shape, vec![batches, m, n]);
    let [out]: [_; 1] = fused.outputs.try_into().expect("one output");
    assert_close(
        "batched relu(x·Wᵀ + b)",
        &read(out, &[batches, m, n], dtype),
        &host_bias_relu(&product, &b),
        tolerance(dtype),
    );
}

#[test]
fn a_batch_times_one_matrix_with_vector_rows() {
    let device = device_or_skip!();
    let dtype = DType::F32;
    let (batches, m, k, n) = (2, 7, 10, 16);
    let x = random_values(&mut rng(7), &[batches, m, k], dtype, -1.0, 1.0);
    let w = random_values(&mut rng(8), &[k, n], dtype, -1.0, 1.0);
    let b = random_values(&mut rng(9), &[n], dtype, -0.5, 0.5);
    let fused = launch_fused_matmul(
        tensor(&device, &x, &[batches, m, k], dtype),
        tensor(&device, &w, &[k, n], dtype),
        FusedEpilogue {
            program: bias_relu(dtype),
            inputs: vec![tensor(&device, &b, &[n], dtype)],
            scalars: vec![0.0.into()],
        },
        true,
    );
    let (product, shape) = host_matmul(&x, &[batches, m, k], &w, &[k, n]);
    let kept = fused.product.expect("asked for the product");
    assert_close(
        "product",
        &read(kept, &shape, dtype),
        &product,
        tolerance(dtype),
    );
    let [out]: [_; 1] = fused.outputs.try_into().expect("one output");
    assert_close(
        "batched relu(x·W + b)",
        &read(out, &shape, dtype),
        &host_bias_relu(&product, &b),
        tolerance(dtype),
    );
}

/// Vector rows without the product kept: the kernel still binds a placeholder for it, which
/// must hold a whole vector (WGSL binds it as an array of vectors, and WGPU refused the
/// one-element placeholder on GL: "bound with size 4 where the shader expects 8").
#[test]
fn vector_rows_without_the_product() {
    let device = device_or_skip!();
    let dtype = DType::F32;
    let (m, k, n) = (2, 2, 2);
    let x = random_values(&mut rng(10), &[m, k], dtype, -1.0, 1.0);
    let w = random_values(&mut rng(11), &[k, n], dtype, -1.0, 1.0);
    let b = random_values(&mut rng(12), &[n], dtype, -0.5, 0.5);
    let fused = launch_fused_matmul(
        tensor(&device, &x, &[m, k], dtype),
        tensor(&device, &w, &[k, n], dtype),
        FusedEpilogue {
            program: bias_relu(dtype),
            inputs: vec![tensor(&device, &b, &[n], dtype)],
            scalars: vec![0.0.into()],
        },
        false,
    );
    assert!(fused.product.is_none(), "the product was not asked for");
    let (product, shape) = host_matmul(&x, &[m, k], &w, &[k, n]);
    let [out]: [_; 1] = fused.outputs.try_into().expect("one output");
    assert_close(
        "relu(x·W + b) in vectors of 2",
        &read(out, &shape, dtype),
        &host_bias_relu(&product, &b),
        tolerance(dtype),
    );
}

#[test]
fn programs_the_kernel_cannot_take_are_refused() {
    let device = device_or_skip!();
    let program = bias_relu(DType::F32);
    // Inner dims differ, an empty product, and a program whose last input is another dtype.
    assert!(!supports_matmul(
        &[4, 3].into(),
        &[5, 2].into(),
        DType::F32,
        &program,
        &device
    ));
    assert!(!supports_matmul(
        &[4, 0].into(),
        &[0, 2].into(),
        DType::F32,
        &program,
        &device
    ));
    assert!(!supports_matmul(
        &[4, 3].into(),
        &[3, 2].into(),
        DType::F16,
        &program,
        &device
    ));
}
