//! Max and average pooling over option structs, with PyTorch's output sizes.
//!
//! Backends pool with the same padding on both sides. Where the options pad a dimension
//! asymmetrically, the input is padded here first (negative infinity for max pooling, zeros for
//! average pooling) and pooled without padding; ceil mode's last window is then dropped when it
//! would start in the end padding, as PyTorch and ONNX size it.

use crate::tensor::check;
use crate::{Int, Tensor};
use burn_backend::ops::{AvgPoolOptions, MaxPoolOptions, ModuleOps, PadMode};
use burn_dispatch::Dispatch;

/// The output length of one pooled dimension of `size_in` elements, or `None` where the options
/// cannot size it (a zero kernel, stride or dilation, or a padded input shorter than the
/// dilated kernel). With `ceil_mode`, the last window must start inside the input or its begin
/// padding.
pub(super) fn pooled_len(
    size_in: usize,
    kernel: usize,
    stride: usize,
    (begin, end): (usize, usize),
    dilation: usize,
    ceil_mode: bool,
) -> Option<usize> {
    if kernel == 0 || stride == 0 || dilation == 0 {
        return None;
    }
    let extent = dilation * (kernel - 1) + 1;
    let span = (size_in + begin + end).checked_sub(extent)?;
    let mut len = match ceil_mode {
        true => span.div_ceil(stride),
        false => span / stride,
    } + 1;
    if ceil_mode && (len - 1) * stride >= size_in + begin {
        len -= 1;
    }
    Some(len)
}

/// The spatial output size of a pool over `input_size` with these window settings.
fn pooled_size<const N: usize>(
    input_size: [usize; N],
    kernel_size: [usize; N],
    stride: [usize; N],
    padding: [(usize, usize); N],
    dilation: [usize; N],
    ceil_mode: bool,
) -> Option<[usize; N]> {
    super::every_dim(|i| {
        pooled_len(
            input_size[i],
            kernel_size[i],
            stride[i],
            padding[i],
            dilation[i],
            ceil_mode,
        )
    })
}

/// The spatial size of the output `max_pool1d`/`max_pool2d` (and their `_with_indices`) return
/// for an input of spatial size `input_size`, or `None` where the options cannot size it: a zero
/// kernel, stride or dilation, or a padded input shorter than the dilated kernel.
pub fn max_pool_output_size<const N: usize>(
    input_size: [usize; N],
    options: &MaxPoolOptions<N>,
) -> Option<[usize; N]> {
    pooled_size(
        input_size,
        options.kernel_size,
        options.stride,
        options.padding,
        options.dilation,
        options.ceil_mode,
    )
}

/// The spatial size of the output `avg_pool1d`/`avg_pool2d` return for an input of spatial size
/// `input_size`, or `None` where the options cannot size it.
pub fn avg_pool_output_size<const N: usize>(
    input_size: [usize; N],
    options: &AvgPoolOptions<N>,
) -> Option<[usize; N]> {
    pooled_size(
        input_size,
        options.kernel_size,
        options.stride,
        options.padding,
        options.dilation,
        options.ceil_mode,
    )
}

/// The output size of a pool, panicking with `op`'s name where the options cannot size it.
fn output_size<const D: usize, const N: usize>(
    op: &str,
    dims: [usize; D],
    size: impl FnOnce([usize; N]) -> Option<[usize; N]>,
) -> [usize; N] {
    let input: [usize; N] = core::array::from_fn(|i| dims[D - N + i]);
    size(input).unwrap_or_else(|| {
        check::fail(
            op,
            format_args!(
                "the options cannot pool an input of shape {dims:?} (a zero kernel, stride or dilation, or a padded input shorter than the dilated kernel)"
            ),
        )
    })
}

/// `x` padded by `padding` over its last `N` dims with `value` (the materialized padding of an
/// asymmetric pool).
fn pad_spatial<const D: usize, const N: usize>(
    x: Tensor<D>,
    padding: [(usize, usize); N],
    value: f64,
) -> Tensor<D> {
    let mut pairs = [(0, 0); D];
    pairs[D - N..].copy_from_slice(&padding);
    x.pad_dims(pairs, PadMode::Constant(value as f32))
}

/// `t` cut to `size` over its last `N` dims (dropping a ceil-mode window that starts in
/// materialized end padding).
fn fit<const D: usize, const N: usize, K: crate::kind::Basic>(
    t: Tensor<D, K>,
    size: [usize; N],
) -> Tensor<D, K> {
    (0..N).fold(t, |t, i| {
        let dim = D - N + i;
        match t.dims()[dim] > size[i] {
            true => t.narrow(dim, 0, size[i]),
            false => t,
        }
    })
}

/// Max pooling shared by the 1-d and 2-d functions: `pool` runs the backend with the given
/// symmetric padding; asymmetric padding is materialized with negative infinity first.
fn max_pool<const D: usize, const N: usize, R>(
    op: &str,
    x: Tensor<D>,
    options: &MaxPoolOptions<N>,
    pool: impl FnOnce(Tensor<D>, [usize; N]) -> R,
) -> (R, [usize; N], bool) {
    let size = output_size(op, x.dims(), |s| max_pool_output_size(s, options));
    match options.is_asymmetric() {
        false => (pool(x, options.padding.map(|(p, _)| p)), size, false),
        true => {
            let x = pad_spatial(x, options.padding, f64::NEG_INFINITY);
            (pool(x, [0; N]), size, true)
        }
    }
}

/// 1-d max pooling of `x [batch, channels, length]`.
pub fn max_pool1d(x: Tensor<3>, options: MaxPoolOptions<1>) -> Tensor<3> {
    let (out, size, _) = max_pool("max_pool1d", x, &options, |x, [p]| {
        Tensor::from_primitive(Dispatch::max_pool1d(
            x.into_primitive(),
            options.kernel_size[0],
            options.stride[0],
            p,
            options.dilation[0],
            options.ceil_mode,
        ))
    });
    fit(out, size)
}

/// 2-d max pooling of `x [batch, channels, height, width]`.
pub fn max_pool2d(x: Tensor<4>, options: MaxPoolOptions<2>) -> Tensor<4> {
    let (out, size, _) = max_pool("max_pool2d", x, &options, |x, padding| {
        Tensor::from_primitive(Dispatch::max_pool2d(
            x.into_primitive(),
            options.kernel_size,
            options.stride,
            padding,
            options.dilation,
            options.ceil_mode,
        ))
    });
    fit(out, size)
}

/// 1-d max pooling and the position of each maximum in its (unpadded) row.
pub fn max_pool1d_with_indices(
    x: Tensor<3>,
    options: MaxPoolOptions<1>,
) -> (Tensor<3>, Tensor<3, Int>) {
    let length = x.dims()[2];
    let ((out, indices), size, padded) =
        max_pool("max_pool1d_with_indices", x, &options, |x, [p]| {
            let out = Dispatch::max_pool1d_with_indices(
                x.into_primitive(),
                options.kernel_size[0],
                options.stride[0],
                p,
                options.dilation[0],
                options.ceil_mode,
            );
            (
                Tensor::<3>::from_primitive(out.output),
                Tensor::<3, Int>::from_primitive(out.indices),
            )
        });
    let indices = match padded {
        true => unpad_index(indices, options.padding[0].0, length),
        false => indices,
    };
    (fit(out, size), fit(indices, size))
}

/// 2-d max pooling and the flat position (`row · width + column`) of each maximum in its
/// (unpadded) plane.
pub fn max_pool2d_with_indices(
    x: Tensor<4>,
    options: MaxPoolOptions<2>,
) -> (Tensor<4>, Tensor<4, Int>) {
    let [_, _, height, width] = x.dims();
    let ((out, indices), size, padded) =
        max_pool("max_pool2d_with_indices", x, &options, |x, padding| {
            let out = Dispatch::max_pool2d_with_indices(
                x.into_primitive(),
                options.kernel_size,
                options.stride,
                padding,
                options.dilation,
                options.ceil_mode,
            );
            (
                Tensor::<4>::from_primitive(out.output),
                Tensor::<4, Int>::from_primitive(out.indices),
            )
        });
    let indices = match padded {
        false => indices,
        true => {
            let [(top, _), (left, right)] = options.padding;
            let padded_width = (width + left + right) as i64;
            let rows = unpad_index(indices.clone().div_scalar(padded_width), top, height);
            let cols = unpad_index(indices.remainder_scalar(padded_width), left, width);
            rows.mul_scalar(width as i64).add(cols)
        }
    };
    (fit(out, size), fit(indices, size))
}

/// Positions in a dimension padded by `begin` turned into positions of the `len` unpadded ones
/// (a maximum found in the padding, possible only when a window holds nothing but negative
/// infinities, maps to the nearest real position).
fn unpad_index<const D: usize>(index: Tensor<D, Int>, begin: usize, len: usize) -> Tensor<D, Int> {
    index
        .sub_scalar(begin as i64)
        .clamp(0, len.saturating_sub(1) as i64)
}

/// Average pooling shared by the 1-d and 2-d functions: `pool(x, padding, count_include_pad)`
/// runs the backend. Asymmetric padding is materialized with zeros; without
/// `count_include_pad`, the sums are then divided by the pooled count of real values.
fn avg_pool<const D: usize, const N: usize>(
    op: &str,
    x: Tensor<D>,
    options: &AvgPoolOptions<N>,
    pool: impl Fn(Tensor<D>, [usize; N], bool) -> Tensor<D>,
) -> Tensor<D> {
    if options.dilation.iter().any(|&d| d != 1) {
        check::fail(
            op,
            format_args!(
                "dilation {:?} is not supported for average pooling (PyTorch has none); expected 1",
                options.dilation
            ),
        );
    }
    let size = output_size(op, x.dims(), |s| avg_pool_output_size(s, options));
    if !options.is_asymmetric() {
        let padding = options.padding.map(|(p, _)| p);
        return fit(pool(x, padding, options.count_include_pad), size);
    }
    let ones = (!options.count_include_pad).then(|| x.ones_like());
    let x = pad_spatial(x, options.padding, 0.0);
    let out = pool(x, [0; N], true);
    let out = match ones {
        None => out,
        Some(ones) => {
            // The fraction of real values in each window, from the same pool over a mask.
            let valid = pool(pad_spatial(ones, options.padding, 0.0), [0; N], true);
            let empty = valid.clone().equal_elem(0.0);
            out / valid.mask_fill(empty, 1.0)
        }
    };
    fit(out, size)
}

/// 1-d average pooling of `x [batch, channels, length]`.
pub fn avg_pool1d(x: Tensor<3>, options: AvgPoolOptions<1>) -> Tensor<3> {
    avg_pool("avg_pool1d", x, &options, |x, [p], count_include_pad| {
        Tensor::from_primitive(Dispatch::avg_pool1d(
            x.into_primitive(),
            options.kernel_size[0],
            options.stride[0],
            p,
            count_include_pad,
            options.ceil_mode,
        ))
    })
}

/// 2-d average pooling of `x [batch, channels, height, width]`.
pub fn avg_pool2d(x: Tensor<4>, options: AvgPoolOptions<2>) -> Tensor<4> {
    avg_pool(
        "avg_pool2d",
        x,
        &options,
        |x, padding, count_include_pad| {
            Tensor::from_primitive(Dispatch::avg_pool2d(
                x.into_primitive(),
                options.kernel_size,
                options.stride,
                padding,
                count_include_pad,
                options.ceil_mode,
            ))
        },
    )
}

/// 1-d adaptive average pooling of `x [batch, channels, length]` to `output_size`.
pub fn adaptive_avg_pool1d(x: Tensor<3>, output_size: usize) -> Tensor<3> {
    Tensor::from_primitive(Dispatch::adaptive_avg_pool1d(
        x.into_primitive(),
        output_size,
    ))
}

/// 2-d adaptive average pooling of `x [batch, channels, height, width]` to `output_size`.
pub fn adaptive_avg_pool2d(x: Tensor<4>, output_size: [usize; 2]) -> Tensor<4> {
    Tensor::from_primitive(Dispatch::adaptive_avg_pool2d(
        x.into_primitive(),
        output_size,
    ))
}

/// The gradient of `x` through a 2-d average pooling (symmetric padding) whose output gradient
/// is `grad`.
#[allow(clippy::too_many_arguments)]
pub fn avg_pool2d_backward(
    x: Tensor<4>,
    grad: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> Tensor<4> {
    if dilation != [1, 1] {
        check::fail(
            "avg_pool2d_backward",
            format_args!("dilation {dilation:?} is not supported for average pooling; expected 1"),
        );
    }
    Tensor::from_primitive(Dispatch::avg_pool2d_backward(
        x.into_primitive(),
        grad.into_primitive(),
        kernel_size,
        stride,
        padding,
        count_include_pad,
        ceil_mode,
    ))
}

/// The gradient of `x` through a 2-d max pooling whose output gradient is `output_grad`: each
/// value goes to the position `indices` (from [`max_pool2d_with_indices`]) names. The window
/// arguments are those of the forward pass; the indices already encode them.
#[allow(clippy::too_many_arguments)]
pub fn max_pool2d_with_indices_backward(
    x: Tensor<4>,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
    output_grad: Tensor<4>,
    indices: Tensor<4, Int>,
) -> Tensor<4> {
    let _ = (kernel_size, stride, padding, dilation, ceil_mode);
    if output_grad.dims() != indices.dims() {
        check::fail(
            "max_pool2d_with_indices_backward",
            format_args!(
                "expected indices of the gradient's shape {:?}, got {:?}",
                output_grad.dims(),
                indices.dims()
            ),
        );
    }
    Tensor::from_primitive(Dispatch::max_pool2d_with_indices_backward(
        x.into_primitive(),
        output_grad.into_primitive(),
        indices.into_primitive(),
    ))
}

#[cfg(test)]
mod tests {
    use super::pooled_len;

    #[test]
    fn ceil_mode_drops_a_window_starting_in_the_end_padding() {
        // torch: max_pool1d(len 5, k 2, s 2, pad 1, ceil) -> 4 windows starting at -1, 1, 3, 5;
        // the last starts past the input, so 3.
        assert_eq!(pooled_len(5, 2, 2, (1, 1), 1, true), Some(3));
        assert_eq!(pooled_len(5, 2, 2, (1, 1), 1, false), Some(3));
        assert_eq!(pooled_len(6, 3, 2, (0, 0), 1, true), Some(3));
        assert_eq!(pooled_len(6, 3, 2, (0, 0), 1, false), Some(2));
        assert_eq!(pooled_len(1, 3, 1, (0, 0), 1, false), None);
    }
}
