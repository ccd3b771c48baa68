//! Reductions fused with the element-wise runs around them: the run computing the reduced
//! values is evaluated inside the reduction kernel, so they are never written to memory
//! (`sum(exp(x - m))` of a softmax, `mean(d * d)` of a squared error), and an element-wise run
//! on the reduced shape right after (`sum / n`, `sqrt(var + eps)`) runs on each reduced value
//! in the same kernel ([`crate::fused::launch_fused_reduce`]).

use super::{Bound, ElementwiseFuser, bind, cube_tensor, handle_of, reshape_of, run_reshapes};
use crate::fused::{FusedArg, FusedEpilogue, FusedProgram, launch_fused_reduce, supports_reduce};
use crate::kernel::ReduceOp;
use crate::{CubeBackend, CubeDevice, CubeTensor};
use burn_backend::DType;
use burn_fusion::{ExecutionContext, FusedExecution, Fuser};
use burn_ir::{FloatOperationIr as Fl, OperationIr, TensorId, TensorIr, TensorStatus};
use std::collections::HashMap;
use std::sync::Arc;

/// The reduction an operation records: the operation, its input, its dim (`None`: over every
/// element) and its output.
fn reduction(op: &OperationIr) -> Option<(ReduceOp, &TensorIr, Option<usize>, &TensorIr)> {
    let OperationIr::Float(op) = op else {
        return None;
    };
    Some(match op {
        Fl::SumDim { tensor, dim, out } => (ReduceOp::Sum, tensor, Some(*dim), out),
        Fl::MeanDim { tensor, dim, out } => (ReduceOp::Mean, tensor, Some(*dim), out),
        Fl::ProdDim { tensor, dim, out } => (ReduceOp::Prod, tensor, Some(*dim), out),
        Fl::MaxDim { tensor, dim, out } => (ReduceOp::Max, tensor, Some(*dim), out),
        Fl::MinDim { tensor, dim, out } => (ReduceOp::Min, tensor, Some(*dim), out),
        Fl::Sum { tensor, out } => (ReduceOp::Sum, tensor, None, out),
        Fl::Mean { tensor, out } => (ReduceOp::Mean, tensor, None, out),
        Fl::Prod { tensor, out } => (ReduceOp::Prod, tensor, None, out),
        Fl::Max { tensor, out } => (ReduceOp::Max, tensor, None, out),
        Fl::Min { tensor, out } => (ReduceOp::Min, tensor, None, out),
        _ => return None,
    })
}

/// Finds an element-wise run, a reduction of one of its values, and an element-wise run on
/// the reduced shape after it (possibly empty).
pub struct ReduceFuser {
    run: ElementwiseFuser,
    reduce: Option<OperationIr>,
    epilogue: ElementwiseFuser,
}

impl ReduceFuser {
    /// A fuser for `device`.
    pub fn new(device: CubeDevice) -> Self {
        Self {
            run: ElementwiseFuser::new(device.clone()),
            reduce: None,
            epilogue: ElementwiseFuser::new(device),
        }
    }
}

impl Fuser<CubeBackend> for ReduceFuser {
    fn accept(&mut self, op: &OperationIr) -> bool {
        if self.reduce.is_some() {
            // The epilogue reads the reduced shape only, never a value of the first run.
            let mut reads_run = false;
            op.for_each_tensor(&mut |t| {
                reads_run |= t.status != TensorStatus::NotInit && self.run.produced.contains(&t.id);
            });
            // Every reshape of the block runs before the kernels take their inputs.
            let views_run_input = reshape_of(op).is_some_and(|(input, _)| self.run.reads(input.id));
            return !reads_run && !views_run_input && self.epilogue.accept(op);
        }
        if let Some((_, input, _, out)) = reduction(op) {
            let closes = self.run.produced.contains(&input.id)
                && input.dtype.is_float()
                && self.run.shape.as_ref() == Some(&input.shape);
            if closes {
                self.reduce = Some(op.clone());
                self.epilogue.reset();
                self.epilogue.shape = Some(out.shape.clone());
                self.epilogue.dtypes = self.run.dtypes;
            }
            return closes;
        }
        self.run.accept(op)
    }

    fn build(&self) -> Option<Arc<dyn FusedExecution<CubeBackend>>> {
        let reduce = self.reduce.as_ref()?;
        let bool_dtype = ElementwiseFuser::new(self.run.device.clone()).bool_dtype();
        let (op, input, dim, out) = reduction(reduce)?;
        let mut consumers = vec![reduce.clone()];
        consumers.extend(self.epilogue.ops.iter().cloned());
        let bound = bind(&self.run.ops, &consumers, bool_dtype);
        let local = *bound.locals.get(&input.id)?;
        let epilogue = if self.epilogue.ops.is_empty() {
            None
        } else {
            Some(bind_epilogue(&self.epilogue.ops, out, bool_dtype)?)
        };
        let epilogue_program = epilogue.as_ref().map(|b| &b.program);
        let device = &self.run.device;
        supports_reduce(
            &bound.program,
            local,
            op,
            &bound.shape,
            dim,
            epilogue_program,
            device,
        )
        .then(|| {
            Arc::new(ReduceExecution {
                program: bound.program,
                epilogue: epilogue.map(|b| b.program),
                run_len: self.run.ops.len(),
                bool_dtype,
            }) as Arc<dyn FusedExecution<CubeBackend>>
        })
    }

    fn reset(&mut self) {
        self.run.reset();
        self.reduce = None;
        self.epilogue.reset();
    }
}

/// Binds the epilogue run with the reduced tensor as the program's last input (the kernel
/// hands it over in a register); `None` when the run does not read it.
pub(super) fn bind_epilogue(
    ops: &[OperationIr],
    reduced: &TensorIr,
    bool_dtype: DType,
) -> Option<Bound> {
    let mut bound = bind(ops, &[], bool_dtype);
    let k = bound.inputs.iter().position(|t| t.id == reduced.id)?;
    let last = bound.inputs.len() as u32 - 1;
    let k32 = k as u32;
    for instr in &mut bound.program.instrs {
        instr.map_args(|arg| match arg {
            FusedArg::Input(i) if i == k32 => FusedArg::Input(last),
            FusedArg::Input(i) if i > k32 => FusedArg::Input(i - 1),
            other => other,
        });
    }
    let tensor = bound.inputs.remove(k);
    bound.inputs.push(tensor);
    let dtype = bound.program.inputs.remove(k);
    bound.program.inputs.push(dtype);
    Some(bound)
}

/// A fused run, its reduction and its epilogue, built once per relative key.
struct ReduceExecution {
    program: FusedProgram,
    epilogue: Option<FusedProgram>,
    run_len: usize,
    bool_dtype: DType,
}

/// Takes each distinct tensor of `uses` from `ctx` once (removed on its last use, else cloned).
pub(super) fn take_all(
    ctx: &mut ExecutionContext<CubeBackend>,
    uses: &[&TensorIr],
) -> HashMap<TensorId, CubeTensor> {
    let mut merged: Vec<TensorIr> = Vec::new();
    for t in uses {
        match merged.iter_mut().find(|m| m.id == t.id) {
            Some(m) if t.status == TensorStatus::ReadWrite => m.status = TensorStatus::ReadWrite,
            Some(_) => {}
            None => merged.push((*t).clone()),
        }
    }
    merged
        .iter()
        .map(|t| (t.id, cube_tensor(ctx.take(t))))
        .collect()
}

impl FusedExecution<CubeBackend> for ReduceExecution {
    fn execute(&self, ops: &[OperationIr], ctx: &mut ExecutionContext<CubeBackend>) {
        run_reshapes(ops, ctx);
        let (run, rest) = ops.split_at(self.run_len);
        let (reduce, epilogue_ops) = rest.split_first().expect("a run and its reduction");
        let bound = bind(run, rest, self.bool_dtype);
        debug_assert_eq!(
            bound.program, self.program,
            "a plan is reused for its relative key only"
        );
        let (op, input, dim, out) = reduction(reduce).expect("the fuser accepted a reduction");
        let local = bound.locals[&input.id];
        let epilogue = self.epilogue.as_ref().map(|program| {
            let bound = bind_epilogue(epilogue_ops, out, self.bool_dtype)
                .expect("the epilogue read the reduced tensor when it was planned");
            (program, bound)
        });
        let mut uses: Vec<&TensorIr> = bound.inputs.iter().collect();
        if let Some((_, epi)) = &epilogue {
            uses.extend(&epi.inputs[..epi.inputs.len() - 1]);
        }
        let mut tensors = take_all(ctx, &uses);
        let mut tensor_of = |t: &TensorIr| tensors.get(&t.id).cloned().expect("taken above");
        let inputs = bound.inputs.iter().map(&mut tensor_of).collect();
        let epilogue_arg = epilogue.as_ref().map(|(program, epi)| FusedEpilogue {
            program: (*program).clone(),
            inputs: epi.inputs[..epi.inputs.len() - 1]
                .iter()
                .map(&mut tensor_of)
                .collect(),
            scalars: epi.scalars.clone(),
        });
        tensors.clear();
        let fused = launch_fused_reduce(
            &self.program,
            local,
            op,
            inputs,
            &bound.scalars,
            &bound.shape,
            dim,
            epilogue_arg,
        );
        for (t, tensor) in bound.outputs.iter().zip(fused.outputs) {
            ctx.put_checked("fused reduction", t, handle_of(t, tensor));
        }
        let mut reduced_consumed = false;
        for op in epilogue_ops {
            op.for_each_tensor(&mut |t| {
                reduced_consumed |= t.id == out.id && t.status == TensorStatus::ReadWrite;
            });
        }
        if !reduced_consumed {
            ctx.put_checked(reduce.name(), out, handle_of(out, fused.reduced));
        }
        if let Some((_, epi)) = &epilogue {
            for (t, tensor) in epi.outputs.iter().zip(fused.epilogue_outputs) {
                ctx.put_checked("fused reduction epilogue", t, handle_of(t, tensor));
            }
        }
    }
}
