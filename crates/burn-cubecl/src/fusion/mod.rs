//! Fusion for the CubeCL backend: runs of element-wise operations recorded by `Fusion<B>` run
//! as one [`crate::fused`] kernel, a reduction runs with the element-wise runs before and
//! after it (see `reduce.rs`), and a matrix product with the element-wise run after it (see
//! `matmul.rs`).
//!
//! The [`ElementwiseFuser`] takes consecutive element-wise operations whose outputs all have
//! one shape (inputs broadcast into it), with at most one float, one int and one bool dtype,
//! and builds the [`FusedProgram`] of the run once per relative key (the planner caches it).
//! Executing it binds this queue's tensors and scalars to the program: inputs are read once,
//! intermediates consumed inside the run stay in registers, and only tensors still used after
//! the run are written (into a consumed input's buffer when the kernel can).

mod matmul;
mod reduce;
mod translate;

use self::translate::{Emit, Operand, translate};
use crate::fused::{FusedArg, FusedInstr, FusedProgram, launch_fused, supports};
use crate::{CubeBackend, CubeDevice, CubeTensor};
use burn_backend::{DType, Scalar, Shape, get_device_settings};
use burn_fusion::{ExecutionContext, FusedExecution, Fuser, FusionBackend, Handle};
use burn_ir::{OperationIr, TensorId, TensorIr, TensorStatus};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The most tensors (inputs and outputs) a fused run binds, below every device's limit.
const MAX_TENSORS: usize = 12;

impl FusionBackend for CubeBackend {
    fn fusers(device: &CubeDevice) -> Vec<Box<dyn Fuser<Self>>> {
        vec![
            Box::new(ElementwiseFuser::new(device.clone())),
            Box::new(reduce::ReduceFuser::new(device.clone())),
            Box::new(matmul::MatmulFuser::new(device.clone())),
        ]
    }
}

/// Finds runs of element-wise operations the fused kernel computes.
pub struct ElementwiseFuser {
    pub(crate) device: CubeDevice,
    bool_dtype: Option<DType>,
    pub(crate) ops: Vec<OperationIr>,
    pub(crate) shape: Option<Shape>,
    /// The float, int and bool dtype of the run so far.
    pub(crate) dtypes: [Option<DType>; 3],
    inputs: HashSet<TensorId>,
    pub(crate) produced: HashSet<TensorId>,
    live_outputs: usize,
}

impl ElementwiseFuser {
    /// A fuser for `device`.
    pub fn new(device: CubeDevice) -> Self {
        Self {
            device,
            bool_dtype: None,
            ops: Vec::new(),
            shape: None,
            dtypes: [None; 3],
            inputs: HashSet::new(),
            produced: HashSet::new(),
            live_outputs: 0,
        }
    }

    /// Whether an operation of the run reads `id` from outside the run.
    pub(crate) fn reads(&self, id: TensorId) -> bool {
        self.inputs.contains(&id)
    }

    pub(crate) fn bool_dtype(&mut self) -> DType {
        let device = &self.device;
        *self
            .bool_dtype
            .get_or_insert_with(|| get_device_settings::<CubeBackend>(device).bool_dtype)
    }
}

fn kind_slot(dtype: DType) -> Option<usize> {
    if dtype.is_float() {
        Some(0)
    } else if dtype.is_bool() {
        Some(2)
    } else if dtype.is_int() {
        Some(1)
    } else {
        None
    }
}

impl Fuser<CubeBackend> for ElementwiseFuser {
    fn accept(&mut self, op: &OperationIr) -> bool {
        // A reshape of a tensor from outside the run (`bias.unsqueeze()`) runs first, as a
        // view, and the run reads its result like any input.
        if let Some((input, _)) = reshape_of(op) {
            // The reshapes run before the kernel takes its inputs: a view of a tensor the run
            // already reads would, as that tensor's last use, free it first.
            if self.produced.contains(&input.id) || self.reads(input.id) {
                return false;
            }
            self.ops.push(op.clone());
            return true;
        }
        let bool_dtype = self.bool_dtype();
        let Some((out, _)) = translate(op, bool_dtype, None) else {
            return false;
        };
        if self.shape.as_ref().is_some_and(|shape| *shape != out.shape) {
            return false;
        }
        let mut dtypes = self.dtypes;
        let mut new_inputs = HashSet::new();
        let mut consumed = 0;
        let mut fits = true;
        op.for_each_tensor(&mut |t| {
            match kind_slot(t.dtype) {
                Some(slot) if dtypes[slot].is_none_or(|d| d == t.dtype) => {
                    dtypes[slot] = Some(t.dtype)
                }
                _ => fits = false,
            }
            if t.status == TensorStatus::NotInit {
                return;
            }
            if self.produced.contains(&t.id) {
                consumed += usize::from(t.status == TensorStatus::ReadWrite);
            } else if !self.inputs.contains(&t.id) {
                new_inputs.insert(t.id);
            }
        });
        let live = self.live_outputs + 1 - consumed.min(self.live_outputs);
        if !fits || self.inputs.len() + new_inputs.len() + live > MAX_TENSORS {
            return false;
        }
        self.dtypes = dtypes;
        self.inputs.extend(new_inputs);
        self.produced.insert(out.id);
        self.live_outputs = live;
        self.shape = Some(out.shape.clone());
        self.ops.push(op.clone());
        true
    }

    fn build(&self) -> Option<Arc<dyn FusedExecution<CubeBackend>>> {
        let bool_dtype = self.bool_dtype?;
        let run = bind(&self.ops, &[], bool_dtype);
        supports(&run.program, &self.device).then(|| {
            Arc::new(ElementwiseExecution {
                program: run.program,
                bool_dtype,
            }) as Arc<dyn FusedExecution<CubeBackend>>
        })
    }

    fn reset(&mut self) {
        self.ops.clear();
        self.shape = None;
        self.dtypes = [None; 3];
        self.inputs.clear();
        self.produced.clear();
        self.live_outputs = 0;
    }
}

/// The input and output of a reshape (of any kind of tensor).
pub(crate) fn reshape_of(op: &OperationIr) -> Option<(&TensorIr, &TensorIr)> {
    match op {
        OperationIr::Float(burn_ir::FloatOperationIr::Reshape { tensor, out, .. })
        | OperationIr::Int(burn_ir::IntOperationIr::Reshape { tensor, out, .. })
        | OperationIr::Bool(burn_ir::BoolOperationIr::Reshape { tensor, out, .. }) => {
            Some((tensor, out))
        }
        _ => None,
    }
}

/// Runs the reshapes among `ops` (views of tensors from outside the run), leaving their
/// results in `ctx` for the fused kernel to read.
pub(crate) fn run_reshapes(ops: &[OperationIr], ctx: &mut ExecutionContext<CubeBackend>) {
    for op in ops {
        if let Some((input, out)) = reshape_of(op) {
            let tensor = cube_tensor(ctx.take(input)).reshape(out.shape.clone());
            ctx.put_checked(op.name(), out, handle_of(out, tensor));
        }
    }
}

/// A run's program and what this queue binds to it.
pub(crate) struct Bound {
    pub(crate) program: FusedProgram,
    pub(crate) inputs: Vec<TensorIr>,
    pub(crate) scalars: Vec<Scalar>,
    pub(crate) outputs: Vec<TensorIr>,
    pub(crate) shape: Shape,
    /// The local each tensor produced by the run is held in.
    pub(crate) locals: HashMap<TensorId, u32>,
}

#[derive(Default)]
struct Builder {
    program: FusedProgram,
    inputs: Vec<TensorIr>,
    input_of: HashMap<TensorId, u32>,
    local_of: HashMap<TensorId, u32>,
    scalars: Vec<Scalar>,
}

impl Emit for Builder {
    fn arg(&mut self, operand: Operand<'_>) -> FusedArg {
        match operand {
            Operand::Tensor(t) => {
                if let Some(&local) = self.local_of.get(&t.id) {
                    return FusedArg::Local(local);
                }
                if let Some(&input) = self.input_of.get(&t.id) {
                    // A later use may be the last one: the run then owns the buffer.
                    if t.status == TensorStatus::ReadWrite {
                        self.inputs[input as usize].status = TensorStatus::ReadWrite;
                    }
                    return FusedArg::Input(input);
                }
                let input = self.inputs.len() as u32;
                self.inputs.push(t.clone());
                self.program.inputs.push(t.dtype);
                self.input_of.insert(t.id, input);
                FusedArg::Input(input)
            }
            Operand::Scalar(value, dtype) => {
                self.scalars.push(value);
                self.program.scalars.push(dtype);
                FusedArg::Scalar(self.program.scalars.len() as u32 - 1)
            }
        }
    }

    fn local(&mut self, dtype: DType) -> u32 {
        self.program.locals.push(dtype);
        self.program.locals.len() as u32 - 1
    }

    fn push(&mut self, instr: FusedInstr) {
        self.program.instrs.push(instr);
    }
}

/// Binds `ops` (a run the fuser accepted) to a program: its inputs, scalars and outputs.
/// `consumers` are operations after the run that are fused with it (a reduction): a tensor
/// they use for the last time is not an output either.
pub(crate) fn bind(ops: &[OperationIr], consumers: &[OperationIr], bool_dtype: DType) -> Bound {
    let mut builder = Builder::default();
    let mut produced: Vec<(TensorIr, u32)> = Vec::new();
    let mut consumed: HashSet<TensorId> = HashSet::new();
    for op in consumers {
        op.for_each_tensor(&mut |t| {
            if t.status == TensorStatus::ReadWrite {
                consumed.insert(t.id);
            }
        });
    }
    for op in ops {
        op.for_each_tensor(&mut |t| {
            if t.status == TensorStatus::ReadWrite {
                consumed.insert(t.id);
            }
        });
        if reshape_of(op).is_some() {
            // Run before the kernel: its result is an input of the program, read from memory.
            continue;
        }
        let (out, local) = translate(op, bool_dtype, Some(&mut builder))
            .expect("the fuser accepted only operations it translates");
        let local = local.expect("an emitter was given");
        builder.local_of.insert(out.id, local);
        produced.push((out.clone(), local));
    }
    // A run of reshapes alone has no program (and `supports` refuses it).
    let shape = produced
        .first()
        .map_or_else(Shape::default, |(t, _)| t.shape.clone());
    let mut outputs = Vec::new();
    for (tensor, local) in produced {
        if !consumed.contains(&tensor.id) {
            builder.program.outputs.push(local);
            outputs.push(tensor);
        }
    }
    Bound {
        program: builder.program,
        inputs: builder.inputs,
        scalars: builder.scalars,
        outputs,
        shape,
        locals: builder.local_of,
    }
}

/// A fused run: its program, built once, bound to each queue's tensors when executed.
struct ElementwiseExecution {
    program: FusedProgram,
    bool_dtype: DType,
}

pub(crate) fn cube_tensor(handle: Handle<CubeBackend>) -> CubeTensor {
    match handle {
        Handle::Float(t) | Handle::Int(t) | Handle::Bool(t) => t,
    }
}

impl FusedExecution<CubeBackend> for ElementwiseExecution {
    fn execute(&self, ops: &[OperationIr], ctx: &mut ExecutionContext<CubeBackend>) {
        run_reshapes(ops, ctx);
        let run = bind(ops, &[], self.bool_dtype);
        debug_assert_eq!(
            run.program, self.program,
            "a plan is reused for its relative key only"
        );
        let inputs = run
            .inputs
            .iter()
            .map(|t| cube_tensor(ctx.take(t)))
            .collect();
        let outputs = launch_fused(&self.program, inputs, &run.scalars, &run.shape);
        for (out, tensor) in run.outputs.iter().zip(outputs) {
            ctx.put_checked("fused element-wise run", out, handle_of(out, tensor));
        }
    }
}

/// `tensor` as the handle of the kind `out` records.
pub(crate) fn handle_of(out: &TensorIr, tensor: CubeTensor) -> Handle<CubeBackend> {
    if out.dtype.is_float() {
        Handle::Float(tensor)
    } else if out.dtype.is_bool() {
        Handle::Bool(tensor)
    } else {
        Handle::Int(tensor)
    }
}
