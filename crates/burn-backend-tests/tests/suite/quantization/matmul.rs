//! Matrix products with quantized operands: equal to the float product of the dequantized
//! values, float results (the default propagation is `Inhibit`), batched and transposed.

use super::{dequantized, q8_block, q8_tensor};
use burn::tensor::{DType, Tensor};
use burn_backend_tests::Env;

#[test]
fn quantized_times_quantized_is_the_product_of_the_dequantized_values() {
    let env = Env::new(crate::device());
    for (m, k, n) in [(1, 32, 1), (7, 64, 5), (33, 128, 17)] {
        let a = env.random(&[m, k], -1.0, 1.0, (m * 100 + k) as u64);
        let b = env.random(&[k, n], -1.0, 1.0, (k * 100 + n) as u64);
        let qa = env.float::<2>(&a).quantize_dynamic(&q8_tensor());
        let qb = env.float::<2>(&b).quantize_dynamic(&q8_tensor());
        let (da, db) = (dequantized(qa.clone()), dequantized(qb.clone()));
        let got = qa.matmul(qb);
        assert!(got.dtype().is_float(), "q_matmul result {}", got.dtype());
        let (rel, abs) = env.tolerance(2.0 * (k as f64).sqrt());
        env.check_tol(
            &format!("q8 x q8 {m}x{k}x{n}"),
            got.clone(),
            &da.matmul(&db),
            rel,
            abs,
        );
        // And close to the float product: 8-bit values keep about 2 significant digits.
        env.check_tol(
            &format!("q8 x q8 vs float {m}x{k}x{n}"),
            got,
            &a.matmul(&b),
            2e-2,
            2e-2 * (k as f64).sqrt(),
        );
    }
}

#[test]
fn float_times_quantized_weight() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 5, 64], -1.0, 1.0, 921);
    let w = env.random(&[64, 48], -0.5, 0.5, 922);
    for scheme in [q8_tensor(), q8_block(&[16]), q8_block(&[32, 1])] {
        let qw = env.float::<2>(&w).quantize_dynamic(&scheme);
        let dw = dequantized(qw.clone());
        let got = env.float::<3>(&x).matmul(qw.clone().unsqueeze());
        assert_eq!(got.dtype(), DType::from(env.dtype), "float x {scheme}");
        let (rel, abs) = env.tolerance(16.0);
        env.check_tol(
            &format!("float x {scheme}"),
            got,
            &x.matmul(&dw.unsqueeze(0)),
            rel,
            abs,
        );
        // Transposed quantized operand.
        let got = env
            .float::<2>(&x.reshape(&[10, 64]))
            .matmul(qw.transpose().transpose());
        env.check_tol(
            &format!("float x {scheme}ᵀᵀ"),
            got,
            &x.reshape(&[10, 64]).matmul(&dw),
            rel,
            abs,
        );
    }
}

#[test]
#[should_panic(expected = "matmul")]
fn mismatched_inner_dims_are_refused() {
    let env = Env::new(crate::device());
    let a = Tensor::<2>::ones([2, 32], &env.device).quantize_dynamic(&q8_tensor());
    let b = Tensor::<2>::ones([16, 2], &env.device).quantize_dynamic(&q8_tensor());
    let _ = a.matmul(b);
}

#[test]
fn batched_and_per_row_or_column_scales() {
    // Scales constant along k (per tensor, per row of lhs, per column of rhs) let a backend
    // sum in integers; the result must equal the product of the dequantized values.
    let env = Env::new(crate::device());
    let (m, k, n) = (6, 48, 20);
    let a = env.random(&[3, m, k], -1.0, 1.0, 931);
    let b = env.random(&[3, k, n], -1.0, 1.0, 932);
    let rows = q8_block(&[k as u8]);
    let cols = q8_block(&[k as u8, 1]);
    let cases: [(&str, _, _, bool); 4] = [
        ("per tensor, shared rhs", q8_tensor(), q8_tensor(), true),
        ("per row x per column", rows, cols, false),
        ("per row x per tensor, shared rhs", rows, q8_tensor(), true),
        ("per tensor x per column", q8_tensor(), cols, false),
    ];
    for (name, sa, sb, shared) in cases {
        let qa = env.float::<3>(&a).quantize_dynamic(&sa);
        let b_in = if shared {
            b.slice(&[burn_backend_tests::reference::layout::Range::new(
                0,
                Some(1),
            )])
        } else {
            b.clone()
        };
        let qb = env.float::<3>(&b_in).quantize_dynamic(&sb);
        let (da, db) = (dequantized(qa.clone()), dequantized(qb.clone()));
        let got = qa.matmul(qb);
        let (rel, abs) = env.tolerance(2.0 * (k as f64).sqrt());
        env.check_tol(name, got, &da.matmul(&db), rel, abs);
    }
    // A transposed quantized operand (values not contiguous).
    let qa = env
        .float::<2>(
            &a.slice(&[burn_backend_tests::reference::layout::Range::new(
                0,
                Some(1),
            )])
            .reshape(&[m, k]),
        )
        .quantize_dynamic(&q8_tensor());
    let qbt = env
        .float::<2>(
            &b.slice(&[burn_backend_tests::reference::layout::Range::new(
                0,
                Some(1),
            )])
            .reshape(&[k, n])
            .transpose(),
        )
        .quantize_dynamic(&q8_tensor());
    let (da, dbt) = (dequantized(qa.clone()), dequantized(qbt.clone()));
    let got = qa.matmul(qbt.transpose());
    let (rel, abs) = env.tolerance(2.0 * (k as f64).sqrt());
    env.check_tol(
        "transposed rhs",
        got,
        &da.matmul(&dbt.transpose()),
        rel,
        abs,
    );
}

#[test]
fn empty_quantized_products() {
    let env = Env::new(crate::device());
    let a = Tensor::<2>::ones([2, 4], &env.device).quantize_dynamic(&q8_tensor());
    let b = Tensor::<2>::ones([4, 3], &env.device).quantize_dynamic(&q8_tensor());
    let none: Tensor<2> = b.clone().slice([0..4, 0..0]);
    assert_eq!(a.clone().matmul(none).dims(), [2, 0]);
    let rows: Tensor<2> = a.slice([0..0, 0..4]);
    assert_eq!(rows.matmul(b).dims(), [0, 3]);
}
