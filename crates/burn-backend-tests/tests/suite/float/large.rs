//! Module functions on inputs large enough to take the backends' parallel paths.

use burn::tensor::activation::{log_softmax, softmax};
use burn::tensor::module::{
    adaptive_avg_pool2d, avg_pool2d, conv2d, embedding, interpolate, max_pool2d_with_indices,
};
use burn::tensor::ops::{
    AvgPoolOptions, ConvOptions, InterpolateMode, InterpolateOptions, MaxPoolOptions,
};
use burn_backend_tests::reference::conv::ConvParams;
use burn_backend_tests::reference::pool::PoolParams;
use burn_backend_tests::{Env, Layout, RefArray};

#[test]
fn conv2d_large() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 8, 48, 48], -1.0, 1.0, 501);
    let w = env.random(&[16, 8, 3, 3], -1.0, 1.0, 502);
    let b = env.random(&[16], -1.0, 1.0, 503);
    let params = ConvParams {
        stride: [1, 1],
        padding: [1, 1],
        dilation: [1, 1],
        groups: 1,
    };
    let expected = x.conv2d(&w, Some(&b), params);
    let got = conv2d(
        env.float(&x),
        env.float(&w),
        Some(env.float(&b)),
        ConvOptions::new([1, 1], [1, 1], [1, 1], 1),
    );
    env.check("conv2d large", got, &expected, 72f64.sqrt());
    let got = conv2d(
        env.float_in(&x, Layout::Transposed),
        env.float(&w),
        Some(env.float(&b)),
        ConvOptions::new([1, 1], [1, 1], [1, 1], 1),
    );
    env.check(
        "conv2d large transposed input",
        got,
        &expected,
        72f64.sqrt(),
    );
}

/// 32 channels each way through a 3×3, stride-1 kernel: the shape Flex takes through its
/// Winograd kernel on AVX-512 and AVX2 CPUs, whose transforms round more than a direct sum (the
/// tolerance, `√(products per output)` times the dtype's, holds either).
#[test]
fn conv2d_large_many_channels() {
    let env = Env::new(crate::device());
    // 2 · 10 · 10 (or 2 · 10 · 11) output tiles of 4×4: enough for Flex's Winograd kernel.
    let x = env.random(&[2, 32, 40, 40], -1.0, 1.0, 511);
    let w = env.random(&[40, 32, 3, 3], -1.0, 1.0, 512);
    let b = env.random(&[40], -1.0, 1.0, 513);
    for padding in [[1, 1], [0, 2]] {
        let params = ConvParams {
            stride: [1, 1],
            padding,
            dilation: [1, 1],
            groups: 1,
        };
        let expected = x.conv2d(&w, Some(&b), params);
        let got = conv2d(
            env.float(&x),
            env.float(&w),
            Some(env.float(&b)),
            ConvOptions::new([1, 1], padding, [1, 1], 1),
        );
        let what = format!("conv2d 32 channels, padding {padding:?}");
        env.check(&what, got, &expected, 288f64.sqrt());
    }
}

#[test]
fn pooling_large() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 8, 64, 64], -2.0, 2.0, 504);
    let p = PoolParams {
        kernel: [3, 3],
        stride: [2, 2],
        padding: [(1, 1), (1, 1)],
        dilation: [1, 1],
        ceil_mode: false,
    };
    let (values, indices) = x.max_pool2d(p);
    let options = MaxPoolOptions::new([3, 3])
        .with_stride([2, 2])
        .with_padding([1, 1]);
    let (v, i) = max_pool2d_with_indices(env.float(&x), options);
    env.check("max_pool2d large", v, &values, 0.0);
    env.check_int("max_pool2d large indices", i, &indices);
    let options = AvgPoolOptions::new([3, 3])
        .with_stride([2, 2])
        .with_padding([1, 1])
        .with_count_include_pad(false);
    let got = avg_pool2d(env.float(&x), options);
    env.check("avg_pool2d large", got, &x.avg_pool2d(p, false), 2.0);
    let got = adaptive_avg_pool2d(env.float(&x), [5, 7]);
    env.check(
        "adaptive_avg_pool2d large",
        got,
        &x.adaptive_avg_pool2d([5, 7]),
        4.0,
    );
}

#[test]
fn interpolate_large() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 4, 40, 40], -2.0, 2.0, 505);
    let options = InterpolateOptions::new(InterpolateMode::Bilinear).with_align_corners(false);
    let got = interpolate(env.float(&x), options.with_output_size([61, 59]));
    env.check(
        "bilinear large",
        got,
        &x.interpolate_bilinear([61, 59], false),
        2.0,
    );
    let options = InterpolateOptions::new(InterpolateMode::Nearest).with_output_size([61, 59]);
    let got = interpolate(env.float(&x), options);
    env.check("nearest large", got, &x.interpolate_nearest([61, 59]), 0.0);
}

#[test]
fn embedding_large() {
    let env = Env::new(crate::device());
    let weights = env.random(&[100, 64], -1.0, 1.0, 506);
    let indices = env.random_int(&[16, 80], 0, 100, 507);
    let expected = RefArray::from_fn(&[16, 80, 64], |i| {
        weights.at(&[indices.at(&[i[0], i[1]]) as usize, i[2]])
    });
    env.check(
        "embedding large",
        embedding(env.float(&weights), env.int(&indices)),
        &expected,
        0.0,
    );
}

#[test]
fn softmax_large() {
    let env = Env::new(crate::device());
    let a = env.random(&[64, 2048], -5.0, 5.0, 508);
    env.check(
        "softmax large",
        softmax(env.float::<2>(&a), 1),
        &a.softmax(1),
        1.0,
    );
    env.check(
        "log_softmax large dim 0",
        log_softmax(env.float::<2>(&a), 0),
        &a.log_softmax(0),
        1.0,
    );
}
