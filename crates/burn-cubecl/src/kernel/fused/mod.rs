//! Fused element-wise kernels: a chain of element-wise operations (`exp(a * b + c)`, a mask,
//! a comparison and a cast …) run as one kernel launch that reads each input once and writes
//! each output once.
//!
//! A [`FusedProgram`] is a list of SSA instructions over inputs, scalars and locals. It is a
//! comptime argument of one `#[cube]` kernel, so CubeCL compiles each distinct program once
//! (its kernel cache is keyed by the program) and the interpreter that walks the instructions
//! runs at expansion only: the compiled kernel is straight-line code.
//!
//! # Design, and what CubeCL allowed
//!
//! A kernel's element types are its `#[define]` generics, fixed in number when the kernel is
//! written, and a `Sequence` of views holds one element type. So a fully generic register
//! machine (any dtype per input) is not expressible without one generic per input. The
//! kernel therefore has four element types: `F` (the float dtype stored), `A` (the float
//! dtype computed in: `f32` for `f16`/`bf16`, as in `precision.rs`), `I` (one integer dtype)
//! and `B` (the bool store), and takes its tensors as one `Sequence` of `LinearView`s per kind
//! and direction. Inside, the program is expanded by plain Rust code (`intrinsic!`) that keeps
//! each local as the expanded vector of its kind and calls the existing `#[cube]` operation
//! tables (`apply_unary`, `apply_float`, `apply_numeric`, `apply_compare`).
//!
//! Hence [`supports`] accepts a program that uses at most one float dtype, one integer dtype
//! and one bool dtype (any number of values of each). Float intermediates stay in the compute
//! dtype between instructions, so an `f16` chain rounds once per output instead of once per
//! operation, and float scalars are given in the compute dtype.

mod kernel;
mod matmul;
mod program;
mod reduce;

pub use matmul::{
    FusedMatmul, HARDWARE_FUSED_MATMUL_MAX_WORK, launch_fused_matmul, supports_matmul,
};
pub use program::{FusedArg, FusedInstr, FusedProgram};
pub use reduce::{FusedEpilogue, FusedReduction, launch_fused_reduce, supports_reduce};

use self::kernel::fused_kernel;
use self::program::{Checked, Kind};
use super::scalar::scalar_arg;
use crate::dtype::{bool_dtype, dtype_usage, elem_type};
use crate::launch::{address_type, before_launch, elementwise_geometry, vector_size};
use crate::{CubeDevice, CubeTensor, RuntimeId};
use burn_backend::{DType, Scalar, Shape};
use cubecl::client::Client;
use cubecl::prelude::*;

/// Whether `device`'s runtime can run `program` as one kernel. The caller falls back to
/// unfused operations when it cannot.
///
/// False when the program is malformed (see [`launch_fused`]'s panics), mixes two float, two
/// integer or two bool dtypes, uses a dtype the device cannot compute with (or, for bools,
/// store), uses a quantized dtype, computes a transcendental function (`exp`, `log`, `powf` …)
/// of `f64` on WGPU (which has none, see `host.rs`), or needs more buffers than the device
/// binds to one kernel.
pub fn supports(program: &FusedProgram, device: &CubeDevice) -> bool {
    let Ok(checked) = program.check() else {
        return false;
    };
    supported(&checked, program, &device.client(), device.runtime(), 0)
}

/// Whether the checked program runs on `client`, `extra` buffers bound besides its inputs and
/// outputs.
fn supported(
    checked: &Checked,
    program: &FusedProgram,
    client: &Client,
    runtime: RuntimeId,
    extra: usize,
) -> bool {
    let arithmetic = |dtype: Option<DType>| dtype.is_none_or(|d| dtype_usage(client, d).arithmetic);
    let storage = |dtype: Option<DType>| dtype.is_none_or(|d| dtype_usage(client, d).storage);
    let f64_on_host = checked.f64_on_host(runtime);
    // Every input and output is one buffer; the launch adds one for its metadata.
    let buffers = program.inputs.len() + program.outputs.len() + 1 + extra;
    let max_bindings = client.properties().hardware.max_bindings as usize;
    arithmetic(checked.float)
        && arithmetic(checked.float.map(float_compute))
        && arithmetic(checked.int)
        && storage(checked.bool)
        && !f64_on_host
        && buffers <= max_bindings
}

/// The dtype floats of `dtype` are computed in.
fn float_compute(dtype: DType) -> DType {
    match dtype {
        DType::F16 | DType::BF16 => DType::F32,
        other => other,
    }
}

/// Runs `program` in ONE kernel launch and returns its outputs, in the order of
/// `program.outputs`, each of `out_shape` and of its local's dtype.
///
/// `inputs` (of the program's input dtypes, on one device) are broadcast to `out_shape`
/// (NumPy rules) and read through their strides; `scalars` are converted to the program's
/// scalar dtypes (floats to the compute dtype, see the module docs). An output is written into
/// an input's buffer when that input is unique, non-overlapping, of the output's dtype and
/// already of `out_shape` (each input lends its buffer to one output at most); every element
/// of every input is read before the same element of an output is written, by the same unit.
///
/// # Panics
///
/// When the program is malformed (a local read before it is written or written twice, an
/// index out of range, operand dtypes an instruction does not take, no output), when the
/// numbers of inputs or scalars differ from the program's, an input's dtype is not the
/// program's, inputs are on different devices or do not broadcast to `out_shape`, or when
/// [`supports`] is false for the program on the inputs' device.
pub fn launch_fused(
    program: &FusedProgram,
    inputs: Vec<CubeTensor>,
    scalars: &[Scalar],
    out_shape: &Shape,
) -> Vec<CubeTensor> {
    let checked = program
        .check()
        .unwrap_or_else(|err| panic!("launch_fused: invalid program: {err}"));
    check_launch(program, &inputs, scalars, out_shape);
    let first = &inputs[0];
    let (client, device) = (first.client.clone(), first.device.clone());
    assert!(
        supported(&checked, program, &client, device.runtime(), 0),
        "launch_fused: the program cannot run as one kernel on {} (check `supports` first): \
         {program:?}",
        client.name()
    );
    let rank = out_shape.num_dims();
    let inputs: Vec<CubeTensor> = inputs.into_iter().map(|t| t.unsqueeze_to(rank)).collect();
    let out_dtypes: Vec<DType> = program
        .outputs
        .iter()
        .map(|&local| program.locals[local as usize])
        .collect();
    let count = out_shape.num_elements();
    if count == 0 {
        return out_dtypes
            .iter()
            .map(|&dtype| first_empty(&inputs, out_shape, dtype))
            .collect();
    }

    // The buffers are registered floats first, then integers, then bools: an alias names the
    // input's place in that order.
    let kinds = &checked.kernel.inputs;
    let count_of = |kind: Kind| kinds.iter().filter(|(k, _)| *k == kind).count();
    let buffer_pos = |(kind, position): (Kind, usize)| match kind {
        Kind::Float => position,
        Kind::Int => count_of(Kind::Float) + position,
        Kind::Bool => count_of(Kind::Float) + count_of(Kind::Int) + position,
    };
    let mut lent = vec![false; inputs.len()];
    let mut outputs = Vec::with_capacity(out_dtypes.len());
    let mut aliases = Vec::with_capacity(out_dtypes.len());
    for &dtype in &out_dtypes {
        let reused = (0..inputs.len())
            .find(|&i| !lent[i] && inputs[i].dtype == dtype && inputs[i].can_reuse_for(out_shape));
        match reused {
            Some(i) => {
                lent[i] = true;
                outputs.push(inputs[i].clone());
                aliases.push(Some(buffer_pos(kinds[i])));
            }
            None => {
                outputs.push(inputs[0].empty_like(out_shape.clone(), dtype));
                aliases.push(None);
            }
        }
    }

    let all: Vec<&CubeTensor> = inputs.iter().chain(&outputs).collect();
    let elem_size = all.iter().map(|t| t.dtype.size()).max().unwrap_or(1);
    let vector = vector_size(&client, out_shape, &all, elem_size);
    let addresses = address_type(&all);
    let units = count / vector;
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);

    let mut float_inputs = SequenceArg::new();
    let mut int_inputs = SequenceArg::new();
    let mut bool_inputs = SequenceArg::new();
    for (tensor, &(kind, _)) in inputs.into_iter().zip(kinds) {
        let view = tensor.into_linear_view_broadcast(out_shape);
        match kind {
            Kind::Float => float_inputs.push(view),
            Kind::Int => int_inputs.push(view),
            Kind::Bool => bool_inputs.push(view),
        }
    }
    let mut float_outputs = SequenceArg::new();
    let mut int_outputs = SequenceArg::new();
    let mut bool_outputs = SequenceArg::new();
    for ((output, alias), &(_, kind, _)) in outputs.iter().zip(aliases).zip(&checked.kernel.outputs)
    {
        let view = match alias {
            Some(position) => output.as_linear_view_alias(position),
            None => output.clone().into_linear_view(),
        };
        match kind {
            Kind::Float => float_outputs.push(view),
            Kind::Int => int_outputs.push(view),
            Kind::Bool => bool_outputs.push(view),
        }
    }

    let float = checked.float.unwrap_or(DType::F32);
    let compute = float_compute(float);
    let int = checked.int.unwrap_or(DType::I32);
    let boolean = checked.bool.unwrap_or_else(|| bool_dtype(&client));
    let mut scalar_args = SequenceArg::<InputScalar>::new();
    for (&value, &dtype) in scalars.iter().zip(&program.scalars) {
        let dtype = if dtype.is_float() { compute } else { dtype };
        scalar_args.push(scalar_arg(value, dtype));
    }
    let dtypes = [
        elem_type(float),
        elem_type(compute),
        elem_type(int),
        elem_type(boolean),
    ];
    before_launch(&client);
    fused_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        addresses,
        vector,
        float_inputs,
        int_inputs,
        bool_inputs,
        scalar_args,
        float_outputs,
        int_outputs,
        bool_outputs,
        units,
        checked.kernel,
        dtypes,
    );
    outputs
}

/// An empty tensor of `shape` and `dtype` on the inputs' device.
fn first_empty(inputs: &[CubeTensor], shape: &Shape, dtype: DType) -> CubeTensor {
    inputs[0].empty_like(shape.clone(), dtype)
}

/// Panics unless the launch arguments match the program and broadcast to `out_shape`.
pub(super) fn check_launch(
    program: &FusedProgram,
    inputs: &[CubeTensor],
    scalars: &[Scalar],
    out_shape: &Shape,
) {
    assert_eq!(
        inputs.len(),
        program.inputs.len(),
        "launch_fused: the program takes {} inputs, got {}",
        program.inputs.len(),
        inputs.len()
    );
    assert!(
        !inputs.is_empty(),
        "launch_fused: the program needs at least one input tensor"
    );
    assert_eq!(
        scalars.len(),
        program.scalars.len(),
        "launch_fused: the program takes {} scalars, got {}",
        program.scalars.len(),
        scalars.len()
    );
    crate::launch::assert_same_device("launch_fused", &inputs.iter().collect::<Vec<_>>());
    let rank = out_shape.num_dims();
    for (i, (tensor, &dtype)) in inputs.iter().zip(&program.inputs).enumerate() {
        assert_eq!(
            tensor.dtype, dtype,
            "launch_fused: input {i} has dtype {}, the program expects {dtype}",
            tensor.dtype
        );
        let dims = &tensor.shape.dims;
        let broadcasts = dims.len() <= rank
            && dims
                .iter()
                .rev()
                .zip(out_shape.dims.iter().rev())
                .all(|(&d, &o)| d == o || d == 1);
        assert!(
            broadcasts,
            "launch_fused: input {i} of shape {dims:?} does not broadcast to the output shape {:?}",
            out_shape.dims
        );
    }
}
