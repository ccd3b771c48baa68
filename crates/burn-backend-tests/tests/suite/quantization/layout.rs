//! Layout ops on quantized tensors: the result stays quantized and holds the input's
//! dequantized values moved as the float op would move them. Per-tensor schemes and
//! permutations of block schemes move the stored values (exact); the other ops on block
//! schemes requantize (within one quantum).

use super::{assert_quantized, check_dequantized, dequantized, q8_block, q8_tensor};
use burn::tensor::quantization::QuantScheme;
use burn::tensor::{Int, Tensor, TensorData};
use burn_backend_tests::reference::layout::Range;
use burn_backend_tests::{Env, Layout, RefArray};

fn quantized_input(env: &Env, scheme: &QuantScheme, layout: Layout) -> (Tensor<3>, RefArray) {
    let a = env.random(&[2, 4, 32], -2.0, 2.0, 911);
    let q = env.float_in::<3>(&a, layout).quantize_dynamic(scheme);
    let values = dequantized(q.clone());
    (q, values)
}

/// The schemes and whether their layout ops move values exactly.
fn schemes() -> [(QuantScheme, f64); 2] {
    [(q8_tensor(), 0.0), (q8_block(&[16]), 1.0)]
}

/// The largest scale of `values`' blocks, for ops that requantize.
fn quantum(values: &RefArray) -> f64 {
    values
        .data
        .iter()
        .cloned()
        .fold(0.0, |m: f64, v| m.max(v.abs()))
        / 127.0
}

#[test]
fn permutations_move_values_and_scales() {
    let env = Env::new(crate::device());
    for (scheme, _) in schemes() {
        for layout in Layout::ALL {
            let (q, a) = quantized_input(&env, &scheme, layout);
            let name = |op: &str| format!("{op} {scheme} ({layout:?})");
            let got = q.clone().swap_dims(0, 2);
            assert!(got.is_quantized(), "{}", name("swap_dims"));
            check_dequantized(&env, &name("swap_dims"), got, &a.swap_dims(0, 2), 0.0);
            let got = q.clone().permute([2, 0, 1]);
            assert!(got.is_quantized());
            check_dequantized(&env, &name("permute"), got, &a.permute(&[2, 0, 1]), 0.0);
            let got = q.clone().transpose();
            check_dequantized(&env, &name("transpose"), got, &a.transpose(), 0.0);
            let got = q.clone().flip([0, 2]);
            assert_quantized(&name("flip"), &got, &scheme);
            check_dequantized(&env, &name("flip"), got, &a.flip(&[0, 2]), 0.0);
            // A permuted block tensor is still usable: dequantized and permuted back.
            let back = q.permute([2, 0, 1]).permute([1, 2, 0]);
            check_dequantized(&env, &name("permute back"), back, &a, 0.0);
        }
    }
}

#[test]
fn reshape_expand_and_repeat() {
    let env = Env::new(crate::device());
    for (scheme, requantizes) in schemes() {
        let (q, a) = quantized_input(&env, &scheme, Layout::Contiguous);
        let slack = requantizes * quantum(&a);
        let got: Tensor<2> = q.clone().reshape([8, 32]);
        assert_quantized("reshape", &got, &scheme);
        check_dequantized(
            &env,
            &format!("reshape {scheme}"),
            got,
            &a.reshape(&[8, 32]),
            slack,
        );
        let one: Tensor<3> = q.clone().slice([0..1, 0..4, 0..32]);
        let got = one.expand([3, 4, 32]);
        assert_quantized("expand", &got, &scheme);
        let first = a.slice(&[
            Range::new(0, Some(1)),
            Range::new(0, Some(4)),
            Range::new(0, Some(32)),
        ]);
        let expected = RefArray::cat(&[first.clone(), first.clone(), first], 0);
        check_dequantized(&env, &format!("expand {scheme}"), got, &expected, slack);
        let got = q.repeat_dim(1, 2);
        assert_quantized("repeat_dim", &got, &scheme);
        check_dequantized(
            &env,
            &format!("repeat_dim {scheme}"),
            got,
            &a.repeat_dim(1, 2),
            slack,
        );
    }
}

#[test]
fn slice_select_gather_and_cat() {
    let env = Env::new(crate::device());
    for (scheme, requantizes) in schemes() {
        let (q, a) = quantized_input(&env, &scheme, Layout::Strided);
        let slack = requantizes * quantum(&a);
        let got = q.clone().slice([0..2, 1..3, 0..32]);
        assert_quantized("slice", &got, &scheme);
        let expected = a.slice(&[
            Range::new(0, Some(2)),
            Range::new(1, Some(3)),
            Range::new(0, Some(32)),
        ]);
        check_dequantized(&env, &format!("slice {scheme}"), got, &expected, slack);

        let indices = Tensor::<1, Int>::from_ints([3, 0, 0], &env.device);
        let got = q.clone().select(1, indices);
        assert_quantized("select", &got, &scheme);
        check_dequantized(
            &env,
            &format!("select {scheme}"),
            got,
            &a.select(1, &[3, 0, 0]),
            slack,
        );

        let idx = env.random_int(&[2, 4, 32], 0, 4, 912);
        let indices =
            Tensor::<3, Int>::from_data(TensorData::new(idx.to_i64(), [2, 4, 32]), &env.device);
        let got = q.clone().gather(1, indices);
        assert_quantized("gather", &got, &scheme);
        check_dequantized(
            &env,
            &format!("gather {scheme}"),
            got,
            &a.gather(1, &idx),
            slack,
        );

        let got = Tensor::cat(vec![q.clone(), q], 0);
        assert_quantized("cat", &got, &scheme);
        check_dequantized(
            &env,
            &format!("cat {scheme}"),
            got,
            &RefArray::cat(&[a.clone(), a], 0),
            slack,
        );
    }
}

#[test]
fn other_ops_work_on_the_dequantized_values() {
    let env = Env::new(crate::device());
    let (q, a) = quantized_input(&env, &q8_block(&[16]), Layout::Contiguous);
    let (rel, abs) = env.tolerance(4.0);
    env.check_tol("exp", q.clone().exp(), &a.map(f64::exp), rel, abs);
    env.check_tol("add", q.clone() + 1.0, &a.map(|v| v + 1.0), rel, abs);
    env.check_tol(
        "sum_dim",
        q.clone().sum_dim(2),
        &a.sum_dim(2),
        rel * 8.0,
        abs * 8.0,
    );
    assert!(!(q.clone() * 2.0).is_quantized());
    let argmax = q.argmax(2);
    env.check_int("argmax", argmax, &a.argmax_dim(2));
}

#[test]
fn results_the_blocks_do_not_fit_are_requantized_per_tensor() {
    // [64, 32] in blocks of 32 along the last dim, transposed (blocks now [32, 1]), then
    // flattened: no block fits [2048], so the result takes one scale.
    let env = Env::new(crate::device());
    let a = env.random(&[64, 32], -1.0, 1.0, 941);
    let q = env.float::<2>(&a).quantize_dynamic(&q8_block(&[32]));
    let t = q.transpose();
    let values = dequantized(t.clone());
    let flat: Tensor<1> = t.reshape([2048]);
    assert!(flat.is_quantized());
    assert_eq!(flat.dtype(), burn::tensor::DType::QFloat(q8_tensor()));
    check_dequantized(
        &env,
        "reshape to [2048]",
        flat,
        &values.reshape(&[2048]),
        quantum(&values),
    );
    // A slice that cuts blocks likewise.
    let q = env.float::<2>(&a).quantize_dynamic(&q8_block(&[32]));
    let got = q.slice([0..4, 0..10]);
    let expected = dequantized(env.float::<2>(&a).quantize_dynamic(&q8_block(&[32])))
        .slice(&[Range::new(0, Some(4)), Range::new(0, Some(10))]);
    check_dequantized(&env, "slice across blocks", got, &expected, quantum(&a));
}

#[test]
fn creation_like_a_quantized_tensor_gives_floats() {
    let env = Env::new(crate::device());
    let q = Tensor::<2>::ones([2, 3], &env.device).quantize_dynamic(&q8_tensor());
    let zeros = q.zeros_like();
    assert_eq!(zeros.dtype(), burn::tensor::DType::from(env.dtype));
    env.check("zeros_like", zeros, &RefArray::full(&[2, 3], 0.0), 0.0);
}
