//! Convolution layers against direct float64 loops of PyTorch's definitions.

mod common;

use burn_core::module::Param;
use burn_core::tensor::Device;
use burn_nn::PaddingConfig1d;
use burn_nn::PaddingConfig2d;
use burn_nn::conv::*;
use common::*;

/// The geometry of a 2-d convolution, with `(before, after)` padding per spatial dim.
struct Geometry {
    x: [usize; 4],
    w: [usize; 4],
    stride: [usize; 2],
    pad: [(usize, usize); 2],
    dilation: [usize; 2],
    groups: usize,
}

/// `y[n, o, i, j] = b[o] + Σ W[o, c, p, q] · x[n, g·cig + c, i·s + p·d - pad, j·s + q·d - pad]`.
fn conv2d_reference(x: &[f64], w: &[f64], b: &[f64], g: &Geometry) -> (Vec<f64>, [usize; 4]) {
    let [n, _, h, wd] = g.x;
    let [co, cig, kh, kw] = g.w;
    let out = |size: usize, (a, z): (usize, usize), k: usize, s: usize, d: usize| {
        (size + a + z - d * (k - 1) - 1) / s + 1
    };
    let oh = out(h, g.pad[0], kh, g.stride[0], g.dilation[0]);
    let ow = out(wd, g.pad[1], kw, g.stride[1], g.dilation[1]);
    let cog = co / g.groups;
    let mut y = vec![0.0; n * co * oh * ow];
    for (bi, o, i, j) in itertools4(n, co, oh, ow) {
        let group = o / cog;
        let mut acc = b[o];
        for c in 0..cig {
            for p in 0..kh {
                for q in 0..kw {
                    let r = (i * g.stride[0] + p * g.dilation[0]) as isize - g.pad[0].0 as isize;
                    let s = (j * g.stride[1] + q * g.dilation[1]) as isize - g.pad[1].0 as isize;
                    if r < 0 || s < 0 || r >= h as isize || s >= wd as isize {
                        continue;
                    }
                    let xv = x[at(&g.x, &[bi, group * cig + c, r as usize, s as usize])];
                    acc += w[at(&g.w, &[o, c, p, q])] * xv;
                }
            }
        }
        y[at(&[n, co, oh, ow], &[bi, o, i, j])] = acc;
    }
    (y, [n, co, oh, ow])
}

/// Every index of a 4-d array.
fn itertools4(
    a: usize,
    b: usize,
    c: usize,
    d: usize,
) -> impl Iterator<Item = (usize, usize, usize, usize)> {
    (0..a).flat_map(move |i| {
        (0..b).flat_map(move |j| (0..c).flat_map(move |k| (0..d).map(move |l| (i, j, k, l))))
    })
}

/// A `Conv2d` from `config` with the given weight and bias values.
fn conv2d_with(config: Conv2dConfig, w: &[f64], b: &[f64], device: &Device) -> Conv2d {
    let mut conv = config.init(device);
    let dims = conv.weight.lazy_shape().dims::<4>();
    conv.weight = Param::from_tensor(tensor(w, dims, device));
    conv.bias = Some(Param::from_tensor(tensor(b, [dims[0]], device)));
    conv
}

#[test]
fn conv2d_matches_the_definition_with_stride_padding_dilation_and_groups() {
    let g = Geometry {
        x: [2, 4, 6, 7],
        w: [6, 2, 3, 2],
        stride: [2, 1],
        pad: [(1, 1), (2, 2)],
        dilation: [1, 2],
        groups: 2,
    };
    let (x, w, b) = (
        sample(2 * 4 * 6 * 7, 1),
        sample(6 * 2 * 3 * 2, 2),
        sample(6, 3),
    );
    let (expected, dims) = conv2d_reference(&x, &w, &b, &g);
    for device in devices() {
        let config = Conv2dConfig::new([4, 6], [3, 2])
            .with_stride([2, 1])
            .with_padding(PaddingConfig2d::Explicit(1, 2))
            .with_dilation([1, 2])
            .with_groups(2);
        let conv = conv2d_with(config, &w, &b, &device);
        let y = conv.forward(tensor(&x, g.x, &device));
        assert_eq!(y.dims(), dims);
        assert_close(&values(y), &expected, 1e-5);
    }
}

#[test]
fn conv2d_same_padding_keeps_the_size_for_odd_and_even_kernels() {
    // Odd 3×3: one row/column each side. Even 2×4: totals 1 and 3, the extra one at the
    // bottom/right (PyTorch's padding="same").
    let x = sample(2 * 5 * 6, 4);
    for (kernel, pad) in [([3, 3], [(1, 1), (1, 1)]), ([2, 4], [(0, 1), (1, 2)])] {
        let g = Geometry {
            x: [1, 2, 5, 6],
            w: [3, 2, kernel[0], kernel[1]],
            stride: [1, 1],
            pad,
            dilation: [1, 1],
            groups: 1,
        };
        let (w, b) = (sample(3 * 2 * kernel[0] * kernel[1], 5), sample(3, 6));
        let (expected, dims) = conv2d_reference(&x, &w, &b, &g);
        assert_eq!(dims, [1, 3, 5, 6]);
        for device in devices() {
            let config = Conv2dConfig::new([2, 3], kernel).with_padding(PaddingConfig2d::Same);
            let y = conv2d_with(config, &w, &b, &device).forward(tensor(&x, g.x, &device));
            assert_close(&values(y), &expected, 1e-5);
        }
    }
}

#[test]
#[should_panic(expected = "both channel counts must be divisible by the number of groups")]
fn conv2d_checks_groups() {
    Conv2dConfig::new([1, 4], [1, 1])
        .with_groups(4)
        .init(&Device::flex());
}

#[test]
fn conv1d_matches_the_definition() {
    // A 1-d convolution is a 2-d one over a height of 1.
    let (n, ci, co, l, k) = (2, 3, 4, 9, 3);
    let (x, w, b) = (sample(n * ci * l, 7), sample(co * ci * k, 8), sample(co, 9));
    let g = Geometry {
        x: [n, ci, 1, l],
        w: [co, ci, 1, k],
        stride: [1, 2],
        pad: [(0, 0), (1, 1)],
        dilation: [1, 2],
        groups: 1,
    };
    let (expected, dims) = conv2d_reference(&x, &w, &b, &g);
    for device in devices() {
        let mut conv = Conv1dConfig::new(ci, co, k)
            .with_stride(2)
            .with_dilation(2)
            .with_padding(PaddingConfig1d::Explicit(1))
            .init(&device);
        conv.weight = Param::from_tensor(tensor(&w, [co, ci, k], &device));
        conv.bias = Some(Param::from_tensor(tensor(&b, [co], &device)));
        let y = conv.forward(tensor(&x, [n, ci, l], &device));
        assert_eq!(y.dims(), [n, co, dims[3]]);
        assert_close(&values(y), &expected, 1e-5);
    }
}

/// `y[n, g·cog + o, i·s - pad + p·d, j·s - pad + q·d] += W[c, o, p, q] · x[n, c, i, j]` + b.
#[allow(clippy::too_many_arguments)]
fn conv_transpose2d_reference(
    x: &[f64],
    w: &[f64],
    b: &[f64],
    xd: [usize; 4],
    wd: [usize; 4],
    stride: usize,
    pad: usize,
    pad_out: usize,
    dilation: usize,
    groups: usize,
) -> (Vec<f64>, [usize; 4]) {
    let [n, ci, h, wi] = xd;
    let [_, cog, kh, kw] = wd;
    let out =
        |size: usize, k: usize| (size - 1) * stride + dilation * (k - 1) + pad_out + 1 - 2 * pad;
    let (oh, ow, co) = (out(h, kh), out(wi, kw), cog * groups);
    let od = [n, co, oh, ow];
    let mut y: Vec<f64> = (0..n * co * oh * ow)
        .map(|i| b[(i / (oh * ow)) % co])
        .collect();
    let cig = ci / groups;
    for (bi, c, i, j) in itertools4(n, ci, h, wi) {
        for o in 0..cog {
            for p in 0..kh {
                for q in 0..kw {
                    let r = (i * stride + p * dilation) as isize - pad as isize;
                    let s = (j * stride + q * dilation) as isize - pad as isize;
                    if r < 0 || s < 0 || r >= oh as isize || s >= ow as isize {
                        continue;
                    }
                    let channel = (c / cig) * cog + o;
                    y[at(&od, &[bi, channel, r as usize, s as usize])] +=
                        w[at(&wd, &[c, o, p, q])] * x[at(&xd, &[bi, c, i, j])];
                }
            }
        }
    }
    (y, od)
}

#[test]
fn conv_transpose2d_matches_the_definition() {
    let (xd, wd) = ([2, 4, 3, 4], [4, 3, 3, 2]);
    let (x, w, b) = (
        sample(2 * 4 * 3 * 4, 10),
        sample(4 * 3 * 3 * 2, 11),
        sample(6, 12),
    );
    let (expected, od) = conv_transpose2d_reference(&x, &w, &b, xd, wd, 2, 1, 1, 1, 2);
    for device in devices() {
        let mut conv = ConvTranspose2dConfig::new([4, 6], [3, 2])
            .with_stride([2, 2])
            .with_padding([1, 1])
            .with_padding_out([1, 1])
            .with_groups(2)
            .init(&device);
        conv.weight = Param::from_tensor(tensor(&w, wd, &device));
        conv.bias = Some(Param::from_tensor(tensor(&b, [6], &device)));
        let y = conv.forward(tensor(&x, xd, &device));
        assert_eq!(y.dims(), od);
        assert_close(&values(y), &expected, 1e-5);
    }
}

#[test]
fn conv_transpose1d_matches_the_definition() {
    let (x, w, b) = (sample(2 * 5, 13), sample(2 * 3 * 3, 14), sample(3, 15));
    let (expected, od) =
        conv_transpose2d_reference(&x, &w, &b, [1, 2, 1, 5], [2, 3, 1, 3], 1, 0, 0, 1, 1);
    // With stride 1 and no padding the height stays 1; only the length grows.
    let device = Device::flex();
    let mut conv = ConvTranspose1dConfig::new([2, 3], 3).init(&device);
    conv.weight = Param::from_tensor(tensor(&w, [2, 3, 3], &device));
    conv.bias = Some(Param::from_tensor(tensor(&b, [3], &device)));
    let y = conv.forward(tensor(&x, [1, 2, 5], &device));
    assert_eq!(y.dims(), [1, 3, od[3]]);
    assert_close(&values(y), &expected, 1e-5);
}

#[test]
fn gradients_reach_convolution_weights() {
    // loss = Σ y with x = 1 and no padding: dW[o, c, p, q] = n · oh · ow, db[o] = n · oh · ow.
    let device = Device::flex().autodiff();
    let conv = Conv2dConfig::new([2, 3], [2, 2]).init(&device);
    let x = burn_core::tensor::Tensor::<4>::ones([2, 2, 4, 5], &device);
    let grads = conv.forward(x).sum().backward();
    let count = (2 * 3 * 4) as f64;
    assert_close(
        &values(conv.weight.grad(&grads).unwrap()),
        &[count; 3 * 2 * 2 * 2],
        1e-6,
    );
    assert_close(
        &values(conv.bias.as_ref().unwrap().grad(&grads).unwrap()),
        &[count; 3],
        1e-6,
    );
}
