//! Average, adaptive average and max pooling and their backward kernels against float64
//! references written from the definitions (PyTorch's rules): strides, padding, dilation,
//! non-square windows, `ceil_mode` and `count_include_pad` both ways, batches, channels-last
//! (permuted) inputs, every float dtype; max-pool indices exactly, NaN and empty windows.

use crate::conv::{expect_panic, nchw};
use crate::device_or_skip;
use crate::harness::{assert_close, random_values, read, rng, round_to, tensor, tolerance};
use crate::unary::float_dtypes;
use burn_backend::DType;
use burn_cubecl::dtype::device_dtype_usage;
use burn_cubecl::kernel::{
    adaptive_avg_pool2d, adaptive_avg_pool2d_backward, avg_pool2d, avg_pool2d_backward,
    max_pool2d_with_indices, max_pool2d_with_indices_backward,
};

/// A pooling problem: input shape, kernel, stride, padding, dilation (max pooling only).
type Case = ([usize; 4], [usize; 2], [usize; 2], [usize; 2], [usize; 2]);

#[rustfmt::skip]
const CASES: &[Case] = &[
    ([1, 1, 4, 4], [2, 2], [2, 2], [0, 0], [1, 1]),
    ([2, 3, 7, 6], [3, 2], [2, 1], [1, 0], [1, 2]),
    ([1, 2, 5, 9], [2, 4], [3, 2], [1, 2], [2, 1]),
    ([3, 1, 6, 5], [3, 3], [2, 2], [1, 1], [1, 1]),
    ([1, 2, 1, 8], [1, 3], [1, 2], [0, 1], [1, 1]),
    ([2, 2, 8, 7], [4, 3], [3, 3], [2, 1], [1, 2]),
];

/// PyTorch's pooled length (`pooling_output_shape`).
fn out_len(len: usize, k: usize, s: usize, p: usize, d: usize, ceil: bool) -> usize {
    let span = len + 2 * p - d * (k - 1) - 1;
    let mut out = if ceil { span.div_ceil(s) } else { span / s } + 1;
    if ceil && (out - 1) * s >= len + p {
        out -= 1;
    }
    out
}

/// For each output of an average pool: the input positions it averages and its divisor.
fn avg_windows(c: &Case, include: bool, ceil: bool) -> (Vec<(Vec<usize>, f64)>, [usize; 4]) {
    let ([n, ch, h, w], k, s, p, _) = *c;
    let shape = [
        n,
        ch,
        out_len(h, k[0], s[0], p[0], 1, ceil),
        out_len(w, k[1], s[1], p[1], 1, ceil),
    ];
    let mut windows = vec![];
    for plane in 0..n * ch {
        for oy in 0..shape[2] {
            for ox in 0..shape[3] {
                let (mut taps, mut padded) = (vec![], 0usize);
                for ky in 0..k[0] {
                    for kx in 0..k[1] {
                        let y = (oy * s[0] + ky) as isize - p[0] as isize;
                        let x = (ox * s[1] + kx) as isize - p[1] as isize;
                        if y < (h + p[0]) as isize && x < (w + p[1]) as isize {
                            padded += 1;
                        }
                        if y >= 0 && x >= 0 && y < h as isize && x < w as isize {
                            taps.push(plane * h * w + y as usize * w + x as usize);
                        }
                    }
                }
                let divisor = if include { padded } else { taps.len() } as f64;
                windows.push((taps, divisor));
            }
        }
    }
    (windows, shape)
}

/// Forward (mean over each window, 0 for an empty divisor) and backward (each gradient value
/// shared out over its window) of a linear pooling given as windows.
fn linear_pool(windows: &[(Vec<usize>, f64)], x: &[f64], g: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut dx = vec![0.0; x.len()];
    let y = windows
        .iter()
        .zip(g)
        .map(|((taps, d), &gv)| {
            if *d == 0.0 {
                return 0.0;
            }
            taps.iter().for_each(|&t| dx[t] += gv / d);
            taps.iter().map(|&t| x[t]).sum::<f64>() / d
        })
        .collect();
    (y, dx)
}

#[test]
fn avg_pool2d_and_backward_match_the_definition() {
    let device = device_or_skip!();
    for dtype in float_dtypes(&device) {
        let (abs, rel) = tolerance(dtype);
        for (i, c) in CASES.iter().enumerate() {
            for (ceil, include) in [(false, false), (false, true), (true, false), (true, true)] {
                let (windows, shape) = avg_windows(c, include, ceil);
                let mut r = rng(200 + i as u64);
                let x = random_values(&mut r, &[c.0.iter().product()], dtype, -1.0, 1.0);
                let g = random_values(&mut r, &[windows.len()], dtype, -1.0, 1.0);
                let (expected, expected_dx) = linear_pool(&windows, &x, &g);
                let what = format!("{dtype} case {i} ceil {ceil} count_include_pad {include}");
                let channels_last = i % 2 == 1;
                let out = avg_pool2d(
                    nchw(&device, &x, c.0, dtype, channels_last),
                    c.1,
                    c.2,
                    c.3,
                    include,
                    ceil,
                );
                assert_close(
                    &format!("avg_pool2d {what}"),
                    &read(out, &shape, dtype),
                    &round_to(&expected, dtype),
                    (abs, rel * 2.0),
                );
                let dx = avg_pool2d_backward(
                    tensor(&device, &x, &c.0, dtype),
                    nchw(&device, &g, shape, dtype, channels_last),
                    c.1,
                    c.2,
                    c.3,
                    include,
                    ceil,
                );
                assert_close(
                    &format!("avg_pool2d_backward {what}"),
                    &read(dx, &c.0, dtype),
                    &round_to(&expected_dx, dtype),
                    (abs * 4.0, rel * 4.0),
                );
            }
        }
    }
}

#[test]
fn avg_pool2d_known_values() {
    // F.avg_pool1d(torch.tensor([[[1., 2, 3, 4, 5, 6]]]), 3, 2, 1, ceil_mode=True) ==
    // [[[1., 3., 5., 3.]]]; with count_include_pad=False == [[[1.5, 3., 5., 6.]]].
    let device = device_or_skip!();
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    for (include, expected) in [(true, [1.0, 3.0, 5.0, 3.0]), (false, [1.5, 3.0, 5.0, 6.0])] {
        let t = tensor(&device, &x, &[1, 1, 1, 6], DType::F32);
        let out = avg_pool2d(t, [1, 3], [1, 2], [0, 1], include, true);
        assert_eq!(read(out, &[1, 1, 1, 4], DType::F32), expected);
    }
}

/// The cells of an adaptive pool of `[h, w]` into `[oh, ow]` as windows.
fn adaptive_windows(shape: [usize; 4], out: [usize; 2]) -> Vec<(Vec<usize>, f64)> {
    let [n, c, h, w] = shape;
    let cell = |o: usize, len: usize, out: usize| (o * len / out)..((o + 1) * len).div_ceil(out);
    let mut windows = vec![];
    for plane in 0..n * c {
        for oy in 0..out[0] {
            for ox in 0..out[1] {
                let taps: Vec<usize> = cell(oy, h, out[0])
                    .flat_map(|y| cell(ox, w, out[1]).map(move |x| plane * h * w + y * w + x))
                    .collect();
                let d = taps.len() as f64;
                windows.push((taps, d));
            }
        }
    }
    windows
}

#[test]
fn adaptive_avg_pool2d_and_backward_match_the_definition() {
    let device = device_or_skip!();
    let cases: [([usize; 4], [usize; 2]); 5] = [
        ([1, 1, 6, 6], [3, 3]),
        ([2, 3, 7, 5], [3, 2]),
        ([1, 2, 3, 4], [5, 7]),
        ([2, 1, 9, 2], [4, 1]),
        ([1, 2, 5, 5], [1, 1]),
    ];
    for dtype in float_dtypes(&device) {
        let (abs, rel) = tolerance(dtype);
        for (i, &(shape, out)) in cases.iter().enumerate() {
            let windows = adaptive_windows(shape, out);
            let out_shape = [shape[0], shape[1], out[0], out[1]];
            let mut r = rng(300 + i as u64);
            let x = random_values(&mut r, &[shape.iter().product()], dtype, -1.0, 1.0);
            let g = random_values(&mut r, &[windows.len()], dtype, -1.0, 1.0);
            let (expected, expected_dx) = linear_pool(&windows, &x, &g);
            let what = format!("{dtype} {shape:?} -> {out:?}");
            let channels_last = i % 2 == 0;
            let y = adaptive_avg_pool2d(nchw(&device, &x, shape, dtype, channels_last), out);
            assert_close(
                &format!("adaptive_avg_pool2d {what}"),
                &read(y, &out_shape, dtype),
                &round_to(&expected, dtype),
                (abs, rel * 2.0),
            );
            let dx = adaptive_avg_pool2d_backward(
                tensor(&device, &x, &shape, dtype),
                nchw(&device, &g, out_shape, dtype, channels_last),
            );
            assert_close(
                &format!("adaptive_avg_pool2d_backward {what}"),
                &read(dx, &shape, dtype),
                &round_to(&expected_dx, dtype),
                (abs * 4.0, rel * 4.0),
            );
        }
    }
}

/// Max pooling by the definition: values and in-plane indices (NaN wins, first wins ties,
/// `-inf` at 0 for a window without input).
fn max_reference(x: &[f64], c: &Case, ceil: bool) -> (Vec<f64>, Vec<f64>, [usize; 4]) {
    let ([n, ch, h, w], k, s, p, d) = *c;
    let shape = [
        n,
        ch,
        out_len(h, k[0], s[0], p[0], d[0], ceil),
        out_len(w, k[1], s[1], p[1], d[1], ceil),
    ];
    let (mut values, mut indices) = (vec![], vec![]);
    for plane in 0..n * ch {
        for oy in 0..shape[2] {
            for ox in 0..shape[3] {
                let (mut best, mut at, mut first) = (f64::NEG_INFINITY, 0, true);
                for ky in 0..k[0] {
                    for kx in 0..k[1] {
                        let y = (oy * s[0] + ky * d[0]) as isize - p[0] as isize;
                        let xx = (ox * s[1] + kx * d[1]) as isize - p[1] as isize;
                        if y < 0 || xx < 0 || y >= h as isize || xx >= w as isize {
                            continue;
                        }
                        let i = y as usize * w + xx as usize;
                        let v = x[plane * h * w + i];
                        if first || v > best || v.is_nan() {
                            (best, at, first) = (v, i, false);
                        }
                    }
                }
                values.push(best);
                indices.push(at as f64);
            }
        }
    }
    (values, indices, shape)
}

/// The integer dtypes indices are produced in.
fn index_dtypes(device: &burn_cubecl::CubeDevice) -> Vec<DType> {
    [DType::I64, DType::I32]
        .into_iter()
        .filter(|&d| device_dtype_usage(device, d).storage)
        .collect()
}

#[test]
fn max_pool2d_with_indices_and_backward_match_the_definition() {
    let device = device_or_skip!();
    let index_dtypes = index_dtypes(&device);
    for dtype in float_dtypes(&device) {
        for (i, c) in CASES.iter().enumerate() {
            for ceil in [false, true] {
                let index_dtype = index_dtypes[(i + usize::from(ceil)) % index_dtypes.len()];
                let mut r = rng(400 + i as u64);
                let x = random_values(&mut r, &[c.0.iter().product()], dtype, -1.0, 1.0);
                let (values, indices, shape) = max_reference(&x, c, ceil);
                let what = format!("{dtype} case {i} ceil {ceil} indices {index_dtype}");
                let channels_last = i % 2 == 0;
                let t = nchw(&device, &x, c.0, dtype, channels_last);
                let (out, idx) = max_pool2d_with_indices(t, c.1, c.2, c.3, c.4, ceil, index_dtype);
                assert_eq!(read(out, &shape, dtype), values, "values {what}");
                let got_indices = read(idx.clone(), &shape, index_dtype);
                assert_eq!(got_indices, indices, "indices {what}");
                // Backward: every gradient value lands at its index (overlapping windows share
                // maxima, so some inputs collect several).
                let g = random_values(&mut r, &[values.len()], dtype, -1.0, 1.0);
                let plane = c.0[2] * c.0[3];
                let per_plane = shape[2] * shape[3];
                let mut expected = vec![0.0; x.len()];
                for (o, (&gv, &at)) in g.iter().zip(&indices).enumerate() {
                    expected[(o / per_plane) * plane + at as usize] += gv;
                }
                let dx = max_pool2d_with_indices_backward(
                    tensor(&device, &x, &c.0, dtype),
                    nchw(&device, &g, shape, dtype, !channels_last),
                    idx,
                );
                let (abs, rel) = tolerance(dtype);
                assert_close(
                    &format!("max_pool2d_backward {what}"),
                    &read(dx, &c.0, dtype),
                    &round_to(&expected, dtype),
                    (abs * 4.0, rel * 4.0),
                );
            }
        }
    }
}

#[test]
fn max_pool2d_nan_and_empty_windows() {
    let device = device_or_skip!();
    // A NaN wins its window, whether it comes first or not.
    let x = [1.0, f64::NAN, 3.0, f64::NAN, 0.5, 2.0];
    let t = tensor(&device, &x, &[1, 1, 1, 6], DType::F32);
    let (out, idx) = max_pool2d_with_indices(t, [1, 3], [1, 3], [0, 0], [1, 1], false, DType::I32);
    let values = read(out, &[1, 1, 1, 2], DType::F32);
    assert!(values[0].is_nan() && values[1].is_nan(), "{values:?}");
    assert_eq!(read(idx, &[1, 1, 1, 2], DType::I32), [1.0, 3.0]);
    // Padding wider than half the kernel: corner windows hold no input, giving -inf at 0.
    let t = tensor(&device, &[1.0, 2.0, 3.0, 4.0], &[1, 1, 2, 2], DType::F32);
    let (out, idx) = max_pool2d_with_indices(t, [1, 1], [1, 1], [1, 1], [1, 1], false, DType::I32);
    let values = read(out, &[1, 1, 4, 4], DType::F32);
    let inf = f64::NEG_INFINITY;
    #[rustfmt::skip]
    let expected = [inf, inf, inf, inf, inf, 1.0, 2.0, inf, inf, 3.0, 4.0, inf, inf, inf, inf, inf];
    assert_eq!(values, expected);
    let indices = read(idx.clone(), &[1, 1, 4, 4], DType::I32);
    assert_eq!(indices[5..7], [0.0, 1.0]);
    assert_eq!(indices[0], 0.0);
    // The backward sends the empty windows' gradients to index 0, like the CPU backend.
    let g = tensor(&device, &[1.0; 16], &[1, 1, 4, 4], DType::F32);
    let x = tensor(&device, &[0.0; 4], &[1, 1, 2, 2], DType::F32);
    let dx = max_pool2d_with_indices_backward(x, g, idx);
    assert_eq!(read(dx, &[1, 1, 2, 2], DType::F32), [13.0, 1.0, 1.0, 1.0]);
}

#[test]
fn max_pool2d_backward_ignores_indices_outside_the_plane() {
    let device = device_or_skip!();
    let idx = tensor(
        &device,
        &[0.0, 3.0, -1.0, 4.0, 3.0, 2.0],
        &[1, 1, 2, 3],
        DType::I32,
    );
    let g = tensor(
        &device,
        &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0],
        &[1, 1, 2, 3],
        DType::F32,
    );
    let x = tensor(&device, &[0.0; 4], &[1, 1, 2, 2], DType::F32);
    let dx = max_pool2d_with_indices_backward(x, g, idx);
    assert_eq!(read(dx, &[1, 1, 2, 2], DType::F32), [1.0, 0.0, 32.0, 18.0]);
}

#[test]
fn pools_of_an_empty_plane_with_padding() {
    // Every window lies in the padding: averages are 0, maxima -inf at index 0.
    let device = device_or_skip!();
    let x = || tensor(&device, &[], &[1, 1, 0, 2], DType::F32);
    for include in [false, true] {
        let y = avg_pool2d(x(), [1, 1], [1, 1], [1, 1], include, false);
        assert_eq!(read(y, &[1, 1, 2, 4], DType::F32), [0.0; 8]);
    }
    let (y, idx) = max_pool2d_with_indices(x(), [1, 1], [1, 1], [1, 1], [1, 1], false, DType::I32);
    assert_eq!(read(y, &[1, 1, 2, 4], DType::F32), [f64::NEG_INFINITY; 8]);
    assert_eq!(read(idx, &[1, 1, 2, 4], DType::I32), [0.0; 8]);
}

#[test]
fn pool_misuse_names_the_op() {
    let device = device_or_skip!();
    let t = |shape: &[usize]| {
        let n = shape.iter().product();
        tensor(&device, &vec![0.0; n], shape, DType::F32)
    };
    expect_panic(&["avg_pool2d:", "stride", "[0, 1]"], || {
        avg_pool2d(t(&[1, 1, 4, 4]), [2, 2], [0, 1], [0, 0], true, false);
    });
    expect_panic(
        &[
            "avg_pool2d_backward:",
            "output gradient",
            "[1, 1, 2, 2]",
            "[1, 1, 3, 3]",
        ],
        || {
            avg_pool2d_backward(
                t(&[1, 1, 4, 4]),
                t(&[1, 1, 3, 3]),
                [2, 2],
                [2, 2],
                [0, 0],
                true,
                false,
            );
        },
    );
    expect_panic(&["max_pool2d_with_indices:", "kernel extent"], || {
        max_pool2d_with_indices(
            t(&[1, 1, 3, 3]),
            [2, 2],
            [1, 1],
            [0, 0],
            [3, 3],
            false,
            DType::I32,
        );
    });
    expect_panic(
        &["max_pool2d_with_indices:", "integer index dtype", "f32"],
        || {
            max_pool2d_with_indices(
                t(&[1, 1, 4, 4]),
                [2, 2],
                [2, 2],
                [0, 0],
                [1, 1],
                false,
                DType::F32,
            );
        },
    );
    let idx = tensor(&device, &[0.0; 4], &[1, 1, 2, 2], DType::I32);
    expect_panic(
        &[
            "max_pool2d_with_indices_backward:",
            "indices",
            "[1, 1, 3, 3]",
        ],
        || {
            max_pool2d_with_indices_backward(t(&[1, 1, 4, 4]), t(&[1, 1, 3, 3]), idx);
        },
    );
    expect_panic(&["adaptive_avg_pool2d:", "non-empty input plane"], || {
        adaptive_avg_pool2d(t(&[1, 1, 0, 4]), [2, 2]);
    });
    expect_panic(
        &["adaptive_avg_pool2d_backward:", "batch and channels"],
        || {
            adaptive_avg_pool2d_backward(t(&[1, 2, 4, 4]), t(&[1, 1, 2, 2]));
        },
    );
}

#[test]
fn max_pool_index_values_are_in_plane_coordinates() {
    // F.max_pool2d(torch.arange(16.).reshape(1, 1, 4, 4), 2, return_indices=True)
    // == ([[5., 7.], [13., 15.]], [[5, 7], [13, 15]]), for every batch and channel.
    let device = device_or_skip!();
    let x: Vec<f64> = (0..32).map(|i| (i % 16) as f64).collect();
    let t = tensor(&device, &x, &[2, 1, 4, 4], DType::F32);
    let (out, idx) = max_pool2d_with_indices(t, [2, 2], [2, 2], [0, 0], [1, 1], false, DType::I32);
    let expected = [5.0, 7.0, 13.0, 15.0, 5.0, 7.0, 13.0, 15.0];
    assert_eq!(read(out, &[2, 1, 2, 2], DType::F32), expected);
    assert_eq!(read(idx, &[2, 1, 2, 2], DType::I32), expected);
}
