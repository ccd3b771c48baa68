//! Running ops along a dim: cumsum, cumprod, cummin, cummax.

use burn_backend_tests::{Env, Layout, RefArray, seed};

macro_rules! scan_tests {
    ($($name:ident: $reference:ident, $domain:expr;)*) => {$(
        mod $name {
            use super::*;

            #[test]
            fn along_each_dim() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random(&[3, 4, 5], $domain.0, $domain.1, seed(name));
                for dim in 0..3 {
                    let factor = a.shape[dim] as f64;
                    for layout in Layout::ALL {
                        let got = env.float_in::<3>(&a, layout).$name(dim);
                        env.check(&format!("{name} dim {dim} ({layout:?})"), got, &a.$reference(dim), factor);
                    }
                }
            }

            #[test]
            fn long_lane() {
                let env = Env::new(crate::device());
                let name = stringify!($name);
                let a = env.random(&[2, 40_000], $domain.0, $domain.1, seed(name) + 1);
                let got = env.float::<2>(&a).$name(1);
                env.check(&format!("{name} long"), got, &a.$reference(1), 40_000f64.sqrt());
            }
        }
    )*};
}

scan_tests! {
    cumsum: cumsum, (-1.0, 1.0);
    cumprod: cumprod, (0.99, 1.01);
    cummin: cummin, (-5.0, 5.0);
    cummax: cummax, (-5.0, 5.0);
}

#[test]
fn cumsum_known_values() {
    // torch.cumsum(torch.tensor([[1., 2., 3.], [4., 5., 6.]]), 1) = [[1., 3., 6.], [4., 9., 15.]]
    // torch.cummax(torch.tensor([1., 3., 2., 5.]), 0).values = [1., 3., 3., 5.]
    let env = Env::new(crate::device());
    let a = RefArray::new(&[2, 3], vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let expected = RefArray::new(&[2, 3], vec![1.0, 3.0, 6.0, 4.0, 9.0, 15.0]);
    env.check("cumsum known", env.float::<2>(&a).cumsum(1), &expected, 0.0);
    let b = RefArray::new(&[4], vec![1.0, 3.0, 2.0, 5.0]);
    env.check(
        "cummax known",
        env.float::<1>(&b).cummax(0),
        &RefArray::new(&[4], vec![1.0, 3.0, 3.0, 5.0]),
        0.0,
    );
    env.check(
        "cummin known",
        env.float::<1>(&b).cummin(0),
        &RefArray::new(&[4], vec![1.0, 1.0, 1.0, 1.0]),
        0.0,
    );
    env.check(
        "cumprod known",
        env.float::<1>(&b).cumprod(0),
        &RefArray::new(&[4], vec![1.0, 3.0, 6.0, 30.0]),
        0.0,
    );
}
