//! Convolutions and transposed convolutions against float64 references written from their
//! definitions: groups, strides, padding, dilation, output padding, non-square kernels,
//! batches, with and without bias, channels-last (permuted) operands, every float dtype.
//! Also the shared helpers of the module-kernel tests (NCHW tensors in either layout, dot
//! products).

use crate::device_or_skip;
use crate::harness::{assert_close, random_values, read, rng, round_to, tensor, tolerance};
use crate::unary::float_dtypes;
use burn_backend::{ConvOptions, ConvTransposeOptions, DType};
use burn_cubecl::kernel::{conv_transpose2d, conv2d};
use burn_cubecl::{CubeDevice, CubeTensor};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Row-major index of `[a, b, c, d]` in a rank-4 shape.
pub fn at4(s: [usize; 4], a: usize, b: usize, c: usize, d: usize) -> usize {
    ((a * s[1] + b) * s[2] + c) * s[3] + d
}

/// A device tensor of logical shape `shape` (NCHW) holding `values` (row-major NCHW): stored
/// row-major, or, with `channels_last`, stored NHWC and permuted to NCHW (non-contiguous).
pub fn nchw(
    device: &CubeDevice,
    values: &[f64],
    shape: [usize; 4],
    dtype: DType,
    channels_last: bool,
) -> CubeTensor {
    if !channels_last {
        return tensor(device, values, &shape, dtype);
    }
    let [n, c, h, w] = shape;
    let mut stored = Vec::with_capacity(values.len());
    for ni in 0..n {
        for y in 0..h {
            for x in 0..w {
                for ci in 0..c {
                    stored.push(values[at4(shape, ni, ci, y, x)]);
                }
            }
        }
    }
    let t = tensor(device, &stored, &[n, h, w, c], dtype).permute(&[0, 3, 1, 2]);
    assert!(c == 1 || h * w == 1 || !t.is_contiguous());
    t
}

/// `Σ a·b`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "dot: lengths differ");
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Runs `f`, expecting a panic whose message contains every one of `parts`.
pub fn expect_panic(parts: &[&str], f: impl FnOnce()) {
    let err = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    let message = err
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| err.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default();
    for part in parts {
        assert!(
            message.contains(part),
            "panic message {message:?} lacks {part:?}"
        );
    }
}

/// One convolution problem: shapes of `x` and of the weight (PyTorch layouts), options per
/// spatial axis, and the output padding of the transposed form.
struct Case {
    x: [usize; 4],
    w: [usize; 4],
    stride: [usize; 2],
    pad: [usize; 2],
    pad_out: [usize; 2],
    dil: [usize; 2],
    groups: usize,
}

/// Cases as `x, w, stride, pad, pad_out, dil, groups`, read by the forward convolution with
/// `w = [c_out, c_in / g, kh, kw]` and by the transposed one with `w = [c_in, c_out / g, ..]`.
#[rustfmt::skip]
const CASES: &[Case] = &[
    Case { x: [1, 1, 5, 5], w: [1, 1, 3, 3], stride: [1, 1], pad: [0, 0], pad_out: [0, 0], dil: [1, 1], groups: 1 },
    Case { x: [2, 3, 7, 6], w: [3, 3, 3, 2], stride: [2, 1], pad: [1, 0], pad_out: [1, 0], dil: [1, 2], groups: 1 },
    Case { x: [2, 4, 6, 7], w: [4, 2, 2, 3], stride: [1, 2], pad: [2, 1], pad_out: [0, 1], dil: [2, 1], groups: 2 },
    Case { x: [1, 6, 5, 5], w: [6, 1, 3, 3], stride: [2, 3], pad: [1, 2], pad_out: [1, 2], dil: [1, 1], groups: 6 },
    Case { x: [3, 2, 4, 9], w: [2, 2, 1, 4], stride: [3, 2], pad: [0, 3], pad_out: [2, 0], dil: [1, 3], groups: 1 },
    Case { x: [2, 6, 8, 8], w: [6, 2, 3, 3], stride: [2, 2], pad: [1, 1], pad_out: [1, 1], dil: [1, 1], groups: 3 },
];

/// Direct convolution in f64: `x [n, c_in, h, w]`, `w [c_out, c_in/g, kh, kw]`.
fn conv_reference(c: &Case, x: &[f64], w: &[f64], bias: Option<&[f64]>) -> (Vec<f64>, [usize; 4]) {
    let ([n, _, h, wd], [co, icg, kh, kw]) = (c.x, c.w);
    let out = |i: usize, len: usize, k: usize| {
        (len + 2 * c.pad[i] - c.dil[i] * (k - 1) - 1) / c.stride[i] + 1
    };
    let shape = [n, co, out(0, h, kh), out(1, wd, kw)];
    let ocg = co / c.groups;
    let mut y = vec![0.0; shape.iter().product()];
    for b in 0..n {
        for o in 0..co {
            for oy in 0..shape[2] {
                for ox in 0..shape[3] {
                    let mut acc = bias.map_or(0.0, |bias| bias[o]);
                    for ci in 0..icg {
                        for ky in 0..kh {
                            for kx in 0..kw {
                                let iy =
                                    (oy * c.stride[0] + ky * c.dil[0]) as isize - c.pad[0] as isize;
                                let ix =
                                    (ox * c.stride[1] + kx * c.dil[1]) as isize - c.pad[1] as isize;
                                if iy < 0 || ix < 0 || iy >= h as isize || ix >= wd as isize {
                                    continue;
                                }
                                let xc = (o / ocg) * icg + ci;
                                acc += x[at4(c.x, b, xc, iy as usize, ix as usize)]
                                    * w[at4(c.w, o, ci, ky, kx)];
                            }
                        }
                    }
                    y[at4(shape, b, o, oy, ox)] = acc;
                }
            }
        }
    }
    (y, shape)
}

/// Transposed convolution in f64 by its definition (each input scatters through the kernel):
/// `x [n, c_in, h, w]`, `w [c_in, c_out/g, kh, kw]`.
fn conv_transpose_reference(
    c: &Case,
    x: &[f64],
    w: &[f64],
    bias: Option<&[f64]>,
) -> (Vec<f64>, [usize; 4]) {
    let ([n, ci_n, h, wd], [_, ocg, kh, kw]) = (c.x, c.w);
    let out = |i: usize, len: usize, k: usize| {
        (len - 1) * c.stride[i] + c.dil[i] * (k - 1) + c.pad_out[i] + 1 - 2 * c.pad[i]
    };
    let shape = [n, ocg * c.groups, out(0, h, kh), out(1, wd, kw)];
    let icg = ci_n / c.groups;
    let mut y = vec![0.0; shape.iter().product()];
    for b in 0..n {
        for o in 0..shape[1] {
            for oy in 0..shape[2] {
                for ox in 0..shape[3] {
                    y[at4(shape, b, o, oy, ox)] = bias.map_or(0.0, |bias| bias[o]);
                }
            }
        }
        for ci in 0..ci_n {
            for iy in 0..h {
                for ix in 0..wd {
                    let v = x[at4(c.x, b, ci, iy, ix)];
                    for o in 0..ocg {
                        for ky in 0..kh {
                            for kx in 0..kw {
                                let oy =
                                    (iy * c.stride[0] + ky * c.dil[0]) as isize - c.pad[0] as isize;
                                let ox =
                                    (ix * c.stride[1] + kx * c.dil[1]) as isize - c.pad[1] as isize;
                                if oy < 0
                                    || ox < 0
                                    || oy >= shape[2] as isize
                                    || ox >= shape[3] as isize
                                {
                                    continue;
                                }
                                let co = (ci / icg) * ocg + o;
                                y[at4(shape, b, co, oy as usize, ox as usize)] +=
                                    v * w[at4(c.w, ci, o, ky, kx)];
                            }
                        }
                    }
                }
            }
        }
    }
    (y, shape)
}

/// Runs every case in every float dtype, with and without bias, both layouts, against the
/// reference of the forward or transposed convolution.
fn check_cases(transposed: bool) {
    let device = device_or_skip!();
    for dtype in float_dtypes(&device) {
        for (i, c) in CASES.iter().enumerate() {
            let mut r = rng(100 + i as u64 + 50 * u64::from(transposed));
            let x = random_values(&mut r, &[c.x.iter().product()], dtype, -1.0, 1.0);
            let w = random_values(&mut r, &[c.w.iter().product()], dtype, -1.0, 1.0);
            let channels = if transposed {
                c.w[1] * c.groups
            } else {
                c.w[0]
            };
            let b = random_values(&mut r, &[channels], dtype, -1.0, 1.0);
            for (with_bias, channels_last) in [(false, false), (true, false), (true, true)] {
                let bias = with_bias.then_some(b.as_slice());
                let (expected, shape) = if transposed {
                    conv_transpose_reference(c, &x, &w, bias)
                } else {
                    conv_reference(c, &x, &w, bias)
                };
                let xt = nchw(&device, &x, c.x, dtype, channels_last);
                let wt = nchw(&device, &w, c.w, dtype, channels_last);
                let bt = bias.map(|b| tensor(&device, b, &[b.len()], dtype));
                let out = if transposed {
                    let o = ConvTransposeOptions::new(c.stride, c.pad, c.pad_out, c.dil, c.groups);
                    conv_transpose2d(xt, wt, bt, o)
                } else {
                    conv2d(
                        xt,
                        wt,
                        bt,
                        ConvOptions::new(c.stride, c.pad, c.dil, c.groups),
                    )
                };
                let taps = (c.w[1..].iter().product::<usize>() * c.x[1]) as f64;
                let (abs, rel) = tolerance(dtype);
                assert_close(
                    &format!(
                        "{} {dtype} case {i} bias {with_bias} channels-last {channels_last}",
                        if transposed {
                            "conv_transpose2d"
                        } else {
                            "conv2d"
                        }
                    ),
                    &read(out, &shape, dtype),
                    &round_to(&expected, dtype),
                    (abs * taps, rel * 4.0),
                );
            }
        }
    }
}

#[test]
fn conv2d_matches_the_definition() {
    check_cases(false);
}

#[test]
fn conv_transpose2d_matches_the_definition() {
    check_cases(true);
}

#[test]
fn conv_transpose2d_is_the_adjoint_of_conv2d() {
    // <conv_transpose(y, w), v> == <y, conv(v, w)> when the transposed output has the forward
    // input's shape (the output padding recovers the size the stride floors away).
    let device = device_or_skip!();
    let dtype = DType::F32;
    let (xs, ws) = ([2, 4, 9, 8], [6, 2, 3, 2]);
    let (stride, pad, dil, groups) = ([2, 3], [1, 0], [1, 2], 2);
    let mut r = rng(7);
    let v = random_values(&mut r, &[xs.iter().product()], dtype, -1.0, 1.0);
    let w = random_values(&mut r, &[ws.iter().product()], dtype, -1.0, 1.0);
    let forward = conv2d(
        nchw(&device, &v, xs, dtype, false),
        nchw(&device, &w, ws, dtype, false),
        None,
        ConvOptions::new(stride, pad, dil, groups),
    );
    let ys = [2, 6, 5, 2];
    let conv_v = read(forward, &ys, dtype);
    let y = random_values(&mut r, &[ys.iter().product()], dtype, -1.0, 1.0);
    // Rows: (5 - 1)·2 + 1·2 + 1 − 2 = 9 already; columns: (2 − 1)·3 + 2·1 + 1 = 6, plus 2.
    let pad_out = [0, 2];
    let back = conv_transpose2d(
        nchw(&device, &y, ys, dtype, true),
        nchw(&device, &w, ws, dtype, false),
        None,
        ConvTransposeOptions::new(stride, pad, pad_out, dil, groups),
    );
    let back = read(back, &xs, dtype);
    let (lhs, rhs) = (dot(&back, &v), dot(&y, &conv_v));
    assert!(
        (lhs - rhs).abs() <= 1e-4 * (1.0 + rhs.abs()),
        "{lhs} vs {rhs}"
    );
}

#[test]
fn conv_misuse_names_the_op() {
    let device = device_or_skip!();
    let t = |shape: &[usize]| {
        let n = shape.iter().product();
        tensor(&device, &vec![0.0; n], shape, DType::F32)
    };
    let options = ConvOptions::new([1, 1], [0, 0], [1, 1], 2);
    expect_panic(&["conv2d:", "input channels", "[1, 3, 4, 4]"], || {
        conv2d(t(&[1, 3, 4, 4]), t(&[2, 1, 3, 3]), None, options);
    });
    expect_panic(&["conv2d:", "bias", "[2]", "[3]"], || {
        conv2d(t(&[1, 4, 4, 4]), t(&[2, 2, 3, 3]), Some(t(&[3])), options);
    });
    expect_panic(&["conv2d:", "rank 4", "[4, 4]"], || {
        conv2d(t(&[4, 4]), t(&[2, 2, 3, 3]), None, options);
    });
    expect_panic(&["conv2d:", "kernel extent"], || {
        conv2d(t(&[1, 2, 2, 2]), t(&[2, 1, 3, 3]), None, options);
    });
    let i = tensor(&device, &[0.0; 16], &[1, 1, 4, 4], DType::I32);
    expect_panic(&["conv2d:", "float", "i32"], || {
        conv2d(
            i,
            t(&[1, 1, 3, 3]),
            None,
            ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
        );
    });
    let options = ConvTransposeOptions::new([1, 1], [0, 0], [0, 0], [1, 1], 1);
    expect_panic(&["conv_transpose2d:", "input channels"], || {
        conv_transpose2d(t(&[1, 3, 4, 4]), t(&[2, 1, 3, 3]), None, options);
    });
}

#[test]
fn conv_with_empty_operands() {
    let device = device_or_skip!();
    // No input channels: the output is the bias.
    let x = tensor(&device, &[], &[1, 0, 3, 3], DType::F32);
    let w = tensor(&device, &[], &[2, 0, 1, 1], DType::F32);
    let b = tensor(&device, &[1.0, 2.0], &[2], DType::F32);
    let y = conv2d(x, w, Some(b), ConvOptions::new([1, 1], [0, 0], [1, 1], 1));
    let expected: Vec<f64> = [1.0, 2.0].iter().flat_map(|&v| [v; 9]).collect();
    assert_eq!(read(y, &[1, 2, 3, 3], DType::F32), expected);
    // An empty batch.
    let x = tensor(&device, &[], &[0, 2, 4, 4], DType::F32);
    let w = tensor(&device, &[0.0; 18], &[1, 2, 3, 3], DType::F32);
    let y = conv2d(
        x.clone(),
        w.clone(),
        None,
        ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
    );
    assert_eq!(read(y, &[0, 1, 2, 2], DType::F32), Vec::<f64>::new());
    let options = ConvTransposeOptions::new([1, 1], [0, 0], [0, 0], [1, 1], 1);
    let w = tensor(&device, &[0.0; 18], &[2, 1, 3, 3], DType::F32);
    let y = conv_transpose2d(x, w, None, options);
    assert_eq!(read(y, &[0, 1, 6, 6], DType::F32), Vec::<f64>::new());
}
