//! The executor: a recorded operation run through the executing backend.

use crate::FusionBackend;
use crate::handles::{ExecutionContext, Handle};
use burn_ir::{
    ActivationOperationIr, BoolOperationIr, FloatOperationIr, IntOperationIr, ModuleOperationIr,
    OperationIr,
};

/// Runs one recorded operation of a group.
pub(crate) trait ExecuteOp<B: FusionBackend> {
    /// Runs the operation on `B`, taking its inputs from `ctx` and storing its outputs there
    /// (checked against the recorded shapes and dtypes when `checked`).
    fn execute(self, ctx: &mut ExecutionContext<B>, checked: bool);
}

burn_ir::float_operations!(fusion_execute);
burn_ir::int_operations!(fusion_execute);
burn_ir::bool_operations!(fusion_execute);
burn_ir::module_operations!(fusion_execute);
burn_ir::activation_operations!(fusion_execute);

/// Runs `op` on `B` (see [`ExecuteOp::execute`]).
pub(crate) fn execute<B: FusionBackend>(
    op: OperationIr,
    ctx: &mut ExecutionContext<B>,
    checked: bool,
) {
    match op {
        OperationIr::Float(op) => op.execute(ctx, checked),
        OperationIr::Int(op) => op.execute(ctx, checked),
        OperationIr::Bool(op) => op.execute(ctx, checked),
        OperationIr::Module(op) => op.execute(ctx, checked),
        OperationIr::Activation(op) => op.execute(ctx, checked),
    }
}
