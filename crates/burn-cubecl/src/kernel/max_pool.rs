//! Max pooling with the index of each maximum, and its backward written as a gather.
//!
//! The backward contract (`ModuleOps::max_pool2d_with_indices_backward`) gives only the
//! indices, not the window, so an input element cannot compute which outputs may point at it.
//! A first pass records, per output row, the range of input rows its indices point into; the
//! gather then visits only the output rows whose range holds its row, and compares indices
//! there. Sums are formed per input element, in output order, without atomics.

use super::nn::{
    PoolParams, Window, assert_float, assert_like, coords4, dims4, float_dtypes, offset4,
    output_like, shape_divmod,
};
use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_storage, elem_type};
use crate::launch::{address_type, elementwise_geometry};
use burn_backend::{DType, Scalar};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Values `[n, c, oy, ox]` = the largest input in the window, `indices` = its position
/// `iy·w + ix` in the plane. Like PyTorch, a NaN wins (the last NaN, as later NaNs replace it)
/// and the first position wins ties; a window without input positions gives `-inf` at 0.
#[cube(launch, address_type = "dynamic")]
fn max_pool2d_kernel<F: Float, I: Int>(
    x: &Tensor<F>,
    output: &mut Tensor<F>,
    out_shape: Sequence<FastDivmod<usize>>,
    params: PoolParams,
    indices: &mut Tensor<I>,
    neg_infinity: InputScalar,
    #[define(F, I)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, oy, ox) = coords4(ABSOLUTE_POS, &out_shape);
    let (height, width) = (x.shape(2), x.shape(3));
    // -inf comes as an argument: WGSL has no literal for it.
    let mut best = neg_infinity.get::<F>();
    let mut best_at = 0usize;
    let mut first = true;
    for ky in 0..params.kernel_h {
        let py = oy * params.stride_h + ky * params.dil_h;
        if py >= params.pad_h && py < height + params.pad_h {
            let iy = py - params.pad_h;
            for kx in 0..params.kernel_w {
                let px = ox * params.stride_w + kx * params.dil_w;
                if px >= params.pad_w && px < width + params.pad_w {
                    let ix = px - params.pad_w;
                    let value = x[offset4(x, n, c, iy, ix)];
                    // Scalar `is_nan` is typed per element; a one-lane vector yields a `bool`.
                    let nan = Vector::<F, Const<1>>::new(value).is_nan().extract(0usize);
                    if first || value > best || nan {
                        best = value;
                        best_at = iy * width + ix;
                        first = false;
                    }
                }
            }
        }
    }
    output[ABSOLUTE_POS] = best;
    indices[ABSOLUTE_POS] = I::cast_from(best_at);
}

/// Whether `index` (a flat in-plane position) is in `0..plane`, and it as `usize`.
#[cube]
fn plane_index<I: Int>(index: I, plane: usize) -> (bool, usize) {
    let at = usize::cast_from(index);
    (index >= I::from_int(0) && at < plane, at)
}

/// For output row `[n, c, oy]`: the smallest and largest input row its indices point into
/// (`height, 0` when none is in the plane), as `rows[n, c, oy, 0..2]`.
#[cube(launch, address_type = "dynamic")]
fn index_rows_kernel<I: Int>(
    indices: &Tensor<I>,
    rows: &mut Tensor<u32>,
    rows_shape: Sequence<FastDivmod<usize>>,
    height: usize,
    width: usize,
    #[define(I)] _dtype: ElemType,
) {
    if ABSOLUTE_POS * 2 >= rows.len() {
        terminate!();
    }
    let (n, c, oy, _) = coords4(ABSOLUTE_POS * 2, &rows_shape);
    let mut lo = height;
    let mut hi = 0usize;
    for ox in 0..indices.shape(3) {
        let (valid, at) = plane_index::<I>(indices[offset4(indices, n, c, oy, ox)], height * width);
        if valid {
            let row = at / width;
            lo = min(lo, row);
            hi = max(hi, row);
        }
    }
    rows[ABSOLUTE_POS * 2] = u32::cast_from(lo);
    rows[ABSOLUTE_POS * 2 + 1] = u32::cast_from(hi);
}

/// Input gradient `[n, c, y, x]` = Σ, over the outputs whose index is `y·w + x`, of their
/// gradient (only output rows whose index range holds `y` are searched).
#[cube(launch, address_type = "dynamic")]
fn max_pool2d_backward_kernel<F: Float, A: Float, I: Int>(
    grad: &Tensor<F>,
    output: &mut Tensor<F>,
    in_shape: Sequence<FastDivmod<usize>>,
    indices: &Tensor<I>,
    rows: &Tensor<u32>,
    #[define(F, A, I)] _dtypes: [ElemType; 3],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let (n, c, y, x) = coords4(ABSOLUTE_POS, &in_shape);
    let (height, width) = (output.shape(2), output.shape(3));
    let target = y * width + x;
    let mut acc = A::new(0.0);
    for oy in 0..indices.shape(2) {
        let range = offset4(rows, n, c, oy, 0);
        if usize::cast_from(rows[range]) <= y && y <= usize::cast_from(rows[range + 1]) {
            for ox in 0..indices.shape(3) {
                let index = indices[offset4(indices, n, c, oy, ox)];
                let (valid, at) = plane_index::<I>(index, height * width);
                if valid && at == target {
                    acc += A::cast_from(grad[offset4(grad, n, c, oy, ox)]);
                }
            }
        }
    }
    output[ABSOLUTE_POS] = F::cast_from(acc);
}

/// 2-d max pooling of `x [n, c, h, w]` and the index of each maximum, as
/// `ModuleOps::max_pool2d_with_indices`: windows of `kernel_size` taps `dilation` apart,
/// `stride` apart, over the input padded by `padding` (padding never wins), `ceil_mode` as in
/// PyTorch. Returns the values `[n, c, oh, ow]` (the input dtype) and the flat in-plane index
/// `iy·w + ix` of each maximum, of the integer dtype `index_dtype`. NaN wins a window (like
/// PyTorch), the first position wins ties, and a window holding no input position (possible
/// when the padding exceeds half the dilated kernel) gives `-inf` at index 0. `x` is read
/// through its strides.
///
/// # Panics
///
/// When `x` is not a rank-4 float tensor, a kernel size, stride or dilation is zero, the
/// dilated kernel exceeds the padded input, or `index_dtype` is not an integer dtype the
/// device stores.
pub fn max_pool2d_with_indices(
    x: CubeTensor,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
    index_dtype: DType,
) -> (CubeTensor, CubeTensor) {
    const OP: &str = "max_pool2d_with_indices";
    let [n, c, h, w] = dims4(OP, "x", &x);
    assert_float(OP, &x);
    check_index_dtype(OP, &x, index_dtype);
    let window = Window {
        kernel: kernel_size,
        stride,
        padding,
        dilation,
        ceil_mode,
    };
    let [oh, ow] = window.out_size(OP, [h, w]);
    let output = output_like(&x, [n, c, oh, ow], x.dtype);
    let indices = output_like(&x, [n, c, oh, ow], index_dtype);
    let count = output.num_elements();
    if count > 0 {
        let client = x.client.clone();
        let (cube_count, cube_dim) = elementwise_geometry(&client, count);
        let addresses = address_type(&[&x, &output, &indices]);
        let dtypes = [elem_type(x.dtype), elem_type(index_dtype)];
        let neg_infinity = scalar_arg(Scalar::Float(f64::NEG_INFINITY), x.dtype);
        crate::launch::before_launch(&client);
        max_pool2d_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            addresses,
            x.binding().into_tensor_arg(),
            output.clone().binding().into_tensor_arg(),
            shape_divmod(&output.shape.dims),
            window.params(),
            indices.clone().binding().into_tensor_arg(),
            neg_infinity,
            dtypes,
        );
    }
    (output, indices)
}

/// The gradient of max pooling with respect to `x`, as
/// `ModuleOps::max_pool2d_with_indices_backward`: each value of `grad [n, c, oh, ow]` is added
/// at the input position its index (from [`max_pool2d_with_indices`], flat in the plane) names;
/// indices outside the plane (negative or past `h·w`) are ignored. Only `x`'s shape, dtype and
/// device are used. The sums run in the accumulation type (`f32` for `f16`), in output order.
///
/// # Panics
///
/// When `x` and `grad` are not rank-4 floats of one dtype and device, `indices` is not an
/// integer tensor of `grad`'s shape, or the batch and channel counts differ from `x`'s.
pub fn max_pool2d_with_indices_backward(
    x: CubeTensor,
    grad: CubeTensor,
    indices: CubeTensor,
) -> CubeTensor {
    const OP: &str = "max_pool2d_with_indices_backward";
    let [n, c, h, w] = dims4(OP, "x", &x);
    let [gn, gc, oh, _] = dims4(OP, "an output gradient", &grad);
    assert_float(OP, &x);
    assert_like(OP, "an output gradient", &x, &grad);
    check_index_dtype(OP, &x, indices.dtype);
    assert_eq!(
        indices.shape, grad.shape,
        "{OP}: expected indices of the output gradient's shape {:?}, got {:?}",
        grad.shape.dims, indices.shape.dims
    );
    assert!(
        [gn, gc] == [n, c],
        "{OP}: expected an output gradient of batch and channels [{n}, {c}] (x {:?}), got {:?}",
        x.shape.dims,
        grad.shape.dims
    );
    let output = output_like(&x, [n, c, h, w], x.dtype);
    let count = output.num_elements();
    if count == 0 {
        return output;
    }
    let client = x.client.clone();
    let index_elem = elem_type(indices.dtype);
    let rows = output_like(&x, [n, c, oh, 2], DType::U32);
    if rows.num_elements() > 0 {
        let (cube_count, cube_dim) = elementwise_geometry(&client, n * c * oh);
        crate::launch::before_launch(&client);
        index_rows_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            address_type(&[&indices, &rows]),
            indices.clone().binding().into_tensor_arg(),
            rows.clone().binding().into_tensor_arg(),
            shape_divmod(&rows.shape.dims),
            h,
            w,
            index_elem,
        );
    }
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    let [float, accumulate] = float_dtypes(&x);
    crate::launch::before_launch(&client);
    max_pool2d_backward_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&grad, &output, &indices, &rows]),
        grad.binding().into_tensor_arg(),
        output.clone().binding().into_tensor_arg(),
        shape_divmod(&output.shape.dims),
        indices.binding().into_tensor_arg(),
        rows.binding().into_tensor_arg(),
        [float, accumulate, index_elem],
    );
    output
}

/// Panics, naming `op`, unless `dtype` is an integer dtype `x`'s device stores.
fn check_index_dtype(op: &str, x: &CubeTensor, dtype: DType) {
    assert!(
        dtype.is_int(),
        "{op}: expected an integer index dtype, got {dtype}"
    );
    assert_storage(op, &x.client, dtype);
}
