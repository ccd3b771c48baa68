//! A reduction whose input is a fused element-wise program: `sum(exp(x - m))` reads `x` and
//! `m` and never writes `exp(x - m)` to memory. One unit per output element (or per part of a
//! long line, then a second pass of the plain reduction combines the parts) walks its line,
//! evaluating the program at each position; the program's own outputs (values still used
//! after the run) are written as it goes, each position by the unit that reads it.

use super::kernel::{Outputs, Value, Views, evaluate, write_outputs};
use super::program::{KernelProgram, Kind};
use super::{FusedProgram, check_launch, float_compute, supported};
use crate::dtype::{bool_dtype, elem_type};
use crate::kernel::ReduceOp;
use crate::kernel::reduce::{FEW_OUTPUTS, PART_LEN, accumulator, launch_pass};
use crate::kernel::scalar::scalar_arg;
use crate::launch::{address_type, before_launch, elementwise_geometry};
use crate::{CubeDevice, CubeTensor};
use burn_backend::{DType, Scalar, Shape};
use cubecl::prelude::*;
use cubecl::std::tensor::layout::linear::{LinearView, LinearViewLaunch, LinearViewMut};

/// The `Views` and `Outputs` of the sequences a `#[cube]` function received, inside its
/// `intrinsic!` (a macro, not a function: each sequence keeps its own view lifetime).
macro_rules! expanded_views {
    ($fi:ident, $ii:ident, $bi:ident, $sc:ident, $fo:ident, $io:ident, $bo:ident) => {
        (
            Views::<F, I, B, N> {
                float_inputs: $fi.iter_cloned().collect(),
                int_inputs: $ii.iter_cloned().collect(),
                bool_inputs: $bi.iter_cloned().collect(),
                scalars: $sc.iter_cloned().collect(),
            },
            Outputs::<F, I, B, N> {
                floats: $fo.iter_cloned().collect(),
                ints: $io.iter_cloned().collect(),
                bools: $bo.iter_cloned().collect(),
            },
        )
    };
}

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
        let (views, mut outputs) = expanded_views!(
            float_inputs,
            int_inputs,
            bool_inputs,
            scalars,
            float_outputs,
            int_outputs,
            bool_outputs
        );
        let locals = evaluate::<F, A, I, B, N>(scope, &views, pos, program, None);
        write_outputs::<F, A, I, B, N>(scope, &mut outputs, pos, program, &locals);
        locals[local as usize]
            .expect("checked: the reduced local is written")
            .float()
    })
}

/// Runs the epilogue program (if any) on the reduced value `acc` at `pos` of the reduced
/// shape: its last input is `acc`, its outputs are written at `pos`.
#[cube]
#[allow(clippy::too_many_arguments, clippy::extra_unused_type_parameters)]
pub(super) fn epilogue_step<F: Float, A: Float, I: Numeric, B: Numeric, N: Size>(
    float_inputs: &Sequence<LinearView<'_, Vector<F, N>>>,
    int_inputs: &Sequence<LinearView<'_, Vector<I, N>>>,
    bool_inputs: &Sequence<LinearView<'_, Vector<B, N>>>,
    scalars: &Sequence<InputScalar>,
    float_outputs: &Sequence<LinearViewMut<'_, Vector<F, N>>>,
    int_outputs: &Sequence<LinearViewMut<'_, Vector<I, N>>>,
    bool_outputs: &Sequence<LinearViewMut<'_, Vector<B, N>>>,
    pos: usize,
    acc: Vector<A, N>,
    #[comptime] program: &Option<KernelProgram>,
) {
    intrinsic!(|scope| {
        if let Some(program) = program {
            let (views, mut outputs) = expanded_views!(
                float_inputs,
                int_inputs,
                bool_inputs,
                scalars,
                float_outputs,
                int_outputs,
                bool_outputs
            );
            let reduced = Some(Value::Float(acc));
            let locals = evaluate::<F, A, I, B, N>(scope, &views, pos, program, reduced);
            write_outputs::<F, A, I, B, N>(scope, &mut outputs, pos, program, &locals);
        }
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
    epi_float_inputs: Sequence<LinearView<'_, Vector<F, N>>>,
    epi_int_inputs: Sequence<LinearView<'_, Vector<I, N>>>,
    epi_bool_inputs: Sequence<LinearView<'_, Vector<B, N>>>,
    epi_scalars: Sequence<InputScalar>,
    epi_float_outputs: Sequence<LinearViewMut<'_, Vector<F, N>>>,
    epi_int_outputs: Sequence<LinearViewMut<'_, Vector<I, N>>>,
    epi_bool_outputs: Sequence<LinearViewMut<'_, Vector<B, N>>>,
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
    #[comptime] epilogue: Option<KernelProgram>,
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
    epilogue_step::<F, A, I, B, N>(
        &epi_float_inputs,
        &epi_int_inputs,
        &epi_bool_inputs,
        &epi_scalars,
        &epi_float_outputs,
        &epi_int_outputs,
        &epi_bool_outputs,
        ABSOLUTE_POS,
        acc,
        &epilogue,
    );
}

/// An element-wise program run inside a reduction or product kernel on each value it computes.
/// The program's last input is that value (held in a register); `inputs` are the others,
/// tensors that broadcast to the computed shape.
#[derive(Debug, Clone)]
pub struct FusedEpilogue {
    /// The program; its last input has the computed value's dtype.
    pub program: FusedProgram,
    /// The program's inputs but the last.
    pub inputs: Vec<CubeTensor>,
    /// The program's scalars.
    pub scalars: Vec<Scalar>,
}

/// What a fused reduction produces.
#[derive(Debug)]
pub struct FusedReduction {
    /// The reduced values: the input shape with `dim` of size 1 (or `[1]`).
    pub reduced: CubeTensor,
    /// The outputs of the program evaluated before the reduction (the input shape).
    pub outputs: Vec<CubeTensor>,
    /// The outputs of the epilogue (the reduced shape).
    pub epilogue_outputs: Vec<CubeTensor>,
}

/// The one dtype of each kind over both programs, or `None` when they disagree (one kernel
/// defines one float, one integer and one bool type).
fn merged_kinds(
    prologue: &super::program::Checked,
    epilogue: Option<&super::program::Checked>,
) -> Option<[Option<DType>; 3]> {
    let mut kinds = [prologue.float, prologue.int, prologue.bool];
    if let Some(epilogue) = epilogue {
        for (slot, other) in kinds
            .iter_mut()
            .zip([epilogue.float, epilogue.int, epilogue.bool])
        {
            match (*slot, other) {
                (Some(a), Some(b)) if a != b => return None,
                (None, Some(b)) => *slot = Some(b),
                _ => {}
            }
        }
    }
    Some(kinds)
}

/// Whether `op` of the program's local `input` along `dim` of `shape` (every element when
/// `dim` is `None`), followed by `epilogue` on each reduced value, runs as one fused reduction
/// on `device`: a sum, mean, product, max or min of a float local, over a non-empty shape,
/// both programs supported (see [`super::supports`]) with one dtype of each kind between
/// them, and the epilogue's last input of the reduced value's dtype.
pub fn supports_reduce(
    program: &FusedProgram,
    input: u32,
    op: ReduceOp,
    shape: &Shape,
    dim: Option<usize>,
    epilogue: Option<&FusedProgram>,
    device: &CubeDevice,
) -> bool {
    let Ok(checked) = program.check_outputs(false) else {
        return false;
    };
    let client = device.client();
    let Some(&reduced_dtype) = program.locals.get(input as usize) else {
        return false;
    };
    let epilogue_ok = match epilogue {
        None => merged_kinds(&checked, None).is_some(),
        Some(epi) => {
            let Ok(epi_checked) = epi.check() else {
                return false;
            };
            epi.inputs.last() == Some(&reduced_dtype)
                && merged_kinds(&checked, Some(&epi_checked)).is_some()
                && supported(&epi_checked, epi, &client, device.runtime(), 0)
        }
    };
    matches!(
        op,
        ReduceOp::Sum | ReduceOp::Mean | ReduceOp::Prod | ReduceOp::Max | ReduceOp::Min
    ) && reduced_dtype.is_float()
        && dim.is_none_or(|d| d < shape.num_dims())
        && shape.num_elements() > 0
        && epilogue_ok
        && supported(
            &checked,
            program,
            &client,
            device.runtime(),
            1 + epilogue.map_or(0, |e| e.inputs.len() + e.outputs.len()),
        )
}

/// `op` along `dim` of the program's local `input` (over every element when `dim` is
/// `None`), evaluated over `shape` (the inputs broadcast to it), then `epilogue` on each
/// reduced value, in one launch (a long line with few outputs takes a second pass of the plain
/// reduction, then the epilogue runs as its own fused launch).
///
/// # Panics
///
/// When [`supports_reduce`] is false, or the inputs and scalars do not match the programs.
#[allow(clippy::too_many_arguments)]
pub fn launch_fused_reduce(
    program: &FusedProgram,
    input: u32,
    op: ReduceOp,
    inputs: Vec<CubeTensor>,
    scalars: &[Scalar],
    shape: &Shape,
    dim: Option<usize>,
    epilogue: Option<FusedEpilogue>,
) -> FusedReduction {
    check_launch(program, &inputs, scalars, shape);
    let first = inputs[0].clone();
    let (client, device) = (first.client.clone(), first.device.clone());
    assert!(
        supports_reduce(
            program,
            input,
            op,
            shape,
            dim,
            epilogue.as_ref().map(|e| &e.program),
            &device
        ),
        "launch_fused_reduce: {} of local {input} along {dim:?} of {:?} cannot run fused: \
         {program:?}",
        op.name(),
        shape.dims
    );
    let checked = program
        .check_outputs(false)
        .expect("checked by supports_reduce");
    let epi_checked = epilogue
        .as_ref()
        .map(|e| e.program.check().expect("checked by supports_reduce"));
    let kinds = merged_kinds(&checked, epi_checked.as_ref()).expect("checked by supports_reduce");
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
    let int = kinds[1].unwrap_or(DType::I32);
    let boolean = kinds[2].unwrap_or_else(|| bool_dtype(&client));
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
    let new_outputs = |kernel: &super::program::KernelProgram, p: &FusedProgram, s: &Shape| {
        kernel
            .outputs
            .iter()
            .map(|&(local, _, _)| first.empty_like(s.clone(), p.locals[local as usize]))
            .collect::<Vec<CubeTensor>>()
    };
    let program_outputs = new_outputs(&checked.kernel, program, shape);

    // The epilogue runs in this kernel only when one pass computes the final values.
    let (epilogue_in_kernel, epilogue_later) = match epilogue {
        Some(e) if parts == 1 => (Some(e), None),
        other => (None, other),
    };
    let epi_kernel = epilogue_in_kernel
        .as_ref()
        .zip(epi_checked.as_ref())
        .map(|(e, c)| (e, c.kernel.clone()));
    let epilogue_outputs = epi_kernel
        .as_ref()
        .map(|(e, k)| new_outputs(k, &e.program, &reduced_shape))
        .unwrap_or_default();

    let all: Vec<&CubeTensor> = inputs
        .iter()
        .chain(&program_outputs)
        .chain([&partial])
        .chain(epilogue_in_kernel.iter().flat_map(|e| &e.inputs))
        .chain(&epilogue_outputs)
        .collect();
    let addresses = address_type(&all);
    let [float_inputs, int_inputs, bool_inputs] = views(&inputs, &checked.kernel.inputs, shape);
    let [float_outputs, int_outputs, bool_outputs] =
        output_views(&program_outputs, &checked.kernel.outputs);
    let launch_scalars = scalar_args(scalars, &program.scalars, compute);
    let (epi_inputs, epi_outputs, epi_scalars) = match &epi_kernel {
        Some((e, kernel)) => {
            let others = &kernel.inputs[..kernel.inputs.len() - 1];
            let rank = reduced_shape.num_dims();
            let tensors: Vec<CubeTensor> = e
                .inputs
                .iter()
                .map(|t| t.clone().unsqueeze_to(rank))
                .collect();
            (
                views(&tensors, others, &reduced_shape),
                output_views(&epilogue_outputs, &kernel.outputs),
                scalar_args(&e.scalars, &e.program.scalars, compute),
            )
        }
        None => Default::default(),
    };
    let [epi_float_inputs, epi_int_inputs, epi_bool_inputs] = epi_inputs;
    let [epi_float_outputs, epi_int_outputs, epi_bool_outputs] = epi_outputs;
    let units = outer * parts * inner;
    let mean = op == ReduceOp::Mean && parts == 1;
    let divisor = scalar_arg(Scalar::Int(line_len as i64), compute);
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);
    let partial_len = partial.shape.num_elements();
    // SAFETY: the handle belongs to `client` and holds `partial_len` elements of its dtype;
    // the kernel is launched in checked mode.
    let partial_arg = unsafe { BufferArg::from_raw_parts(partial.handle.clone(), partial_len) };
    let first_pass_op = if parts == 1 { op } else { op.combining() };
    before_launch(&client);
    fused_reduce_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        1,
        float_inputs.into_iter().collect(),
        int_inputs.into_iter().collect(),
        bool_inputs.into_iter().collect(),
        launch_scalars.into_iter().collect(),
        float_outputs.into_iter().collect(),
        int_outputs.into_iter().collect(),
        bool_outputs.into_iter().collect(),
        partial_arg,
        epi_float_inputs.into_iter().collect(),
        epi_int_inputs.into_iter().collect(),
        epi_bool_inputs.into_iter().collect(),
        epi_scalars.into_iter().collect(),
        epi_float_outputs.into_iter().collect(),
        epi_int_outputs.into_iter().collect(),
        epi_bool_outputs.into_iter().collect(),
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
        epi_kernel.map(|(_, kernel)| kernel),
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
        launch_pass(op.combining(), &partial, 1, 1, float, mean_of).reshape(reduced_shape.clone())
    };
    let epilogue_outputs = match epilogue_later {
        Some(e) => {
            let mut tensors = e.inputs;
            tensors.push(reduced.clone());
            super::launch_fused(&e.program, tensors, &e.scalars, &reduced_shape)
        }
        None => epilogue_outputs,
    };
    FusedReduction {
        reduced,
        outputs: program_outputs,
        epilogue_outputs,
    }
}

/// The views of `tensors` (broadcast to `shape`), by kind: floats, integers, bools.
pub(super) fn views(
    tensors: &[CubeTensor],
    kinds: &[(Kind, usize)],
    shape: &Shape,
) -> [Vec<LinearViewLaunch>; 3] {
    let mut out: [Vec<LinearViewLaunch>; 3] = Default::default();
    for (tensor, &(kind, _)) in tensors.iter().zip(kinds) {
        out[kind as usize].push(tensor.clone().into_linear_view_broadcast(shape));
    }
    out
}

/// The views the program's outputs are written through, by kind.
pub(super) fn output_views(
    tensors: &[CubeTensor],
    kinds: &[(u32, Kind, usize)],
) -> [Vec<LinearViewLaunch>; 3] {
    let mut out: [Vec<LinearViewLaunch>; 3] = Default::default();
    for (tensor, &(_, kind, _)) in tensors.iter().zip(kinds) {
        out[kind as usize].push(tensor.clone().into_linear_view());
    }
    out
}

/// The launch scalars (floats given in the compute dtype).
pub(super) fn scalar_args(values: &[Scalar], dtypes: &[DType], compute: DType) -> Vec<InputScalar> {
    values
        .iter()
        .zip(dtypes)
        .map(|(&value, &dtype)| scalar_arg(value, if dtype.is_float() { compute } else { dtype }))
        .collect()
}
