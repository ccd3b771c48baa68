//! Output rules: the shape and dtype of an operation's outputs, computed from its recorded
//! arguments without running it. Each rule checks what it relies on and panics naming the
//! operation, as the executing backend would.

use crate::tensor::TensorIr;
use burn_backend::{
    ConvOptions, ConvTransposeOptions, DType, DeviceSettings, FloatDType, Shape, Slice,
};
use core::ops::Range;

/// What a rule may read besides the arguments: the operation's name (for panics) and the
/// device's default dtypes (the dtype of indices and comparison results).
#[derive(Debug, Clone, Copy)]
pub struct RuleCtx {
    /// The backend method being recorded.
    pub op: &'static str,
    /// The settings of the device the operation runs on.
    pub settings: DeviceSettings,
}

/// The shape and dtype of one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorSpec {
    /// The output's shape.
    pub shape: Shape,
    /// The output's dtype.
    pub dtype: DType,
}

impl TensorSpec {
    fn new(shape: Shape, dtype: DType) -> Self {
        Self { shape, dtype }
    }
}

/// The input's shape and dtype.
pub fn same(_c: &RuleCtx, t: &TensorIr) -> TensorSpec {
    TensorSpec::new(t.shape.clone(), t.dtype)
}

/// The input's shape, another dtype.
pub fn cast(_c: &RuleCtx, t: &TensorIr, dtype: impl Into<DType>) -> TensorSpec {
    TensorSpec::new(t.shape.clone(), dtype.into())
}

/// A new tensor of `shape` and `dtype`.
pub fn new(_c: &RuleCtx, shape: &Shape, dtype: impl Into<DType>) -> TensorSpec {
    TensorSpec::new(shape.clone(), dtype.into())
}

fn broadcast_shape(c: &RuleCtx, a: &Shape, b: &Shape) -> Shape {
    a.broadcast(b).unwrap_or_else(|| {
        panic!(
            "{}: shapes {:?} and {:?} cannot be broadcast together",
            c.op, a.dims, b.dims
        )
    })
}

/// The broadcast shape, the left operand's dtype.
pub fn broadcast(c: &RuleCtx, a: &TensorIr, b: &TensorIr) -> TensorSpec {
    TensorSpec::new(broadcast_shape(c, &a.shape, &b.shape), a.dtype)
}

/// The broadcast shape, the wider of two float dtypes (mixed float operands are promoted).
pub fn promote(c: &RuleCtx, a: &TensorIr, b: &TensorIr) -> TensorSpec {
    let dtype = if a.dtype != b.dtype && a.dtype.is_float() && b.dtype.is_float() {
        FloatDType::from_dtype(a.dtype)
            .widest(FloatDType::from_dtype(b.dtype))
            .into()
    } else {
        a.dtype
    };
    TensorSpec::new(broadcast_shape(c, &a.shape, &b.shape), dtype)
}

/// A comparison of two tensors: the broadcast shape, the device's bool dtype.
pub fn compare(c: &RuleCtx, a: &TensorIr, b: &TensorIr) -> TensorSpec {
    TensorSpec::new(
        broadcast_shape(c, &a.shape, &b.shape),
        c.settings.bool_dtype,
    )
}

/// A comparison with a scalar (or a predicate): the input's shape, the device's bool dtype.
pub fn compare_scalar(c: &RuleCtx, t: &TensorIr) -> TensorSpec {
    TensorSpec::new(t.shape.clone(), c.settings.bool_dtype)
}

/// `value` where `mask`, else `tensor`: the shape all three broadcast to, the tensor's dtype.
pub fn mask_where(c: &RuleCtx, t: &TensorIr, mask: &TensorIr, value: &TensorIr) -> TensorSpec {
    let shape = broadcast_shape(c, &t.shape, &mask.shape);
    TensorSpec::new(broadcast_shape(c, &shape, &value.shape), t.dtype)
}

/// A scalar where `mask`, else `tensor`: the broadcast shape, the tensor's dtype.
pub fn mask_fill(c: &RuleCtx, t: &TensorIr, mask: &TensorIr) -> TensorSpec {
    TensorSpec::new(broadcast_shape(c, &t.shape, &mask.shape), t.dtype)
}

/// A batched matrix product: the batch dims broadcast, then `[m, n]`.
pub fn matmul(c: &RuleCtx, a: &TensorIr, b: &TensorIr) -> TensorSpec {
    let (ra, rb) = (a.shape.num_dims(), b.shape.num_dims());
    assert!(
        ra >= 2 && rb >= 2,
        "{}: expected operands of rank at least 2, got {:?} and {:?}",
        c.op,
        a.shape.dims,
        b.shape.dims
    );
    let (m, k) = (a.shape.dims[ra - 2], a.shape.dims[ra - 1]);
    let (k2, n) = (b.shape.dims[rb - 2], b.shape.dims[rb - 1]);
    assert!(
        k == k2,
        "{}: inner dimensions differ ({:?} × {:?})",
        c.op,
        a.shape.dims,
        b.shape.dims
    );
    let batch_a = Shape::new(a.shape.dims[..ra - 2].to_vec());
    let batch_b = Shape::new(b.shape.dims[..rb - 2].to_vec());
    let mut dims = broadcast_shape(c, &batch_a, &batch_b).dims;
    dims.extend([m, n]);
    TensorSpec::new(Shape::new(dims), a.dtype.max_float(b.dtype))
}

trait MaxFloat {
    fn max_float(self, other: DType) -> DType;
}

impl MaxFloat for DType {
    fn max_float(self, other: DType) -> DType {
        if self != other && self.is_float() && other.is_float() {
            FloatDType::from_dtype(self)
                .widest(FloatDType::from_dtype(other))
                .into()
        } else {
            self
        }
    }
}

fn check_dim(c: &RuleCtx, t: &TensorIr, dim: usize) {
    assert!(
        dim < t.shape.num_dims(),
        "{}: dim {dim} is out of range for a tensor of rank {}",
        c.op,
        t.shape.num_dims()
    );
}

/// A reduction over every element: shape `[1]`, the input's dtype.
pub fn reduce_all(_c: &RuleCtx, t: &TensorIr) -> TensorSpec {
    TensorSpec::new(Shape::new([1]), t.dtype)
}

/// A reduction along `dim`, kept with size 1.
pub fn reduce_dim(c: &RuleCtx, t: &TensorIr, dim: usize) -> TensorSpec {
    check_dim(c, t, dim);
    let mut dims = t.shape.dims.clone();
    dims[dim] = 1;
    TensorSpec::new(Shape::new(dims), t.dtype)
}

/// The position of an extremum along `dim`: size 1 there, the device's int dtype.
pub fn arg_dim(c: &RuleCtx, t: &TensorIr, dim: usize) -> TensorSpec {
    let spec = reduce_dim(c, t, dim);
    TensorSpec::new(spec.shape, c.settings.int_dtype.into())
}

/// Values of `spec` paired with their indices (same shape, the device's int dtype).
pub fn with_indices(c: &RuleCtx, spec: TensorSpec) -> [TensorSpec; 2] {
    let indices = TensorSpec::new(spec.shape.clone(), c.settings.int_dtype.into());
    [spec, indices]
}

/// Two dimensions exchanged.
pub fn swap_dims(c: &RuleCtx, t: &TensorIr, a: usize, b: usize) -> TensorSpec {
    check_dim(c, t, a);
    check_dim(c, t, b);
    let mut dims = t.shape.dims.clone();
    dims.swap(a, b);
    TensorSpec::new(Shape::new(dims), t.dtype)
}

/// Dimensions reordered: output dim `i` is input dim `axes[i]`.
pub fn permute(c: &RuleCtx, t: &TensorIr, axes: &[usize]) -> TensorSpec {
    let rank = t.shape.num_dims();
    let mut seen = vec![false; rank];
    let valid = axes.len() == rank
        && axes
            .iter()
            .all(|&a| a < rank && !std::mem::replace(&mut seen[a], true));
    assert!(
        valid,
        "{}: {axes:?} is not a permutation of the {rank} dims",
        c.op
    );
    let dims = axes.iter().map(|&a| t.shape.dims[a]).collect::<Vec<_>>();
    TensorSpec::new(Shape::new(dims), t.dtype)
}

/// The same elements in another shape.
pub fn reshape(c: &RuleCtx, t: &TensorIr, shape: &Shape) -> TensorSpec {
    assert!(
        shape.num_elements() == t.shape.num_elements(),
        "{}: cannot reshape {:?} ({} elements) into {:?}",
        c.op,
        t.shape.dims,
        t.shape.num_elements(),
        shape.dims
    );
    TensorSpec::new(shape.clone(), t.dtype)
}

/// Broadcast to `shape`.
pub fn expand(c: &RuleCtx, t: &TensorIr, shape: &Shape) -> TensorSpec {
    let fits = t.shape.broadcast(shape).as_ref() == Some(shape);
    assert!(
        fits,
        "{}: cannot expand {:?} to {:?}",
        c.op, t.shape.dims, shape.dims
    );
    TensorSpec::new(shape.clone(), t.dtype)
}

/// The sizes `slices` take from each dimension (missing trailing slices take everything).
pub fn slice(c: &RuleCtx, t: &TensorIr, slices: &[Slice]) -> TensorSpec {
    assert!(
        slices.len() <= t.shape.num_dims(),
        "{}: {} slices for a tensor of rank {}",
        c.op,
        slices.len(),
        t.shape.num_dims()
    );
    let dims = t
        .shape
        .dims
        .iter()
        .enumerate()
        .map(|(d, &size)| slices.get(d).map_or(size, |s| s.output_size(size)))
        .collect::<Vec<_>>();
    TensorSpec::new(Shape::new(dims), t.dtype)
}

/// Gathered values: the indices' shape, the tensor's dtype.
pub fn gather(_c: &RuleCtx, t: &TensorIr, indices: &TensorIr) -> TensorSpec {
    TensorSpec::new(indices.shape.clone(), t.dtype)
}

/// Selected slices along `dim`: that dim becomes the number of indices.
pub fn select(c: &RuleCtx, t: &TensorIr, dim: usize, indices: &TensorIr) -> TensorSpec {
    check_dim(c, t, dim);
    let mut dims = t.shape.dims.clone();
    dims[dim] = indices.shape.num_elements();
    TensorSpec::new(Shape::new(dims), t.dtype)
}

/// Tensors joined along `dim`.
pub fn cat(c: &RuleCtx, tensors: &[TensorIr], dim: usize) -> TensorSpec {
    let first = tensors
        .first()
        .unwrap_or_else(|| panic!("{}: expected at least one tensor", c.op));
    check_dim(c, first, dim);
    let mut dims = first.shape.dims.clone();
    dims[dim] = tensors.iter().map(|t| t.shape.dims[dim]).sum();
    TensorSpec::new(Shape::new(dims), first.dtype)
}

/// `dim` repeated `times` times.
pub fn repeat_dim(c: &RuleCtx, t: &TensorIr, dim: usize, times: usize) -> TensorSpec {
    check_dim(c, t, dim);
    let mut dims = t.shape.dims.clone();
    dims[dim] *= times;
    TensorSpec::new(Shape::new(dims), t.dtype)
}

/// `range` by `step`: `ceil(len / step)` values.
pub fn arange(c: &RuleCtx, range: &Range<i64>, step: usize, dtype: impl Into<DType>) -> TensorSpec {
    assert!(step > 0, "{}: step must be positive", c.op);
    let len = (range.end - range.start).max(0) as usize;
    TensorSpec::new(Shape::new([len.div_ceil(step)]), dtype.into())
}

/// A `[n, c, h, w]` input resized to `[n, c, size[0], size[1]]`.
pub fn spatial(c: &RuleCtx, x: &TensorIr, size: [usize; 2]) -> TensorSpec {
    assert!(
        x.shape.num_dims() == 4,
        "{}: expected a [n, c, h, w] input, got {:?}",
        c.op,
        x.shape.dims
    );
    let d = &x.shape.dims;
    TensorSpec::new(Shape::new([d[0], d[1], size[0], size[1]]), x.dtype)
}

/// The last two dims swapped.
pub fn transpose(c: &RuleCtx, t: &TensorIr) -> TensorSpec {
    let rank = t.shape.num_dims();
    if rank < 2 {
        return same(c, t);
    }
    swap_dims(c, t, rank - 2, rank - 1)
}

/// The rows of `weights [n, d]` at `indices`: `indices`' shape with `d` appended.
pub fn embedding(c: &RuleCtx, weights: &TensorIr, indices: &TensorIr) -> TensorSpec {
    assert!(
        weights.shape.num_dims() == 2,
        "{}: expected weights [n, d], got {:?}",
        c.op,
        weights.shape.dims
    );
    let mut dims = indices.shape.dims.clone();
    dims.push(weights.shape.dims[1]);
    TensorSpec::new(Shape::new(dims), weights.dtype)
}

/// The output length of a pooling window along one dim (PyTorch's `pooling_output_shape`).
fn pool_len(
    c: &RuleCtx,
    input: usize,
    k: usize,
    s: usize,
    p: usize,
    d: usize,
    ceil: bool,
) -> usize {
    assert!(
        k > 0 && s > 0 && d > 0,
        "{}: kernel, stride and dilation must be positive",
        c.op
    );
    let extent = d * (k - 1) + 1;
    assert!(
        input + 2 * p >= extent,
        "{}: expected the dilated kernel extent ({extent}) to fit the padded input ({})",
        c.op,
        input + 2 * p
    );
    let span = input + 2 * p - extent;
    let mut out = if ceil { span.div_ceil(s) } else { span / s } + 1;
    // With `ceil`, the last window must start inside the input or its left padding.
    if ceil && (out - 1) * s >= input + p {
        out -= 1;
    }
    out
}

/// A 2-d pooling of `x [n, c, h, w]`.
pub fn pool2d(
    c: &RuleCtx,
    x: &TensorIr,
    kernel: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil: bool,
) -> TensorSpec {
    let size: [usize; 2] = core::array::from_fn(|i| {
        let input = x.shape.dims.get(2 + i).copied().unwrap_or(0);
        pool_len(
            c,
            input,
            kernel[i],
            stride[i],
            padding[i],
            dilation[i],
            ceil,
        )
    });
    spatial(c, x, size)
}

fn conv_input(c: &RuleCtx, x: &TensorIr, weight: &TensorIr) {
    assert!(
        x.shape.num_dims() == 4 && weight.shape.num_dims() == 4,
        "{}: expected a [n, c, h, w] input and a 4-d weight, got {:?} and {:?}",
        c.op,
        x.shape.dims,
        weight.shape.dims
    );
}

/// A 2-d convolution of `x [n, c_in, h, w]` by `weight [c_out, c_in / groups, kh, kw]`.
pub fn conv2d(
    c: &RuleCtx,
    x: &TensorIr,
    weight: &TensorIr,
    options: &ConvOptions<2>,
) -> TensorSpec {
    conv_input(c, x, weight);
    let (xd, wd) = (&x.shape.dims, &weight.shape.dims);
    let size: [usize; 2] = core::array::from_fn(|i| {
        let (begin, end) = options.padding[i];
        pool_len(
            c,
            xd[2 + i] + begin + end,
            wd[2 + i],
            options.stride[i],
            0,
            options.dilation[i],
            false,
        )
    });
    TensorSpec::new(Shape::new([xd[0], wd[0], size[0], size[1]]), x.dtype)
}

/// A 2-d transposed convolution of `x [n, c_in, h, w]` by `weight [c_in, c_out / groups, kh, kw]`.
pub fn conv_transpose2d(
    c: &RuleCtx,
    x: &TensorIr,
    weight: &TensorIr,
    options: &ConvTransposeOptions<2>,
) -> TensorSpec {
    conv_input(c, x, weight);
    let (xd, wd) = (&x.shape.dims, &weight.shape.dims);
    let size: [usize; 2] = core::array::from_fn(|i| {
        transpose_len(
            c,
            xd[2 + i],
            wd[2 + i],
            options.stride[i],
            options.padding[i],
            options.padding_out[i],
            options.dilation[i],
        )
    });
    TensorSpec::new(
        Shape::new([xd[0], wd[1] * options.groups, size[0], size[1]]),
        x.dtype,
    )
}

/// The output length of a transposed convolution along one dim (the kernels' checks).
fn transpose_len(
    c: &RuleCtx,
    input: usize,
    k: usize,
    stride: usize,
    padding: usize,
    padding_out: usize,
    dilation: usize,
) -> usize {
    assert!(
        input > 0 && k > 0,
        "{}: expected non-empty spatial input and kernel",
        c.op
    );
    let full = (input - 1) * stride + dilation * (k - 1) + padding_out + 1;
    assert!(
        full > 2 * padding,
        "{}: the padding ({padding}) leaves no output (full size {full})",
        c.op
    );
    full - 2 * padding
}

fn check_rank(c: &RuleCtx, t: &TensorIr, rank: usize, what: &str) {
    assert!(
        t.shape.num_dims() == rank,
        "{}: expected {what}, got {:?}",
        c.op,
        t.shape.dims
    );
}

/// A 1-d pooling of `x [n, c, l]`.
pub fn pool1d(
    c: &RuleCtx,
    x: &TensorIr,
    kernel: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil: bool,
) -> TensorSpec {
    check_rank(c, x, 3, "a [n, c, l] input");
    let len = pool_len(c, x.shape.dims[2], kernel, stride, padding, dilation, ceil);
    spatial1d(c, x, len)
}

/// A `[n, c, l]` input resized to `[n, c, size]`.
pub fn spatial1d(c: &RuleCtx, x: &TensorIr, size: usize) -> TensorSpec {
    check_rank(c, x, 3, "a [n, c, l] input");
    let d = &x.shape.dims;
    TensorSpec::new(Shape::new([d[0], d[1], size]), x.dtype)
}

/// A 1-d convolution of `x [n, c_in, l]` by `weight [c_out, c_in / groups, k]`.
pub fn conv1d(
    c: &RuleCtx,
    x: &TensorIr,
    weight: &TensorIr,
    options: &ConvOptions<1>,
) -> TensorSpec {
    check_rank(c, x, 3, "a [n, c, l] input");
    check_rank(c, weight, 3, "a [c_out, c_in / groups, k] weight");
    let (xd, wd) = (&x.shape.dims, &weight.shape.dims);
    let (begin, end) = options.padding[0];
    let len = pool_len(
        c,
        xd[2] + begin + end,
        wd[2],
        options.stride[0],
        0,
        options.dilation[0],
        false,
    );
    TensorSpec::new(Shape::new([xd[0], wd[0], len]), x.dtype)
}

/// A 1-d transposed convolution of `x [n, c_in, l]` by `weight [c_in, c_out / groups, k]`.
pub fn conv_transpose1d(
    c: &RuleCtx,
    x: &TensorIr,
    weight: &TensorIr,
    options: &ConvTransposeOptions<1>,
) -> TensorSpec {
    check_rank(c, x, 3, "a [n, c, l] input");
    check_rank(c, weight, 3, "a [c_in, c_out / groups, k] weight");
    let (xd, wd) = (&x.shape.dims, &weight.shape.dims);
    let len = transpose_len(
        c,
        xd[2],
        wd[2],
        options.stride[0],
        options.padding[0],
        options.padding_out[0],
        options.dilation[0],
    );
    TensorSpec::new(Shape::new([xd[0], wd[1] * options.groups, len]), x.dtype)
}

/// `[channels]`: dim 1 of `t` (a bias gradient).
pub fn channels(c: &RuleCtx, t: &TensorIr) -> TensorSpec {
    assert!(
        t.shape.num_dims() >= 2,
        "{}: expected [n, c, ..], got {:?}",
        c.op,
        t.shape.dims
    );
    TensorSpec::new(Shape::new([t.shape.dims[1]]), t.dtype)
}

/// The input gradient of a 2-d transposed convolution: the forward convolution of
/// `output_grad` by `weight` (channels `weight.shape[0]`).
pub fn conv_transpose2d_x_grad(
    c: &RuleCtx,
    weight: &TensorIr,
    output_grad: &TensorIr,
    options: &ConvTransposeOptions<2>,
) -> TensorSpec {
    let forward = ConvOptions::new(
        options.stride,
        options.padding,
        options.dilation,
        options.groups,
    );
    conv2d(c, output_grad, weight, &forward)
}

/// Attention over `query [.., q_len, d]` and `value [.., kv_len, d_v]`: `[.., q_len, d_v]`.
pub fn attention(c: &RuleCtx, query: &TensorIr, value: &TensorIr) -> TensorSpec {
    assert!(
        query.shape.num_dims() >= 2 && query.shape.num_dims() == value.shape.num_dims(),
        "{}: expected query and value of one rank >= 2, got {:?} and {:?}",
        c.op,
        query.shape.dims,
        value.shape.dims
    );
    let mut dims = query.shape.dims.clone();
    *dims.last_mut().unwrap() = *value.shape.dims.last().unwrap();
    TensorSpec::new(Shape::new(dims), query.dtype)
}
