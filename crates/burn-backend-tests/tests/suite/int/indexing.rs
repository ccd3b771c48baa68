//! Layout and indexing ops on ints (the same generic methods as floats, other kernels):
//! reshape, transpose, slice, cat, select, gather, scatter, mask_fill, matmul, comparisons.

use burn::tensor::ops::IndexingUpdateOp;
use burn::tensor::{Int, Tensor, s};
use burn_backend_tests::reference::layout::Range;
use burn_backend_tests::{Env, Layout, RefArray};

fn input(env: &Env) -> RefArray {
    env.random_int(&[3, 4, 5], -50, 50, 331)
}

#[test]
fn layout_ops() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for layout in Layout::ALL {
        let x = || env.int_in::<3>(&a, layout);
        let label = |op: &str| format!("int {op} ({layout:?})");
        env.check_int(
            &label("reshape"),
            x().reshape([-1, 5]),
            &a.reshape(&[12, 5]),
        );
        env.check_int(&label("transpose"), x().transpose(), &a.transpose());
        env.check_int(
            &label("permute"),
            x().permute([1, 2, 0]),
            &a.permute(&[1, 2, 0]),
        );
        env.check_int(&label("flip"), x().flip([0, 2]), &a.flip(&[0, 2]));
        env.check_int(
            &label("slice"),
            x().slice(s![1.., ..;2, -2..]),
            &a.slice(&[
                Range::new(1, None),
                Range::full().step(2),
                Range::new(-2, None),
            ]),
        );
        env.check_int(
            &label("repeat_dim"),
            x().repeat_dim(1, 2),
            &a.repeat_dim(1, 2),
        );
        let b = env.random_int(&[3, 2, 5], -9, 9, 332);
        env.check_int(
            &label("cat"),
            Tensor::cat(vec![x(), env.int_in(&b, layout)], 1),
            &RefArray::cat(&[a.clone(), b], 1),
        );
        let v = env.random_int(&[2, 4, 2], 100, 200, 333);
        let got = x().slice_assign(s![1..3, .., 0..2], env.int(&v));
        env.check_int(
            &label("slice_assign"),
            got,
            &a.slice_assign(
                &[
                    Range::new(1, Some(3)),
                    Range::full(),
                    Range::new(0, Some(2)),
                ],
                &v,
            ),
        );
        let got = x().slice_fill(s![.., 1..2], -1);
        let fill = RefArray::full(&[3, 1, 5], -1.0);
        env.check_int(
            &label("slice_fill"),
            got,
            &a.slice_assign(&[Range::full(), Range::new(1, Some(2))], &fill),
        );
    }
}

#[test]
fn expand_and_stack() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[1, 3], -5, 5, 334);
    let got: Tensor<2, Int> = env.int::<2>(&a).expand([4, 3]);
    env.check_int("int expand", got, &a.broadcast_to(&[4, 3]));
    let got: Tensor<3, Int> = Tensor::stack(vec![env.int::<2>(&a), env.int::<2>(&a)], 0);
    env.check_int("int stack", got, &RefArray::stack(&[a.clone(), a], 0));
}

#[test]
fn select_gather_scatter() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let idx = RefArray::new(&[3], vec![4.0, 0.0, 4.0]);
    for layout in Layout::ALL {
        let got = env.int_in::<3>(&a, layout).select(2, env.int(&idx));
        env.check_int(
            &format!("int select ({layout:?})"),
            got,
            &a.select(2, &[4, 0, 4]),
        );
    }
    let gidx = env.random_int(&[3, 6, 5], 0, 4, 335);
    env.check_int(
        "int gather",
        env.int::<3>(&a).gather(1, env.int(&gidx)),
        &a.gather(1, &gidx),
    );
    let values = env.random_int(&[3, 6, 5], -5, 5, 336);
    let got = env
        .int::<3>(&a)
        .scatter(1, env.int(&gidx), env.int(&values), IndexingUpdateOp::Add);
    env.check_int(
        "int scatter add",
        got,
        &a.scatter(1, &gidx, &values, |x, y| x + y),
    );
    let got = env
        .int::<3>(&a)
        .scatter(1, env.int(&gidx), env.int(&values), IndexingUpdateOp::Max);
    env.check_int(
        "int scatter max",
        got,
        &a.scatter(1, &gidx, &values, f64::max),
    );
    let sidx = RefArray::new(&[2], vec![0.0, 0.0]);
    let sv = env.random_int(&[3, 4, 2], -5, 5, 337);
    let got = env.int::<3>(&a).select_add(2, env.int(&sidx), env.int(&sv));
    env.check_int("int select_add", got, &a.select_add(2, &[0, 0], &sv));
}

#[test]
fn masks_and_triangles() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let mask = env.random_bool(&[3, 4, 5], 0.5, 338);
    let v = env.random_int(&[3, 4, 5], 100, 200, 339);
    let got = env.int::<3>(&a).mask_where(env.bool(&mask), env.int(&v));
    env.check_int("int mask_where", got, &a.mask_where(&mask, &v));
    let got = env
        .int_in::<3>(&a, Layout::Transposed)
        .mask_fill(env.bool(&mask), 42);
    env.check_int(
        "int mask_fill",
        got,
        &a.mask_where(&mask, &RefArray::scalar(42.0)),
    );
    env.check_int("int tril", env.int::<3>(&a).tril(1), &a.tril(1));
    env.check_int("int triu", env.int::<3>(&a).triu(-1), &a.triu(-1));
}

#[test]
fn int_matmul() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[2, 5, 7], -9, 10, 340);
    let b = env.random_int(&[2, 7, 3], -9, 10, 341);
    for layout in Layout::ALL {
        let got = env.int_in::<3>(&a, layout).matmul(env.int_in(&b, layout));
        env.check_int(&format!("int matmul ({layout:?})"), got, &a.matmul(&b));
    }
    let c = env.random_int(&[1, 7, 4], -9, 10, 342);
    env.check_int(
        "int matmul broadcast",
        env.int::<3>(&a).matmul(env.int(&c)),
        &a.matmul(&c),
    );
}

#[test]
fn comparisons() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[4, 5], -3, 4, 343);
    let b = env.random_int(&[4, 5], -3, 4, 344);
    let cmp = |f: fn(f64, f64) -> bool| a.zip(&b, move |x, y| f(x, y) as u8 as f64);
    let x = || env.int::<2>(&a);
    let y = || env.int::<2>(&b);
    env.check_bool("int greater", x().greater(y()), &cmp(|p, q| p > q));
    env.check_bool(
        "int greater_equal",
        x().greater_equal(y()),
        &cmp(|p, q| p >= q),
    );
    env.check_bool("int lower", x().lower(y()), &cmp(|p, q| p < q));
    env.check_bool("int lower_equal", x().lower_equal(y()), &cmp(|p, q| p <= q));
    env.check_bool("int equal", x().equal(y()), &cmp(|p, q| p == q));
    env.check_bool("int not_equal", x().not_equal(y()), &cmp(|p, q| p != q));
    let elem = |f: fn(f64) -> bool| a.map(move |v| f(v) as u8 as f64);
    env.check_bool("int greater_elem", x().greater_elem(1), &elem(|v| v > 1.0));
    env.check_bool(
        "int greater_equal_elem",
        x().greater_equal_elem(1),
        &elem(|v| v >= 1.0),
    );
    env.check_bool("int lower_elem", x().lower_elem(-1), &elem(|v| v < -1.0));
    env.check_bool(
        "int lower_equal_elem",
        x().lower_equal_elem(-1),
        &elem(|v| v <= -1.0),
    );
    env.check_bool("int equal_elem", x().equal_elem(0), &elem(|v| v == 0.0));
    env.check_bool(
        "int not_equal_elem",
        x().not_equal_elem(0),
        &elem(|v| v != 0.0),
    );
    env.check_bool(
        "int any",
        x().any(),
        &RefArray::scalar(a.data.iter().any(|&v| v != 0.0) as u8 as f64),
    );
    env.check_bool(
        "int all",
        x().all(),
        &RefArray::scalar(a.data.iter().all(|&v| v != 0.0) as u8 as f64),
    );
    env.check_bool(
        "int any_dim",
        x().any_dim(1),
        &a.reduce_dim(1, |l| l.iter().any(|&v| v != 0.0) as u8 as f64),
    );
    env.check_bool(
        "int all_dim",
        x().all_dim(0),
        &a.reduce_dim(0, |l| l.iter().all(|&v| v != 0.0) as u8 as f64),
    );
}
