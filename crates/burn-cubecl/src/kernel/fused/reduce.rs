//! A reduction whose input is a fused element-wise program: `sum(exp(x - m))` reads `x` and
//! `m` and never writes `exp(x - m)` to memory. One unit per output element (or per part of a
//! long line, then a second pass of the plain reduction combines the parts) walks its line,
//! evaluating the program at each position; the program's own outputs (values still used
//! after the run) are written as it goes, each position by the unit that reads it.

use super::kernel::{Outputs, Views, evaluate, write_outputs};
use super::program::{KernelProgram, Kind};
use super::{FusedProgram, check_launch, float_compute, supported};
use crate::dtype::{bool_dtype, elem_type};
use crate::kernel::ReduceOp;
use crate::kernel::reduce::{FEW_OUTPUTS, PART_LEN, accumulator, launch_pass};
use crate::kernel::scalar::scalar_arg;
use crate::launch::{address_type, elementwise_geometry, record_launch};
use crate::{CubeDevice, CubeTensor};
use burn_backend::{DType, Scalar, Shape};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewMut};

/// Evaluates the program at `pos`, writes its outputs there, and returns local `local`.
#[cube]
#[allow(clippy::too_many_arguments, clippy::extra_unused_type_parameters)]
fn step<F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    float_inputs: &Sequence<LinearView<'_, Vector<F, N>>>,
    int_inputs: &Sequence<LinearView<'_, Vector<I, N>>>,
    bool_inputs: &Sequence<LinearView<'_, Vector<B, N>>>,
    scalars: &Sequence<InputScalar>,
    float_outputs: &Sequence<LinearViewMut<'_, Vector<F, N>>>,
    int_outputs: &Sequence<LinearViewMut<'_, Vector<I, N>>>,
    bool_outputs: &Sequence<LinearViewMut<'_, Vector<B, N>>>,
    pos: usize,
    #[comptime] program: &KernelProgram,
    #[comptime] local: u32,
) -> Vector<A, N> {
    intrinsic!(|scope| {
        let views = Views::<F, I, B, N> {
            float_inputs: float_inputs.iter_cloned().collect(),
            int_inputs: int_inputs.iter_cloned().collect(),
            bool_inputs: bool_inputs.iter_cloned().collect(),
            scalars: scalars.iter_cloned().collect(),
        };
        let mut outputs = Outputs::<F, I, B, N> {
            floats: float_outputs.iter_cloned().collect(),
            ints: int_outputs.iter_cloned().collect(),
            bools: bool_outputs.iter_cloned().collect(),
        };
        let locals = evaluate::<F, A, I, B, N>(scope, &views, pos, program);
        write_outputs::<F, A, I, B, N>(scope, &mut outputs, pos, program, &locals);
        locals[local as usize]
            .expect("checked: the reduced local is written")
            .float()
    })
}

/// Combines `value` into `acc` (NaN wins max and min, as in the plain reduction).
#[cube]
fn combine<A: Float, N: Size>(
    acc: Vector<A, N>,
    value: Vector<A, N>,
    #[comptime] op: ReduceOp,
) -> Vector<A, N> {
    match op {
        ReduceOp::Prod => acc * value,
        ReduceOp::Max => {
            let take = (!acc.is_nan()).vec_and(value.greater_than(&acc).or(value.is_nan()));
            select_many(take, value, acc)
        }
        ReduceOp::Min => {
            let take = (!acc.is_nan()).vec_and(value.less_than(&acc).or(value.is_nan()));
            select_many(take, value, acc)
        }
        _ => acc + value,
    }
}

/// One unit per element of `reduced` (`[outer, parts, inner]` in row-major order).
#[cube(launch, address_type = "dynamic")]
#[allow(clippy::too_many_arguments, clippy::extra_unused_type_parameters)]
fn fused_reduce_kernel<F: Float, A: Float, I: Numeric, B: Numeric, R: Numeric, N: Size>(
    float_inputs: Sequence<LinearView<'_, Vector<F, N>>>,
    int_inputs: Sequence<LinearView<'_, Vector<I, N>>>,
    bool_inputs: Sequence<LinearView<'_, Vector<B, N>>>,
    scalars: Sequence<InputScalar>,
    float_outputs: Sequence<LinearViewMut<'_, Vector<F, N>>>,
    int_outputs: Sequence<LinearViewMut<'_, Vector<I, N>>>,
    bool_outputs: Sequence<LinearViewMut<'_, Vector<B, N>>>,
    reduced: &mut [Vector<R, N>],
    units: usize,
    line_len: usize,
    inner: usize,
    chunk: usize,
    parts: usize,
    divisor: InputScalar,
    #[comptime] program: KernelProgram,
    #[comptime] local: u32,
    #[comptime] op: ReduceOp,
    #[comptime] mean: bool,
    #[define(F, A, I, B, R)] _dtypes: [ElemType; 5],
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let inner_index = ABSOLUTE_POS % inner;
    let rest = ABSOLUTE_POS / inner;
    let part = rest % parts;
    let outer = rest / parts;
    let base = outer * line_len * inner + inner_index;
    let start = part * chunk;
    let end = min(start + chunk, line_len);
    let mut acc = step::<F, A, I, B, N>(
        &float_inputs,
        &int_inputs,
        &bool_inputs,
        &scalars,
        &float_outputs,
        &int_outputs,
        &bool_outputs,
        base + start * inner,
        &program,
        local,
    );
    for i in start + 1..end {
        let value = step::<F, A, I, B, N>(
            &float_inputs,
            &int_inputs,
            &bool_inputs,
            &scalars,
            &float_outputs,
            &int_outputs,
            &bool_outputs,
            base + i * inner,
            &program,
            local,
        );
        acc = combine::<A, N>(acc, value, op);
    }
    if mean {
        acc /= Vector::new(divisor.get::<A>());
    }
    reduced[ABSOLUTE_POS] = Vector::cast_from(acc);
}

/// Whether `op` of the program's local `input` along `dim` of `shape` (every element when
/// `dim` is `None`) runs as one fused reduction on `device`: a sum, mean, product, max or min
/// of a float local, over a non-empty shape, and the program itself supported (see
/// [`super::supports`]).
pub fn supports_reduce(
    program: &FusedProgram,
    input: u32,
    op: ReduceOp,
    shape: &Shape,
    dim: Option<usize>,
    device: &CubeDevice,
) -> bool {
    let Ok(checked) = program.check_outputs(false) else {
        return false;
    };
    let client = device.client();
    matches!(
        op,
        ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min
    ) && program
        .locals
        .get(input as usize)
        .is_some_and(DType::is_float)
        && dim.is_none_or(|d| d < shape.num_dims())
        && shape.num_elements() > 0
        && supported(&checked, program, &client, device.runtime(), 1)
}

/// `op` along `dim` of the program's local `input` (over every element when `dim` is
/// `None`), evaluated over `shape` (the inputs broadcast to it), in one launch (two for long
/// lines with few outputs). Returns the reduced tensor (`shape` with `dim` of size 1, or `[1]`,
/// in the local's dtype) and the program's outputs (of `shape`).
///
/// # Panics
///
/// When [`supports_reduce`] is false, or the inputs and scalars do not match the program.
pub fn launch_fused_reduce(
    program: &FusedProgram,
    input: u32,
    op: ReduceOp,
    inputs: Vec<CubeTensor>,
    scalars: &[Scalar],
    shape: &Shape,
    dim: Option<usize>,
) -> (CubeTensor, Vec<CubeTensor>) {
    check_launch(program, &inputs, scalars, shape);
    let first = inputs[0].clone();
    let (client, device) = (first.client.clone(), first.device.clone());
    assert!(
        supports_reduce(program, input, op, shape, dim, &device),
        "launch_fused_reduce: {} of local {input} along {dim:?} of {:?} cannot run fused: {program:?}",
        op.name(),
        shape.dims
    );
    let checked = program
        .check_outputs(false)
        .expect("checked by supports_reduce");
    let rank = shape.num_dims();
    let inputs: Vec<CubeTensor> = inputs.into_iter().map(|t| t.unsqueeze_to(rank)).collect();

    let (line_len, outer, inner) = match dim {
        Some(dim) => (
            shape.dims[dim],
            shape.dims[..dim].iter().product::<usize>(),
            shape.dims[dim + 1..].iter().product::<usize>(),
        ),
        None => (shape.num_elements(), 1, 1),
    };
    let outputs_count = outer * inner;
    let parts = if outputs_count < FEW_OUTPUTS && line_len > 2 * PART_LEN {
        line_len
            .div_ceil(PART_LEN)
            .min(FEW_OUTPUTS / outputs_count)
            .max(1)
    } else {
        1
    };
    let chunk = line_len.div_ceil(parts);
    let parts = line_len.div_ceil(chunk);

    let float = checked.float.expect("the reduced local is a float");
    let compute = float_compute(float);
    let int = checked.int.unwrap_or(DType::I32);
    let boolean = checked.bool.unwrap_or_else(|| bool_dtype(&client));
    let reduced_shape = match dim {
        Some(dim) => {
            let mut reduced = shape.clone();
            reduced.dims[dim] = 1;
            reduced
        }
        None => Shape::new([1]),
    };
    let (partial_shape, partial_dtype) = if parts == 1 {
        (reduced_shape.clone(), float)
    } else {
        (Shape::new([outer, parts, inner]), accumulator(float))
    };
    let partial = first.empty_contiguous_like(partial_shape, partial_dtype);
    let program_outputs: Vec<CubeTensor> = checked
        .kernel
        .outputs
        .iter()
        .map(|&(local, _, _)| first.empty_like(shape.clone(), program.locals[local as usize]))
        .collect();

    let mut float_inputs = SequenceArg::new();
    let mut int_inputs = SequenceArg::new();
    let mut bool_inputs = SequenceArg::new();
    let all: Vec<&CubeTensor> = inputs
        .iter()
        .chain(&program_outputs)
        .chain([&partial])
        .collect();
    let addresses = address_type(&all);
    for (tensor, &(kind, _)) in inputs.iter().zip(&checked.kernel.inputs) {
        let view = tensor.clone().into_linear_view_broadcast(shape);
        match kind {
            Kind::Float => float_inputs.push(view),
            Kind::Int => int_inputs.push(view),
            Kind::Bool => bool_inputs.push(view),
        }
    }
    let mut float_outputs = SequenceArg::new();
    let mut int_outputs = SequenceArg::new();
    let mut bool_outputs = SequenceArg::new();
    for (output, &(_, kind, _)) in program_outputs.iter().zip(&checked.kernel.outputs) {
        let view = output.clone().into_linear_view();
        match kind {
            Kind::Float => float_outputs.push(view),
            Kind::Int => int_outputs.push(view),
            Kind::Bool => bool_outputs.push(view),
        }
    }
    let mut scalar_args = SequenceArg::<InputScalar>::new();
    for (&value, &dtype) in scalars.iter().zip(&program.scalars) {
        let dtype = if dtype.is_float() { compute } else { dtype };
        scalar_args.push(scalar_arg(value, dtype));
    }
    let units = outer * parts * inner;
    let mean = op == ReduceOp::Mean && parts == 1;
    let divisor = scalar_arg(Scalar::Int(line_len as i64), compute);
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);
    let partial_len = partial.shape.num_elements();
    // SAFETY: the handle belongs to `client` and holds `partial_len` elements of its dtype;
    // the kernel is launched in checked mode.
    let partial_arg = unsafe { BufferArg::from_raw_parts(partial.handle.clone(), partial_len) };
    let first_pass_op = if parts == 1 { op } else { op.combining() };
    record_launch();
    fused_reduce_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        1,
        float_inputs,
        int_inputs,
        bool_inputs,
        scalar_args,
        float_outputs,
        int_outputs,
        bool_outputs,
        partial_arg,
        units,
        line_len,
        inner,
        chunk,
        parts,
        divisor,
        checked.kernel,
        input,
        first_pass_op,
        mean,
        [
            elem_type(float),
            elem_type(compute),
            elem_type(int),
            elem_type(boolean),
            elem_type(partial_dtype),
        ],
    );
    let reduced = if parts == 1 {
        partial
    } else {
        let mean_of = (op == ReduceOp::Mean).then_some(line_len);
        launch_pass(op.combining(), &partial, 1, 1, float, mean_of).reshape(reduced_shape)
    };
    (reduced, program_outputs)
}
