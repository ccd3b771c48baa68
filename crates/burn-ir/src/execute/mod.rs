//! The reference interpreter of the IR: each recorded operation run through any backend `B`,
//! its inputs taken from and its outputs left in an [`ExecutionContext`].
//!
//! `Fusion<B>` runs the operations no fuser takes through it; a captured graph replays
//! through it on the device of its inputs.

mod context;

pub use context::{ExecutionContext, Handle};

use crate::{
    ActivationOperationIr, BoolOperationIr, FloatOperationIr, IntOperationIr, ModuleOperationIr,
    OperationIr,
};
use burn_backend::Backend;
#[allow(unused_imports)]
use burn_backend::ops::*;

/// Runs one recorded operation of a group.
pub trait ExecuteOp<B: Backend> {
    /// Runs the operation on `B`, taking its inputs from `ctx` and storing its outputs there
    /// (checked against the recorded shapes and dtypes when `checked`).
    fn execute(&self, ctx: &mut ExecutionContext<B>, checked: bool);
}

/// An argument of the executing backend's method, taken from the context.
macro_rules! ir_exec_arg {
    (F; $ctx:ident, $x:expr) => {
        $ctx.take_float($x)
    };
    (I; $ctx:ident, $x:expr) => {
        $ctx.take_int($x)
    };
    (B; $ctx:ident, $x:expr) => {
        $ctx.take_bool($x)
    };
    (OptF; $ctx:ident, $x:expr) => {
        $x.as_ref().map(|t| $ctx.take_float(t))
    };
    (OptB; $ctx:ident, $x:expr) => {
        $x.as_ref().map(|t| $ctx.take_bool(t))
    };
    (VecF; $ctx:ident, $x:expr) => {
        $x.iter().map(|t| $ctx.take_float(t)).collect()
    };
    (VecI; $ctx:ident, $x:expr) => {
        $x.iter().map(|t| $ctx.take_int(t)).collect()
    };
    (VecB; $ctx:ident, $x:expr) => {
        $x.iter().map(|t| $ctx.take_bool(t)).collect()
    };
    // A clone, since later arguments may take from the context.
    (Dev; $ctx:ident, $x:expr) => {
        &$ctx.device.clone()
    };
    (Val $t:ty; $ctx:ident, $x:expr) => {
        $x.clone()
    };
    (Slice $t:ty; $ctx:ident, $x:expr) => {
        &$x[..]
    };
}

/// Stores the executing backend's result under the recorded outputs.
macro_rules! ir_exec_out {
    (F; $ctx:ident, $name:expr, $out:expr, $r:expr, $checked:expr) => {
        ir_exec_out!(@one Float, insert_float; $ctx, $name, $out, $r, $checked)
    };
    (I; $ctx:ident, $name:expr, $out:expr, $r:expr, $checked:expr) => {
        ir_exec_out!(@one Int, insert_int; $ctx, $name, $out, $r, $checked)
    };
    (B; $ctx:ident, $name:expr, $out:expr, $r:expr, $checked:expr) => {
        ir_exec_out!(@one Bool, insert_bool; $ctx, $name, $out, $r, $checked)
    };
    (FI; $ctx:ident, $name:expr, $out:expr, $r:expr, $checked:expr) => { {
        let [a, b] = $out;
        let (x, y) = $r;
        ir_exec_out!(@one Float, insert_float; $ctx, $name, a, x, $checked);
        ir_exec_out!(@one Int, insert_int; $ctx, $name, b, y, $checked);
    } };
    (II; $ctx:ident, $name:expr, $out:expr, $r:expr, $checked:expr) => { {
        let [a, b] = $out;
        let (x, y) = $r;
        ir_exec_out!(@one Int, insert_int; $ctx, $name, a, x, $checked);
        ir_exec_out!(@one Int, insert_int; $ctx, $name, b, y, $checked);
    } };
    // Unchecked outputs are built in place in their slot (`insert_float` and its kin).
    (@one $variant:ident, $insert:ident; $ctx:ident, $name:expr, $out:expr, $r:expr, $checked:expr) => {
        if $checked {
            $ctx.put_checked($name, $out, Handle::$variant($r));
        } else {
            $ctx.$insert($out.id, $r);
        }
    };
}

/// Writes the executor of a table: each recorded operation run through `B`.
macro_rules! ir_execute {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lname:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $ename:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        impl<B: Backend> ExecuteOp<B> for $Enum {
            #[allow(unused_variables)]
            fn execute(&self, ctx: &mut ExecutionContext<B>, checked: bool) {
                match self {
                    $( $Enum::$LV { $($la,)* out } => {
                        let result = B::$lname($( ir_exec_arg!($lk $($lt)?; ctx, $la) ),*);
                        ir_exec_out!($lout; ctx, stringify!($lname), out, result, checked);
                    } )*
                    $( $Enum::$EV { $($ea,)* out } => {
                        let result = B::$ename($( ir_exec_arg!($ek $($et)?; ctx, $ea) ),*);
                        ir_exec_out!($eout; ctx, stringify!($ename), out, result, false);
                    } )*
                }
            }
        }
    };
}

crate::float_operations!(ir_execute);
crate::int_operations!(ir_execute);
crate::bool_operations!(ir_execute);
crate::module_operations!(ir_execute);
crate::activation_operations!(ir_execute);

/// Runs `op` on `B` (see [`ExecuteOp::execute`]).
pub fn execute<B: Backend>(op: &OperationIr, ctx: &mut ExecutionContext<B>, checked: bool) {
    match op {
        OperationIr::Float(op) => op.execute(ctx, checked),
        OperationIr::Int(op) => op.execute(ctx, checked),
        OperationIr::Bool(op) => op.execute(ctx, checked),
        OperationIr::Module(op) => op.execute(ctx, checked),
        OperationIr::Activation(op) => op.execute(ctx, checked),
    }
}
