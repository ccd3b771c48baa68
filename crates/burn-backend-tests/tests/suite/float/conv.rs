//! Convolutions against the direct definitions: conv1d, conv2d, conv_transpose1d,
//! conv_transpose2d, with stride, padding (the same at both ends or not), dilation, groups,
//! bias, and non-contiguous inputs; unfold4d and fold4d.

use burn::tensor::module::{
    conv_output_size, conv_transpose1d, conv_transpose2d, conv1d, conv2d, fold4d, unfold4d,
};
use burn::tensor::ops::{ConvOptions, ConvTransposeOptions, UnfoldOptions};
use burn_backend_tests::reference::conv::ConvParams;
use burn_backend_tests::{Env, Layout, seed};

/// One convolution case: input `[n, c_in, h, w]`, `c_out`, kernel, stride, padding, dilation,
/// groups.
#[derive(Clone, Copy, Debug)]
struct Case {
    input: [usize; 4],
    c_out: usize,
    kernel: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    groups: usize,
}

/// (n, c_in, l, c_out, k, stride, padding, dilation); the groups are listed beside.
type Conv1dCase = (usize, usize, usize, usize, usize, usize, usize, usize);

/// (input, c_out, kernel, stride, padding, padding_out, dilation, groups)
type ConvTranspose2dCase = (
    [usize; 4],
    usize,
    [usize; 2],
    [usize; 2],
    [usize; 2],
    [usize; 2],
    [usize; 2],
    usize,
);

/// (n, c_in, l, c_out, k, stride, padding, padding_out, dilation, groups)
type ConvTranspose1dCase = (
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
    usize,
);

const CASES: [Case; 6] = [
    Case {
        input: [1, 1, 5, 5],
        c_out: 1,
        kernel: [3, 3],
        stride: [1, 1],
        padding: [0, 0],
        dilation: [1, 1],
        groups: 1,
    },
    Case {
        input: [2, 3, 7, 6],
        c_out: 4,
        kernel: [3, 2],
        stride: [1, 1],
        padding: [1, 0],
        dilation: [1, 1],
        groups: 1,
    },
    Case {
        input: [2, 4, 9, 8],
        c_out: 6,
        kernel: [3, 3],
        stride: [2, 3],
        padding: [1, 2],
        dilation: [1, 1],
        groups: 2,
    },
    Case {
        input: [1, 2, 10, 9],
        c_out: 2,
        kernel: [3, 2],
        stride: [1, 2],
        padding: [2, 1],
        dilation: [2, 3],
        groups: 1,
    },
    Case {
        input: [2, 6, 6, 6],
        c_out: 6,
        kernel: [3, 3],
        stride: [1, 1],
        padding: [1, 1],
        dilation: [1, 1],
        groups: 6,
    },
    Case {
        input: [1, 8, 12, 11],
        c_out: 16,
        kernel: [1, 1],
        stride: [1, 1],
        padding: [0, 0],
        dilation: [1, 1],
        groups: 1,
    },
];

impl Case {
    fn params(self) -> ConvParams {
        ConvParams {
            stride: self.stride,
            padding: self.padding,
            dilation: self.dilation,
            groups: self.groups,
        }
    }

    /// The tolerance factor: sqrt of the number of products per output.
    fn factor(self) -> f64 {
        ((self.input[1] / self.groups * self.kernel[0] * self.kernel[1]) as f64).sqrt()
    }
}

#[test]
fn conv2d_cases() {
    let env = Env::new(crate::device());
    for (k, case) in CASES.into_iter().enumerate() {
        let s = seed("conv2d") + 10 * k as u64;
        let x = env.random(&case.input, -1.0, 1.0, s);
        let w_shape = [
            case.c_out,
            case.input[1] / case.groups,
            case.kernel[0],
            case.kernel[1],
        ];
        let w = env.random(&w_shape, -1.0, 1.0, s + 1);
        let b = env.random(&[case.c_out], -1.0, 1.0, s + 2);
        let options = ConvOptions::new(case.stride, case.padding, case.dilation, case.groups);
        for layout in Layout::ALL {
            let got = conv2d(
                env.float_in(&x, layout),
                env.float_in(&w, layout),
                Some(env.float(&b)),
                options,
            );
            let expected = x.conv2d(&w, Some(&b), case.params());
            env.check(
                &format!("conv2d {case:?} ({layout:?})"),
                got,
                &expected,
                case.factor(),
            );
        }
        let got = conv2d(env.float(&x), env.float(&w), None, options);
        env.check(
            &format!("conv2d no bias {case:?}"),
            got,
            &x.conv2d(&w, None, case.params()),
            case.factor(),
        );
    }
}

#[test]
fn conv1d_cases() {
    let env = Env::new(crate::device());
    let cases: [Conv1dCase; 4] = [
        (1, 1, 8, 1, 3, 1, 0, 1),
        (2, 4, 11, 6, 3, 2, 1, 1),
        (2, 3, 13, 2, 2, 1, 2, 3),
        (1, 6, 9, 3, 5, 1, 2, 1),
    ];
    let groups = [1, 2, 1, 3];
    for (k, ((n, c_in, l, c_out, ks, st, pad, dil), g)) in cases.into_iter().zip(groups).enumerate()
    {
        let s = seed("conv1d") + 10 * k as u64;
        let x = env.random(&[n, c_in, l], -1.0, 1.0, s);
        let w = env.random(&[c_out, c_in / g, ks], -1.0, 1.0, s + 1);
        let b = env.random(&[c_out], -1.0, 1.0, s + 2);
        let params = ConvParams {
            stride: [1, st],
            padding: [0, pad],
            dilation: [1, dil],
            groups: g,
        };
        let expected = x.as_2d().conv2d(&w.as_2d(), Some(&b), params).as_1d();
        let options = ConvOptions::new([st], [pad], [dil], g);
        for layout in Layout::ALL {
            let got = conv1d(
                env.float_in(&x, layout),
                env.float_in(&w, layout),
                Some(env.float(&b)),
                options,
            );
            let factor = ((c_in / g * ks) as f64).sqrt();
            env.check(
                &format!("conv1d case {k} ({layout:?})"),
                got,
                &expected,
                factor,
            );
        }
    }
}

#[test]
fn conv_transpose2d_cases() {
    let env = Env::new(crate::device());
    // (input, c_out, kernel, stride, padding, padding_out, dilation, groups)
    let cases: [ConvTranspose2dCase; 5] = [
        ([1, 1, 3, 3], 1, [2, 2], [1, 1], [0, 0], [0, 0], [1, 1], 1),
        ([2, 3, 4, 5], 2, [3, 3], [2, 2], [1, 1], [1, 0], [1, 1], 1),
        ([1, 4, 5, 4], 6, [3, 2], [1, 2], [0, 1], [0, 1], [2, 1], 2),
        ([2, 2, 3, 3], 4, [4, 3], [3, 2], [2, 0], [2, 1], [1, 2], 1),
        ([1, 6, 4, 4], 6, [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], 3),
    ];
    for (k, (input, c_out, kernel, stride, padding, padding_out, dilation, groups)) in
        cases.into_iter().enumerate()
    {
        let s = seed("conv_transpose2d") + 10 * k as u64;
        let x = env.random(&input, -1.0, 1.0, s);
        let w = env.random(
            &[input[1], c_out / groups, kernel[0], kernel[1]],
            -1.0,
            1.0,
            s + 1,
        );
        let b = env.random(&[c_out], -1.0, 1.0, s + 2);
        let params = ConvParams {
            stride,
            padding,
            dilation,
            groups,
        };
        let expected = x.conv_transpose2d(&w, Some(&b), params, padding_out);
        let options = ConvTransposeOptions::new(stride, padding, padding_out, dilation, groups);
        let factor = ((input[1] / groups * kernel[0] * kernel[1]) as f64).sqrt();
        for layout in Layout::ALL {
            let got = conv_transpose2d(
                env.float_in(&x, layout),
                env.float_in(&w, layout),
                Some(env.float(&b)),
                options,
            );
            env.check(
                &format!("conv_transpose2d case {k} ({layout:?})"),
                got,
                &expected,
                factor,
            );
        }
        let got = conv_transpose2d(env.float(&x), env.float(&w), None, options);
        let expected = x.conv_transpose2d(&w, None, params, padding_out);
        env.check(
            &format!("conv_transpose2d no bias case {k}"),
            got,
            &expected,
            factor,
        );
    }
}

#[test]
fn conv_transpose1d_cases() {
    let env = Env::new(crate::device());
    // (n, c_in, l, c_out, k, stride, padding, padding_out, dilation, groups)
    let cases: [ConvTranspose1dCase; 3] = [
        (1, 1, 4, 1, 3, 1, 0, 0, 1, 1),
        (2, 4, 5, 2, 3, 2, 1, 1, 1, 2),
        (1, 3, 6, 3, 2, 3, 0, 2, 2, 1),
    ];
    for (k, (n, c_in, l, c_out, ks, st, pad, pad_out, dil, g)) in cases.into_iter().enumerate() {
        let s = seed("conv_transpose1d") + 10 * k as u64;
        let x = env.random(&[n, c_in, l], -1.0, 1.0, s);
        let w = env.random(&[c_in, c_out / g, ks], -1.0, 1.0, s + 1);
        let b = env.random(&[c_out], -1.0, 1.0, s + 2);
        let params = ConvParams {
            stride: [1, st],
            padding: [0, pad],
            dilation: [1, dil],
            groups: g,
        };
        let expected = x
            .as_2d()
            .conv_transpose2d(&w.as_2d(), Some(&b), params, [0, pad_out])
            .as_1d();
        let options = ConvTransposeOptions::new([st], [pad], [pad_out], [dil], g);
        for layout in Layout::ALL {
            let got = conv_transpose1d(
                env.float_in(&x, layout),
                env.float_in(&w, layout),
                Some(env.float(&b)),
                options,
            );
            let factor = ((c_in / g * ks) as f64).sqrt();
            env.check(
                &format!("conv_transpose1d case {k} ({layout:?})"),
                got,
                &expected,
                factor,
            );
        }
    }
}

#[test]
fn conv2d_known_values() {
    // torch.nn.functional.conv2d(torch.arange(16.).reshape(1, 1, 4, 4), torch.ones(1, 1, 2, 2))
    //   = [[[[10., 14., 18.], [26., 30., 34.], [42., 46., 50.]]]]
    let env = Env::new(crate::device());
    let x = burn_backend_tests::RefArray::iota(&[1, 1, 4, 4]);
    let w = burn_backend_tests::RefArray::full(&[1, 1, 2, 2], 1.0);
    let got = conv2d(
        env.float(&x),
        env.float(&w),
        None,
        ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
    );
    let expected = burn_backend_tests::RefArray::new(
        &[1, 1, 3, 3],
        vec![10.0, 14.0, 18.0, 26.0, 30.0, 34.0, 42.0, 46.0, 50.0],
    );
    env.check("conv2d known", got, &expected, 0.0);
}

/// (input, weight, stride, `(begin, end)` padding, dilation, groups)
type AsymmetricCase = (
    [usize; 4],
    [usize; 4],
    [usize; 2],
    [(usize, usize); 2],
    [usize; 2],
    usize,
);

#[test]
fn conv_with_padding_that_differs_between_the_ends() {
    // ONNX Conv with pads [begin_h, begin_w, end_h, end_w]; the tensor API pads the input for the
    // difference and the backend convolves the rest.
    let env = Env::new(crate::device());
    let cases: [AsymmetricCase; 3] = [
        (
            [1, 2, 5, 6],
            [3, 2, 2, 2],
            [1, 1],
            [(0, 1), (1, 0)],
            [1, 1],
            1,
        ),
        (
            [2, 4, 7, 5],
            [4, 2, 3, 2],
            [2, 1],
            [(2, 1), (0, 3)],
            [1, 2],
            2,
        ),
        (
            [1, 3, 6, 6],
            [2, 3, 3, 3],
            [2, 2],
            [(1, 2), (2, 1)],
            [1, 1],
            1,
        ),
    ];
    for (k, (input, weight, stride, padding, dilation, groups)) in cases.into_iter().enumerate() {
        let x = env.random(&input, -1.0, 1.0, seed("conv asymmetric") + k as u64);
        let w = env.random(&weight, -1.0, 1.0, seed("conv asymmetric w") + k as u64);
        let b = env.random(
            &[weight[0]],
            -1.0,
            1.0,
            seed("conv asymmetric b") + k as u64,
        );
        let params = ConvParams {
            stride,
            padding: [0, 0],
            dilation,
            groups,
        };
        let expected = x.conv2d_padded(&w, Some(&b), params, padding);
        let options = ConvOptions::new_with_padding(stride, padding, dilation, groups);
        let size = conv_output_size([input[2], input[3]], &w.shape.clone().into(), &options);
        assert_eq!(
            size,
            Some([expected.shape[2], expected.shape[3]]),
            "case {k}"
        );
        for layout in Layout::ALL {
            let got = conv2d(
                env.float_in(&x, layout),
                env.float_in(&w, layout),
                Some(env.float(&b)),
                options,
            );
            let label = format!("conv2d asymmetric case {k} ({layout:?})");
            env.check(
                &label,
                got,
                &expected,
                (weight[1] * weight[2] * weight[3]) as f64,
            );
        }
    }
    // 1-d: the same with a height of 1.
    let x = env.random(&[2, 2, 7], -1.0, 1.0, seed("conv1d asymmetric"));
    let w = env.random(&[3, 2, 3], -1.0, 1.0, seed("conv1d asymmetric w"));
    let params = ConvParams {
        stride: [1, 2],
        padding: [0, 0],
        dilation: [1, 1],
        groups: 1,
    };
    let expected = x
        .as_2d()
        .conv2d_padded(&w.as_2d(), None, params, [(0, 0), (2, 1)])
        .as_1d();
    let options = ConvOptions::new_with_padding([2], [(2, 1)], [1], 1);
    let got = conv1d(env.float(&x), env.float(&w), None, options);
    env.check("conv1d asymmetric", got, &expected, 6.0);
}

#[test]
fn unfold_and_fold_follow_torch() {
    // torch.nn.functional.unfold(x, kernel, dilation, padding, stride): column
    // `c·kh·kw + i·kw + j` of block `(oy, ox)` holds x[c, oy·s - p + i·d, ox·s - p + j·d] (zero
    // outside); fold sums each column back to where it came from.
    let env = Env::new(crate::device());
    let (kernel, stride, padding, dilation) = ([2, 3], [2, 1], [1, 0], [1, 2]);
    let [n, c, h, w] = [2, 3, 5, 7];
    let x = env.random(&[n, c, h, w], -1.0, 1.0, seed("unfold4d"));
    let out = |i: usize| {
        (([h, w][i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1) / stride[i]) + 1
    };
    let (oh, ow) = (out(0), out(1));
    let taps = kernel[0] * kernel[1];
    let source = |col: usize, block: usize| {
        let (ch, tap) = (col / taps, col % taps);
        let (ki, kj) = (tap / kernel[1], tap % kernel[1]);
        let (oy, ox) = (block / ow, block % ow);
        let y = (oy * stride[0] + ki * dilation[0]) as isize - padding[0] as isize;
        let xx = (ox * stride[1] + kj * dilation[1]) as isize - padding[1] as isize;
        let inside = y >= 0 && xx >= 0 && y < h as isize && xx < w as isize;
        (ch, inside.then_some((y as usize, xx as usize)))
    };
    let columns =
        burn_backend_tests::RefArray::from_fn(&[n, c * taps, oh * ow], |i| {
            match source(i[1], i[2]) {
                (ch, Some((y, xx))) => x.at(&[i[0], ch, y, xx]),
                (_, None) => 0.0,
            }
        });
    let options = UnfoldOptions::new(stride, padding, dilation);
    for layout in Layout::ALL {
        let got = unfold4d(env.float_in(&x, layout), kernel, options);
        env.check(&format!("unfold4d ({layout:?})"), got, &columns, 0.0);
    }
    let cols = env.random(&[n, c * taps, oh * ow], -1.0, 1.0, seed("fold4d"));
    let mut folded = burn_backend_tests::RefArray::full(&[n, c, h, w], 0.0);
    for b in 0..n {
        for col in 0..c * taps {
            for block in 0..oh * ow {
                if let (ch, Some((y, xx))) = source(col, block) {
                    let sum = folded.at(&[b, ch, y, xx]) + cols.at(&[b, col, block]);
                    folded.set(&[b, ch, y, xx], sum);
                }
            }
        }
    }
    let got = fold4d(env.float(&cols), [h, w], kernel, options);
    env.check("fold4d", got, &folded, taps as f64);
}

#[test]
fn deform_conv2d_follows_torchvision() {
    // torchvision.ops.deform_conv2d(x, offset, weight, bias, stride, padding, dilation, mask):
    // each tap reads its offset group's channels bilinearly (zero outside) at the shifted place.
    use burn::tensor::module::deform_conv2d;
    use burn::tensor::ops::DeformConvOptions;
    let env = Env::new(crate::device());
    let (n, c_in, h, w, c_out, kh, kw) = (2, 4, 5, 6, 4, 2, 3);
    let (stride, padding, dilation, wg, og) = ([1, 2], [1, 1], [2, 1], 2, 2);
    let oh = (h + 2 * padding[0] - dilation[0] * (kh - 1) - 1) / stride[0] + 1;
    let ow = (w + 2 * padding[1] - dilation[1] * (kw - 1) - 1) / stride[1] + 1;
    let x = env.random(&[n, c_in, h, w], -1.0, 1.0, seed("deform x"));
    let offset = env.random(
        &[n, 2 * og * kh * kw, oh, ow],
        -1.5,
        1.5,
        seed("deform offset"),
    );
    let weight = env.random(&[c_out, c_in / wg, kh, kw], -1.0, 1.0, seed("deform w"));
    let mask = env.random(&[n, og * kh * kw, oh, ow], 0.0, 1.0, seed("deform mask"));
    let bias = env.random(&[c_out], -1.0, 1.0, seed("deform b"));
    let sample = |b: usize, c: usize, y: f64, xx: f64| {
        let (y0, x0) = (y.floor(), xx.floor());
        let mut v = 0.0;
        for (cy, wy) in [(y0, 1.0 - (y - y0)), (y0 + 1.0, y - y0)] {
            for (cx, wx) in [(x0, 1.0 - (xx - x0)), (x0 + 1.0, xx - x0)] {
                if cy >= 0.0 && cx >= 0.0 && cy < h as f64 && cx < w as f64 {
                    v += wy * wx * x.at(&[b, c, cy as usize, cx as usize]);
                }
            }
        }
        v
    };
    let expected = burn_backend_tests::RefArray::from_fn(&[n, c_out, oh, ow], |o| {
        let (b, co, oy, ox) = (o[0], o[1], o[2], o[3]);
        let group = co / (c_out / wg);
        let mut acc = bias.at(&[co]);
        for ci in 0..c_in / wg {
            let c = group * (c_in / wg) + ci;
            let g = c / (c_in / og);
            for i in 0..kh {
                for j in 0..kw {
                    let tap = i * kw + j;
                    let dy = offset.at(&[b, g * 2 * kh * kw + 2 * tap, oy, ox]);
                    let dx = offset.at(&[b, g * 2 * kh * kw + 2 * tap + 1, oy, ox]);
                    let y = (oy * stride[0] + i * dilation[0]) as f64 - padding[0] as f64 + dy;
                    let xx = (ox * stride[1] + j * dilation[1]) as f64 - padding[1] as f64 + dx;
                    let m = mask.at(&[b, g * kh * kw + tap, oy, ox]);
                    acc += weight.at(&[co, ci, i, j]) * m * sample(b, c, y, xx);
                }
            }
        }
        acc
    });
    let options = DeformConvOptions::new(stride, padding, dilation, wg, og);
    let got = deform_conv2d(
        env.float(&x),
        env.float(&offset),
        env.float(&weight),
        Some(env.float(&mask)),
        Some(env.float(&bias)),
        options,
    );
    env.check("deform_conv2d", got, &expected, 24.0);
}
