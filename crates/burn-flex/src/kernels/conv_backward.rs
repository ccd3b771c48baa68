//! Gradients of the convolutions and transposed convolutions with respect to their input,
//! weight and bias, over contiguous NC… slices.
//!
//! The input gradient of a convolution is the transposed convolution of the output gradient
//! with the same weight (onto the exact input size), and vice versa; weight gradients are
//! `Σ_batch grad · im2col(input)ᵀ`.

use super::common::{check_len, from_f64, to_f64};
use super::conv::{conv_forward, conv_weight_grad};
use super::conv_transpose::conv_transpose_forward;
use super::im2col::{Geom, check_conv, check_conv_transpose, lift, spatial, unlift};
use crate::element::FloatElement;
use burn_std::{ConvOptions, ConvTransposeOptions};

fn weight_backward<T: FloatElement>(
    kernel: &str,
    x: &[T],
    x_shape: &[usize],
    grad: &[T],
    w_shape: &[usize],
    g: &Geom,
) -> Vec<T> {
    let w_len = w_shape.iter().product();
    let (xs, ws, os) = check_conv(kernel, x.len(), x_shape, w_len, w_shape, g);
    check_len(
        kernel,
        "output gradient",
        grad.len(),
        &unlift(os, x_shape.len()),
    );
    conv_weight_grad(x, xs, grad, os, spatial(ws), g)
}

fn input_backward<T: FloatElement>(
    kernel: &str,
    grad: &[T],
    w: &[T],
    w_shape: &[usize],
    x_shape: &[usize],
    g: &Geom,
) -> Vec<T> {
    let x_len = x_shape.iter().product();
    let (xs, ws, os) = check_conv(kernel, x_len, x_shape, w.len(), w_shape, g);
    check_len(
        kernel,
        "output gradient",
        grad.len(),
        &unlift(os, x_shape.len()),
    );
    // The weight [oc, c/groups, k…] is exactly a transposed-convolution weight from oc channels.
    conv_transpose_forward(grad, os, w, ws, None, g, spatial(xs))
}

fn transpose_weight_backward<T: FloatElement>(
    kernel: &str,
    x: &[T],
    x_shape: &[usize],
    grad: &[T],
    w_shape: &[usize],
    g: &Geom,
    padding_out: [usize; 3],
) -> Vec<T> {
    let w_len = w_shape.iter().product();
    let (xs, ws, os) =
        check_conv_transpose(kernel, x.len(), x_shape, w_len, w_shape, g, padding_out);
    check_len(
        kernel,
        "output gradient",
        grad.len(),
        &unlift(os, x_shape.len()),
    );
    // The forward convolution of this transposed one maps the output grid onto the input grid.
    conv_weight_grad(grad, os, x, xs, spatial(ws), g)
}

fn transpose_input_backward<T: FloatElement>(
    kernel: &str,
    grad: &[T],
    w: &[T],
    w_shape: &[usize],
    x_shape: &[usize],
    g: &Geom,
    padding_out: [usize; 3],
) -> Vec<T> {
    let x_len = x_shape.iter().product();
    let (xs, ws, os) =
        check_conv_transpose(kernel, x_len, x_shape, w.len(), w_shape, g, padding_out);
    check_len(
        kernel,
        "output gradient",
        grad.len(),
        &unlift(os, x_shape.len()),
    );
    conv_forward(grad, os, w, ws, None, g, spatial(xs))
}

/// Gradient of a convolution's bias: `grad_out` `[batch, channels, spatial…]` summed over every
/// dimension but the channels.
pub fn conv_bias_backward<T: FloatElement>(grad_out: &[T], grad_shape: &[usize]) -> Vec<T> {
    assert!(
        grad_shape.len() >= 2,
        "conv_bias_backward: expected a gradient shape [batch, channels, …], got {grad_shape:?}"
    );
    check_len(
        "conv_bias_backward",
        "output gradient",
        grad_out.len(),
        grad_shape,
    );
    let channels = grad_shape[1];
    let plane: usize = grad_shape[2..].iter().product();
    let mut sums = vec![0f64; channels];
    for (i, chunk) in grad_out.chunks(plane.max(1)).enumerate() {
        if plane > 0 {
            sums[i % channels] += chunk.iter().map(|&v| to_f64(v)).sum::<f64>();
        }
    }
    sums.into_iter().map(from_f64).collect()
}

/// The 1-, 2- and 3-d entry points of one family of gradients, from one template per family:
/// each takes its rank's shapes (`N` dims) and options (`D` spatial dims), builds the lifted 3-d
/// geometry, and calls the family's shared implementation under its own name (for errors).
macro_rules! entry_points {
    (weight: $($name:ident<$n:literal, $d:literal>),+) => {$(
        #[doc = concat!(
            "Gradient of [`conv", stringify!($d), "d`](super::conv::conv", stringify!($d),
            "d) w.r.t. its weight, shaped `weight_shape` `[out_ch, in_ch/groups, kernel…]`, ",
            "from `x` `[b, in_ch, spatial…]` and `grad_out` `[b, out_ch, out_spatial…]`."
        )]
        pub fn $name<T: FloatElement>(
            x: &[T],
            x_shape: [usize; $n],
            grad_out: &[T],
            weight_shape: [usize; $n],
            options: ConvOptions<$d>,
        ) -> Vec<T> {
            let g = Geom::conv(&options);
            weight_backward(stringify!($name), x, &x_shape, grad_out, &weight_shape, &g)
        }
    )+};
    (input: $($name:ident<$n:literal, $d:literal>),+) => {$(
        #[doc = concat!(
            "Gradient of [`conv", stringify!($d), "d`](super::conv::conv", stringify!($d),
            "d) w.r.t. its input, shaped `x_shape` `[b, in_ch, spatial…]`, from `grad_out` ",
            "`[b, out_ch, out_spatial…]` and `weight` `[out_ch, in_ch/groups, kernel…]`."
        )]
        pub fn $name<T: FloatElement>(
            grad_out: &[T],
            weight: &[T],
            weight_shape: [usize; $n],
            x_shape: [usize; $n],
            options: ConvOptions<$d>,
        ) -> Vec<T> {
            let g = Geom::conv(&options);
            input_backward(stringify!($name), grad_out, weight, &weight_shape, &x_shape, &g)
        }
    )+};
    (transpose_weight: $($name:ident<$n:literal, $d:literal>),+) => {$(
        #[doc = concat!(
            "Gradient of [`conv_transpose", stringify!($d), "d`](super::conv_transpose::",
            "conv_transpose", stringify!($d), "d) w.r.t. its weight, shaped `weight_shape` ",
            "`[in_ch, out_ch/groups, kernel…]`, from `x` `[b, in_ch, spatial…]` and `grad_out`."
        )]
        pub fn $name<T: FloatElement>(
            x: &[T],
            x_shape: [usize; $n],
            grad_out: &[T],
            weight_shape: [usize; $n],
            options: ConvTransposeOptions<$d>,
        ) -> Vec<T> {
            let (g, po) = (Geom::transposed(&options), lift(options.padding_out, 0));
            let name = stringify!($name);
            transpose_weight_backward(name, x, &x_shape, grad_out, &weight_shape, &g, po)
        }
    )+};
    (transpose_input: $($name:ident<$n:literal, $d:literal>),+) => {$(
        #[doc = concat!(
            "Gradient of [`conv_transpose", stringify!($d), "d`](super::conv_transpose::",
            "conv_transpose", stringify!($d), "d) w.r.t. its input, shaped `x_shape` ",
            "`[b, in_ch, spatial…]`, from `grad_out` and `weight`."
        )]
        pub fn $name<T: FloatElement>(
            grad_out: &[T],
            weight: &[T],
            weight_shape: [usize; $n],
            x_shape: [usize; $n],
            options: ConvTransposeOptions<$d>,
        ) -> Vec<T> {
            let (g, po) = (Geom::transposed(&options), lift(options.padding_out, 0));
            let name = stringify!($name);
            transpose_input_backward(name, grad_out, weight, &weight_shape, &x_shape, &g, po)
        }
    )+};
}

entry_points!(weight: conv1d_weight_backward<3, 1>, conv2d_weight_backward<4, 2>,
    conv3d_weight_backward<5, 3>);
entry_points!(input: conv1d_input_backward<3, 1>, conv2d_input_backward<4, 2>,
    conv3d_input_backward<5, 3>);
entry_points!(transpose_weight: conv_transpose1d_weight_backward<3, 1>,
    conv_transpose2d_weight_backward<4, 2>, conv_transpose3d_weight_backward<5, 3>);
entry_points!(transpose_input: conv_transpose1d_input_backward<3, 1>,
    conv_transpose2d_input_backward<4, 2>, conv_transpose3d_input_backward<5, 3>);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::conv::{conv1d, conv2d, conv3d};
    use crate::kernels::conv_reference::Case;
    use crate::kernels::conv_transpose::{conv_transpose1d, conv_transpose2d, conv_transpose3d};
    use crate::kernels::test_util::{assert_close, assert_scalar_close, back, data, dot, to};
    use burn_std::bf16;

    /// The forward output, input gradient, weight gradient and the output shape, for `T`.
    struct Run {
        out: Vec<f64>,
        out_shape: Vec<usize>,
        dx: Vec<f64>,
        dw: Vec<f64>,
    }

    /// Runs forward (with `bias`), and both backward kernels against `grad` (when given).
    fn run<T: FloatElement>(
        c: &Case,
        transposed: bool,
        x: &[f64],
        w: &[f64],
        bias: Option<&[f64]>,
        grad: Option<&[f64]>,
    ) -> Run {
        let (x, w) = (to::<T>(x), to::<T>(w));
        let bias = bias.map(to::<T>);
        let bias = bias.as_deref();
        macro_rules! call {
            ($conv:ident, $wb:ident, $ib:ident, $convt:ident, $twb:ident, $tib:ident) => {{
                let (xs, ws) = (c.x.try_into().unwrap(), c.w.try_into().unwrap());
                let (stride, pad, dil) = (
                    c.stride.try_into().unwrap(),
                    c.pad.try_into().unwrap(),
                    c.dil.try_into().unwrap(),
                );
                if transposed {
                    let o = ConvTransposeOptions::new(
                        stride,
                        pad,
                        c.pad_out.try_into().unwrap(),
                        dil,
                        c.groups,
                    );
                    let (out, shape) = $convt(&x, xs, &w, ws, bias, o);
                    let g = to::<T>(grad.unwrap_or(&vec![0.0; out.len()]));
                    let dx = $tib(&g, &w, ws, xs, o);
                    let dw = $twb(&x, xs, &g, ws, o);
                    Run {
                        out: back(&out),
                        out_shape: shape.to_vec(),
                        dx: back(&dx),
                        dw: back(&dw),
                    }
                } else {
                    let o = ConvOptions::new(stride, pad, dil, c.groups);
                    let (out, shape) = $conv(&x, xs, &w, ws, bias, o);
                    let g = to::<T>(grad.unwrap_or(&vec![0.0; out.len()]));
                    let dx = $ib(&g, &w, ws, xs, o);
                    let dw = $wb(&x, xs, &g, ws, o);
                    Run {
                        out: back(&out),
                        out_shape: shape.to_vec(),
                        dx: back(&dx),
                        dw: back(&dw),
                    }
                }
            }};
        }
        match c.x.len() {
            3 => call!(
                conv1d,
                conv1d_weight_backward,
                conv1d_input_backward,
                conv_transpose1d,
                conv_transpose1d_weight_backward,
                conv_transpose1d_input_backward
            ),
            4 => call!(
                conv2d,
                conv2d_weight_backward,
                conv2d_input_backward,
                conv_transpose2d,
                conv_transpose2d_weight_backward,
                conv_transpose2d_input_backward
            ),
            _ => call!(
                conv3d,
                conv3d_weight_backward,
                conv3d_input_backward,
                conv_transpose3d,
                conv_transpose3d_weight_backward,
                conv_transpose3d_input_backward
            ),
        }
    }

    fn check(cases: &[Case], transposed: bool) {
        for (i, c) in cases.iter().enumerate() {
            let what = format!("case {i} (transposed: {transposed})");
            let x = data(c.x.iter().product(), 0.5 + i as f64);
            let w = data(c.w.iter().product(), 1.5 + i as f64);
            let probe = run::<f64>(c, transposed, &x, &w, None, None);
            let grad = data(probe.out.len(), 2.5 + i as f64);
            let r = run::<f64>(c, transposed, &x, &w, None, Some(&grad));
            assert_eq!(r.dx.len(), x.len(), "{what}: input gradient length");
            assert_eq!(r.dw.len(), w.len(), "{what}: weight gradient length");
            // <conv(x; w), g> == <x, input_backward(g)> == <w, weight_backward(x, g)>.
            let y_g = dot(&r.out, &grad);
            assert_scalar_close(dot(&x, &r.dx), y_g, 1e-9, &format!("{what}: input adjoint"));
            assert_scalar_close(
                dot(&w, &r.dw),
                y_g,
                1e-9,
                &format!("{what}: weight adjoint"),
            );
            // <conv(x; w, b) - conv(x; w), g> == <b, bias_backward(g)>.
            let bias = data(r.out_shape[1], 3.5);
            let with_bias = run::<f64>(c, transposed, &x, &w, Some(&bias), None);
            let diff: Vec<f64> = with_bias
                .out
                .iter()
                .zip(&r.out)
                .map(|(a, b)| a - b)
                .collect();
            let db = conv_bias_backward(&grad, &r.out_shape);
            assert_scalar_close(
                dot(&bias, &db),
                dot(&diff, &grad),
                1e-9,
                &format!("{what}: bias adjoint"),
            );
            // Lower precisions agree with f64.
            let r32 = run::<f32>(c, transposed, &x, &w, None, Some(&grad));
            assert_close(&r32.dx, &r.dx, 1e-5, &format!("{what}: f32 input gradient"));
            assert_close(
                &r32.dw,
                &r.dw,
                1e-5,
                &format!("{what}: f32 weight gradient"),
            );
            let rb = run::<bf16>(c, transposed, &x, &w, None, Some(&grad));
            assert_close(&rb.dx, &r.dx, 5e-2, &format!("{what}: bf16 input gradient"));
            assert_close(
                &rb.dw,
                &r.dw,
                5e-2,
                &format!("{what}: bf16 weight gradient"),
            );
            let db16 = conv_bias_backward(&to::<bf16>(&grad), &r.out_shape);
            assert_close(
                &back(&db16),
                &db,
                5e-2,
                &format!("{what}: bf16 bias gradient"),
            );
        }
    }

    #[rustfmt::skip]
    const CONV_CASES: &[Case] = &[
        Case { x: &[2, 3, 11], w: &[4, 3, 3], stride: &[2], pad: &[1], pad_out: &[0], dil: &[1], groups: 1 },
        // Stride 2 leaves the last input column unread: its gradient is zero.
        Case { x: &[1, 2, 8], w: &[2, 2, 3], stride: &[2], pad: &[0], pad_out: &[0], dil: &[1], groups: 1 },
        Case { x: &[1, 4, 9], w: &[6, 2, 2], stride: &[1], pad: &[2], pad_out: &[0], dil: &[3], groups: 2 },
        Case { x: &[2, 3, 7, 6], w: &[4, 3, 3, 2], stride: &[2, 1], pad: &[1, 0], pad_out: &[0, 0], dil: &[1, 2], groups: 1 },
        Case { x: &[1, 6, 5, 7], w: &[6, 2, 3, 3], stride: &[1, 2], pad: &[2, 1], pad_out: &[0, 0], dil: &[2, 1], groups: 3 },
        Case { x: &[3, 4, 5, 5], w: &[5, 4, 1, 1], stride: &[1, 1], pad: &[0, 0], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
        Case { x: &[2, 2, 5, 4, 6], w: &[4, 1, 2, 3, 2], stride: &[1, 2, 2], pad: &[1, 0, 1], pad_out: &[0, 0, 0], dil: &[2, 1, 1], groups: 2 },
        // Large enough for the rayon paths.
        Case { x: &[4, 8, 16, 16], w: &[8, 8, 3, 3], stride: &[1, 1], pad: &[1, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
    ];

    #[rustfmt::skip]
    const TRANSPOSED_CASES: &[Case] = &[
        Case { x: &[2, 4, 5], w: &[4, 3, 3], stride: &[2], pad: &[1], pad_out: &[1], dil: &[1], groups: 1 },
        // Output padding (2) at least the stride (1), allowed because the dilation is larger.
        Case { x: &[1, 2, 4], w: &[2, 2, 2], stride: &[1], pad: &[0], pad_out: &[2], dil: &[3], groups: 1 },
        Case { x: &[1, 4, 6], w: &[4, 2, 2], stride: &[3], pad: &[0], pad_out: &[2], dil: &[2], groups: 2 },
        Case { x: &[2, 3, 4, 5], w: &[3, 2, 3, 2], stride: &[2, 1], pad: &[1, 0], pad_out: &[1, 0], dil: &[1, 2], groups: 1 },
        Case { x: &[1, 6, 3, 4], w: &[6, 1, 3, 3], stride: &[2, 3], pad: &[2, 1], pad_out: &[0, 2], dil: &[2, 1], groups: 3 },
        Case { x: &[1, 4, 3, 2, 3], w: &[4, 2, 2, 2, 3], stride: &[2, 1, 2], pad: &[0, 1, 1], pad_out: &[1, 0, 1], dil: &[1, 2, 1], groups: 2 },
        Case { x: &[4, 8, 10, 10], w: &[8, 4, 3, 3], stride: &[2, 2], pad: &[1, 1], pad_out: &[1, 1], dil: &[1, 1], groups: 1 },
    ];

    #[test]
    fn conv_backward_is_the_adjoint_of_conv() {
        check(CONV_CASES, false);
    }

    #[test]
    fn conv_transpose_backward_is_the_adjoint_of_conv_transpose() {
        check(TRANSPOSED_CASES, true);
    }

    #[test]
    fn conv1d_input_backward_known_values() {
        // x = torch.zeros(1, 1, 4, requires_grad=True); w = torch.tensor([[[1., 2., 3.]]])
        // torch.nn.functional.conv1d(x, w, stride=2).backward(torch.tensor([[[1.]]]))
        // x.grad == [[[1., 2., 3., 0.]]] (output length 1; the last input is never read).
        let dx = conv1d_input_backward(
            &[1.0f64],
            &[1.0, 2.0, 3.0],
            [1, 1, 3],
            [1, 1, 4],
            ConvOptions::new([2], [0], [1], 1),
        );
        assert_eq!(dx, vec![1.0, 2.0, 3.0, 0.0]);
    }

    #[test]
    #[should_panic(
        expected = "conv2d_weight_backward: expected output gradient of shape [1, 2, 2, 2] (8 values), got 9 values"
    )]
    fn conv2d_weight_backward_rejects_bad_gradient() {
        conv2d_weight_backward(
            &[0.0f64; 16],
            [1, 1, 4, 4],
            &[0.0; 9],
            [2, 1, 3, 3],
            ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
        );
    }
}
