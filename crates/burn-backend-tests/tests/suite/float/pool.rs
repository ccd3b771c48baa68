//! Pooling against the definitions: max (with indices, dilation, ceil_mode), average
//! (count_include_pad, ceil_mode), adaptive average, in 1-d and 2-d.

use burn::tensor::module::{
    adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool1d, avg_pool2d, max_pool1d, max_pool2d,
    max_pool2d_with_indices,
};
use burn_backend_tests::reference::pool::PoolParams;
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// (input, kernel, stride, padding, dilation, ceil_mode)
type Case = (
    [usize; 4],
    [usize; 2],
    [usize; 2],
    [usize; 2],
    [usize; 2],
    bool,
);

const MAX_CASES: [Case; 6] = [
    ([1, 1, 4, 4], [2, 2], [2, 2], [0, 0], [1, 1], false),
    ([2, 3, 7, 6], [3, 2], [1, 2], [1, 1], [1, 1], false),
    ([1, 2, 9, 8], [3, 3], [2, 2], [1, 0], [2, 1], false),
    ([1, 2, 7, 7], [2, 2], [2, 2], [0, 0], [1, 1], true),
    ([2, 1, 8, 5], [3, 2], [2, 2], [1, 1], [1, 1], true),
    ([1, 1, 6, 9], [2, 3], [3, 2], [1, 1], [2, 2], true),
];

fn params((_, kernel, stride, padding, dilation, ceil_mode): Case) -> PoolParams {
    PoolParams {
        kernel,
        stride,
        padding,
        dilation,
        ceil_mode,
    }
}

#[test]
fn max_pool2d_cases() {
    let env = Env::new(crate::device());
    for (k, case) in MAX_CASES.into_iter().enumerate() {
        let x = env.random(&case.0, -2.0, 2.0, seed("max_pool2d") + k as u64);
        let (values, _) = x.max_pool2d(params(case));
        let (_, kernel, stride, padding, dilation, ceil) = case;
        for layout in Layout::ALL {
            let got = max_pool2d(
                env.float_in(&x, layout),
                kernel,
                stride,
                padding,
                dilation,
                ceil,
            );
            env.check(
                &format!("max_pool2d {case:?} ({layout:?})"),
                got,
                &values,
                0.0,
            );
        }
    }
}

#[test]
fn max_pool2d_with_indices_cases() {
    // torch.nn.functional.max_pool2d(..., return_indices=True): flat index y * width + x
    let env = Env::new(crate::device());
    for (k, case) in MAX_CASES.into_iter().enumerate() {
        let x = env.random(
            &case.0,
            -2.0,
            2.0,
            seed("max_pool2d_with_indices") + k as u64,
        );
        let (values, indices) = x.max_pool2d(params(case));
        let (_, kernel, stride, padding, dilation, ceil) = case;
        for layout in Layout::ALL {
            let (v, i) = max_pool2d_with_indices(
                env.float_in(&x, layout),
                kernel,
                stride,
                padding,
                dilation,
                ceil,
            );
            env.check(
                &format!("max_pool2d_with_indices values {case:?} ({layout:?})"),
                v,
                &values,
                0.0,
            );
            env.check_int(
                &format!("max_pool2d_with_indices indices {case:?} ({layout:?})"),
                i,
                &indices,
            );
        }
    }
}

#[test]
fn max_pool2d_with_negative_inputs_ignores_padding() {
    // All inputs negative: a zero from padding must never win.
    let env = Env::new(crate::device());
    let x = env.random(&[1, 1, 4, 4], -3.0, -1.0, 251);
    let case: Case = ([1, 1, 4, 4], [3, 3], [1, 1], [1, 1], [1, 1], false);
    let got = max_pool2d(env.float(&x), [3, 3], [1, 1], [1, 1], [1, 1], false);
    env.check(
        "max_pool2d negative",
        got,
        &x.max_pool2d(params(case)).0,
        0.0,
    );
}

#[test]
fn max_pool1d_cases() {
    let env = Env::new(crate::device());
    // (n, c, l, kernel, stride, padding, dilation, ceil)
    for (k, (n, c, l, ks, st, pad, dil, ceil)) in [
        (1, 1, 8, 2, 2, 0, 1, false),
        (2, 3, 11, 3, 2, 1, 1, true),
        (1, 2, 10, 3, 1, 1, 2, false),
    ]
    .into_iter()
    .enumerate()
    {
        let x = env.random(&[n, c, l], -2.0, 2.0, seed("max_pool1d") + k as u64);
        let p = PoolParams {
            kernel: [1, ks],
            stride: [1, st],
            padding: [0, pad],
            dilation: [1, dil],
            ceil_mode: ceil,
        };
        let expected = x.as_2d().max_pool2d(p).0.as_1d();
        for layout in Layout::ALL {
            let got = max_pool1d(env.float_in(&x, layout), ks, st, pad, dil, ceil);
            env.check(
                &format!("max_pool1d case {k} ({layout:?})"),
                got,
                &expected,
                0.0,
            );
        }
    }
}

/// (input, kernel, stride, padding, ceil_mode)
type AvgCase = ([usize; 4], [usize; 2], [usize; 2], [usize; 2], bool);

const AVG_CASES: [AvgCase; 5] = [
    ([1, 1, 4, 4], [2, 2], [2, 2], [0, 0], false),
    ([2, 3, 7, 6], [3, 3], [2, 2], [1, 1], false),
    ([1, 2, 5, 8], [2, 3], [1, 2], [1, 1], false),
    ([1, 2, 7, 7], [3, 3], [2, 2], [1, 1], true),
    ([2, 1, 6, 5], [2, 2], [2, 2], [1, 0], true),
];

#[test]
fn avg_pool2d_cases() {
    let env = Env::new(crate::device());
    for (k, case) in AVG_CASES.into_iter().enumerate() {
        let (shape, kernel, stride, padding, ceil) = case;
        let x = env.random(&shape, -2.0, 2.0, seed("avg_pool2d") + k as u64);
        let p = PoolParams {
            kernel,
            stride,
            padding,
            dilation: [1, 1],
            ceil_mode: ceil,
        };
        for include in [true, false] {
            let expected = x.avg_pool2d(p, include);
            for layout in Layout::ALL {
                let got = avg_pool2d(
                    env.float_in(&x, layout),
                    kernel,
                    stride,
                    padding,
                    include,
                    ceil,
                );
                let label = format!("avg_pool2d {case:?} count_include_pad={include} ({layout:?})");
                env.check(&label, got, &expected, 2.0);
            }
        }
    }
}

#[test]
fn avg_pool2d_known_values() {
    // torch.nn.functional.avg_pool2d(torch.arange(9.).reshape(1, 1, 3, 3), 2, 1, padding=1,
    //   count_include_pad=False)[0, 0, 0] = [0., 0.5, 1.5, 2.0]
    // with count_include_pad=True: [0., 0.25, 0.75, 0.5]
    let env = Env::new(crate::device());
    let x = RefArray::iota(&[1, 1, 3, 3]);
    let got =
        avg_pool2d(env.float(&x), [2, 2], [1, 1], [1, 1], false, false).slice([0..1, 0..1, 0..1]);
    env.check(
        "avg_pool2d exclude pad",
        got,
        &RefArray::new(&[1, 1, 1, 4], vec![0.0, 0.5, 1.5, 2.0]),
        0.0,
    );
    let got =
        avg_pool2d(env.float(&x), [2, 2], [1, 1], [1, 1], true, false).slice([0..1, 0..1, 0..1]);
    env.check(
        "avg_pool2d include pad",
        got,
        &RefArray::new(&[1, 1, 1, 4], vec![0.0, 0.25, 0.75, 0.5]),
        0.0,
    );
}

#[test]
fn avg_pool1d_cases() {
    let env = Env::new(crate::device());
    for (k, (n, c, l, ks, st, pad, ceil)) in [
        (1, 1, 8, 2, 2, 0, false),
        (2, 3, 9, 3, 2, 1, true),
        (1, 2, 7, 4, 1, 2, false),
    ]
    .into_iter()
    .enumerate()
    {
        let x = env.random(&[n, c, l], -2.0, 2.0, seed("avg_pool1d") + k as u64);
        let p = PoolParams {
            kernel: [1, ks],
            stride: [1, st],
            padding: [0, pad],
            dilation: [1, 1],
            ceil_mode: ceil,
        };
        for include in [true, false] {
            let expected = x.as_2d().avg_pool2d(p, include).as_1d();
            for layout in Layout::ALL {
                let got = avg_pool1d(env.float_in(&x, layout), ks, st, pad, include, ceil);
                let label = format!("avg_pool1d case {k} count_include_pad={include} ({layout:?})");
                env.check(&label, got, &expected, 2.0);
            }
        }
    }
}

#[test]
fn adaptive_avg_pool2d_cases() {
    let env = Env::new(crate::device());
    for (k, (shape, out)) in [
        ([1, 1, 4, 4], [2, 2]),
        ([2, 3, 7, 5], [3, 2]),
        ([1, 2, 5, 9], [5, 4]),
        ([1, 1, 3, 3], [1, 1]),
        ([2, 8, 9, 17], [1, 1]),
        ([1, 2, 4, 3], [6, 5]),
    ]
    .into_iter()
    .enumerate()
    {
        let x = env.random(&shape, -2.0, 2.0, seed("adaptive_avg_pool2d") + k as u64);
        let expected = x.adaptive_avg_pool2d(out);
        for layout in Layout::ALL {
            let got = adaptive_avg_pool2d(env.float_in(&x, layout), out);
            env.check(
                &format!("adaptive_avg_pool2d {shape:?} -> {out:?} ({layout:?})"),
                got,
                &expected,
                2.0,
            );
        }
    }
}

#[test]
fn adaptive_avg_pool1d_cases() {
    let env = Env::new(crate::device());
    for (k, (shape, out)) in [([1, 1, 8], 4), ([2, 3, 7], 3), ([1, 2, 5], 8)]
        .into_iter()
        .enumerate()
    {
        let x = env.random(&shape, -2.0, 2.0, seed("adaptive_avg_pool1d") + k as u64);
        let expected = x.as_2d().adaptive_avg_pool2d([1, out]).as_1d();
        for layout in Layout::ALL {
            let got = adaptive_avg_pool1d(env.float_in(&x, layout), out);
            env.check(
                &format!("adaptive_avg_pool1d {shape:?} -> {out} ({layout:?})"),
                got,
                &expected,
                2.0,
            );
        }
    }
}
