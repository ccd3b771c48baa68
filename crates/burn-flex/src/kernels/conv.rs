//! Convolutions (1-, 2- and 3-d) over contiguous NC… slices via im2col and
//! `FloatElement::gemm`, and the weight gradient they share with the transposed convolutions.

use super::common::{PARALLEL_WORK, for_each_chunk, is_half, narrow, widen};
use super::conv_direct;
#[cfg(target_arch = "x86_64")]
use super::conv_winograd;
use super::im2col::{ConvArgs, Geom, add_bias, check_bias, check_conv, im2col, lower, spatial};
use crate::element::{FloatElement, as_f32, from_f32};
use crate::parallel;
use crate::tensor::pool;
use burn_std::ConvOptions;

/// Validates and runs a forward convolution of any (lifted) dimensionality.
pub(crate) fn conv_nd<T: FloatElement>(
    kernel: &str,
    x: &[T],
    x_shape: &[usize],
    w: &[T],
    w_shape: &[usize],
    bias: Option<&[T]>,
    g: &Geom,
) -> (Vec<T>, [usize; 5]) {
    let (xs, ws, os) = check_conv(kernel, x.len(), x_shape, w.len(), w_shape, g);
    check_bias(kernel, bias, os[1]);
    (conv_forward(x, xs, w, ws, bias, g, spatial(os)), os)
}

/// Convolution of checked operands `x` `[b, c, in…]` and `w` `[oc, c/groups, k…]` onto the
/// output grid `os`.
pub(crate) fn conv_forward<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 5],
    w: &[T],
    w_shape: [usize; 5],
    bias: Option<&[T]>,
    g: &Geom,
    os: [usize; 3],
) -> Vec<T> {
    if is_half::<T>() {
        let bias = bias.map(widen);
        let out = conv_forward(
            &widen(x),
            x_shape,
            &widen(w),
            w_shape,
            bias.as_deref(),
            g,
            os,
        );
        return narrow(&out);
    }
    let [batch, channels, ..] = x_shape;
    let [oc, icg, ..] = w_shape;
    let (xs, ks) = (spatial(x_shape), spatial(w_shape));
    let ocg = oc / g.groups;
    let k_len = icg * ks.iter().product::<usize>();
    let n_in: usize = xs.iter().product();
    let n_out: usize = os.iter().product();
    if let (Some(x), Some(w)) = (as_f32(x), as_f32(w)) {
        let bias = bias.map(|b| as_f32(b).expect("bias has the input's element type"));
        let out = || pool::for_overwrite::<f32>(batch * oc * n_out);
        let args = ConvArgs {
            x,
            x_shape,
            w,
            w_shape,
            bias,
            g,
            os,
        };
        #[cfg(target_arch = "x86_64")]
        if conv_winograd::applies(batch, w_shape, g, xs, os) {
            let mut out = out();
            conv_winograd::conv_f32(&args, &mut out);
            return from_f32(out);
        }
        if conv_direct::applies(batch, w_shape, g, xs, os) {
            let mut out = out();
            conv_direct::conv_f32(&args, &mut out);
            return from_f32(out);
        }
    }
    let direct = ks == [1, 1, 1] && g.stride == [1, 1, 1] && g.padding == [0, 0, 0];
    // Every value of `out` is written by its group's product, and every value of `col` by
    // `im2col` (the padding's zeros included): neither is cleared first. At W5 the clearing
    // and the fresh 7 MiB `col` of each image took a tenth of the convolution.
    let mut out = pool::for_overwrite::<T>(batch * oc * n_out);
    let parallel = batch > 1 && batch * oc * k_len * n_out >= PARALLEL_WORK;
    for_each_chunk(&mut out, oc * n_out, parallel, |b, out_b| {
        let x_b = &x[b * channels * n_in..(b + 1) * channels * n_in];
        let mut col = if direct {
            Vec::new()
        } else {
            pool::for_overwrite::<T>(k_len * n_out)
        };
        for gi in 0..g.groups {
            let x_g = &x_b[gi * icg * n_in..(gi + 1) * icg * n_in];
            let rhs: &[T] = if direct {
                x_g
            } else {
                im2col(x_g, icg, xs, ks, g, os, &mut col);
                &col
            };
            let w_g = &w[gi * ocg * k_len..(gi + 1) * ocg * k_len];
            let dst = &mut out_b[gi * ocg * n_out..(gi + 1) * ocg * n_out];
            T::gemm(
                ocg,
                k_len,
                n_out,
                w_g,
                [k_len as isize, 1],
                rhs,
                [n_out as isize, 1],
                dst,
            );
        }
        add_bias(out_b, bias, n_out);
        pool::give_back(col);
    });
    out
}

/// Gradient with respect to the weight of the convolution `x` `[b, c, in…]` →
/// `grad` `[b, oc, out…]` with kernel `ks`: `Σ_b grad_{b,g} · im2col(x_{b,g})ᵀ`, shaped
/// `[oc, c/groups, k…]`.
pub(crate) fn conv_weight_grad<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 5],
    grad: &[T],
    grad_shape: [usize; 5],
    ks: [usize; 3],
    g: &Geom,
) -> Vec<T> {
    if is_half::<T>() {
        return narrow(&conv_weight_grad(
            &widen(x),
            x_shape,
            &widen(grad),
            grad_shape,
            ks,
            g,
        ));
    }
    let [batch, channels, ..] = x_shape;
    let oc = grad_shape[1];
    let (xs, os) = (spatial(x_shape), spatial(grad_shape));
    let (icg, ocg) = (channels / g.groups, oc / g.groups);
    let k_len = icg * ks.iter().product::<usize>();
    let n_in: usize = xs.iter().product();
    let n_out: usize = os.iter().product();
    let per_batch = |b: usize| -> Vec<T> {
        let x_b = &x[b * channels * n_in..(b + 1) * channels * n_in];
        let g_b = &grad[b * oc * n_out..(b + 1) * oc * n_out];
        // `im2col` writes every value of `col`.
        let mut col = pool::for_overwrite::<T>(k_len * n_out);
        let mut dw = vec![T::zero(); oc * k_len];
        for gi in 0..g.groups {
            im2col(
                &x_b[gi * icg * n_in..(gi + 1) * icg * n_in],
                icg,
                xs,
                ks,
                g,
                os,
                &mut col,
            );
            let lhs = &g_b[gi * ocg * n_out..(gi + 1) * ocg * n_out];
            let dst = &mut dw[gi * ocg * k_len..(gi + 1) * ocg * k_len];
            T::gemm(
                ocg,
                n_out,
                k_len,
                lhs,
                [n_out as isize, 1],
                &col,
                [1, n_out as isize],
                dst,
            );
        }
        pool::give_back(col);
        dw
    };
    let add = |mut a: Vec<T>, b: Vec<T>| {
        a.iter_mut().zip(b).for_each(|(x, y)| *x = *x + y);
        a
    };
    let zeros = || vec![T::zero(); oc * k_len];
    if batch > 1 && batch * oc * k_len * n_out >= PARALLEL_WORK {
        // One sum per thread over its share of the images, then the sums added.
        let images: Vec<usize> = (0..batch).collect();
        let share = batch.div_ceil(parallel::threads());
        let sums = parallel::map_chunks(&images, share, |_, mine| {
            mine.iter().map(|&b| per_batch(b)).fold(zeros(), add)
        });
        sums.into_iter().reduce(add).unwrap_or_else(zeros)
    } else {
        (0..batch).map(per_batch).fold(zeros(), add)
    }
}

/// 1-d convolution: `x` `[batch, in_ch, length]`, `weight` `[out_ch, in_ch/groups, k]`,
/// optional `bias` `[out_ch]`; returns the output and its shape `[batch, out_ch, out_length]`.
pub fn conv1d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 3],
    weight: &[T],
    weight_shape: [usize; 3],
    bias: Option<&[T]>,
    options: ConvOptions<1>,
) -> (Vec<T>, [usize; 3]) {
    let g = Geom::conv(&options);
    let (out, shape) = conv_nd("conv1d", x, &x_shape, weight, &weight_shape, bias, &g);
    (out, lower(shape))
}

/// 2-d convolution: `x` `[batch, in_ch, h, w]`, `weight` `[out_ch, in_ch/groups, kh, kw]`,
/// optional `bias` `[out_ch]`; returns the output and its shape `[batch, out_ch, oh, ow]`.
pub fn conv2d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 4],
    weight: &[T],
    weight_shape: [usize; 4],
    bias: Option<&[T]>,
    options: ConvOptions<2>,
) -> (Vec<T>, [usize; 4]) {
    let g = Geom::conv(&options);
    let (out, shape) = conv_nd("conv2d", x, &x_shape, weight, &weight_shape, bias, &g);
    (out, lower(shape))
}

/// 3-d convolution: `x` `[batch, in_ch, d, h, w]`, `weight` `[out_ch, in_ch/groups, kd, kh, kw]`,
/// optional `bias` `[out_ch]`; returns the output and its shape `[batch, out_ch, od, oh, ow]`.
pub fn conv3d<T: FloatElement>(
    x: &[T],
    x_shape: [usize; 5],
    weight: &[T],
    weight_shape: [usize; 5],
    bias: Option<&[T]>,
    options: ConvOptions<3>,
) -> (Vec<T>, [usize; 5]) {
    let g = Geom::conv(&options);
    conv_nd("conv3d", x, &x_shape, weight, &weight_shape, bias, &g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::conv_reference::{Case, WINOGRAD_TOLERANCE, check_forward};

    #[rustfmt::skip]
    const CONV_CASES: &[Case] = &[
        Case { x: &[2, 3, 11], w: &[4, 3, 3], stride: &[2], pad: &[1], pad_out: &[0], dil: &[1], groups: 1 },
        Case { x: &[1, 4, 9], w: &[6, 2, 2], stride: &[1], pad: &[2], pad_out: &[0], dil: &[3], groups: 2 },
        Case { x: &[2, 3, 7, 6], w: &[4, 3, 3, 2], stride: &[2, 1], pad: &[1, 0], pad_out: &[0, 0], dil: &[1, 2], groups: 1 },
        Case { x: &[1, 6, 5, 7], w: &[6, 2, 3, 3], stride: &[1, 2], pad: &[2, 1], pad_out: &[0, 0], dil: &[2, 1], groups: 3 },
        // Depthwise with a channel multiplier of 2.
        Case { x: &[2, 4, 6, 5], w: &[8, 1, 3, 3], stride: &[2, 2], pad: &[1, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 4 },
        // 1×1 kernels: the direct (no im2col) path, then a strided one that is not direct.
        Case { x: &[3, 4, 5, 5], w: &[5, 4, 1, 1], stride: &[1, 1], pad: &[0, 0], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
        Case { x: &[1, 4, 5, 5], w: &[2, 2, 1, 1], stride: &[2, 3], pad: &[0, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 2 },
        // Kernel larger than the unpadded input.
        Case { x: &[1, 2, 2, 3], w: &[3, 2, 3, 3], stride: &[1, 1], pad: &[1, 2], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
        Case { x: &[2, 2, 5, 4, 6], w: &[4, 1, 2, 3, 2], stride: &[1, 2, 2], pad: &[1, 0, 1], pad_out: &[0, 0, 0], dil: &[2, 1, 1], groups: 2 },
        // Large enough to take the rayon path over the batch.
        Case { x: &[4, 8, 16, 16], w: &[8, 8, 3, 3], stride: &[1, 1], pad: &[1, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
    ];

    /// 16 channels, 3×3, stride 1, 224 output tiles of 4×4: Winograd in f32 (and bf16, widened)
    /// on AVX-512 and AVX2 CPUs.
    #[rustfmt::skip]
    const WINOGRAD_CASES: &[Case] = &[
        Case { x: &[4, 16, 26, 30], w: &[16, 16, 3, 3], stride: &[1, 1], pad: &[1, 1], pad_out: &[0, 0], dil: &[1, 1], groups: 1 },
    ];

    #[test]
    fn conv_matches_direct_definition() {
        check_forward(CONV_CASES, false, 1e-5);
        check_forward(WINOGRAD_CASES, false, WINOGRAD_TOLERANCE);
    }

    #[test]
    fn conv1d_small_known_values() {
        // torch.nn.functional.conv1d(torch.tensor([[[1., 2, 3, 4]]]),
        //     torch.tensor([[[1., 0, -1]]]), padding=1) == [[[-2., -2., -2., 3.]]]
        let (out, shape) = conv1d(
            &[1.0f64, 2.0, 3.0, 4.0],
            [1, 1, 4],
            &[1.0, 0.0, -1.0],
            [1, 1, 3],
            None,
            ConvOptions::new([1], [1], [1], 1),
        );
        assert_eq!(shape, [1, 1, 4]);
        assert_eq!(out, vec![-2.0, -2.0, -2.0, 3.0]);
    }

    #[test]
    #[should_panic(expected = "conv2d: expected 4 input channels")]
    fn conv2d_rejects_channel_mismatch() {
        conv2d(
            &[0.0f64; 27],
            [1, 3, 3, 3],
            &[0.0; 36],
            [1, 4, 3, 3],
            None,
            ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
        );
    }

    #[test]
    #[should_panic(expected = "conv2d: expected a bias of 2 values")]
    fn conv2d_rejects_bad_bias() {
        conv2d(
            &[0.0f64; 9],
            [1, 1, 3, 3],
            &[0.0; 18],
            [2, 1, 3, 3],
            Some(&[0.0; 3]),
            ConvOptions::new([1, 1], [0, 0], [1, 1], 1),
        );
    }

    #[test]
    #[should_panic(
        expected = "conv1d: expected the dilated kernel extent (5) to fit the padded input (4)"
    )]
    fn conv1d_rejects_kernel_larger_than_input() {
        conv1d(
            &[0.0f64; 4],
            [1, 1, 4],
            &[0.0; 3],
            [1, 1, 3],
            None,
            ConvOptions::new([1], [0], [2], 1),
        );
    }
}
