//! Matrix products fused with the element-wise run after them: `relu(x·W + b)` computes the
//! product and runs the bias and the activation on it in one kernel, so the product is written
//! only when something after the run still reads it ([`crate::fused::launch_fused_matmul`];
//! [`crate::fused::supports_matmul`] says on which devices and sizes).

use super::reduce::{bind_epilogue, take_all};
use super::{ElementwiseFuser, handle_of, reshape_of, run_reshapes};
use crate::fused::{FusedEpilogue, FusedProgram, launch_fused_matmul, supports_matmul};
use crate::{CubeBackend, CubeDevice};
use burn_backend::DType;
use burn_fusion::{ExecutionContext, FusedExecution, Fuser};
use burn_ir::{FloatOperationIr, OperationIr, TensorIr, TensorStatus};
use std::sync::Arc;

/// The operands and output of a float matrix product.
fn product(op: &OperationIr) -> Option<(&TensorIr, &TensorIr, &TensorIr)> {
    match op {
        OperationIr::Float(FloatOperationIr::Matmul { lhs, rhs, out }) => Some((lhs, rhs, out)),
        _ => None,
    }
}

/// Finds a matrix product followed by an element-wise run on its result's shape.
pub struct MatmulFuser {
    product: Option<OperationIr>,
    epilogue: ElementwiseFuser,
}

impl MatmulFuser {
    /// A fuser for `device`.
    pub fn new(device: CubeDevice) -> Self {
        Self {
            product: None,
            epilogue: ElementwiseFuser::new(device),
        }
    }
}

impl Fuser<CubeBackend> for MatmulFuser {
    fn accept(&mut self, op: &OperationIr) -> bool {
        if let Some((lhs, rhs, out)) = self.product.as_ref().and_then(product) {
            // The reshapes run before the kernel takes its tensors: a view of the product would
            // run before it exists, and a view of an operand, as its last use, would free it.
            let views = |id| [lhs.id, rhs.id, out.id].contains(&id);
            if reshape_of(op).is_some_and(|(input, _)| views(input.id)) {
                return false;
            }
            return self.epilogue.accept(op);
        }
        let Some((_, _, out)) = product(op) else {
            return false;
        };
        if !out.dtype.is_float() {
            return false;
        }
        self.product = Some(op.clone());
        self.epilogue.reset();
        self.epilogue.shape = Some(out.shape.clone());
        self.epilogue.dtypes = [Some(out.dtype), None, None];
        true
    }

    fn build(&self) -> Option<Arc<dyn FusedExecution<CubeBackend>>> {
        let (lhs, rhs, out) = product(self.product.as_ref()?)?;
        if self.epilogue.ops.is_empty() {
            return None;
        }
        let bool_dtype = ElementwiseFuser::new(self.epilogue.device.clone()).bool_dtype();
        let bound = bind_epilogue(&self.epilogue.ops, out, bool_dtype)?;
        supports_matmul(
            &lhs.shape,
            &rhs.shape,
            out.dtype,
            &bound.program,
            &self.epilogue.device,
        )
        .then(|| {
            Arc::new(MatmulExecution {
                program: bound.program,
                bool_dtype,
            }) as Arc<dyn FusedExecution<CubeBackend>>
        })
    }

    fn reset(&mut self) {
        self.product = None;
        self.epilogue.reset();
    }
}

/// A fused product and its epilogue, built once per relative key.
struct MatmulExecution {
    program: FusedProgram,
    bool_dtype: DType,
}

impl FusedExecution<CubeBackend> for MatmulExecution {
    fn execute(&self, ops: &[OperationIr], ctx: &mut ExecutionContext<CubeBackend>) {
        let (first, epilogue_ops) = ops.split_first().expect("a product and its epilogue");
        let (lhs, rhs, out) = product(first).expect("the fuser accepted a product");
        run_reshapes(epilogue_ops, ctx);
        let bound = bind_epilogue(epilogue_ops, out, self.bool_dtype)
            .expect("the epilogue read the product when it was planned");
        debug_assert_eq!(
            bound.program, self.program,
            "a plan is reused for its relative key only"
        );
        let others = &bound.inputs[..bound.inputs.len() - 1];
        let mut uses: Vec<&TensorIr> = vec![lhs, rhs];
        uses.extend(others);
        let tensors = take_all(ctx, &uses);
        let tensor_of = |t: &TensorIr| tensors.get(&t.id).cloned().expect("taken above");
        // The product is written only when an operation after the run still reads it.
        let mut consumed = false;
        for op in epilogue_ops {
            op.for_each_tensor(&mut |t| {
                consumed |= t.id == out.id && t.status == TensorStatus::ReadWrite;
            });
        }
        let epilogue = FusedEpilogue {
            program: self.program.clone(),
            inputs: others.iter().map(tensor_of).collect(),
            scalars: bound.scalars.clone(),
        };
        let fused = launch_fused_matmul(tensor_of(lhs), tensor_of(rhs), epilogue, !consumed);
        drop(tensors);
        if let Some(product) = fused.product {
            ctx.put_checked(first.name(), out, handle_of(out, product));
        }
        for (t, tensor) in bound.outputs.iter().zip(fused.outputs) {
            ctx.put_checked("fused matmul epilogue", t, handle_of(t, tensor));
        }
    }
}
