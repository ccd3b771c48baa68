//! argmax / argmin and the `*_dim_with_indices` reductions: positions, first index on ties.

use burn_backend_tests::{Env, Layout, RefArray, seed};

macro_rules! arg_tests {
    ($($name:ident: $op:ident, $reference:ident;)*) => {$(
        #[test]
        fn $name() {
            let env = Env::new(crate::device());
            let a = env.random(&[3, 4, 5], -2.0, 2.0, seed(stringify!($name)));
            for dim in 0..3 {
                for layout in Layout::ALL {
                    let got = env.float_in::<3>(&a, layout).$op(dim);
                    let label = format!("{} dim {dim} ({layout:?})", stringify!($op));
                    env.check_int(&label, got, &a.$reference(dim));
                }
            }
        }
    )*};
}

arg_tests! {
    argmax_along_each_dim: argmax, argmax_dim;
    argmin_along_each_dim: argmin, argmin_dim;
}

#[test]
fn argmax_and_argmin_pick_the_first_of_ties() {
    // torch.argmax(torch.tensor([[1., 3., 3., 0.], [2., 2., 2., 2.]]), 1) = [[1], [0]]
    // torch.argmin(same, 1) = [[3], [0]]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 4], vec![1.0, 3.0, 3.0, 0.0, 2.0, 2.0, 2.0, 2.0]);
    env.check_int(
        "argmax ties",
        env.float::<2>(&a).argmax(1),
        &RefArray::new(&[2, 1], vec![1.0, 0.0]),
    );
    env.check_int(
        "argmin ties",
        env.float::<2>(&a).argmin(1),
        &RefArray::new(&[2, 1], vec![3.0, 0.0]),
    );
    for layout in Layout::ALL {
        let label = format!("argmax ties ({layout:?})");
        env.check_int(
            &label,
            env.float_in::<2>(&a, layout).argmax(1),
            &a.argmax_dim(1),
        );
    }
}

#[test]
fn argmax_of_long_rows() {
    let env = Env::new(crate::device());
    let a = env.random(&[4, 20_001], -1.0, 1.0, 71);
    env.check_int(
        "argmax long",
        env.float::<2>(&a).argmax(1),
        &a.argmax_dim(1),
    );
    env.check_int(
        "argmin long",
        env.float::<2>(&a).argmin(1),
        &a.argmin_dim(1),
    );
}

macro_rules! with_indices_tests {
    ($($name:ident: $op:ident, $values:ident, $indices:ident;)*) => {$(
        #[test]
        fn $name() {
            let env = Env::new(crate::device());
            let a = env.random(&[3, 4, 5], -2.0, 2.0, seed(stringify!($name)));
            for dim in 0..3 {
                for layout in Layout::ALL {
                    let (values, indices) = env.float_in::<3>(&a, layout).$op(dim);
                    let label = format!("{} dim {dim} ({layout:?})", stringify!($op));
                    env.check(&label, values, &a.$values(dim), 0.0);
                    env.check_int(&label, indices, &a.$indices(dim));
                }
            }
        }
    )*};
}

with_indices_tests! {
    max_dim_with_indices: max_dim_with_indices, max_dim, argmax_dim;
    min_dim_with_indices: min_dim_with_indices, min_dim, argmin_dim;
}

#[test]
fn with_indices_on_ties() {
    // torch.max(torch.tensor([[5., 5., 1.]]), 1) = (values=[[5.]], indices=[[0]])
    let env = Env::new(crate::device());
    let a = RefArray::new(&[1, 3], vec![5.0, 5.0, 1.0]);
    let (values, indices) = env.float::<2>(&a).max_dim_with_indices(1);
    env.check(
        "max_dim_with_indices ties",
        values,
        &RefArray::new(&[1, 1], vec![5.0]),
        0.0,
    );
    env.check_int(
        "max_dim_with_indices ties",
        indices,
        &RefArray::new(&[1, 1], vec![0.0]),
    );
    let b = RefArray::new(&[1, 3], vec![2.0, 1.0, 1.0]);
    let (values, indices) = env.float::<2>(&b).min_dim_with_indices(1);
    env.check(
        "min_dim_with_indices ties",
        values,
        &RefArray::new(&[1, 1], vec![1.0]),
        0.0,
    );
    env.check_int(
        "min_dim_with_indices ties",
        indices,
        &RefArray::new(&[1, 1], vec![1.0]),
    );
}
