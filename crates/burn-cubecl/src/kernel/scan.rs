//! Cumulative (inclusive scan) operations along one dimension: running sums, products,
//! maxima and minima.
//!
//! One unit per line along the scanned dimension walks it in order, reading through the
//! input's strides and writing the running value. Lines are numbered row-major over the other
//! dimensions, so neighbouring units touch neighbouring elements when the scanned dimension is
//! not the innermost one.

use super::precision::compute_dtype;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, elem_type};
use crate::launch::{address_type, elementwise_geometry};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

op_table! {
    /// A cumulative operation along one dimension.
    ScanOp {
        /// The running sum.
        Sum => "cumsum",
        /// The running product.
        Prod => "cumprod",
        /// The running maximum (a NaN stays from where it appears on).
        Max => "cummax",
        /// The running minimum (a NaN stays from where it appears on).
        Min => "cummin",
    }
}

#[cube]
fn combine<A: Numeric>(acc: A, x: A, #[comptime] op: ScanOp) -> A {
    match op {
        ScanOp::Sum => acc + x,
        ScanOp::Prod => acc * x,
        ScanOp::Max => select(x > acc, x, acc),
        ScanOp::Min => select(x < acc, x, acc),
    }
}

/// [`combine`] for floats: a NaN running value stays, a NaN element becomes the running value
/// (checked explicitly: comparisons with NaN are not IEEE on every target).
#[cube]
fn combine_float<F: Float>(acc: F, x: F, #[comptime] op: ScanOp) -> F {
    match op {
        ScanOp::Max | ScanOp::Min => {
            // As one-lane vectors: `is_nan` is typed per lane count.
            let plain = Vector::<F, Const<1>>::new(combine::<F>(acc, x, op));
            let acc = Vector::<F, Const<1>>::new(acc);
            let x = Vector::<F, Const<1>>::new(x);
            select_many(acc.is_nan(), acc, select_many(x.is_nan(), x, plain)).extract(0usize)
        }
        _ => combine::<F>(acc, x, op),
    }
}

/// The input and output offsets of the first element of line `line`: its coordinates along
/// the other dimensions (`sizes`, row-major) times their strides.
#[cube]
fn line_start(
    line: usize,
    sizes: &Sequence<FastDivmod<usize>>,
    in_strides: &Sequence<usize>,
    out_strides: &Sequence<usize>,
) -> (usize, usize) {
    let rank = comptime![sizes.len()];
    let mut remaining = line;
    let mut input = 0;
    let mut output = 0;
    #[unroll]
    for i in 0..rank {
        let dim = comptime![rank - 1 - i];
        let (quotient, coordinate) = sizes[dim].div_mod(remaining);
        input += coordinate * in_strides[dim];
        output += coordinate * out_strides[dim];
        remaining = quotient;
    }
    (input, output)
}

/// Integer (and any numeric) scans: reads `C`, accumulates in `A`, stores `C`.
#[cube(launch, address_type = "dynamic")]
fn scan_kernel<C: Numeric, A: Numeric>(
    input: &[C],
    output: &mut [C],
    sizes: Sequence<FastDivmod<usize>>,
    in_strides: Sequence<usize>,
    out_strides: Sequence<usize>,
    len: usize,
    in_step: usize,
    out_step: usize,
    lines: usize,
    #[comptime] op: ScanOp,
    #[define(C, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= lines {
        terminate!();
    }
    let (mut at, mut to) = line_start(ABSOLUTE_POS, &sizes, &in_strides, &out_strides);
    let mut acc = A::cast_from(input[at]);
    output[to] = C::cast_from(acc);
    for _ in 1..len {
        at += in_step;
        to += out_step;
        acc = combine::<A>(acc, A::cast_from(input[at]), op);
        output[to] = C::cast_from(acc);
    }
}

/// Float scans: reads `F`, accumulates in `A` (see [`compute_dtype`]), stores `F`.
#[cube(launch, address_type = "dynamic")]
fn scan_float_kernel<F: Float, A: Float>(
    input: &[F],
    output: &mut [F],
    sizes: Sequence<FastDivmod<usize>>,
    in_strides: Sequence<usize>,
    out_strides: Sequence<usize>,
    len: usize,
    in_step: usize,
    out_step: usize,
    lines: usize,
    #[comptime] op: ScanOp,
    #[define(F, A)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= lines {
        terminate!();
    }
    let (mut at, mut to) = line_start(ABSOLUTE_POS, &sizes, &in_strides, &out_strides);
    let mut acc = A::cast_from(input[at]);
    output[to] = F::cast_from(acc);
    for _ in 1..len {
        at += in_step;
        to += out_step;
        acc = combine_float::<A>(acc, A::cast_from(input[at]), op);
        output[to] = F::cast_from(acc);
    }
}

/// The inclusive running `op` along `dim`: element `i` of each line is the fold of elements
/// `0..=i`. Float and integer dtypes; the result has the input's shape and dtype.
///
/// - Integer sums and products wrap on overflow.
/// - `f16`/`bf16` sums and products accumulate in `f32`, each output rounded once.
/// - `cummax`/`cummin` propagate NaN: from the first NaN of a line on, the result is NaN.
///
/// The result is written into the input's buffer when that buffer is unique and
/// non-overlapping, else into a new contiguous tensor.
///
/// # Panics
///
/// When `dim` is out of range, or the dtype is boolean or not computable on the device.
pub fn scan(op: ScanOp, tensor: CubeTensor, dim: usize) -> CubeTensor {
    let name = op.name();
    let shape = tensor.shape.clone();
    let rank = shape.num_dims();
    assert!(
        dim < rank,
        "{name}: dim {dim} out of range for a tensor of rank {rank} (shape {:?})",
        shape.dims
    );
    let dtype = tensor.dtype;
    assert!(
        dtype.is_float() || dtype.is_int(),
        "{name}: expected a float or integer tensor, got {dtype}"
    );
    assert_arithmetic(name, &tensor.client, dtype);
    let count = shape.num_elements();
    if count == 0 {
        return tensor.empty_contiguous_like(shape, dtype);
    }
    let client = tensor.client.clone();
    let in_place = tensor.can_reuse_for(&shape);
    let output = if in_place {
        tensor.clone()
    } else {
        tensor.empty_contiguous_like(shape.clone(), dtype)
    };

    let len = shape.dims[dim];
    let lines = count / len;
    let mut sizes = SequenceArg::new();
    let mut in_strides = SequenceArg::new();
    let mut out_strides = SequenceArg::new();
    for d in (0..rank).filter(|&d| d != dim) {
        sizes.push(shape.dims[d]);
        in_strides.push(tensor.strides[d]);
        out_strides.push(output.strides[d]);
    }
    let (in_step, out_step) = (tensor.strides[dim], output.strides[dim]);

    let in_len = tensor.handle.size_in_used() as usize / dtype.size();
    // SAFETY: the handle belongs to `client` and holds `in_len` elements of the dtype; the
    // kernel is launched in checked mode, so no access leaves the buffer.
    let input_arg = unsafe { BufferArg::from_raw_parts(tensor.handle.clone(), in_len) };
    let output_arg = if in_place {
        BufferArg::Alias {
            input_pos: 0,
            length: [in_len],
        }
    } else {
        // SAFETY: as above, for the new output of `count` elements.
        unsafe { BufferArg::from_raw_parts(output.handle.clone(), count) }
    };
    let addresses = address_type(&[&tensor, &output]);
    let (cube_count, cube_dim) = elementwise_geometry(&client, lines);
    let dtypes = [elem_type(dtype), elem_type(compute_dtype(&tensor, false))];
    if dtype.is_float() {
        crate::launch::before_launch(&client);
        scan_float_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            addresses,
            input_arg,
            output_arg,
            sizes,
            in_strides,
            out_strides,
            len,
            in_step,
            out_step,
            lines,
            op,
            dtypes,
        );
    } else {
        crate::launch::before_launch(&client);
        scan_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            addresses,
            input_arg,
            output_arg,
            sizes,
            in_strides,
            out_strides,
            len,
            in_step,
            out_step,
            lines,
            op,
            dtypes,
        );
    }
    output
}
