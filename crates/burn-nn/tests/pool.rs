//! Pooling layers against float64 loops of PyTorch's definitions.

mod common;

use burn_core::tensor::Device;
use burn_nn::pool::*;
use burn_nn::{PaddingConfig1d, PaddingConfig2d};
use common::*;

/// How a window is reduced: max over real positions, or the mean with a given divisor rule.
#[derive(Clone, Copy)]
enum Reduce {
    Max,
    Avg { include_pad: bool },
}

/// Pools a `[n, c, h, w]` array with `kernel`, `stride`, `(before, after)` padding.
fn pool2d_reference(
    x: &[f64],
    xd: [usize; 4],
    kernel: [usize; 2],
    stride: [usize; 2],
    pad: [(usize, usize); 2],
    reduce: Reduce,
) -> (Vec<f64>, [usize; 4]) {
    let [n, c, h, w] = xd;
    let oh = (h + pad[0].0 + pad[0].1 - kernel[0]) / stride[0] + 1;
    let ow = (w + pad[1].0 + pad[1].1 - kernel[1]) / stride[1] + 1;
    let mut y = Vec::new();
    for plane in 0..n * c {
        for i in 0..oh {
            for j in 0..ow {
                let (mut max, mut sum, mut real) = (f64::NEG_INFINITY, 0.0, 0usize);
                for p in 0..kernel[0] {
                    for q in 0..kernel[1] {
                        let r = (i * stride[0] + p) as isize - pad[0].0 as isize;
                        let s = (j * stride[1] + q) as isize - pad[1].0 as isize;
                        if r < 0 || s < 0 || r >= h as isize || s >= w as isize {
                            continue;
                        }
                        let v = x[plane * h * w + r as usize * w + s as usize];
                        max = max.max(v);
                        sum += v;
                        real += 1;
                    }
                }
                y.push(match reduce {
                    Reduce::Max => max,
                    Reduce::Avg { include_pad: true } => sum / (kernel[0] * kernel[1]) as f64,
                    Reduce::Avg { include_pad: false } => sum / real as f64,
                });
            }
        }
    }
    (y, [n, c, oh, ow])
}

#[test]
fn max_pool2d_matches_the_definition() {
    let xd = [2, 3, 7, 6];
    let x = sample(2 * 3 * 7 * 6, 1);
    let (expected, od) = pool2d_reference(&x, xd, [3, 3], [2, 2], [(1, 1); 2], Reduce::Max);
    for device in devices() {
        let pool = MaxPool2dConfig::new([3, 3])
            .with_strides([2, 2])
            .with_padding(PaddingConfig2d::Explicit(1, 1))
            .init();
        let y = pool.forward(tensor(&x, xd, &device));
        assert_eq!(y.dims(), od);
        assert_close(&values(y), &expected, 0.0);
    }
}

#[test]
fn pool_strides_default_to_the_kernel_size() {
    assert_eq!(MaxPool2dConfig::new([2, 3]).strides, [2, 3]);
    assert_eq!(AvgPool2dConfig::new([3, 1]).strides, [3, 1]);
    assert_eq!(MaxPool1dConfig::new(4).stride, 4);
    let xd = [1, 1, 4, 6];
    let x = sample(24, 2);
    let (expected, od) = pool2d_reference(&x, xd, [2, 3], [2, 3], [(0, 0); 2], Reduce::Max);
    let y = MaxPool2dConfig::new([2, 3])
        .init()
        .forward(tensor(&x, xd, &Device::flex()));
    assert_eq!(y.dims(), od);
    assert_close(&values(y), &expected, 0.0);
}

#[test]
fn max_pool2d_same_padding_with_an_even_kernel() {
    // Kernel 2, stride 1: one extra row/column at the bottom/right.
    let xd = [1, 2, 4, 5];
    let x = sample(40, 3);
    let (expected, od) = pool2d_reference(&x, xd, [2, 2], [1, 1], [(0, 1); 2], Reduce::Max);
    assert_eq!(od, xd);
    for device in devices() {
        let pool = MaxPool2dConfig::new([2, 2])
            .with_strides([1, 1])
            .with_padding(PaddingConfig2d::Same)
            .init();
        assert_close(
            &values(pool.forward(tensor(&x, xd, &device))),
            &expected,
            0.0,
        );
    }
}

#[test]
fn avg_pool2d_counts_padding_as_configured() {
    let xd = [2, 2, 5, 6];
    let x = sample(2 * 2 * 5 * 6, 4);
    for include_pad in [true, false] {
        let reduce = Reduce::Avg { include_pad };
        let (expected, od) = pool2d_reference(&x, xd, [3, 3], [2, 2], [(1, 1); 2], reduce);
        for device in devices() {
            let pool = AvgPool2dConfig::new([3, 3])
                .with_strides([2, 2])
                .with_padding(PaddingConfig2d::Explicit(1, 1))
                .with_count_include_pad(include_pad)
                .init();
            let y = pool.forward(tensor(&x, xd, &device));
            assert_eq!(y.dims(), od);
            assert_close(&values(y), &expected, 1e-6);
        }
        // Uneven `Same` padding (kernel 2 × 4, stride 1): pads (0, 1) and (1, 2).
        let (expected, _) = pool2d_reference(&x, xd, [2, 4], [1, 1], [(0, 1), (1, 2)], reduce);
        let pool = AvgPool2dConfig::new([2, 4])
            .with_strides([1, 1])
            .with_padding(PaddingConfig2d::Same)
            .with_count_include_pad(include_pad)
            .init();
        let y = pool.forward(tensor(&x, xd, &Device::flex()));
        assert_close(&values(y), &expected, 1e-6);
    }
}

#[test]
fn one_dimensional_pools_match_the_definition() {
    // A 1-d pool is a 2-d one over a height of 1.
    let x = sample(2 * 3 * 9, 5);
    let xd = [2, 3, 1, 9];
    let device = Device::flex();
    let (expected, od) = pool2d_reference(&x, xd, [1, 3], [1, 2], [(0, 0), (1, 1)], Reduce::Max);
    let pool = MaxPool1dConfig::new(3)
        .with_stride(2)
        .with_padding(PaddingConfig1d::Explicit(1))
        .init();
    let y = pool.forward(tensor(&x, [2, 3, 9], &device));
    assert_eq!(y.dims(), [2, 3, od[3]]);
    assert_close(&values(y), &expected, 0.0);
    let reduce = Reduce::Avg { include_pad: false };
    let (expected, _) = pool2d_reference(&x, xd, [1, 3], [1, 2], [(0, 0), (1, 1)], reduce);
    let pool = AvgPool1dConfig::new(3)
        .with_stride(2)
        .with_padding(PaddingConfig1d::Explicit(1))
        .with_count_include_pad(false)
        .init();
    assert_close(
        &values(pool.forward(tensor(&x, [2, 3, 9], &device))),
        &expected,
        1e-6,
    );
}

/// Adaptive average pooling: cell `i` averages `⌊i·n/o⌋ .. ⌈(i+1)·n/o⌉` along each dim.
fn adaptive_reference(x: &[f64], [planes, h, w]: [usize; 3], [oh, ow]: [usize; 2]) -> Vec<f64> {
    let range = |i: usize, n: usize, o: usize| (i * n / o)..((i + 1) * n).div_ceil(o);
    let mut y = Vec::new();
    for plane in 0..planes {
        for i in 0..oh {
            for j in 0..ow {
                let (rows, cols) = (range(i, h, oh), range(j, w, ow));
                let count = (rows.len() * cols.len()) as f64;
                let sum: f64 = rows
                    .flat_map(|r| cols.clone().map(move |s| (r, s)))
                    .map(|(r, s)| x[plane * h * w + r * w + s])
                    .sum();
                y.push(sum / count);
            }
        }
    }
    y
}

#[test]
fn adaptive_avg_pools_match_the_definition() {
    let x = sample(2 * 5 * 7, 6);
    for device in devices() {
        let y =
            AdaptiveAvgPool2dConfig::new([3, 4])
                .init()
                .forward(tensor(&x, [1, 2, 5, 7], &device));
        assert_eq!(y.dims(), [1, 2, 3, 4]);
        assert_close(&values(y), &adaptive_reference(&x, [2, 5, 7], [3, 4]), 1e-6);
        let y = AdaptiveAvgPool1dConfig::new(3)
            .init()
            .forward(tensor(&x, [2, 1, 35], &device));
        assert_close(
            &values(y),
            &adaptive_reference(&x, [2, 1, 35], [1, 3]),
            1e-6,
        );
    }
}
