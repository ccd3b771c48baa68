//! Test-only direct-loop references for the convolution kernels: convolution and transposed
//! convolution written from their definitions in `f64` (no im2col, no gemm), and a checker that
//! runs the public kernels in f64, f32 and bf16 against them.

use crate::element::FloatElement;
use crate::kernels::conv::{conv1d, conv2d, conv3d};
use crate::kernels::conv_transpose::{conv_transpose1d, conv_transpose2d, conv_transpose3d};
use crate::kernels::im2col::{ConvArgs, Geom, lift_shape};
use crate::kernels::isa::Isa;
use crate::kernels::test_util::{assert_close, back, data, to};
use burn_std::{ConvOptions, ConvTransposeOptions, bf16};

/// One test problem, per-dimension options as slices (1 to 3 spatial dims).
pub struct Case {
    pub x: &'static [usize],
    pub w: &'static [usize],
    pub stride: &'static [usize],
    pub pad: &'static [usize],
    pub pad_out: &'static [usize],
    pub dil: &'static [usize],
    pub groups: usize,
}

pub fn geom(c: &Case) -> Geom {
    let l = |v: &[usize], fill| {
        let mut out = [fill; 3];
        out[3 - v.len()..].copy_from_slice(v);
        out
    };
    Geom {
        stride: l(c.stride, 1),
        padding: l(c.pad, 0),
        dilation: l(c.dil, 1),
        groups: c.groups,
    }
}

fn idx(s: [usize; 5], a: usize, b: usize, z: usize, y: usize, x: usize) -> usize {
    (((a * s[1] + b) * s[2] + z) * s[3] + y) * s[4] + x
}

/// Position `o * stride + k * dilation - padding` along `dim` if it lies in `0..n`.
fn tap(g: &Geom, dim: usize, o: usize, k: usize, n: usize) -> Option<usize> {
    let p = (o * g.stride[dim] + k * g.dilation[dim]) as isize - g.padding[dim] as isize;
    (p >= 0 && p < n as isize).then_some(p as usize)
}

/// Direct convolution by the definition (no im2col), in f64.
pub(crate) fn naive_conv(
    x: &[f64],
    xs: [usize; 5],
    w: &[f64],
    ws: [usize; 5],
    bias: Option<&[f64]>,
    g: &Geom,
) -> (Vec<f64>, [usize; 5]) {
    let os: [usize; 3] = core::array::from_fn(|i| {
        (xs[i + 2] + 2 * g.padding[i] - g.dilation[i] * (ws[i + 2] - 1) - 1) / g.stride[i] + 1
    });
    let (oc, icg) = (ws[0], ws[1]);
    let ocg = oc / g.groups;
    let shape = [xs[0], oc, os[0], os[1], os[2]];
    let mut out = vec![0.0; shape.iter().product()];
    for n in 0..xs[0] {
        for co in 0..oc {
            let gi = co / ocg;
            for z in 0..os[0] {
                for y in 0..os[1] {
                    for xo in 0..os[2] {
                        let mut acc = bias.map_or(0.0, |b| b[co]);
                        for ci in 0..icg {
                            for a in 0..ws[2] {
                                for b in 0..ws[3] {
                                    for c in 0..ws[4] {
                                        let (Some(pz), Some(py), Some(px)) = (
                                            tap(g, 0, z, a, xs[2]),
                                            tap(g, 1, y, b, xs[3]),
                                            tap(g, 2, xo, c, xs[4]),
                                        ) else {
                                            continue;
                                        };
                                        acc += x[idx(xs, n, gi * icg + ci, pz, py, px)]
                                            * w[idx(ws, co, ci, a, b, c)];
                                    }
                                }
                            }
                        }
                        out[idx(shape, n, co, z, y, xo)] = acc;
                    }
                }
            }
        }
    }
    (out, shape)
}

/// Direct transposed convolution by the definition (each input scatters through the
/// kernel), in f64.
fn naive_conv_transpose(
    x: &[f64],
    xs: [usize; 5],
    w: &[f64],
    ws: [usize; 5],
    bias: Option<&[f64]>,
    g: &Geom,
    po: [usize; 3],
) -> (Vec<f64>, [usize; 5]) {
    let os: [usize; 3] = core::array::from_fn(|i| {
        (xs[i + 2] - 1) * g.stride[i] + g.dilation[i] * (ws[i + 2] - 1) + po[i] + 1
            - 2 * g.padding[i]
    });
    let (ic, ocg) = (ws[0], ws[1]);
    let icg = ic / g.groups;
    let shape = [xs[0], ocg * g.groups, os[0], os[1], os[2]];
    let mut out = vec![0.0; shape.iter().product()];
    for n in 0..xs[0] {
        for co in 0..shape[1] {
            let b = bias.map_or(0.0, |b| b[co]);
            for z in 0..os[0] {
                for y in 0..os[1] {
                    for xo in 0..os[2] {
                        out[idx(shape, n, co, z, y, xo)] = b;
                    }
                }
            }
        }
        for ci in 0..ic {
            let gi = ci / icg;
            for z in 0..xs[2] {
                for y in 0..xs[3] {
                    for xi in 0..xs[4] {
                        let v = x[idx(xs, n, ci, z, y, xi)];
                        for o in 0..ocg {
                            for a in 0..ws[2] {
                                for b in 0..ws[3] {
                                    for c in 0..ws[4] {
                                        let (Some(pz), Some(py), Some(px)) = (
                                            tap(g, 0, z, a, os[0]),
                                            tap(g, 1, y, b, os[1]),
                                            tap(g, 2, xi, c, os[2]),
                                        ) else {
                                            continue;
                                        };
                                        out[idx(shape, n, gi * ocg + o, pz, py, px)] +=
                                            v * w[idx(ws, ci, o, a, b, c)];
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    (out, shape)
}

/// Runs the public kernel of the case's rank in element type `T`.
fn run<T: FloatElement>(
    c: &Case,
    x: &[f64],
    w: &[f64],
    b: Option<&[f64]>,
    transposed: bool,
) -> (Vec<f64>, Vec<usize>) {
    let (x, w) = (to::<T>(x), to::<T>(w));
    let b = b.map(to::<T>);
    let b = b.as_deref();
    macro_rules! call {
        ($conv:ident, $convt:ident) => {{
            let (out, shape) = if transposed {
                let o = ConvTransposeOptions::new(
                    c.stride.try_into().unwrap(),
                    c.pad.try_into().unwrap(),
                    c.pad_out.try_into().unwrap(),
                    c.dil.try_into().unwrap(),
                    c.groups,
                );
                $convt(
                    &x,
                    c.x.try_into().unwrap(),
                    &w,
                    c.w.try_into().unwrap(),
                    b,
                    o,
                )
            } else {
                let o = ConvOptions::new(
                    c.stride.try_into().unwrap(),
                    c.pad.try_into().unwrap(),
                    c.dil.try_into().unwrap(),
                    c.groups,
                );
                $conv(
                    &x,
                    c.x.try_into().unwrap(),
                    &w,
                    c.w.try_into().unwrap(),
                    b,
                    o,
                )
            };
            (back(&out), shape.to_vec())
        }};
    }
    match c.x.len() {
        3 => call!(conv1d, conv_transpose1d),
        4 => call!(conv2d, conv_transpose2d),
        _ => call!(conv3d, conv_transpose3d),
    }
}

/// Checks every case of `cases` (convolutions, or transposed ones) in f64, f32 and bf16 against
/// the direct definition; `f32_tol` is the f32 result's error allowed, relative to
/// `1 + |expected|`.
pub fn check_forward(cases: &[Case], transposed: bool, f32_tol: f64) {
    for (i, c) in cases.iter().enumerate() {
        let g = geom(c);
        let (xs, ws) = (lift_shape(c.x), lift_shape(c.w));
        let x = data(xs.iter().product(), 1.0 + i as f64);
        let w = data(ws.iter().product(), 2.0 + i as f64);
        let out_ch = if transposed { ws[1] * c.groups } else { ws[0] };
        let bias = data(out_ch, 3.0);
        for with_bias in [false, true] {
            let bias = with_bias.then_some(bias.as_slice());
            let reference = |x: &[f64], w: &[f64], b: Option<&[f64]>| {
                if transposed {
                    let po = {
                        let mut out = [0; 3];
                        out[3 - c.pad_out.len()..].copy_from_slice(c.pad_out);
                        out
                    };
                    naive_conv_transpose(x, xs, w, ws, b, &g, po)
                } else {
                    naive_conv(x, xs, w, ws, b, &g)
                }
            };
            let (expected, shape) = reference(&x, &w, bias);
            let what = format!("case {i} (transposed: {transposed}, bias: {with_bias})");
            let (out, out_shape) = run::<f64>(c, &x, &w, bias, transposed);
            assert_eq!(lift_shape(&out_shape), shape, "{what}: shape");
            assert_close(&out, &expected, 1e-12, &format!("{what} f64"));
            let (out, _) = run::<f32>(c, &x, &w, bias, transposed);
            assert_close(&out, &expected, f32_tol, &format!("{what} f32"));
            // bf16: compare against the reference on the bf16-rounded operands.
            let round = |v: &[f64]| back(&to::<bf16>(v));
            let (xr, wr, br) = (round(&x), round(&w), bias.map(round));
            let (expected, _) = reference(&xr, &wr, br.as_deref());
            let (out, _) = run::<bf16>(c, &x, &w, bias, transposed);
            assert_close(&out, &expected, 2e-2, &format!("{what} bf16"));
        }
    }
}

/// The signature the f32 convolution kernels' entry points share (`conv_direct`'s and
/// `conv_winograd`'s `conv_f32_with`): the instruction set to run, the convolution, the output.
pub(crate) type ConvF32 = fn(Isa, &ConvArgs<f32>, &mut [f32]);

/// The error the tests allow the Winograd kernel (`conv_winograd`), relative to
/// `1 + |expected|`. F(4×4)'s transforms round more than a direct sum: on its tests' problems
/// (outputs of RMS 1–7) the largest errors were 5e-5 to 1.3e-4 absolute (the direct kernels'
/// tests allow 1e-5); a wrong tap or tile is off by the order of the outputs themselves.
pub(crate) const WINOGRAD_TOLERANCE: f64 = 2e-4;

/// An f32 convolution kernel under test: its entry point, the instruction set to run it with,
/// and the error it may make, relative to `1 + |expected|`.
#[derive(Clone, Copy)]
pub(crate) struct F32Kernel {
    /// The kernel's entry point.
    pub conv: ConvF32,
    /// The instruction set passed to it.
    pub isa: Isa,
    /// The error allowed.
    pub tol: f64,
}

/// The instruction sets this CPU runs (AVX-512 first, then AVX2), on each of which the reference
/// checks take a kernel; `what` names the kernel when there are none.
pub(crate) fn per_isa(what: &str) -> Vec<Isa> {
    let sets = Isa::available();
    if sets.is_empty() {
        eprintln!("{what}: this CPU has neither AVX-512 nor AVX2; not exercised");
    }
    sets
}

/// Checks `kernel` against [`naive_conv`] on data seeded by `seed`, with and without a bias,
/// into an output first filled with NaN (so every value must be written).
pub(crate) fn check_f32_kernel(
    kernel: F32Kernel,
    xs: [usize; 5],
    ws: [usize; 5],
    g: &Geom,
    seed: f64,
    what: &str,
) {
    let F32Kernel { conv, isa, tol } = kernel;
    let x = data(xs.iter().product(), 1.0 + seed);
    let w = data(ws.iter().product(), 2.0 + seed);
    let bias = data(ws[0], 3.0);
    for bias in [None, Some(bias.as_slice())] {
        let (expected, shape) = naive_conv(&x, xs, &w, ws, bias, g);
        let os = [shape[2], shape[3], shape[4]];
        let mut out = vec![f32::NAN; expected.len()];
        let (x32, w32, b32) = (to::<f32>(&x), to::<f32>(&w), bias.map(to::<f32>));
        let args = ConvArgs {
            x: &x32,
            x_shape: xs,
            w: &w32,
            w_shape: ws,
            bias: b32.as_deref(),
            g,
            os,
        };
        conv(isa, &args, &mut out);
        let what = format!("{what}, bias: {}", bias.is_some());
        assert_close(&back(&out), &expected, tol, &what);
    }
}

/// Runs the kernel `conv` on `isa` from 8 rayon tasks at once and checks each result: a task's
/// convolution may run on a thread waiting inside another one, so per-thread buffers must not
/// stay borrowed across the kernel's own parallel sections.
pub(crate) fn check_f32_kernel_nested(kernel: F32Kernel, xs: [usize; 5], ws: [usize; 5], g: &Geom) {
    let F32Kernel { conv, isa, tol } = kernel;
    use rayon::prelude::*;
    let x = data(xs.iter().product(), 1.0);
    let w = data(ws.iter().product(), 2.0);
    let (expected, shape) = naive_conv(&x, xs, &w, ws, None, g);
    let os = [shape[2], shape[3], shape[4]];
    let (x32, w32) = (to::<f32>(&x), to::<f32>(&w));
    let args = ConvArgs {
        x: &x32,
        x_shape: xs,
        w: &w32,
        w_shape: ws,
        bias: None,
        g,
        os,
    };
    (0..8).into_par_iter().for_each(|_| {
        let mut out = vec![f32::NAN; expected.len()];
        conv(isa, &args, &mut out);
        assert_close(&back(&out), &expected, tol, "nested");
    });
}
