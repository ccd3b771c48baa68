//! Convolutions against the direct definitions: conv1d, conv2d, conv_transpose1d,
//! conv_transpose2d, with stride, padding, dilation, groups, bias, and non-contiguous inputs.

use burn::tensor::module::{conv_transpose1d, conv_transpose2d, conv1d, conv2d};
use burn::tensor::ops::{ConvOptions, ConvTransposeOptions};
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
