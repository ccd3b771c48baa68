//! Indexing float tensors: select, select_add, gather, scatter with every update op,
//! mask_where, mask_fill, tril, triu.

use burn::tensor::Tensor;
use burn::tensor::ops::IndexingUpdateOp;
use burn_backend_tests::{Env, Layout, RefArray, seed};

fn input(env: &Env) -> RefArray {
    env.random(&[4, 5, 3], -2.0, 2.0, 131)
}

#[test]
fn select_along_each_dim_with_repeats() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for dim in 0..3 {
        let size = a.shape[dim];
        let indices: Vec<usize> = vec![size - 1, 0, 1, size - 1];
        let idx = RefArray::new(&[4], indices.iter().map(|&i| i as f64).collect());
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).select(dim, env.int(&idx));
            env.check(
                &format!("select dim {dim} ({layout:?})"),
                got,
                &a.select(dim, &indices),
                0.0,
            );
        }
    }
}

#[test]
fn select_with_strided_indices() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let idx = RefArray::new(&[3], vec![2.0, 4.0, 0.0]);
    let got = env
        .float::<3>(&a)
        .select(1, env.int_in(&idx, Layout::Flipped));
    env.check("select strided indices", got, &a.select(1, &[2, 4, 0]), 0.0);
}

#[test]
fn select_add_accumulates_repeated_indices() {
    // torch.index_add(x, dim, idx, values) with idx containing duplicates
    let env = Env::new(crate::device());
    let a = input(&env);
    for dim in 0..3 {
        let indices = vec![0, a.shape[dim] - 1, 0];
        let idx = RefArray::new(&[3], indices.iter().map(|&i| i as f64).collect());
        let mut vshape = a.shape.clone();
        vshape[dim] = 3;
        let v = env.random(&vshape, -1.0, 1.0, 132 + dim as u64);
        let expected = a.select_add(dim, &indices, &v);
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).select_add(
                dim,
                env.int(&idx),
                env.float_in(&v, layout),
            );
            env.check(
                &format!("select_add dim {dim} ({layout:?})"),
                got,
                &expected,
                2.0,
            );
        }
    }
}

/// Random indices into `size` entries along `dim` of an index array of `shape`.
fn random_indices(env: &Env, shape: &[usize], size: usize, seed: u64) -> RefArray {
    env.random_int(shape, 0, size as i64, seed)
}

#[test]
fn gather_along_each_dim() {
    let env = Env::new(crate::device());
    let a = input(&env);
    for dim in 0..3 {
        let mut ishape = a.shape.clone();
        ishape[dim] = 6;
        let idx = random_indices(&env, &ishape, a.shape[dim], 140 + dim as u64);
        let expected = a.gather(dim, &idx);
        for layout in Layout::ALL {
            let got = env
                .float_in::<3>(&a, layout)
                .gather(dim, env.int_in(&idx, layout));
            env.check(
                &format!("gather dim {dim} ({layout:?})"),
                got,
                &expected,
                0.0,
            );
        }
    }
}

#[test]
fn gather_with_smaller_index_shape() {
    // torch.gather allows index.size(d) <= input.size(d) for d != dim
    let env = Env::new(crate::device());
    let a = input(&env);
    let idx = random_indices(&env, &[2, 3, 2], 3, 145);
    let got = env.float::<3>(&a).gather(2, env.int(&idx));
    env.check("gather smaller", got, &a.gather(2, &idx), 0.0);
}

/// For each lane along `dim` of an index array of `shape`, distinct positions (a prefix of a
/// rotation), so that assignments never collide.
fn distinct_indices(shape: &[usize], size: usize, dim: usize) -> RefArray {
    RefArray::from_fn(shape, |i| {
        let lane: usize = i
            .iter()
            .enumerate()
            .filter(|(d, _)| *d != dim)
            .map(|(_, &v)| v)
            .sum();
        ((i[dim] + lane) % size) as f64
    })
}

macro_rules! scatter_tests {
    ($($name:ident: $op:expr, $reference:expr, $distinct:expr;)*) => {$(
        #[test]
        fn $name() {
            let env = Env::new(crate::device());
            let a = input(&env);
            for dim in 0..3 {
                let mut ishape = a.shape.clone();
                ishape[dim] = if $distinct { a.shape[dim] - 1 } else { 7 };
                let idx = if $distinct {
                    distinct_indices(&ishape, a.shape[dim], dim)
                } else {
                    random_indices(&env, &ishape, a.shape[dim], seed(stringify!($name)) + dim as u64)
                };
                let v = env.random(&ishape, -2.0, 2.0, seed(stringify!($name)) + 10 + dim as u64);
                let expected = a.scatter(dim, &idx, &v, $reference);
                for layout in Layout::ALL {
                    let got = env.float_in::<3>(&a, layout).scatter(
                        dim,
                        env.int_in(&idx, layout),
                        env.float_in(&v, layout),
                        $op,
                    );
                    let label = format!("{} dim {dim} ({layout:?})", stringify!($name));
                    env.check(&label, got, &expected, 4.0);
                }
            }
        }
    )*};
}

scatter_tests! {
    scatter_assign: IndexingUpdateOp::Assign, |_, new| new, true;
    scatter_add: IndexingUpdateOp::Add, |old, new| old + new, false;
    scatter_mul: IndexingUpdateOp::Mul, |old, new| old * new, false;
    scatter_max: IndexingUpdateOp::Max, f64::max, false;
    scatter_min: IndexingUpdateOp::Min, f64::min, false;
}

#[test]
fn scatter_add_known_values() {
    // torch.zeros(3).scatter_add(0, torch.tensor([0, 2, 0, 0]), torch.tensor([1., 2., 3., 4.]))
    //   = [8., 0., 2.]
    let env = Env::new(crate::device());
    let idx = env.int::<1>(&RefArray::new(&[4], vec![0.0, 2.0, 0.0, 0.0]));
    let values = env.float::<1>(&RefArray::new(&[4], vec![1.0, 2.0, 3.0, 4.0]));
    let got = Tensor::<1>::zeros([3], &env.device).scatter(0, idx, values, IndexingUpdateOp::Add);
    env.check(
        "scatter_add known",
        got,
        &RefArray::new(&[3], vec![8.0, 0.0, 2.0]),
        0.0,
    );
}

#[test]
fn mask_where_broadcasts_mask_and_value() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let mask = env.random_bool(&[4, 5, 3], 0.5, 150);
    let v = env.random(&[4, 5, 3], 5.0, 6.0, 151);
    for layout in Layout::ALL {
        let got = env
            .float_in::<3>(&a, layout)
            .mask_where(env.bool_in(&mask, layout), env.float_in(&v, layout));
        env.check(
            &format!("mask_where ({layout:?})"),
            got,
            &a.mask_where(&mask, &v),
            0.0,
        );
    }
    let row_mask = env.random_bool(&[1, 5, 1], 0.5, 152);
    let scalar_value = env.random(&[1, 1, 3], 5.0, 6.0, 153);
    let got = env
        .float::<3>(&a)
        .mask_where(env.bool(&row_mask), env.float(&scalar_value));
    env.check(
        "mask_where broadcast",
        got,
        &a.mask_where(&row_mask, &scalar_value),
        0.0,
    );
}

#[test]
fn mask_fill_with_scalars() {
    let env = Env::new(crate::device());
    let a = input(&env);
    let mask = env.random_bool(&[4, 5, 3], 0.3, 154);
    for layout in Layout::ALL {
        let got = env
            .float_in::<3>(&a, layout)
            .mask_fill(env.bool_in(&mask, layout), -1.5);
        env.check(
            &format!("mask_fill ({layout:?})"),
            got,
            &a.mask_where(&mask, &RefArray::scalar(-1.5)),
            0.0,
        );
    }
    let got = env
        .float::<3>(&a)
        .mask_fill(env.bool(&mask), f64::NEG_INFINITY);
    let expected = a.mask_where(&mask, &RefArray::scalar(f64::NEG_INFINITY));
    env.check("mask_fill -inf", got, &expected, 0.0);
    let row_mask = env.random_bool(&[4, 1, 3], 0.5, 155);
    let got = env.float::<3>(&a).mask_fill(env.bool(&row_mask), 2);
    env.check(
        "mask_fill broadcast",
        got,
        &a.mask_where(&row_mask, &RefArray::scalar(2.0)),
        0.0,
    );
}

#[test]
fn tril_and_triu_with_diagonals() {
    // torch.tril(x, k) / torch.triu(x, k) on the last two dims of a [2, 4, 5] tensor
    let env = Env::new(crate::device());
    let a = env.random(&[2, 4, 5], -2.0, 2.0, 156);
    for k in [-2, -1, 0, 1, 3] {
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).tril(k);
            env.check(&format!("tril {k} ({layout:?})"), got, &a.tril(k), 0.0);
            let got = env.float_in::<3>(&a, layout).triu(k);
            env.check(&format!("triu {k} ({layout:?})"), got, &a.triu(k), 0.0);
        }
    }
}

#[test]
fn tril_plus_strict_triu_rebuilds_the_matrix() {
    let env = Env::new(crate::device());
    let a = env.random(&[5, 5], -2.0, 2.0, 157);
    let x = || env.float::<2>(&a);
    let rebuilt = x().tril(0) + x().triu(1);
    env.check("tril + triu(1)", rebuilt, &a, 0.0);
}

#[test]
fn select_assign_replaces_or_combines_the_selected_slices() {
    // x = [[1, 2], [3, 4], [5, 6]]; rows 2 and 0 of x combined with v = [[10, 20], [30, 40]]:
    // torch.index_copy(x, 0, [2, 0], v)  -> [[30, 40], [3, 4], [10, 20]]
    // torch.index_add(x, 0, [2, 0], v)   -> [[31, 42], [3, 4], [15, 26]]
    // index_reduce(x, 0, [2, 0], v, "amax", include_self=True) -> [[30, 40], [3, 4], [10, 20]]
    use burn::tensor::Int;
    let device = crate::device();
    let x = Tensor::<2>::from_floats([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], &device);
    let v = Tensor::<2>::from_floats([[10.0, 20.0], [30.0, 40.0]], &device);
    let idx = Tensor::<1, Int>::from_ints([2, 0], &device);
    let run = |op| {
        x.clone()
            .select_assign(0, idx.clone(), v.clone(), op)
            .into_data()
            .to_vec::<f64>()
            .unwrap()
    };
    assert_eq!(
        run(IndexingUpdateOp::Assign),
        vec![30.0, 40.0, 3.0, 4.0, 10.0, 20.0]
    );
    assert_eq!(
        run(IndexingUpdateOp::Add),
        vec![31.0, 42.0, 3.0, 4.0, 15.0, 26.0]
    );
    assert_eq!(
        run(IndexingUpdateOp::Max),
        vec![30.0, 40.0, 3.0, 4.0, 10.0, 20.0]
    );
    // Assigning over an infinity is exact (no x + (v - x) round trip).
    let inf = Tensor::<2>::from_floats([[f32::INFINITY, 0.0]], &device);
    let one = Tensor::<2>::from_floats([[1.0, 2.0]], &device);
    let out = inf.select_assign(
        0,
        Tensor::<1, Int>::from_ints([0], &device),
        one,
        IndexingUpdateOp::Assign,
    );
    assert_eq!(out.into_data().to_vec::<f64>().unwrap(), vec![1.0, 2.0]);
}

#[test]
fn linear_on_a_single_vector() {
    // x·W + b for x = [1, 2], W = [[1, 2, 3], [4, 5, 6]], b = [1, 1, 1] -> [10, 13, 16]
    use burn::tensor::module::linear;
    let device = crate::device();
    let x = Tensor::<1>::from_floats([1.0, 2.0], &device);
    let w = Tensor::<2>::from_floats([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], &device);
    let b = Tensor::<1>::ones([3], &device);
    let y = linear(x, w, Some(b));
    assert_eq!(
        y.into_data().to_vec::<f64>().unwrap(),
        vec![10.0, 13.0, 16.0]
    );
}
