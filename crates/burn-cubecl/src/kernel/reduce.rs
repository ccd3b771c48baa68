//! Reductions along one dimension: one unit per output element walks its line of the input
//! through the input's strides. Long lines with few outputs are split into parts reduced in a
//! second pass, so a full reduction of millions of elements still spreads over many units.

use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, assert_storage, elem_type};
use crate::launch::{address_type, elementwise_geometry};
use burn_backend::{DType, ExecutionError, Scalar};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

op_table! {
    /// A reduction along one dimension.
    ReduceOp {
        /// The sum.
        Sum => "sum_dim",
        /// The mean.
        Mean => "mean_dim",
        /// The product.
        Prod => "prod_dim",
        /// The largest value.
        Max => "max_dim",
        /// The smallest value.
        Min => "min_dim",
        /// The index of the largest value (the first one on ties).
        ArgMax => "argmax",
        /// The index of the smallest value (the first one on ties).
        ArgMin => "argmin",
    }
}

impl ReduceOp {
    fn is_arg(self) -> bool {
        matches!(self, ReduceOp::ArgMax | ReduceOp::ArgMin)
    }

    /// The operation a second pass applies to the partial results of this one.
    pub(crate) fn combining(self) -> ReduceOp {
        match self {
            ReduceOp::Mean => ReduceOp::Sum,
            op => op,
        }
    }
}

/// Whether `value` is NaN, written so that it holds on targets whose `!=` is ordered (SPIR-V's
/// `FOrdNotEqual` is false for NaN): NaN is the one value not equal to itself.
#[cube]
#[allow(clippy::eq_op)]
fn is_nan<A: Numeric>(value: A) -> bool {
    let equal = value == value;
    !equal
}

/// Reduces `input` along `dim`, one output element per unit. The output has the input's
/// shape with `dim` replaced by `parts`: part `p` covers positions `p * chunk ..` of the line.
/// `I` is read, `A` accumulates, `O` is stored (the index type for `ArgMax`/`ArgMin`).
#[cube(launch, address_type = "dynamic")]
#[allow(clippy::too_many_arguments)]
fn reduce_kernel<I: Numeric, A: Numeric, O: Numeric>(
    input: &[I],
    output: &mut [O],
    out_shape: Sequence<FastDivmod<usize>>,
    in_strides: Sequence<usize>,
    line_len: usize,
    chunk: usize,
    divisor: InputScalar,
    #[comptime] dim: usize,
    #[comptime] op: ReduceOp,
    #[comptime] mean: bool,
    #[define(I, A, O)] _dtypes: [ElemType; 3],
) {
    if ABSOLUTE_POS >= output.len() {
        terminate!();
    }
    let rank = comptime![out_shape.len()];
    let mut remaining = ABSOLUTE_POS;
    let mut offset = 0;
    let mut part = 0;
    #[unroll]
    for i in 0..rank {
        let d = comptime![rank - 1 - i];
        let (quotient, coordinate) = out_shape[d].div_mod(remaining);
        if comptime![d == dim] {
            part = coordinate;
        } else {
            offset += coordinate * in_strides[d];
        }
        remaining = quotient;
    }
    let stride = in_strides[dim];
    let start = part * chunk;
    let end = min(start + chunk, line_len);
    let mut acc = A::cast_from(input[offset + start * stride]);
    let mut best = start;
    for i in start + 1..end {
        let value = A::cast_from(input[offset + i * stride]);
        match op {
            ReduceOp::Sum | ReduceOp::Mean => acc += value,
            ReduceOp::Prod => acc *= value,
            ReduceOp::Max | ReduceOp::ArgMax => {
                // A NaN wins and stays (the first one, for the index).
                if !is_nan::<A>(acc) && (value > acc || is_nan::<A>(value)) {
                    acc = value;
                    best = i;
                }
            }
            ReduceOp::Min | ReduceOp::ArgMin => {
                if !is_nan::<A>(acc) && (value < acc || is_nan::<A>(value)) {
                    acc = value;
                    best = i;
                }
            }
        }
    }
    if comptime![mean] {
        acc /= divisor.get::<A>();
    }
    match op {
        ReduceOp::ArgMax | ReduceOp::ArgMin => output[ABSOLUTE_POS] = O::cast_from(best),
        _ => output[ABSOLUTE_POS] = O::cast_from(acc),
    }
}

/// The dtype values accumulate in: `f32` for 16-bit floats, the dtype itself otherwise.
pub(crate) fn accumulator(dtype: DType) -> DType {
    match dtype {
        DType::F16 | DType::BF16 => DType::F32,
        dtype => dtype,
    }
}

/// Lines longer than this are split into parts when there are few outputs.
pub(crate) const PART_LEN: usize = 1024;
/// Outputs below this count leave units idle, so their lines are split.
pub(crate) const FEW_OUTPUTS: usize = 8192;

/// One pass of [`reduce_kernel`] over `input` along `dim` into a new `out_dtype` tensor with
/// `parts` at `dim`.
pub(crate) fn launch_pass(
    op: ReduceOp,
    input: &CubeTensor,
    dim: usize,
    parts: usize,
    out_dtype: DType,
    mean_of: Option<usize>,
) -> CubeTensor {
    let line_len = input.shape.dims[dim];
    let chunk = line_len.div_ceil(parts);
    // No part may start past the end of the line.
    let parts = line_len.div_ceil(chunk);
    let mut out_shape = input.shape.clone();
    out_shape.dims[dim] = parts;
    let output = input.empty_contiguous_like(out_shape.clone(), out_dtype);
    let count = out_shape.num_elements();
    let client = input.client.clone();
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    let mut shape_arg = SequenceArg::new();
    let mut strides_arg = SequenceArg::new();
    for (&size, &stride) in out_shape.dims.iter().zip(&input.strides) {
        shape_arg.push(size);
        strides_arg.push(stride);
    }
    let accumulate = accumulator(input.dtype);
    let divisor = scalar_arg(Scalar::Int(mean_of.unwrap_or(1) as i64), accumulate);
    let input_len = input.handle.size_in_used() as usize / input.dtype.size();
    // SAFETY: both handles belong to `client` and hold `input_len` and `count` elements of
    // their dtypes; the kernel is launched in checked mode, so no access leaves either buffer.
    let (input_arg, output_arg) = unsafe {
        (
            BufferArg::from_raw_parts(input.handle.clone(), input_len),
            BufferArg::from_raw_parts(output.handle.clone(), count),
        )
    };
    crate::launch::before_launch(&client);
    reduce_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[input, &output]),
        input_arg,
        output_arg,
        shape_arg,
        strides_arg,
        line_len,
        chunk,
        divisor,
        dim,
        op,
        mean_of.is_some(),
        [
            elem_type(input.dtype),
            elem_type(accumulate),
            elem_type(out_dtype),
        ],
    );
    output
}

/// `op` along `dim` of `input`; the result keeps the rank, with `dim` of size 1. Values keep
/// the input dtype (16-bit floats accumulate in `f32`); `ArgMax` and `ArgMin` produce indices
/// of `index_dtype` (an integer dtype), the first occurrence on ties. A NaN is the maximum and
/// the minimum (as in PyTorch). Integer means divide with truncation. A dimension of size 0
/// gives the identity (0 for sums, 1 for products, NaN for a float mean) and is refused for
/// max/min/arg*.
///
/// # Panics
///
/// When `dim` is out of range, the dtype is boolean or unsupported, `index_dtype` is not an
/// integer dtype, or the reduced dimension is empty for an operation without an identity.
///
/// # Errors
///
/// None yet: the signature keeps room for devices that cannot run a reduction.
pub fn reduce(
    op: ReduceOp,
    input: CubeTensor,
    dim: usize,
    index_dtype: DType,
) -> Result<CubeTensor, ExecutionError> {
    let rank = input.shape.num_dims();
    assert!(
        dim < rank,
        "{}: dim {dim} out of range for shape {:?}",
        op.name(),
        input.shape.dims
    );
    let dtype = input.dtype;
    assert!(
        !dtype.is_bool(),
        "{}: expected a numeric tensor, got {dtype}",
        op.name()
    );
    assert_arithmetic(op.name(), &input.client, dtype);
    let out_dtype = if op.is_arg() {
        assert!(
            index_dtype.is_int(),
            "{}: the index dtype must be an integer dtype, got {index_dtype}",
            op.name()
        );
        assert_storage(op.name(), &input.client, index_dtype);
        index_dtype
    } else {
        dtype
    };
    let mut out_shape = input.shape.clone();
    out_shape.dims[dim] = 1;
    if out_shape.num_elements() == 0 {
        return Ok(input.empty_contiguous_like(out_shape, out_dtype));
    }
    if input.shape.dims[dim] == 0 {
        let identity = match op {
            ReduceOp::Sum => Scalar::Int(0),
            ReduceOp::Prod => Scalar::Int(1),
            ReduceOp::Mean => Scalar::Float(f64::NAN),
            _ => panic!(
                "{}: cannot reduce the empty dim {dim} of shape {:?}",
                op.name(),
                input.shape.dims
            ),
        };
        let output = input.empty_contiguous_like(out_shape, out_dtype);
        return Ok(super::fill::fill(output, identity));
    }
    let line_len = input.shape.dims[dim];
    let outputs = out_shape.num_elements();
    let parts = if !op.is_arg() && outputs < FEW_OUTPUTS && line_len > 2 * PART_LEN {
        line_len
            .div_ceil(PART_LEN)
            .min(FEW_OUTPUTS / outputs)
            .max(1)
    } else {
        1
    };
    let mean_of = (op == ReduceOp::Mean).then_some(line_len);
    if parts == 1 {
        return Ok(launch_pass(op, &input, dim, 1, out_dtype, mean_of));
    }
    let partial = launch_pass(op.combining(), &input, dim, parts, accumulator(dtype), None);
    Ok(launch_pass(
        op.combining(),
        &partial,
        dim,
        1,
        out_dtype,
        mean_of,
    ))
}
