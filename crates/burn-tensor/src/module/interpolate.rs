//! `interpolate`: resizing `[batch, channels, height, width]` images, the size and mode in
//! [`InterpolateOptions`].

use crate::Tensor;
use crate::tensor::check;
use burn_backend::ops::{
    CoordinateTransformMode as Transform, CubicOptions, InterpolateMode as Mode,
    InterpolateOptions, ModuleOps, NearestRoundingMode as Rounding,
};
use burn_dispatch::Dispatch;

/// The spatial size of the output [`interpolate`] returns for an input of spatial size
/// `input_size`: `options.output_size`, or `floor(input_size · scale_factor)`.
///
/// # Panics
///
/// Unless exactly one of `output_size` and `scale_factor` is set, or when a scale factor is not
/// positive and finite.
pub fn interpolate_output_size(input_size: [usize; 2], options: &InterpolateOptions) -> [usize; 2] {
    let op = "interpolate";
    match (options.output_size, options.scale_factor) {
        (Some(size), None) => size,
        (None, Some(scale)) => core::array::from_fn(|i| {
            if !(scale[i] > 0.0 && scale[i].is_finite()) {
                check::fail(
                    op,
                    format_args!("expected positive finite scale factors, got {scale:?}"),
                );
            }
            let size = (input_size[i] as f64 * scale[i] as f64).floor();
            if size > usize::MAX as f64 {
                check::fail(
                    op,
                    format_args!("scale factors {scale:?} overflow input size {input_size:?}"),
                );
            }
            size as usize
        }),
        (Some(_), Some(_)) => check::fail(
            op,
            "expected one of output_size and scale_factor in the options, got both",
        ),
        (None, None) => check::fail(
            op,
            "expected output_size or scale_factor in the options (with_output_size, with_scale_factor), got neither",
        ),
    }
}

/// Why the backends cannot run `options`, if they cannot: they implement PyTorch's modes
/// (`nearest`, `nearest-exact`, `bilinear` and `bicubic` with `a = -0.75`, with or without
/// aligned corners), not every ONNX `Resize` variant.
fn unsupported(options: &InterpolateOptions) -> Option<String> {
    let transform = options.coordinate_transform;
    let supported = match options.mode {
        Mode::Nearest => {
            transform == Transform::Asymmetric && options.nearest_mode == Rounding::Floor
        }
        Mode::NearestExact => {
            transform == Transform::HalfPixel && options.nearest_mode == Rounding::RoundPreferCeil
        }
        Mode::Bilinear => matches!(transform, Transform::AlignCorners | Transform::HalfPixel),
        Mode::Bicubic => {
            matches!(transform, Transform::AlignCorners | Transform::HalfPixel)
                && options.cubic_options == CubicOptions::default()
        }
        Mode::Lanczos3 => false,
    };
    (!supported).then(|| {
        format!(
            "mode {:?} with {transform:?} coordinates, {:?} rounding and {:?} is not supported; \
             supported are PyTorch's modes: Nearest (Asymmetric, Floor), NearestExact (HalfPixel, \
             RoundPreferCeil), Bilinear and Bicubic (AlignCorners or HalfPixel, default cubic options)",
            options.mode, options.nearest_mode, options.cubic_options
        )
    })
}

/// Resizes `x [batch, channels, height, width]` to the size the options give (an output size,
/// or a scale of the input's), sampling as `options.mode` says (PyTorch's
/// `F.interpolate`).
///
/// # Panics
///
/// Unless exactly one of `output_size` and `scale_factor` is set; when the sampling options are
/// not one of PyTorch's modes; or when a scale factor does not give a whole output size for a
/// mode whose coordinates depend on the scale (PyTorch then samples at `o / scale`, which
/// differs from the `o · in / out` the backends use).
pub fn interpolate(x: Tensor<4>, options: InterpolateOptions) -> Tensor<4> {
    let op = "interpolate";
    let [_, _, h, w] = x.dims();
    let output_size = interpolate_output_size([h, w], &options);
    if output_size.contains(&0) {
        check::fail(op, format_args!("output size {output_size:?} has a zero"));
    }
    if let Some(reason) = unsupported(&options) {
        check::fail(op, reason);
    }
    if let Some(scale) = options.scale_factor
        && !options.align_corners()
    {
        // The backends sample at `o · in / out`; PyTorch, given a scale, at `o / scale`. They
        // agree (to rounding) when the scale gives a whole size.
        let inexact = (0..2).any(|i| {
            let scaled = [h, w][i] as f64 * scale[i] as f64;
            (scaled - output_size[i] as f64).abs() > 1e-6 * scaled.max(1.0)
        });
        if inexact {
            check::fail(
                op,
                format_args!(
                    "scale factors {scale:?} of an input {:?} give no whole output size; pass \
                     with_output_size({output_size:?}) instead",
                    [h, w]
                ),
            );
        }
    }
    Tensor::from_primitive(Dispatch::interpolate(
        x.into_primitive(),
        output_size,
        options,
    ))
}
