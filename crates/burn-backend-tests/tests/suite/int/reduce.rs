//! Int reductions, arg reductions, running ops, sorting: exact results.

use burn::tensor::{Int, Tensor};
use burn_backend_tests::reference::reduce::lane;
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// Integer mean, truncated toward zero.
fn int_mean(v: &[f64]) -> f64 {
    lane::mean(v).trunc()
}

macro_rules! int_reduction_tests {
    ($($name:ident / $dim_op:ident: $lane:expr, $domain:expr, $map:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn along_each_dim() {
                let env = Env::new(crate::device());
                let name = stringify!($dim_op);
                let a = env.random_int(&[3, 4, 5], $domain.0, $domain.1, seed(name)).map($map);
                for dim in 0..3 {
                    for layout in Layout::ALL {
                        let got = env.int_in::<3>(&a, layout).$dim_op(dim);
                        env.check_int(&format!("int {name} dim {dim} ({layout:?})"), got, &a.reduce_dim(dim, $lane));
                    }
                }
            }

            #[test]
            fn over_everything() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random_int(&[3, 4, 5], $domain.0, $domain.1, seed(name)).map($map);
                for layout in Layout::ALL {
                    let got: Tensor<1, Int> = env.int_in::<3>(&a, layout).$name();
                    env.check_int(&format!("int {name} ({layout:?})"), got, &a.reduce_all($lane));
                }
            }
        }
    )*};
}

int_reduction_tests! {
    sum / sum_dim: lane::sum, (-100i64, 100i64), |v| v;
    // Values in {-1, 1, 2}: products stay far from overflow and are rarely zero.
    prod / prod_dim: lane::prod, (-1i64, 2i64), |v| if v == 0.0 { 2.0 } else { v };
    mean / mean_dim: int_mean, (-100i64, 100i64), |v| v;
    max / max_dim: lane::max, (-100i64, 100i64), |v| v;
    min / min_dim: lane::min, (-100i64, 100i64), |v| v;
    max_abs / max_abs_dim: lane::max_abs, (-100i64, 100i64), |v| v;
}

#[test]
fn mean_truncates() {
    // torch.tensor([1, 2]).mean() is an error in torch; Burn truncates: (1 + 2) / 2 = 1, and
    // (-1 - 2) / 2 = -1
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 2], vec![1.0, 2.0, -1.0, -2.0]);
    env.check_int(
        "int mean_dim trunc",
        env.int::<2>(&a).mean_dim(1),
        &RefArray::new(&[2, 1], vec![1.0, -1.0]),
    );
}

#[test]
fn argmax_argmin_and_with_indices() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4, 5], -5, 5, 311);
    for dim in 0..3 {
        for layout in Layout::ALL {
            let label = format!("int dim {dim} ({layout:?})");
            env.check_int(
                &format!("argmax {label}"),
                env.int_in::<3>(&a, layout).argmax(dim),
                &a.argmax_dim(dim),
            );
            env.check_int(
                &format!("argmin {label}"),
                env.int_in::<3>(&a, layout).argmin(dim),
                &a.argmin_dim(dim),
            );
            let (v, i) = env.int_in::<3>(&a, layout).max_dim_with_indices(dim);
            env.check_int(
                &format!("max_dim_with_indices values {label}"),
                v,
                &a.max_dim(dim),
            );
            env.check_int(
                &format!("max_dim_with_indices indices {label}"),
                i,
                &a.argmax_dim(dim),
            );
            let (v, i) = env.int_in::<3>(&a, layout).min_dim_with_indices(dim);
            env.check_int(
                &format!("min_dim_with_indices values {label}"),
                v,
                &a.min_dim(dim),
            );
            env.check_int(
                &format!("min_dim_with_indices indices {label}"),
                i,
                &a.argmin_dim(dim),
            );
        }
    }
}

#[test]
fn running_ops() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4, 5], -3, 4, 312);
    for dim in 0..3 {
        for layout in Layout::ALL {
            let x = || env.int_in::<3>(&a, layout);
            let label = format!("dim {dim} ({layout:?})");
            env.check_int(
                &format!("int cumsum {label}"),
                x().cumsum(dim),
                &a.cumsum(dim),
            );
            env.check_int(
                &format!("int cumprod {label}"),
                x().cumprod(dim),
                &a.cumprod(dim),
            );
            env.check_int(
                &format!("int cummin {label}"),
                x().cummin(dim),
                &a.cummin(dim),
            );
            env.check_int(
                &format!("int cummax {label}"),
                x().cummax(dim),
                &a.cummax(dim),
            );
        }
    }
}

#[test]
fn sort_argsort_topk_are_stable() {
    let env = Env::new(crate::device());
    let a = env.random_int(&[3, 4, 6], -3, 3, 313);
    for dim in 0..3 {
        let (up, up_idx) = a.sort_with_indices(dim, false);
        let (down, down_idx) = a.sort_with_indices(dim, true);
        for layout in Layout::ALL {
            let x = || env.int_in::<3>(&a, layout);
            let label = format!("int dim {dim} ({layout:?})");
            env.check_int(&format!("sort {label}"), x().sort(dim), &up);
            env.check_int(
                &format!("sort_descending {label}"),
                x().sort_descending(dim),
                &down,
            );
            let (v, i) = x().sort_with_indices(dim);
            env.check_int(&format!("sort_with_indices values {label}"), v, &up);
            env.check_int(&format!("sort_with_indices indices {label}"), i, &up_idx);
            let (v, i) = x().sort_descending_with_indices(dim);
            env.check_int(
                &format!("sort_descending_with_indices values {label}"),
                v,
                &down,
            );
            env.check_int(
                &format!("sort_descending_with_indices indices {label}"),
                i,
                &down_idx,
            );
            env.check_int(&format!("argsort {label}"), x().argsort(dim), &up_idx);
            env.check_int(
                &format!("argsort_descending {label}"),
                x().argsort_descending(dim),
                &down_idx,
            );
        }
        let mut ranges = vec![burn_backend_tests::reference::layout::Range::full(); 3];
        ranges[dim] = burn_backend_tests::reference::layout::Range::new(0, Some(2));
        let (v, i) = env.int::<3>(&a).topk_with_indices(2, dim);
        env.check_int(
            &format!("int topk values dim {dim}"),
            v,
            &down.slice(&ranges),
        );
        env.check_int(
            &format!("int topk indices dim {dim}"),
            i,
            &down_idx.slice(&ranges),
        );
        env.check_int(
            &format!("int topk dim {dim}"),
            env.int::<3>(&a).topk(2, dim),
            &down.slice(&ranges),
        );
    }
}

#[test]
fn narrow_int_means_use_the_true_sum_and_count() {
    // 300 ones as u8: the sum 300 and the count 300 do not fit a u8, the mean (1) does.
    use burn::tensor::IntDType;
    let device = crate::device();
    let x = Tensor::<1, Int>::ones([300], (&device, IntDType::U8));
    assert_eq!(x.clone().mean().into_scalar::<i64>(), 1);
    assert_eq!(
        x.reshape([3, 100])
            .mean_dim(1)
            .into_data()
            .to_vec::<i64>()
            .unwrap(),
        vec![1, 1, 1]
    );
    // i8: 200 values of 100 sum to 20000; the mean is 100.
    let y = Tensor::<1, Int>::full([200], 100, (&device, IntDType::I8));
    assert_eq!(y.mean().into_scalar::<i64>(), 100);
}
