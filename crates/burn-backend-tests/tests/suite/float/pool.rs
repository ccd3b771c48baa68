//! Pooling against the definitions: max (with indices, dilation, ceil_mode), average
//! (count_include_pad, ceil_mode), adaptive average, in 1-d and 2-d, with padding that is the
//! same at both ends or differs (ONNX's `pads`, which the tensor API materializes).

use burn::tensor::module::{
    adaptive_avg_pool1d, adaptive_avg_pool2d, avg_pool_output_size, avg_pool1d, avg_pool2d,
    max_pool_output_size, max_pool1d, max_pool1d_with_indices, max_pool2d, max_pool2d_with_indices,
};
use burn::tensor::ops::{AvgPoolOptions, MaxPoolOptions};
use burn_backend_tests::reference::pool::PoolParams;
use burn_backend_tests::{Env, Layout, RefArray, seed};

/// `(begin, end)` padding of one dim.
type Pad = (usize, usize);

/// (input, kernel, stride, padding, dilation, ceil_mode)
type Case = (
    [usize; 4],
    [usize; 2],
    [usize; 2],
    [Pad; 2],
    [usize; 2],
    bool,
);

const MAX_CASES: [Case; 9] = [
    (
        [1, 1, 4, 4],
        [2, 2],
        [2, 2],
        [(0, 0), (0, 0)],
        [1, 1],
        false,
    ),
    (
        [2, 3, 7, 6],
        [3, 2],
        [1, 2],
        [(1, 1), (1, 1)],
        [1, 1],
        false,
    ),
    (
        [1, 2, 9, 8],
        [3, 3],
        [2, 2],
        [(1, 1), (0, 0)],
        [2, 1],
        false,
    ),
    ([1, 2, 7, 7], [2, 2], [2, 2], [(0, 0), (0, 0)], [1, 1], true),
    ([2, 1, 8, 5], [3, 2], [2, 2], [(1, 1), (1, 1)], [1, 1], true),
    ([1, 1, 6, 9], [2, 3], [3, 2], [(1, 1), (1, 1)], [2, 2], true),
    // Asymmetric ("same" padding of even kernels, ONNX pads).
    (
        [1, 2, 6, 7],
        [2, 2],
        [1, 1],
        [(0, 1), (1, 0)],
        [1, 1],
        false,
    ),
    ([2, 1, 7, 6], [3, 3], [2, 2], [(1, 2), (0, 1)], [1, 1], true),
    ([1, 1, 8, 8], [2, 3], [2, 2], [(2, 0), (1, 2)], [2, 1], true),
];

fn max_options((_, kernel, stride, padding, dilation, ceil_mode): Case) -> MaxPoolOptions<2> {
    MaxPoolOptions::new(kernel)
        .with_stride(stride)
        .with_padding_pairs(padding)
        .with_dilation(dilation)
        .with_ceil_mode(ceil_mode)
}

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
        let size = max_pool_output_size([case.0[2], case.0[3]], &max_options(case));
        assert_eq!(size, Some([values.shape[2], values.shape[3]]), "{case:?}");
        for layout in Layout::ALL {
            let got = max_pool2d(env.float_in(&x, layout), max_options(case));
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
        for layout in Layout::ALL {
            let (v, i) = max_pool2d_with_indices(env.float_in(&x, layout), max_options(case));
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
    let case: Case = (
        [1, 1, 4, 4],
        [3, 3],
        [1, 1],
        [(1, 1), (1, 2)],
        [1, 1],
        false,
    );
    let got = max_pool2d(env.float(&x), max_options(case));
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
        (1, 1, 8, 2, 2, (0, 0), 1, false),
        (2, 3, 11, 3, 2, (1, 1), 1, true),
        (1, 2, 10, 3, 1, (1, 1), 2, false),
        (1, 2, 9, 2, 2, (0, 1), 1, true),
        (2, 1, 7, 3, 2, (2, 1), 1, false),
    ]
    .into_iter()
    .enumerate()
    {
        let x = env.random(&[n, c, l], -2.0, 2.0, seed("max_pool1d") + k as u64);
        let p = PoolParams {
            kernel: [1, ks],
            stride: [1, st],
            padding: [(0, 0), pad],
            dilation: [1, dil],
            ceil_mode: ceil,
        };
        let (values, indices) = x.as_2d().max_pool2d(p);
        let (values, indices) = (values.as_1d(), indices.as_1d());
        let options = MaxPoolOptions::new([ks])
            .with_stride([st])
            .with_padding_pairs([pad])
            .with_dilation([dil])
            .with_ceil_mode(ceil);
        for layout in Layout::ALL {
            let got = max_pool1d(env.float_in(&x, layout), options);
            env.check(
                &format!("max_pool1d case {k} ({layout:?})"),
                got,
                &values,
                0.0,
            );
            let (got, at) = max_pool1d_with_indices(env.float_in(&x, layout), options);
            let label = format!("max_pool1d_with_indices case {k} ({layout:?})");
            env.check(&label, got, &values, 0.0);
            env.check_int(&label, at, &indices);
        }
    }
}

/// (input, kernel, stride, padding, ceil_mode)
type AvgCase = ([usize; 4], [usize; 2], [usize; 2], [Pad; 2], bool);

const AVG_CASES: [AvgCase; 8] = [
    ([1, 1, 4, 4], [2, 2], [2, 2], [(0, 0), (0, 0)], false),
    ([2, 3, 7, 6], [3, 3], [2, 2], [(1, 1), (1, 1)], false),
    ([1, 2, 5, 8], [2, 3], [1, 2], [(1, 1), (1, 1)], false),
    ([1, 2, 7, 7], [3, 3], [2, 2], [(1, 1), (1, 1)], true),
    ([2, 1, 6, 5], [2, 2], [2, 2], [(1, 1), (0, 0)], true),
    // Asymmetric.
    ([1, 2, 6, 7], [2, 2], [1, 1], [(0, 1), (1, 0)], false),
    ([2, 1, 7, 6], [3, 3], [2, 2], [(1, 2), (0, 1)], true),
    ([1, 1, 5, 8], [3, 2], [2, 3], [(2, 0), (1, 1)], true),
];

fn avg_options(
    (_, kernel, stride, padding, ceil_mode): AvgCase,
    count_include_pad: bool,
) -> AvgPoolOptions<2> {
    AvgPoolOptions::new(kernel)
        .with_stride(stride)
        .with_padding_pairs(padding)
        .with_count_include_pad(count_include_pad)
        .with_ceil_mode(ceil_mode)
}

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
            let options = avg_options(case, include);
            let size = avg_pool_output_size([shape[2], shape[3]], &options);
            assert_eq!(
                size,
                Some([expected.shape[2], expected.shape[3]]),
                "{case:?}"
            );
            for layout in Layout::ALL {
                let got = avg_pool2d(env.float_in(&x, layout), options);
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
    let options = AvgPoolOptions::new([2, 2])
        .with_stride([1, 1])
        .with_padding([1, 1]);
    let got =
        avg_pool2d(env.float(&x), options.with_count_include_pad(false)).slice([0..1, 0..1, 0..1]);
    env.check(
        "avg_pool2d exclude pad",
        got,
        &RefArray::new(&[1, 1, 1, 4], vec![0.0, 0.5, 1.5, 2.0]),
        0.0,
    );
    let got = avg_pool2d(env.float(&x), options).slice([0..1, 0..1, 0..1]);
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
        (1, 1, 8, 2, 2, (0, 0), false),
        (2, 3, 9, 3, 2, (1, 1), true),
        (1, 2, 7, 4, 1, (2, 2), false),
        (1, 2, 8, 3, 2, (0, 2), true),
        (2, 1, 6, 2, 1, (1, 0), false),
    ]
    .into_iter()
    .enumerate()
    {
        let x = env.random(&[n, c, l], -2.0, 2.0, seed("avg_pool1d") + k as u64);
        let p = PoolParams {
            kernel: [1, ks],
            stride: [1, st],
            padding: [(0, 0), pad],
            dilation: [1, 1],
            ceil_mode: ceil,
        };
        for include in [true, false] {
            let expected = x.as_2d().avg_pool2d(p, include).as_1d();
            let options = AvgPoolOptions::new([ks])
                .with_stride([st])
                .with_padding_pairs([pad])
                .with_count_include_pad(include)
                .with_ceil_mode(ceil);
            for layout in Layout::ALL {
                let got = avg_pool1d(env.float_in(&x, layout), options);
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
