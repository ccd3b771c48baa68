//! What the neural-network kernels (convolutions, pools, interpolation) share: checks of their
//! operands with messages naming the operation, output sizes, launch arguments, and the
//! in-kernel decomposition of an output position into `[n, c, y, x]`.

use super::precision::compute_dtype;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::assert_same_device;
use burn_backend::{DType, Shape};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// The shape of `tensor` as `[n, c, h, w]`; panics naming `op` and `what` unless it has rank 4.
pub(crate) fn dims4(op: &str, what: &str, tensor: &CubeTensor) -> [usize; 4] {
    tensor.shape.dims.as_slice().try_into().unwrap_or_else(|_| {
        panic!(
            "{op}: expected {what} of rank 4, got shape {:?}",
            tensor.shape.dims
        )
    })
}

/// Panics, naming `op`, unless `x` is a float tensor its device computes with.
pub(crate) fn assert_float(op: &str, x: &CubeTensor) {
    assert!(
        x.dtype.is_float(),
        "{op}: expected a float tensor, got {}",
        x.dtype
    );
    assert_arithmetic(op, &x.client, x.dtype);
}

/// Panics, naming `op` and `what`, unless `other` has `x`'s dtype and device.
pub(crate) fn assert_like(op: &str, what: &str, x: &CubeTensor, other: &CubeTensor) {
    assert_eq!(
        other.dtype, x.dtype,
        "{op}: expected {what} of dtype {}, got {}",
        x.dtype, other.dtype
    );
    assert_same_device(op, &[x, other]);
}

/// Panics, naming `op` and `what`, unless `tensor` has exactly `shape`.
pub(crate) fn assert_shape(op: &str, what: &str, tensor: &CubeTensor, shape: &[usize]) {
    assert_eq!(
        &tensor.shape.dims[..],
        shape,
        "{op}: expected {what} of shape {shape:?}, got {:?}",
        tensor.shape.dims
    );
}

/// Kernel size, stride, padding and dilation of a 2-d pooling window along `(h, w)`.
#[derive(CubeLaunch, CubeType)]
pub(crate) struct PoolParams {
    pub kernel_h: usize,
    pub kernel_w: usize,
    pub stride_h: usize,
    pub stride_w: usize,
    pub pad_h: usize,
    pub pad_w: usize,
    pub dil_h: usize,
    pub dil_w: usize,
}

/// A pooling window checked for zero sizes (panics naming `op`), with its output size over
/// an input plane, as kernel arguments.
pub(crate) struct Window {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

impl Window {
    /// The output size `[oh, ow]` over an input plane `[h, w]` (see [`window_out_len`]),
    /// after checking that no kernel size, stride or dilation is zero.
    pub fn out_size(&self, op: &str, [h, w]: [usize; 2]) -> [usize; 2] {
        assert_positive(op, "kernel size", &self.kernel);
        assert_positive(op, "stride", &self.stride);
        assert_positive(op, "dilation", &self.dilation);
        let along = |i: usize, len: usize| {
            let window = [
                self.kernel[i],
                self.stride[i],
                self.padding[i],
                self.dilation[i],
            ];
            window_out_len(op, len, window, self.ceil_mode)
        };
        [along(0, h), along(1, w)]
    }

    /// The window as a kernel argument.
    pub fn params(&self) -> PoolParamsLaunch {
        PoolParamsLaunch::new(
            self.kernel[0],
            self.kernel[1],
            self.stride[0],
            self.stride[1],
            self.padding[0],
            self.padding[1],
            self.dilation[0],
            self.dilation[1],
        )
    }
}

/// Panics, naming `op`, unless every entry of `values` is positive.
pub(crate) fn assert_positive(op: &str, what: &str, values: &[usize]) {
    assert!(
        values.iter().all(|&v| v > 0),
        "{op}: expected every {what} to be positive, got {values:?}"
    );
}

/// The storage and accumulation element types of a float kernel reading `x` (`f16`/`bf16`
/// accumulate in `f32`, `f32` and `f64` in themselves).
pub(crate) fn float_dtypes(x: &CubeTensor) -> [ElemType; 2] {
    [elem_type(x.dtype), elem_type(compute_dtype(x, false))]
}

/// The length of a sliding-window output along one axis: windows of `kernel` taps `dilation`
/// apart, `stride` apart, over `input` padded by `padding` on both sides. With `ceil_mode` a
/// partial last window counts when it starts inside the input or its left padding (PyTorch's
/// `pooling_output_shape`). Panics, naming `op`, when the dilated kernel exceeds the padded
/// input.
pub(crate) fn window_out_len(
    op: &str,
    input: usize,
    [kernel, stride, padding, dilation]: [usize; 4],
    ceil_mode: bool,
) -> usize {
    let extent = dilation * (kernel - 1) + 1;
    let padded = input + 2 * padding;
    assert!(
        padded >= extent,
        "{op}: expected the dilated kernel extent ({extent}) to fit the padded input \
         ({padded}), got input size {input}, kernel {kernel}, padding {padding}, dilation \
         {dilation}"
    );
    let span = padded - extent;
    let mut out = if ceil_mode {
        span.div_ceil(stride)
    } else {
        span / stride
    } + 1;
    if ceil_mode && (out - 1) * stride >= input + padding {
        out -= 1;
    }
    out
}

/// A new contiguous output of `shape` on `x`'s device, of `dtype`.
pub(crate) fn output_like(x: &CubeTensor, shape: [usize; 4], dtype: DType) -> CubeTensor {
    x.empty_contiguous_like(Shape::new(shape), dtype)
}

/// The dims of `shape` as fast divisors, to decompose a linear output position.
pub(crate) fn shape_divmod(shape: &[usize]) -> SequenceArg<FastDivmod<usize>> {
    let mut arg = SequenceArg::new();
    for &size in shape {
        arg.push(size);
    }
    arg
}

/// The coordinates `(n, c, y, x)` of the row-major position `pos` in a rank-4 shape.
#[cube]
pub(crate) fn coords4(
    pos: usize,
    shape: &Sequence<FastDivmod<usize>>,
) -> (usize, usize, usize, usize) {
    let (rest, x) = shape[3].div_mod(pos);
    let (rest, y) = shape[2].div_mod(rest);
    let (n, c) = shape[1].div_mod(rest);
    (n, c, y, x)
}

/// The offset of `[n, c, y, x]` in `tensor`, through its strides.
#[cube]
pub(crate) fn offset4<T: CubePrimitive>(
    tensor: &Tensor<T>,
    n: usize,
    c: usize,
    y: usize,
    x: usize,
) -> usize {
    n * tensor.stride(0) + c * tensor.stride(1) + y * tensor.stride(2) + x * tensor.stride(3)
}
