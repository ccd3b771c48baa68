//! Bool logic: not, and, or, xor (broadcasting, every layout), `!`, equality, any / all.

use burn::tensor::{Bool, Tensor};
use burn_backend_tests::{Env, Layout, RefArray};

fn pair(env: &Env) -> (RefArray, RefArray) {
    (
        env.random_bool(&[3, 4, 5], 0.5, 351),
        env.random_bool(&[3, 4, 5], 0.5, 352),
    )
}

fn logic(a: &RefArray, b: &RefArray, f: fn(bool, bool) -> bool) -> RefArray {
    a.zip(b, move |x, y| f(x != 0.0, y != 0.0) as u8 as f64)
}

#[test]
fn not_and_or_xor() {
    let env = Env::new(crate::device());
    let (a, b) = pair(&env);
    for la in Layout::ALL {
        for lb in [Layout::Contiguous, Layout::Strided] {
            let x = || env.bool_in::<3>(&a, la);
            let y = || env.bool_in::<3>(&b, lb);
            let label = |op: &str| format!("{op} ({la:?}, {lb:?})");
            env.check_bool(
                &label("bool_and"),
                x().bool_and(y()),
                &logic(&a, &b, |p, q| p && q),
            );
            env.check_bool(
                &label("bool_or"),
                x().bool_or(y()),
                &logic(&a, &b, |p, q| p || q),
            );
            env.check_bool(
                &label("bool_xor"),
                x().bool_xor(y()),
                &logic(&a, &b, |p, q| p != q),
            );
            env.check_bool(
                &label("bool_not"),
                x().bool_not(),
                &a.map(|v| (v == 0.0) as u8 as f64),
            );
            env.check_bool(&label("!"), !x(), &a.map(|v| (v == 0.0) as u8 as f64));
        }
    }
}

#[test]
fn logic_broadcasts() {
    let env = Env::new(crate::device());
    let a = env.random_bool(&[3, 1, 5], 0.5, 353);
    let b = env.random_bool(&[1, 4, 1], 0.5, 354);
    let x = || env.bool::<3>(&a);
    let y = || env.bool::<3>(&b);
    env.check_bool(
        "bool_and broadcast",
        x().bool_and(y()),
        &logic(&a, &b, |p, q| p && q),
    );
    env.check_bool(
        "bool_or broadcast",
        x().bool_or(y()),
        &logic(&a, &b, |p, q| p || q),
    );
    env.check_bool(
        "bool_xor broadcast",
        x().bool_xor(y()),
        &logic(&a, &b, |p, q| p != q),
    );
}

#[test]
fn equality_and_reductions() {
    let env = Env::new(crate::device());
    let (a, b) = pair(&env);
    let x = || env.bool::<3>(&a);
    let y = || env.bool::<3>(&b);
    env.check_bool("bool equal", x().equal(y()), &logic(&a, &b, |p, q| p == q));
    env.check_bool(
        "bool not_equal",
        x().not_equal(y()),
        &logic(&a, &b, |p, q| p != q),
    );
    env.check_bool("bool equal_elem", x().equal_elem(true), &a);
    env.check_bool(
        "bool not_equal_elem",
        x().not_equal_elem(true),
        &a.map(|v| (v == 0.0) as u8 as f64),
    );
    let any = |l: &[f64]| l.iter().any(|&v| v != 0.0) as u8 as f64;
    let all = |l: &[f64]| l.iter().all(|&v| v != 0.0) as u8 as f64;
    env.check_bool("bool any", x().any(), &a.reduce_all(any));
    env.check_bool("bool all", x().all(), &a.reduce_all(all));
    for dim in 0..3 {
        env.check_bool(
            &format!("bool any_dim {dim}"),
            x().any_dim(dim),
            &a.reduce_dim(dim, any),
        );
        env.check_bool(
            &format!("bool all_dim {dim}"),
            x().all_dim(dim),
            &a.reduce_dim(dim, all),
        );
    }
    let ones = Tensor::<2, Bool>::full([2, 3], true, &env.device);
    env.check_bool("all of trues", ones.all(), &RefArray::scalar(1.0));
    let zeros = Tensor::<2, Bool>::full([2, 3], false, &env.device);
    env.check_bool("any of falses", zeros.any(), &RefArray::scalar(0.0));
}

#[test]
fn bool_zeros_and_ones() {
    // torch.zeros(2, 3, dtype=torch.bool) / torch.ones(...)
    let env = Env::new(crate::device());
    let ones = Tensor::<2, Bool>::ones([2, 3], &env.device);
    assert_eq!(
        ones.clone().into_data().to_vec::<bool>().unwrap(),
        [true; 6]
    );
    let zeros = ones.zeros_like();
    assert_eq!(
        zeros.clone().into_data().to_vec::<bool>().unwrap(),
        [false; 6]
    );
    assert_eq!(
        Tensor::<1, Bool>::zeros([2], &env.device)
            .into_data()
            .to_vec::<bool>()
            .unwrap(),
        [false; 2]
    );
    assert_eq!(
        zeros.ones_like().into_data().to_vec::<bool>().unwrap(),
        [true; 6]
    );
}

#[test]
fn bool_scatter_nd_combines_logically() {
    // ONNX ScatterND on booleans: add/max are or, mul/min are and.
    use burn::tensor::Int;
    use burn::tensor::ops::IndexingUpdateOp;
    let env = Env::new(crate::device());
    let x = Tensor::<2, Bool>::from_data([[true, false], [false, false]], &env.device);
    let at = Tensor::<2, Int>::from_data([[0], [1]], &env.device);
    let values = Tensor::<2, Bool>::from_data([[false, true], [true, false]], &env.device);
    let read = |t: Tensor<2, Bool>| t.into_data().to_vec::<bool>().unwrap();
    let or = x
        .clone()
        .scatter_nd(at.clone(), values.clone(), IndexingUpdateOp::Add);
    assert_eq!(read(or), [true, true, true, false]);
    let and = x
        .clone()
        .scatter_nd(at.clone(), values.clone(), IndexingUpdateOp::Mul);
    assert_eq!(read(and), [false, false, false, false]);
    let assigned = x.scatter_nd(at, values, IndexingUpdateOp::Assign);
    assert_eq!(read(assigned), [false, true, true, false]);
}

#[test]
fn bool_scatter_and_select_assign_combine_logically() {
    // Burn's scatter and select_assign take every kind; booleans combine as integers.
    use burn::tensor::Int;
    use burn::tensor::ops::IndexingUpdateOp;
    let env = Env::new(crate::device());
    let x = Tensor::<2, Bool>::from_data([[true, false, false], [false, false, true]], &env.device);
    let read = |t: Tensor<2, Bool>| t.into_data().to_vec::<bool>().unwrap();
    let at = Tensor::<2, Int>::from_data([[2, 0], [0, 1]], &env.device);
    let values = Tensor::<2, Bool>::from_data([[true, true], [true, false]], &env.device);
    let or = x
        .clone()
        .scatter(1, at.clone(), values.clone(), IndexingUpdateOp::Add);
    assert_eq!(read(or), [true, false, true, true, false, true]);
    let assigned = x.clone().scatter(1, at, values, IndexingUpdateOp::Assign);
    assert_eq!(read(assigned), [true, false, true, true, false, true]);
    let rows = Tensor::<1, Int>::from_data([1], &env.device);
    let row = Tensor::<2, Bool>::from_data([[true, true, false]], &env.device);
    let and = x.select_assign(0, rows, row, IndexingUpdateOp::Mul);
    assert_eq!(read(and), [true, false, false, false, false, false]);
}
