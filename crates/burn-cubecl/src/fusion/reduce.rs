//! Reductions fused with the element-wise run that computes their input: the run's program is
//! evaluated inside the reduction kernel ([`crate::fused::launch_fused_reduce`]), so the
//! reduced values are never written to memory (`sum(exp(x - m))` of a softmax, `mean(d * d)`
//! of a squared error).

use super::{ElementwiseFuser, bind, cube_tensor, handle_of};
use crate::fused::{FusedProgram, launch_fused_reduce, supports_reduce};
use crate::kernel::ReduceOp;
use crate::{CubeBackend, CubeDevice};
use burn_backend::DType;
use burn_fusion::{ExecutionContext, FusedExecution, Fuser};
use burn_ir::{FloatOperationIr as Fl, OperationIr, TensorIr};
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

/// Finds an element-wise run followed by a reduction of one of the run's values.
pub struct ReduceFuser {
    run: ElementwiseFuser,
    reduce: Option<OperationIr>,
}

impl ReduceFuser {
    /// A fuser for `device`.
    pub fn new(device: CubeDevice) -> Self {
        Self {
            run: ElementwiseFuser::new(device),
            reduce: None,
        }
    }
}

impl Fuser<CubeBackend> for ReduceFuser {
    fn accept(&mut self, op: &OperationIr) -> bool {
        if self.reduce.is_some() {
            return false;
        }
        if let Some((_, input, _, _)) = reduction(op) {
            let closes = self.run.produced.contains(&input.id)
                && input.dtype.is_float()
                && self.run.shape.as_ref() == Some(&input.shape);
            if closes {
                self.reduce = Some(op.clone());
            }
            return closes;
        }
        self.run.accept(op)
    }

    fn build(&self) -> Option<Arc<dyn FusedExecution<CubeBackend>>> {
        let reduce = self.reduce.as_ref()?;
        let mut run = ElementwiseFuser::new(self.run.device.clone());
        let bool_dtype = run.bool_dtype();
        let (op, input, dim, _) = reduction(reduce)?;
        let bound = bind(&self.run.ops, std::slice::from_ref(reduce), bool_dtype);
        let local = *bound.locals.get(&input.id)?;
        let supported = supports_reduce(
            &bound.program,
            local,
            op,
            &bound.shape,
            dim,
            &self.run.device,
        );
        supported.then(|| {
            Arc::new(ReduceExecution {
                program: bound.program,
                bool_dtype,
            }) as Arc<dyn FusedExecution<CubeBackend>>
        })
    }

    fn reset(&mut self) {
        self.run.reset();
        self.reduce = None;
    }
}

/// A fused run and its reduction, built once per relative key.
struct ReduceExecution {
    program: FusedProgram,
    bool_dtype: DType,
}

impl FusedExecution<CubeBackend> for ReduceExecution {
    fn execute(&self, ops: &[OperationIr], ctx: &mut ExecutionContext<CubeBackend>) {
        let (reduce, run) = ops.split_last().expect("a run and its reduction");
        let bound = bind(run, std::slice::from_ref(reduce), self.bool_dtype);
        debug_assert_eq!(
            bound.program, self.program,
            "a plan is reused for its relative key only"
        );
        let (op, input, dim, out) = reduction(reduce).expect("the fuser accepted a reduction");
        let local = bound.locals[&input.id];
        let inputs = bound
            .inputs
            .iter()
            .map(|t| cube_tensor(ctx.take(t)))
            .collect();
        let (reduced, outputs) = launch_fused_reduce(
            &self.program,
            local,
            op,
            inputs,
            &bound.scalars,
            &bound.shape,
            dim,
        );
        for (tensor_ir, tensor) in bound.outputs.iter().zip(outputs) {
            ctx.put_checked("fused reduction", tensor_ir, handle_of(tensor_ir, tensor));
        }
        ctx.put_checked(reduce.name(), out, handle_of(out, reduced));
    }
}
