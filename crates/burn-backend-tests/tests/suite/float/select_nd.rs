//! Composed selections and statistics against loops over their definitions: gather_nd,
//! scatter_nd, take, select_dim, mask_select, unfold, median, cov, one_hot_fill,
//! sum_dims_squeeze.

use burn::tensor::ops::IndexingUpdateOp;
use burn::tensor::{Int, Tensor};
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// The row-major coordinates of flat position `i` in `shape`.
fn coords(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut out = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        out[d] = i % shape[d];
        i /= shape[d];
    }
    out
}

#[test]
fn gather_nd_picks_slices_of_the_leading_dims() {
    // tf.gather_nd(x, indices): out[b..][r..] = x[indices[b..]][r..]
    let env = Env::new(crate::device());
    let x = env.random(&[3, 4, 2], -2.0, 2.0, seed("gather_nd"));
    // K = 2: indices [2, 3, 2] -> out [2, 3, 2]
    let idx = RefArray::new(
        &[2, 3, 2],
        vec![0.0, 1.0, 2.0, 3.0, 1.0, 0.0, 2.0, 2.0, 0.0, 0.0, 1.0, 3.0],
    );
    let expected = RefArray::from_fn(&[2, 3, 2], |i| {
        let (a, b) = (idx.at(&[i[0], i[1], 0]), idx.at(&[i[0], i[1], 1]));
        x.at(&[a as usize, b as usize, i[2]])
    });
    for layout in Layout::ALL {
        let got: Tensor<3> = env
            .float_in::<3>(&x, layout)
            .gather_nd(env.int_in::<3>(&idx, layout));
        env.check(&format!("gather_nd K=2 ({layout:?})"), got, &expected, 0.0);
    }
    // K = 1 (rows) and K = 3 (single values).
    let rows = RefArray::new(&[2, 1], vec![2.0, 0.0]);
    let expected = RefArray::from_fn(&[2, 4, 2], |i| {
        x.at(&[rows.at(&[i[0], 0]) as usize, i[1], i[2]])
    });
    let got: Tensor<3> = env.float::<3>(&x).gather_nd(env.int::<2>(&rows));
    env.check("gather_nd K=1", got, &expected, 0.0);
    let points = RefArray::new(&[2, 3], vec![2.0, 3.0, 1.0, 0.0, 1.0, 0.0]);
    let expected = RefArray::new(&[2], vec![x.at(&[2, 3, 1]), x.at(&[0, 1, 0])]);
    let got: Tensor<1> = env.float::<3>(&x).gather_nd(env.int::<2>(&points));
    env.check("gather_nd K=3", got, &expected, 0.0);
}

#[test]
fn scatter_nd_adds_and_assigns() {
    // ONNX ScatterND (reduction add / none): values [2, 4] into the rows of x [3, 4].
    let env = Env::new(crate::device());
    let x = env.random(&[3, 4], -2.0, 2.0, seed("scatter_nd"));
    let v = env.random(&[3, 4], -2.0, 2.0, seed("scatter_nd v"));
    let rows = [2usize, 0, 2];
    let idx = RefArray::new(&[3, 1], rows.iter().map(|&r| r as f64).collect());
    let mut added = x.clone();
    for (k, &r) in rows.iter().enumerate() {
        for c in 0..4 {
            added.set(&[r, c], added.at(&[r, c]) + v.at(&[k, c]));
        }
    }
    let got = env.float::<2>(&x).scatter_nd(
        env.int::<2>(&idx),
        env.float::<2>(&v),
        IndexingUpdateOp::Add,
    );
    env.check("scatter_nd add (duplicates add up)", got, &added, 2.0);
    // Assign to distinct single elements (K = 2).
    let points = RefArray::new(&[2, 2], vec![1.0, 3.0, 0.0, 0.0]);
    let values = RefArray::new(&[2], vec![7.0, -5.0]);
    let mut assigned = x.clone();
    assigned.set(&[1, 3], 7.0);
    assigned.set(&[0, 0], -5.0);
    let got = env.float::<2>(&x).scatter_nd(
        env.int::<2>(&points),
        env.float::<1>(&values),
        IndexingUpdateOp::Assign,
    );
    env.check("scatter_nd assign", got, &assigned, 0.0);
}

#[test]
fn take_select_dim_and_mask_select() {
    let env = Env::new(crate::device());
    let x = env.random(&[3, 4], -2.0, 2.0, seed("take"));
    // numpy.take(x, idx, axis=1) with idx [[3, 0], [1, 1]] -> [3, 2, 2]
    let idx = RefArray::new(&[2, 2], vec![3.0, 0.0, 1.0, 1.0]);
    let expected = RefArray::from_fn(&[3, 2, 2], |i| {
        x.at(&[i[0], idx.at(&[i[1], i[2]]) as usize])
    });
    for layout in Layout::ALL {
        let got: Tensor<3> = env.float_in::<2>(&x, layout).take(1, env.int::<2>(&idx));
        env.check(&format!("take ({layout:?})"), got, &expected, 0.0);
    }
    // x[:, -1]
    let got: Tensor<1> = env.float::<2>(&x).select_dim(1, -1);
    env.check(
        "select_dim",
        got,
        &RefArray::from_fn(&[3], |i| x.at(&[i[0], 3])),
        0.0,
    );
    // x[mask]
    let mask = env.random_bool(&[3, 4], 0.5, seed("mask_select"));
    let picked: Vec<f64> = (0..12)
        .map(|i| coords(i, &[3, 4]))
        .filter(|c| mask.at(c) != 0.0)
        .map(|c| x.at(&c))
        .collect();
    let expected = RefArray::new(&[picked.len()], picked);
    let got = env.float::<2>(&x).mask_select(env.bool::<2>(&mask));
    env.check("mask_select", got, &expected, 0.0);
}

#[test]
fn unfold_makes_windows() {
    // torch.Tensor.unfold(dim=1, size=3, step=2) of [2, 7, 3] -> [2, 3, 3, 3]
    let env = Env::new(crate::device());
    let x = env.random(&[2, 7, 3], -2.0, 2.0, seed("unfold"));
    let expected = RefArray::from_fn(&[2, 3, 3, 3], |i| x.at(&[i[0], i[1] * 2 + i[3], i[2]]));
    for layout in Layout::ALL {
        let got: Tensor<4> = env.float_in::<3>(&x, layout).unfold(1, 3, 2);
        env.check(&format!("unfold ({layout:?})"), got, &expected, 0.0);
    }
    let none: Tensor<4> = env.float::<3>(&x).unfold(2, 4, 1);
    assert_eq!(none.dims(), [2, 7, 0, 4]);
}

#[test]
fn median_and_covariance() {
    let env = Env::new(crate::device());
    let x = env.random(&[3, 6], -2.0, 2.0, seed("median"));
    for dim in 0..2 {
        let len = [3, 6][dim];
        let mut out_shape = [3, 6];
        out_shape[dim] = 1;
        let lane = |i: &[usize]| -> Vec<(f64, usize)> {
            let mut lane: Vec<(f64, usize)> = (0..len)
                .map(|k| {
                    let mut at = [i[0], i[1]];
                    at[dim] = k;
                    (x.at(&at), k)
                })
                .collect();
            lane.sort_by(|a, b| a.0.total_cmp(&b.0));
            lane
        };
        // torch.median(x, dim, keepdim=True): the lower middle value and its index
        let values = RefArray::from_fn(&out_shape, |i| lane(i)[(len - 1) / 2].0);
        let indices = RefArray::from_fn(&out_shape, |i| lane(i)[(len - 1) / 2].1 as f64);
        let (got, at) = env.float::<2>(&x).median_with_indices(dim);
        env.check(&format!("median dim {dim}"), got, &values, 0.0);
        env.check_int(&format!("median indices dim {dim}"), at, &indices);
    }
    // torch.cov(x) (variables as rows, observations along dim 1, correction 1)
    let means: Vec<f64> = (0..3)
        .map(|r| (0..6).map(|c| x.at(&[r, c])).sum::<f64>() / 6.0)
        .collect();
    let expected = RefArray::from_fn(&[3, 3], |i| {
        (0..6)
            .map(|c| (x.at(&[i[0], c]) - means[i[0]]) * (x.at(&[i[1], c]) - means[i[1]]))
            .sum::<f64>()
            / 5.0
    });
    let got = env.float::<2>(&x).cov(1, 1);
    env.check("cov", got, &expected, 8.0);
}

#[test]
fn one_hot_fill_and_sum_dims_squeeze() {
    // ONNX OneHot(indices, depth=3, values=[0, 5], axis=-1): negative indices count from the
    // end, out-of-range ones give a row of the off value.
    let env = Env::new(crate::device());
    let idx = RefArray::new(&[2, 2], vec![0.0, 2.0, -1.0, 3.0]);
    let expected = RefArray::new(
        &[2, 2, 3],
        vec![5.0, 0.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0],
    );
    let got: Tensor<3> = env.float::<2>(&idx).one_hot_fill(3, 5.0, 0.0, -1);
    env.check("one_hot_fill float", got, &expected, 0.0);
    let got: Tensor<3, Int> = env.int::<2>(&idx).one_hot_fill(3, 5.0, 0.0, -1);
    env.check_int("one_hot_fill int", got, &expected);
    // The class axis first: out[c, i, j].
    let got: Tensor<3> = env.float::<2>(&idx).one_hot_fill(3, 1.0, -1.0, 0);
    let expected = RefArray::from_fn(&[3, 2, 2], |i| {
        let class = idx.at(&[i[1], i[2]]);
        let class = if class < 0.0 { class + 3.0 } else { class };
        if class == i[0] as f64 { 1.0 } else { -1.0 }
    });
    env.check("one_hot_fill axis 0", got, &expected, 0.0);
    let classes = RefArray::new(&[3], vec![1.0, 0.0, 2.0]);
    let got: Tensor<2> = env.float::<1>(&classes).one_hot(3);
    let eye = RefArray::new(&[3, 3], vec![0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
    env.check("one_hot float", got, &eye, 0.0);
    let x = env.random(&[2, 3, 4], -2.0, 2.0, seed("sum_dims_squeeze"));
    let got: Tensor<1> = env.float::<3>(&x).sum_dims_squeeze(&[0, 2]);
    let expected = RefArray::from_fn(&[3], |i| {
        (0..2)
            .flat_map(|a| (0..4).map(move |c| (a, c)))
            .map(|(a, c)| x.at(&[a, i[0], c]))
            .sum()
    });
    env.check("sum_dims_squeeze", got, &expected, 8.0);
}
