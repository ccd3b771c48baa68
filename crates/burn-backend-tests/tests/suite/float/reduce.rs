//! Float reductions along each dim (kept with size 1) and over everything (shape `[1]`), on
//! every layout, long rows, and NaN inputs.

use burn::tensor::Tensor;
use burn_backend_tests::reference::reduce::lane;
use burn_backend_tests::{Env, Layout, RefArray, seed};

macro_rules! reduction_tests {
    ($($name:ident / $dim_op:ident: $lane:expr, $domain:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn along_each_dim() {
                let env = Env::new(crate::device());
                let name = stringify!($dim_op);
                let a = env.random(&[3, 4, 5], $domain.0, $domain.1, seed(name));
                for dim in 0..3 {
                    let expected = a.reduce_dim(dim, $lane);
                    let factor = (a.shape[dim] as f64).sqrt();
                    for layout in Layout::ALL {
                        let got = env.float_in::<3>(&a, layout).$dim_op(dim);
                        env.check(&format!("{name} dim {dim} ({layout:?})"), got, &expected, factor);
                    }
                }
            }

            #[test]
            fn over_everything() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random(&[3, 4, 5], $domain.0, $domain.1, seed(name));
                for layout in Layout::ALL {
                    let got: Tensor<1> = env.float_in::<3>(&a, layout).$name();
                    env.check(&format!("{name} ({layout:?})"), got, &a.reduce_all($lane), 8.0);
                }
            }

            #[test]
            fn long_lanes() {
                let env = Env::new(crate::device());
                let name = stringify!($dim_op);
                let a = env.random(&[3, 30_000], $domain.0, $domain.1, seed(name) + 7);
                let factor = 30_000f64.sqrt();
                let got = env.float::<2>(&a).$dim_op(1);
                env.check(&format!("{name} rows"), got, &a.reduce_dim(1, $lane), factor);
                let got = env.float::<2>(&a.transpose()).$dim_op(0);
                env.check(&format!("{name} columns"), got, &a.transpose().reduce_dim(0, $lane), factor);
                let got: Tensor<1> = env.float::<2>(&a).$name();
                env.check(&format!("{name} of everything, long"), got, &a.reduce_all($lane), 300.0);
            }
        }
    )*};
}

reduction_tests! {
    sum / sum_dim: lane::sum, (-2.0, 2.0);
    mean / mean_dim: lane::mean, (-2.0, 2.0);
    prod / prod_dim: lane::prod, (0.9, 1.1);
    max / max_dim: lane::max, (-2.0, 2.0);
    min / min_dim: lane::min, (-2.0, 2.0);
    max_abs / max_abs_dim: lane::max_abs, (-2.0, 2.0);
}

#[test]
fn sum_of_an_expanded_tensor() {
    let env = Env::new(crate::device());
    let small = env.random(&[1, 4, 1], -2.0, 2.0, 61);
    let (x, a) = env.expanded::<3>(&small, [3, 4, 5]);
    env.check(
        "sum expanded",
        x.clone().sum(),
        &a.reduce_all(lane::sum),
        8.0,
    );
    env.check("sum_dim expanded", x.sum_dim(2), &a.sum_dim(2), 3.0);
}

#[test]
fn reductions_of_one_element() {
    // torch.tensor([[2.5]]).sum() / .prod() / .max() / .mean() = 2.5
    let env = Env::new(crate::device());
    let a = RefArray::new(&[1, 1], vec![2.5]);
    let x = || env.float::<2>(&a);
    for (name, got) in [
        ("sum", x().sum()),
        ("prod", x().prod()),
        ("mean", x().mean()),
        ("max", x().max()),
        ("min", x().min()),
        ("max_abs", x().max_abs()),
    ] {
        env.check(name, got, &RefArray::scalar(2.5), 0.0);
    }
}

#[test]
fn sum_and_mean_propagate_nan() {
    // torch.tensor([[1., nan], [2., 3.]]).sum() = nan; .sum(1) = [[nan], [5.]]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 2], vec![1.0, f64::NAN, 2.0, 3.0]);
    let x = || env.float::<2>(&a);
    env.check("sum nan", x().sum(), &RefArray::scalar(f64::NAN), 0.0);
    env.check("mean nan", x().mean(), &RefArray::scalar(f64::NAN), 0.0);
    env.check("prod nan", x().prod(), &RefArray::scalar(f64::NAN), 0.0);
    env.check(
        "sum_dim nan",
        x().sum_dim(1),
        &RefArray::new(&[2, 1], vec![f64::NAN, 5.0]),
        0.0,
    );
    env.check(
        "mean_dim nan",
        x().mean_dim(0),
        &RefArray::new(&[1, 2], vec![1.5, f64::NAN]),
        0.0,
    );
}

#[test]
fn max_and_min_propagate_nan() {
    // torch.tensor([[1., nan], [2., 3.]]).max() = nan; .amax(1) = [[nan], [3.]]; amin(0) = [[1., nan]]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 2], vec![1.0, f64::NAN, 2.0, 3.0]);
    let x = || env.float::<2>(&a);
    env.check("max nan", x().max(), &RefArray::scalar(f64::NAN), 0.0);
    env.check("min nan", x().min(), &RefArray::scalar(f64::NAN), 0.0);
    env.check(
        "max_dim nan",
        x().max_dim(1),
        &RefArray::new(&[2, 1], vec![f64::NAN, 3.0]),
        0.0,
    );
    env.check(
        "min_dim nan",
        x().min_dim(0),
        &RefArray::new(&[1, 2], vec![1.0, f64::NAN]),
        0.0,
    );
}

#[test]
fn max_and_min_with_infinities() {
    // torch.tensor([-inf, 1., inf]).max() = inf, .min() = -inf, .sum() = nan
    let env = Env::new(crate::device());
    let inf = f64::INFINITY;
    let a = RefArray::new(&[3], vec![-inf, 1.0, inf]);
    env.check(
        "max inf",
        env.float::<1>(&a).max(),
        &RefArray::scalar(inf),
        0.0,
    );
    env.check(
        "min inf",
        env.float::<1>(&a).min(),
        &RefArray::scalar(-inf),
        0.0,
    );
    env.check(
        "sum inf",
        env.float::<1>(&a).sum(),
        &RefArray::scalar(f64::NAN),
        0.0,
    );
    env.check(
        "max_abs inf",
        env.float::<1>(&a).max_abs(),
        &RefArray::scalar(inf),
        0.0,
    );
}

#[test]
fn mean_of_a_large_constant_tensor_is_exact_enough() {
    // A sum of 2^20 ones in f32 is exact; a naive f16 accumulator would saturate at 2048.
    let env = Env::new(crate::device());
    let x = Tensor::<2>::ones([1024, 1024], &env.device);
    env.check(
        "mean of ones",
        x.clone().mean(),
        &RefArray::scalar(1.0),
        1.0,
    );
    env.check(
        "mean_dim of ones",
        x.mean_dim(1),
        &RefArray::full(&[1024, 1], 1.0),
        1.0,
    );
}
