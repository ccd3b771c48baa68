//! 3-d convolution and pooling against loops over their definitions (PyTorch's `conv3d`,
//! `conv_transpose3d`, `max_pool3d` with indices, `avg_pool3d`, `adaptive_avg_pool3d`), with
//! strides, padding (uneven at the ends for the forward ops), dilation, groups, ceil mode.

use burn::tensor::FloatDType;
use burn::tensor::module::{
    adaptive_avg_pool3d, avg_pool3d, avg_pool3d_backward, conv_transpose3d, conv3d, max_pool3d,
    max_pool3d_with_indices, max_pool3d_with_indices_backward,
};
use burn::tensor::ops::{AvgPoolOptions, ConvOptions, ConvTransposeOptions, MaxPoolOptions};
use burn_backend_tests::{Env, RefArray, seed};

/// Every index of `shape`, row-major.
fn each(shape: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let total: usize = shape.iter().product();
    (0..total).map(move |mut i| {
        let mut at = vec![0; shape.len()];
        for d in (0..shape.len()).rev() {
            at[d] = i % shape[d];
            i /= shape[d];
        }
        at
    })
}

/// The output length of a window of `k` taps (dilation `dil`) stepping by `s` over `len`
/// padded by `(b, e)`, ceil mode dropping a last window that starts in the end padding.
fn out_len(
    len: usize,
    k: usize,
    s: usize,
    (b, e): (usize, usize),
    dil: usize,
    ceil: bool,
) -> usize {
    let span = len + b + e - dil * (k - 1) - 1;
    let mut out = if ceil { span.div_ceil(s) } else { span / s } + 1;
    if ceil && (out - 1) * s >= len + b {
        out -= 1;
    }
    out
}

#[test]
fn conv3d_matches_the_definition() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 4, 5, 6, 5], -1.0, 1.0, seed("conv3d x"));
    let weight = env.random(&[6, 2, 3, 2, 3], -1.0, 1.0, seed("conv3d w"));
    let bias = env.random(&[6], -1.0, 1.0, seed("conv3d b"));
    let (stride, dilation, groups) = ([2, 1, 2], [1, 2, 1], 2);
    let padding = [(1, 2), (1, 0), (1, 1)];
    let size = [5, 6, 5];
    let outs: [usize; 3] = core::array::from_fn(|i| {
        out_len(
            size[i],
            weight.shape[2 + i],
            stride[i],
            padding[i],
            dilation[i],
            false,
        )
    });
    let shape = [2, 6, outs[0], outs[1], outs[2]];
    let expected = RefArray::from_fn(&shape, |o| {
        let g = o[1] / 3;
        let mut acc = bias.at(&[o[1]]);
        for ci in 0..2 {
            for k in each(&[3, 2, 3]) {
                let pos: [isize; 3] = core::array::from_fn(|i| {
                    (o[2 + i] * stride[i] + k[i] * dilation[i]) as isize - padding[i].0 as isize
                });
                if (0..3).all(|i| pos[i] >= 0 && pos[i] < size[i] as isize) {
                    let at = [
                        o[0],
                        g * 2 + ci,
                        pos[0] as usize,
                        pos[1] as usize,
                        pos[2] as usize,
                    ];
                    acc += x.at(&at) * weight.at(&[o[1], ci, k[0], k[1], k[2]]);
                }
            }
        }
        acc
    });
    let options = ConvOptions::new_with_padding(stride, padding, dilation, groups);
    let got = conv3d(
        env.float(&x),
        env.float(&weight),
        Some(env.float(&bias)),
        options,
    );
    env.check("conv3d", got, &expected, 36.0);
}

#[test]
fn conv_transpose3d_matches_the_definition() {
    // Every input element scatters `x · w` to output `i·s + k·d - p`.
    let env = Env::new(crate::device());
    let x = env.random(&[1, 4, 3, 4, 3], -1.0, 1.0, seed("conv_transpose3d x"));
    let weight = env.random(&[4, 1, 2, 3, 2], -1.0, 1.0, seed("conv_transpose3d w"));
    let (stride, padding, padding_out, dilation, groups) =
        ([2, 1, 2], [1, 1, 0], [1, 0, 1], [1, 1, 2], 2);
    let size = [3, 4, 3];
    let kernel = [2, 3, 2];
    let outs: [usize; 3] = core::array::from_fn(|i| {
        (size[i] - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 + padding_out[i]
            - 2 * padding[i]
    });
    let mut expected = RefArray::full(&[1, 2, outs[0], outs[1], outs[2]], 0.0);
    for i in each(&[1, 4, 3, 4, 3]) {
        let g = i[1] / 2;
        for k in each(&kernel) {
            let pos: [isize; 3] = core::array::from_fn(|a| {
                (i[2 + a] * stride[a] + k[a] * dilation[a]) as isize - padding[a] as isize
            });
            if (0..3).all(|a| pos[a] >= 0 && pos[a] < outs[a] as isize) {
                let at = [i[0], g, pos[0] as usize, pos[1] as usize, pos[2] as usize];
                let v = expected.at(&at) + x.at(&i) * weight.at(&[i[1], 0, k[0], k[1], k[2]]);
                expected.set(&at, v);
            }
        }
    }
    let options = ConvTransposeOptions::new(stride, padding, padding_out, dilation, groups);
    let got = conv_transpose3d(env.float(&x), env.float(&weight), None, options);
    env.check("conv_transpose3d", got, &expected, 12.0);
}

#[test]
fn pools3d_match_the_definitions() {
    let env = Env::new(crate::device());
    let x = env.random(&[2, 2, 5, 6, 7], -2.0, 2.0, seed("pool3d"));
    let size = [5, 6, 7];
    for (kernel, stride, padding, dilation, ceil) in [
        ([2, 2, 2], [2, 2, 2], [(0, 0); 3], [1, 1, 1], false),
        (
            [3, 2, 3],
            [2, 1, 2],
            [(1, 1), (0, 1), (1, 1)],
            [1, 1, 1],
            true,
        ),
        (
            [2, 3, 2],
            [1, 2, 2],
            [(1, 0), (1, 1), (0, 1)],
            [2, 1, 2],
            false,
        ),
    ] {
        let outs: [usize; 3] = core::array::from_fn(|i| {
            out_len(size[i], kernel[i], stride[i], padding[i], dilation[i], ceil)
        });
        let shape = [2, 2, outs[0], outs[1], outs[2]];
        // Max: the first largest value in the window and its flat position.
        let best = |o: &[usize]| {
            let mut best: Option<(f64, usize)> = None;
            for k in each(&kernel) {
                let pos: [isize; 3] = core::array::from_fn(|i| {
                    (o[2 + i] * stride[i] + k[i] * dilation[i]) as isize - padding[i].0 as isize
                });
                if (0..3).all(|i| pos[i] >= 0 && pos[i] < size[i] as isize) {
                    let p = pos.map(|v| v as usize);
                    let v = x.at(&[o[0], o[1], p[0], p[1], p[2]]);
                    if best.is_none_or(|(b, _)| v > b) {
                        best = Some((v, (p[0] * 6 + p[1]) * 7 + p[2]));
                    }
                }
            }
            best.expect("a window covers only padding")
        };
        let values = RefArray::from_fn(&shape, |o| best(o).0);
        let indices = RefArray::from_fn(&shape, |o| best(o).1 as f64);
        let options = MaxPoolOptions::new(kernel)
            .with_stride(stride)
            .with_padding_pairs(padding)
            .with_dilation(dilation)
            .with_ceil_mode(ceil);
        let label = format!(
            "max_pool3d k {kernel:?} s {stride:?} p {padding:?} d {dilation:?} ceil {ceil}"
        );
        env.check(&label, max_pool3d(env.float(&x), options), &values, 0.0);
        let (v, i) = max_pool3d_with_indices(env.float(&x), options);
        env.check(&label, v, &values, 0.0);
        env.check_int(&label, i.clone(), &indices);
        // Backward: each output gradient lands on its maximum.
        let grad = env.random(&shape, -1.0, 1.0, seed("pool3d grad"));
        let mut spread = RefArray::full(&[2, 2, 5, 6, 7], 0.0);
        for o in each(&shape) {
            let flat = indices.at(&o) as usize;
            let at = [o[0], o[1], flat / 42, (flat / 7) % 6, flat % 7];
            spread.set(&at, spread.at(&at) + grad.at(&o));
        }
        let got = max_pool3d_with_indices_backward(
            env.float(&x),
            kernel,
            stride,
            [0; 3],
            dilation,
            ceil,
            env.float(&grad),
            i,
        );
        env.check(&format!("{label} backward"), got, &spread, 4.0);
        if dilation != [1; 3] {
            continue;
        }
        for include in [true, false] {
            // Average: the divisor counts the padded positions (clipped to the padded input)
            // with count_include_pad, the real ones without.
            let expected = RefArray::from_fn(&shape, |o| {
                let (mut sum, mut count) = (0.0, 1usize);
                let mut real = 1usize;
                for i in 0..3 {
                    let start = o[2 + i] * stride[i];
                    let end = (start + kernel[i]).min(size[i] + padding[i].0 + padding[i].1);
                    count *= end - start;
                    let lo = start.max(padding[i].0);
                    let hi = end.min(size[i] + padding[i].0);
                    real *= hi.saturating_sub(lo);
                }
                for k in each(&kernel) {
                    let pos: [isize; 3] = core::array::from_fn(|i| {
                        (o[2 + i] * stride[i] + k[i]) as isize - padding[i].0 as isize
                    });
                    if (0..3).all(|i| pos[i] >= 0 && pos[i] < size[i] as isize) {
                        let p = pos.map(|v| v as usize);
                        sum += x.at(&[o[0], o[1], p[0], p[1], p[2]]);
                    }
                }
                sum / if include { count } else { real } as f64
            });
            let options = AvgPoolOptions::new(kernel)
                .with_stride(stride)
                .with_padding_pairs(padding)
                .with_count_include_pad(include)
                .with_ceil_mode(ceil);
            let got = avg_pool3d(env.float(&x), options);
            env.check(
                &format!("avg_pool3d {label} include {include}"),
                got,
                &expected,
                4.0,
            );
        }
    }
}

#[test]
fn avg_pool3d_backward_is_the_adjoint() {
    // <avg_pool3d(x), g> = <x, avg_pool3d_backward(g)> for every x, g: checked on random ones.
    let env = Env::new(crate::device());
    let x = env.random(&[1, 2, 5, 4, 6], -1.0, 1.0, seed("avg_pool3d adjoint x"));
    let (kernel, stride, padding) = ([3, 2, 2], [2, 1, 2], [1, 0, 1]);
    for include in [true, false] {
        let options = AvgPoolOptions::new(kernel)
            .with_stride(stride)
            .with_padding(padding)
            .with_count_include_pad(include)
            .with_ceil_mode(true);
        let y = avg_pool3d(env.float(&x), options);
        let g = env.random(&y.dims(), -1.0, 1.0, seed("avg_pool3d adjoint g"));
        let back = avg_pool3d_backward(
            env.float(&x),
            env.float(&g),
            kernel,
            stride,
            padding,
            [1; 3],
            include,
            true,
        );
        let lhs = (y * env.float(&g)).sum().into_scalar::<f64>();
        let rhs = (back * env.float(&x)).sum().into_scalar::<f64>();
        // Sums of ~50 products, rounded in the dtype under test.
        let tolerance = match env.dtype {
            FloatDType::F16 | FloatDType::BF16 => 5e-2,
            _ => 1e-3,
        };
        assert!(
            (lhs - rhs).abs() < tolerance * (1.0 + lhs.abs()),
            "include {include}: <Px, g> = {lhs}, <x, Pᵀg> = {rhs}"
        );
    }
}

#[test]
fn adaptive_avg_pool3d_matches_the_definition() {
    // Output cell `i` of an axis averages input `⌊i·l/o⌋ .. ⌈(i+1)·l/o⌉`.
    let env = Env::new(crate::device());
    let x = env.random(&[2, 3, 5, 4, 7], -2.0, 2.0, seed("adaptive_avg_pool3d"));
    let (size, out) = ([5, 4, 7], [3, 4, 2]);
    let expected = RefArray::from_fn(&[2, 3, 3, 4, 2], |o| {
        let range = |i: usize| {
            (
                o[2 + i] * size[i] / out[i],
                ((o[2 + i] + 1) * size[i]).div_ceil(out[i]),
            )
        };
        let ranges = [range(0), range(1), range(2)];
        let (mut sum, mut count) = (0.0, 0);
        for z in ranges[0].0..ranges[0].1 {
            for y in ranges[1].0..ranges[1].1 {
                for xx in ranges[2].0..ranges[2].1 {
                    sum += x.at(&[o[0], o[1], z, y, xx]);
                    count += 1;
                }
            }
        }
        sum / count as f64
    });
    let got = adaptive_avg_pool3d(env.float(&x), out);
    env.check("adaptive_avg_pool3d", got, &expected, 4.0);
}
