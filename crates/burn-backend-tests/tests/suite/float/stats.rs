//! Statistics and vector products: var, var_bias, var_mean, var_mean_bias, cross.

use burn_backend_tests::{Env, Layout, RefArray};

#[test]
fn var_with_and_without_correction() {
    // torch.var(x, dim, correction=1, keepdim=True) and correction=0
    let env = Env::new(crate::device());
    let a = env.random(&[3, 4, 5], -2.0, 2.0, 221);
    for dim in 0..3 {
        for layout in Layout::ALL {
            let got = env.float_in::<3>(&a, layout).var(dim);
            env.check(
                &format!("var dim {dim} ({layout:?})"),
                got,
                &a.var_dim(dim, 1),
                4.0,
            );
            let got = env.float_in::<3>(&a, layout).var_bias(dim);
            env.check(
                &format!("var_bias dim {dim} ({layout:?})"),
                got,
                &a.var_dim(dim, 0),
                4.0,
            );
        }
    }
}

#[test]
fn var_mean_pairs() {
    // torch.var_mean(x, dim, keepdim=True)
    let env = Env::new(crate::device());
    let a = env.random(&[4, 6], -3.0, 3.0, 222);
    for dim in 0..2 {
        let (var, mean) = env.float::<2>(&a).var_mean(dim);
        env.check(
            &format!("var_mean var dim {dim}"),
            var,
            &a.var_dim(dim, 1),
            4.0,
        );
        env.check(
            &format!("var_mean mean dim {dim}"),
            mean,
            &a.mean_dim(dim),
            2.0,
        );
        let (var, mean) = env.float::<2>(&a).var_mean_bias(dim);
        env.check(
            &format!("var_mean_bias var dim {dim}"),
            var,
            &a.var_dim(dim, 0),
            4.0,
        );
        env.check(
            &format!("var_mean_bias mean dim {dim}"),
            mean,
            &a.mean_dim(dim),
            2.0,
        );
    }
}

#[test]
fn var_of_known_values() {
    // torch.var(torch.tensor([1., 2., 3., 4.])) = 1.6667; correction=0: 1.25
    let env = Env::new(crate::device());
    let a = RefArray::new(&[1, 4], vec![1.0, 2.0, 3.0, 4.0]);
    env.check(
        "var known",
        env.float::<2>(&a).var(1),
        &env.round(&RefArray::new(&[1, 1], vec![5.0 / 3.0])),
        1.0,
    );
    env.check(
        "var_bias known",
        env.float::<2>(&a).var_bias(1),
        &RefArray::new(&[1, 1], vec![1.25]),
        1.0,
    );
}

#[test]
fn cross_product() {
    // torch.linalg.cross(a, b, dim)
    let env = Env::new(crate::device());
    let a = env.random(&[4, 3], -2.0, 2.0, 223);
    let b = env.random(&[4, 3], -2.0, 2.0, 224);
    for layout in Layout::ALL {
        let got = env
            .float_in::<2>(&a, layout)
            .cross(env.float_in(&b, layout), 1);
        env.check(
            &format!("cross dim 1 ({layout:?})"),
            got,
            &a.cross(&b, 1),
            2.0,
        );
        let got = env
            .float_in::<2>(&a, layout)
            .cross(env.float_in(&b, layout), -1);
        env.check(
            &format!("cross dim -1 ({layout:?})"),
            got,
            &a.cross(&b, 1),
            2.0,
        );
    }
    let c = env.random(&[3, 2], -2.0, 2.0, 225);
    let d = env.random(&[3, 2], -2.0, 2.0, 226);
    let got = env.float::<2>(&c).cross(env.float(&d), 0);
    env.check("cross dim 0", got, &c.cross(&d, 0), 2.0);
}

#[test]
fn cross_of_unit_vectors() {
    // torch.linalg.cross([1, 0, 0], [0, 1, 0]) = [0, 0, 1]
    let env = Env::new(crate::device());
    let x = RefArray::new(&[1, 3], vec![1.0, 0.0, 0.0]);
    let y = RefArray::new(&[1, 3], vec![0.0, 1.0, 0.0]);
    let got = env.float::<2>(&x).cross(env.float(&y), 1);
    env.check(
        "x cross y",
        got,
        &RefArray::new(&[1, 3], vec![0.0, 0.0, 1.0]),
        0.0,
    );
}

#[test]
fn cross_broadcasts() {
    let env = Env::new(crate::device());
    let a = env.random(&[4, 3], -2.0, 2.0, 227);
    let b = env.random(&[1, 3], -2.0, 2.0, 228);
    let got = env.float::<2>(&a).cross(env.float(&b), 1);
    env.check("cross broadcast", got, &a.cross(&b, 1), 2.0);
}
