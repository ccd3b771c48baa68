//! 2-d interpolation (nearest, bilinear, bicubic) of NCHW tensors and its backward, following
//! PyTorch's `upsample_*` source-index and weight formulas as the CPU backend does.
//!
//! Every output row (column) reads 1, 2 or 4 input rows (columns) with weights computed from
//! its source coordinate. The backward is a gather: one unit per input element visits the
//! outputs whose source coordinate lies near it, recomputes their taps with the forward's own
//! function, and sums the gradient of those whose taps hit it.

use super::nn::{
    assert_float, assert_like, assert_shape, coords4, dims4, float_dtypes, offset4, output_like,
    shape_divmod,
};
use crate::CubeTensor;
use crate::launch::{address_type, elementwise_geometry};
use burn_backend::{InterpolateMode, InterpolateOptions, Scalar};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// The number of input taps per axis of each mode.
fn taps(mode: InterpolateMode) -> usize {
    match mode {
        InterpolateMode::Nearest | InterpolateMode::NearestExact => 1,
        InterpolateMode::Bilinear => 2,
        InterpolateMode::Bicubic => 4,
        InterpolateMode::Lanczos3 => panic!(
            "interpolate: Lanczos3 is not supported by Cube (modes: nearest, nearest-exact, bilinear, bicubic)"
        ),
    }
}

/// PyTorch's `area_pixel_compute_source_index`: the source coordinate of output `o` along an
/// axis of `len` inputs and `out` outputs. Without `align_corners`, linear modes clamp
/// negative coordinates to 0 and the cubic mode does not.
#[cube]
fn source<A: Float>(
    o: usize,
    len: usize,
    out: usize,
    #[comptime] align_corners: bool,
    #[comptime] cubic: bool,
) -> A {
    if comptime![align_corners] {
        let scale = A::cast_from(len - 1) / A::cast_from(max(out, 2) - 1);
        select(out > 1, scale, A::new(0.0)) * A::cast_from(o)
    } else {
        let half = A::new(0.5);
        let src = A::cast_from(len) / A::cast_from(out) * (A::cast_from(o) + half) - half;
        if comptime![cubic] {
            src
        } else {
            max(src, A::new(0.0))
        }
    }
}

/// The Keys cubic-convolution weight (a = −0.75) of tap `k` (offsets −1, 0, 1, 2) at fraction
/// `t` of the way from the tap at offset 0 to the next.
#[cube]
fn cubic_weight<A: Float>(t: A, #[comptime] k: usize) -> A {
    let a = A::new(-0.75);
    let one = A::new(1.0);
    // |d| <= 1 and 1 < |d| < 2 branches of the kernel.
    let x = if comptime![k == 0] {
        t + one
    } else if comptime![k == 1] {
        t
    } else if comptime![k == 2] {
        one - t
    } else {
        A::new(2.0) - t
    };
    if comptime![k == 1 || k == 2] {
        ((a + A::new(2.0)) * x - (a + A::new(3.0))) * x * x + one
    } else {
        ((a * x - A::new(5.0) * a) * x + A::new(8.0) * a) * x - A::new(4.0) * a
    }
}

/// Tap `k` of output `o` along an axis of `len` inputs and `out` outputs: the input index and
/// its weight.
#[cube]
fn axis_tap<A: Float>(
    o: usize,
    len: usize,
    out: usize,
    #[comptime] k: usize,
    #[comptime] mode: InterpolateMode,
    #[comptime] align_corners: bool,
) -> (usize, A) {
    let last = len - 1;
    match mode {
        // PyTorch's `nearest`: floor(o·len/out), exact in integers.
        InterpolateMode::Nearest => (min(o * len / out, last), A::new(1.0)),
        // PyTorch's `nearest-exact`: floor((o + ½)·len/out), exact in integers.
        InterpolateMode::NearestExact => (min((2 * o + 1) * len / (2 * out), last), A::new(1.0)),
        // Refused on the host by `taps` before any launch.
        InterpolateMode::Lanczos3 => (min(o * len / out, last), A::new(1.0)),
        InterpolateMode::Bilinear => {
            let src = source::<A>(o, len, out, align_corners, false);
            let i0 = min(usize::cast_from(A::floor(src)), last);
            let l1 = src - A::cast_from(i0);
            if comptime![k == 0] {
                (i0, A::new(1.0) - l1)
            } else {
                (min(i0 + 1, last), l1)
            }
        }
        InterpolateMode::Bicubic => {
            let src = source::<A>(o, len, out, align_corners, true);
            let base = A::floor(src);
            let i = i32::cast_from(base) + comptime![k as i32 - 1];
            let i = min(max(i, 0i32), i32::cast_from(last));
            (usize::cast_from(i), cubic_weight::<A>(src - base, k))
        }
    }
}

#[cube(launch, address_type = "dynamic")]
fn interpolate_kernel<F: Float, A: Float>(
    x: &Tensor<F>,
    output: &mut Tensor<F>,
    out_shape: Sequence<FastDivmod<usize>>,
    #[comptime] mode: InterpolateMode,
    #[comptime] align_corners: bool,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, oy, ox) = coords4(ABSOLUTE_POS, &out_shape);
    let (height, width) = (x.shape(2), x.shape(3));
    let (out_h, out_w) = (output.shape(2), output.shape(3));
    let count = comptime![taps(mode)];
    let mut acc = A::new(0.0);
    #[unroll]
    for ky in 0..count {
        let (iy, wy) = axis_tap::<A>(oy, height, out_h, ky, mode, align_corners);
        let mut row = A::new(0.0);
        #[unroll]
        for kx in 0..count {
            let (ix, wx) = axis_tap::<A>(ox, width, out_w, kx, mode, align_corners);
            row += wx * A::cast_from(x[offset4(x, n, c, iy, ix)]);
        }
        acc += wy * row;
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// Whether a tap of output `o` reads input `i`, and the sum of the weights of those that do.
#[cube]
fn weight_on<A: Float>(
    o: usize,
    i: usize,
    len: usize,
    out: usize,
    #[comptime] mode: InterpolateMode,
    #[comptime] align_corners: bool,
) -> (bool, A) {
    let mut hit = false;
    let mut weight = A::new(0.0);
    #[unroll]
    for k in 0..comptime![taps(mode)] {
        let (index, w) = axis_tap::<A>(o, len, out, k, mode, align_corners);
        if index == i {
            hit = true;
            weight += w;
        }
    }
    (hit, weight)
}

/// The outputs `lo..hi` along an axis that may read input `i`: every tap lies within 2 of its
/// source coordinate, so the outputs whose coordinate is within 2 of `i` (widened by one
/// output for rounding), and at the first and last input every output (clamped taps land
/// there). Nearest sampling uses the half-pixel mapping (`align_corners` false).
#[cube]
fn candidates<A: Float>(
    i: usize,
    len: usize,
    out: usize,
    #[comptime] align_corners: bool,
) -> (usize, usize) {
    let reach = A::new(2.0);
    let at = A::cast_from(i);
    let (lo, hi) = if comptime![align_corners] {
        let scale = A::cast_from(out - 1) / A::cast_from(max(len, 2) - 1);
        ((at - reach) * scale, (at + reach) * scale)
    } else {
        let scale = A::cast_from(out) / A::cast_from(len);
        let half = A::new(0.5);
        (
            (at - reach + half) * scale - half,
            (at + reach + half) * scale - half,
        )
    };
    let lo = max(i32::cast_from(A::floor(lo)) - 1i32, 0i32);
    let hi = min(i32::cast_from(A::ceil(hi)) + 2i32, i32::cast_from(out));
    let lo = select(i == 0 || len == 1, 0usize, usize::cast_from(lo));
    let hi = select(i + 1 >= len, out, usize::cast_from(max(hi, 0i32)));
    (lo, hi)
}

/// Input gradient `[n, c, y, x]` = Σ over the outputs `(oy, ox)` that read it of
/// `w_y(oy) · w_x(ox) · grad[n, c, oy, ox]`.
#[cube(launch, address_type = "dynamic")]
fn interpolate_backward_kernel<F: Float, A: Float>(
    grad: &Tensor<F>,
    output: &mut Tensor<F>,
    in_shape: Sequence<FastDivmod<usize>>,
    #[comptime] mode: InterpolateMode,
    #[comptime] align_corners: bool,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, y, x) = coords4(ABSOLUTE_POS, &in_shape);
    let (height, width) = (output.shape(2), output.shape(3));
    let (out_h, out_w) = (grad.shape(2), grad.shape(3));
    let (oy0, oy1) = candidates::<A>(y, height, out_h, align_corners);
    let (ox0, ox1) = candidates::<A>(x, width, out_w, align_corners);
    let mut acc = A::new(0.0);
    for oy in oy0..oy1 {
        let (hit_y, wy) = weight_on::<A>(oy, y, height, out_h, mode, align_corners);
        if hit_y {
            let mut row = A::new(0.0);
            for ox in ox0..ox1 {
                let (hit_x, wx) = weight_on::<A>(ox, x, width, out_w, mode, align_corners);
                if hit_x {
                    row += wx * A::cast_from(grad[offset4(grad, n, c, oy, ox)]);
                }
            }
            acc += wy * row;
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// The `align_corners` the kernels see: nearest sampling ignores it.
fn align_flag(options: &InterpolateOptions) -> bool {
    options.align_corners()
        && !matches!(
            options.mode,
            InterpolateMode::Nearest | InterpolateMode::NearestExact
        )
}

/// Panics, naming `op`, when an empty input plane is interpolated to a non-empty one.
fn check_plane(op: &str, [h, w]: [usize; 2], [oh, ow]: [usize; 2]) {
    assert!(
        (h > 0 || oh == 0) && (w > 0 || ow == 0),
        "{op}: expected a non-empty input plane to interpolate to {:?}, got {:?}",
        [oh, ow],
        [h, w]
    );
}

/// Launches `kernel` over every element of `output`, reading `input`.
macro_rules! launch_interpolate {
    ($kernel:ident, $input:expr, $output:expr, $options:expr) => {{
        let (input, output, options): (CubeTensor, CubeTensor, InterpolateOptions) =
            ($input, $output, $options);
        let count = output.num_elements();
        if count > 0 {
            let client = input.client.clone();
            let (cube_count, cube_dim) = elementwise_geometry(&client, count);
            let addresses = address_type(&[&input, &output]);
            let dtypes = float_dtypes(&input);
            crate::launch::before_launch(&client);
            $kernel::launch(
                &client,
                cube_count,
                cube_dim,
                addresses,
                input.binding().into_tensor_arg(),
                output.clone().binding().into_tensor_arg(),
                shape_divmod(&output.shape.dims),
                options.mode,
                align_flag(&options),
                dtypes,
            );
        }
        output
    }};
}

/// Resizes `x [n, c, h, w]` to `[n, c, oh, ow]`, as `ModuleOps::interpolate` (PyTorch's
/// formulas): `Nearest` reads input `floor(o·len/out)`; `Bilinear` and `Bicubic` (Keys
/// kernel, a = −0.75, border taps clamped) sample at `o·(len−1)/(out−1)` with
/// `align_corners`, else at `(o + ½)·len/out − ½` (clamped at 0 for bilinear). `x` is read
/// through its strides; `f16` computes in `f32`.
///
/// # Panics
///
/// When `x` is not a rank-4 float tensor, or its plane is empty while the output is not.
pub fn interpolate(
    x: CubeTensor,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> CubeTensor {
    const OP: &str = "interpolate";
    let [n, c, h, w] = dims4(OP, "x", &x);
    assert_float(OP, &x);
    check_plane(OP, [h, w], output_size);
    let output = output_like(&x, [n, c, output_size[0], output_size[1]], x.dtype);
    launch_interpolate!(interpolate_kernel, x, output, options)
}

/// The gradient of [`interpolate`] with respect to `x`, from `grad [n, c, oh, ow]`, as
/// `ModuleOps::interpolate_backward`: each gradient value goes to the taps it was
/// interpolated from, with the same weights. Only `x`'s shape, dtype and device are used.
///
/// # Panics
///
/// As [`interpolate`], and when `grad` is not `[n, c, oh, ow]` of `x`'s dtype and device.
pub fn interpolate_backward(
    x: CubeTensor,
    grad: CubeTensor,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> CubeTensor {
    const OP: &str = "interpolate_backward";
    let [n, c, h, w] = dims4(OP, "x", &x);
    assert_float(OP, &x);
    assert_like(OP, "an output gradient", &x, &grad);
    assert_shape(
        OP,
        "an output gradient",
        &grad,
        &[n, c, output_size[0], output_size[1]],
    );
    check_plane(OP, [h, w], output_size);
    let output = output_like(&x, [n, c, h, w], x.dtype);
    if grad.num_elements() == 0 {
        return super::fill::fill(output, Scalar::Int(0));
    }
    launch_interpolate!(interpolate_backward_kernel, grad, output, options)
}
