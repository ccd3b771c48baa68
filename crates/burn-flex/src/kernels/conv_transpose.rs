//! Transposed convolutions (1-, 2- and 3-d) over contiguous NC… slices: `weightᵀ · x` through
//! `FloatElement::gemm`, then a col2im scatter-add onto the output grid.

use super::common::{PARALLEL_WORK, for_each_chunk, is_half, narrow, widen};
use super::conv_direct;
use super::im2col::{
    ConvArgs, Geom, add_bias, check_bias, check_conv_transpose, col2im, lift, lower, spatial,
};
use crate::element::{FloatElement, as_f32, from_f32};
use crate::tensor::pool;
use burn_std::ConvTransposeOptions;

/// Validates and runs a transposed convolution of any (lifted) dimensionality.
#[allow(clippy::too_many_arguments)]
pub(crate) fn conv_transpose_nd<T: FloatElement>(
    kernel: &str,
    x: &[T],
    x_shape: &[usize],
    w: &[T],
    w_shape: &[usize],
    bias: Option<&[T]>,
    g: &Geom,
    padding_out: [usize; 3],
) -> (Vec<T>, [usize; 5]) {
    let (xs, ws, os) =
        check_conv_transpose(kernel, x.len(), x_shape, w.len(), w_shape, g, padding_out);
    check_bias(kernel, bias, os[1]);
    (
        conv_transpose_forward(x, xs, w, ws, bias, g, spatial(os)),
        os,
    )
}

/// Transposed convolution of checked operands `x` `[b, ic, in…]` and `w`
/// `[ic, oc/groups, k…]` onto the output grid `os` (the forward convolution's input grid):
/// `col = w_gᵀ · x_g`, then `col2im` scatter-adds the columns into the output.
pub(crate) fn conv_transpose_forward<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 5],
    w: &[T],
    w_shape: [usize; 5],
    bias: Option<&[T]>,
    g: &Geom,
    os: [usize; 3],
) -> Vec<T> {
    if is_half::<T>() {
        let (x, w, bias) = (widen(x), widen(w), bias.map(widen));
        return narrow(&conv_transpose_forward(
            &x,
            x_shape,
            &w,
            w_shape,
            bias.as_deref(),
            g,
            os,
        ));
    }
    if let (Some(x32), Some(w32)) = (as_f32(x), as_f32(w)) {
        let bias32 = bias.map(|b| as_f32(b).expect("bias has the input's element type"));
        let args = ConvArgs {
            x: x32,
            x_shape,
            w: w32,
            w_shape,
            bias: bias32,
            g,
            os,
        };
        if let Some(out) = conv_direct::transposed_f32(&args) {
            return from_f32(out);
        }
    }
    let [batch, ic, ..] = x_shape;
    let [_, ocg, ..] = w_shape;
    let (xs, ks) = (spatial(x_shape), spatial(w_shape));
    let icg = ic / g.groups;
    let oc = ocg * g.groups;
    let rows = ocg * ks.iter().product::<usize>();
    let n_in: usize = xs.iter().product();
    let n_out: usize = os.iter().product();
    // Each batch's task zeroes its part before `col2im` adds into it (see `scatter_planes`).
    let mut out = pool::for_overwrite::<T>(batch * oc * n_out);
    let parallel = batch > 1 && batch * ic * rows * n_in >= PARALLEL_WORK;
    for_each_chunk(&mut out, oc * n_out, parallel, |b, out_b| {
        out_b.fill(T::zero());
        let x_b = &x[b * ic * n_in..(b + 1) * ic * n_in];
        // Every value of `col` is written by the product.
        let mut col = pool::for_overwrite::<T>(rows * n_in);
        for gi in 0..g.groups {
            let x_g = &x_b[gi * icg * n_in..(gi + 1) * icg * n_in];
            let w_g = &w[gi * icg * rows..(gi + 1) * icg * rows];
            T::gemm(
                rows,
                icg,
                n_in,
                w_g,
                [1, rows as isize],
                x_g,
                [n_in as isize, 1],
                &mut col,
            );
            let img = &mut out_b[gi * ocg * n_out..(gi + 1) * ocg * n_out];
            col2im(&col, ocg, os, ks, g, xs, img);
        }
        add_bias(out_b, bias, n_out);
        pool::give_back(col);
    });
    out
}

/// 1-d transposed convolution: `x` `[batch, in_ch, length]`, `weight`
/// `[in_ch, out_ch/groups, k]`, optional `bias` `[out_ch]`; returns output and shape.
pub fn conv_transpose1d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 3],
    weight: &[T],
    weight_shape: [usize; 3],
    bias: Option<&[T]>,
    options: ConvTransposeOptions<1>,
) -> (Vec<T>, [usize; 3]) {
    let g = Geom::transposed(&options);
    let po = lift(options.padding_out, 0);
    let (out, shape) = conv_transpose_nd(
        "conv_transpose1d",
        x,
        &x_shape,
        weight,
        &weight_shape,
        bias,
        &g,
        po,
    );
    (out, lower(shape))
}

/// 2-d transposed convolution: `x` `[batch, in_ch, h, w]`, `weight`
/// `[in_ch, out_ch/groups, kh, kw]`, optional `bias` `[out_ch]`; returns output and shape.
pub fn conv_transpose2d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    weight: &[T],
    weight_shape: [usize; 4],
    bias: Option<&[T]>,
    options: ConvTransposeOptions<2>,
) -> (Vec<T>, [usize; 4]) {
    let g = Geom::transposed(&options);
    let po = lift(options.padding_out, 0);
    let (out, shape) = conv_transpose_nd(
        "conv_transpose2d",
        x,
        &x_shape,
        weight,
        &weight_shape,
        bias,
        &g,
        po,
    );
    (out, lower(shape))
}

/// 3-d transposed convolution: `x` `[batch, in_ch, d, h, w]`, `weight`
/// `[in_ch, out_ch/groups, kd, kh, kw]`, optional `bias` `[out_ch]`; returns output and shape.
pub fn conv_transpose3d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 5],
    weight: &[T],
    weight_shape: [usize; 5],
    bias: Option<&[T]>,
    options: ConvTransposeOptions<3>,
) -> (Vec<T>, [usize; 5]) {
    let g = Geom::transposed(&options);
    let po = lift(options.padding_out, 0);
    conv_transpose_nd(
        "conv_transpose3d",
        x,
        &x_shape,
        weight,
        &weight_shape,
        bias,
        &g,
        po,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::conv_reference::{Case, WINOGRAD_TOLERANCE, check_forward};

    #[rustfmt::skip]
    const TRANSPOSED_CASES: &[Case] = &[
        Case { x: &[2, 4, 5], w: &[4, 3, 3], stride: &[2], pad: &[1], pad_out: &[1], dil: &[1], groups: 1 },
        Case { x: &[1, 4, 6], w: &[4, 2, 2], stride: &[3], pad: &[0], pad_out: &[2], dil: &[2], groups: 2 },
        Case { x: &[2, 3, 4, 5], w: &[3, 2, 3, 2], stride: &[2, 1], pad: &[1, 0], pad_out: &[1, 0], dil: &[1, 2], groups: 1 },
        Case { x: &[1, 6, 3, 4], w: &[6, 1, 3, 3], stride: &[2, 3], pad: &[2, 1], pad_out: &[0, 2], dil: &[2, 1], groups: 3 },
        Case { x: &[1, 4, 3, 2, 3], w: &[4, 2, 2, 2, 3], stride: &[2, 1, 2], pad: &[0, 1, 1], pad_out: &[1, 0, 1], dil: &[1, 2, 1], groups: 2 },
        Case { x: &[4, 8, 10, 10], w: &[8, 4, 3, 3], stride: &[2, 2], pad: &[1, 1], pad_out: &[1, 1], dil: &[1, 1], groups: 1 },
        // Stride 1: on an AVX-512 CPU, f32 runs as the direct convolution with the flipped kernel
        // (padding 1 → 1, then 0 → 2 with dilation and groups, then 3-d).
        Case { x: &[2, 8, 10, 12], w: &[8, 8, 3, 3], stride: &[1, 1], pad: &[1, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
        Case { x: &[1, 8, 12, 20], w: &[8, 5, 2, 3], stride: &[1, 1], pad: &[0, 1], pad_out: &[0, 0], dil: &[2, 1], groups: 2 },
        Case { x: &[1, 4, 4, 6, 40], w: &[4, 8, 2, 2, 3], stride: &[1, 1, 1], pad: &[1, 0, 2], pad_out: &[0, 0, 0], dil: &[1, 1, 1], groups: 1 },
    ];

    /// 16 channels each way, padding 1 and 0 (the convolution's 1 and 2), 224 and 288 output
    /// tiles of 4×4: Winograd in f32 on AVX-512 and AVX2 CPUs.
    #[rustfmt::skip]
    const WINOGRAD_CASES: &[Case] = &[
        Case { x: &[4, 16, 26, 30], w: &[16, 16, 3, 3], stride: &[1, 1], pad: &[1, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
        Case { x: &[8, 16, 22, 20], w: &[16, 24, 3, 3], stride: &[1, 1], pad: &[0, 0], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
    ];

    #[test]
    fn conv_transpose_matches_direct_definition() {
        check_forward(TRANSPOSED_CASES, true, 1e-5);
        check_forward(WINOGRAD_CASES, true, WINOGRAD_TOLERANCE);
    }

    #[test]
    fn conv_transpose1d_small_known_values() {
        // torch.nn.functional.conv_transpose1d(torch.tensor([[[1., 2]]]),
        //     torch.tensor([[[1., 10, 100]]]), stride=2) == [[[1., 10., 102., 20., 200.]]]
        let (out, shape) = conv_transpose1d(
            &[1.0f64, 2.0],
            [1, 1, 2],
            &[1.0, 10.0, 100.0],
            [1, 1, 3],
            None,
            ConvTransposeOptions::new([2], [0], [0], [1], 1),
        );
        assert_eq!(shape, [1, 1, 5]);
        assert_eq!(out, vec![1.0, 10.0, 102.0, 20.0, 200.0]);
    }

    #[test]
    #[should_panic(
        expected = "conv_transpose2d: expected input of shape [1, 2, 3, 3] (18 values), got 17 values"
    )]
    fn conv_transpose2d_rejects_bad_input_length() {
        conv_transpose2d(
            &[0.0f64; 17],
            [1, 2, 3, 3],
            &[0.0; 18],
            [2, 1, 3, 3],
            None,
            ConvTransposeOptions::new([1, 1], [0, 0], [0, 0], [1, 1], 1),
        );
    }
}
