//! The IR enums, generated from the operation tables.

use crate::rules;
use crate::tensor::TensorIr;
use burn_backend::{
    AttentionModuleOptions, ConvOptions, ConvTransposeOptions, DType, Distribution, FloatDType,
    IndexingUpdateOp, IntDType, InterpolateOptions, Scalar, Shape, Slice,
};
use core::ops::Range;

/// Calls `$f` on each tensor an argument of kind `$kind` holds.
#[macro_export]
#[doc(hidden)]
macro_rules! ir_visit {
    (F; $x:expr, $f:expr) => {
        $f($x)
    };
    (I; $x:expr, $f:expr) => {
        $f($x)
    };
    (B; $x:expr, $f:expr) => {
        $f($x)
    };
    (OptF; $x:expr, $f:expr) => {
        if let Some(x) = $x {
            $f(x)
        }
    };
    (OptB; $x:expr, $f:expr) => {
        if let Some(x) = $x {
            $f(x)
        }
    };
    (VecF; $x:expr, $f:expr) => {
        for x in $x {
            $f(x)
        }
    };
    (VecI; $x:expr, $f:expr) => {
        for x in $x {
            $f(x)
        }
    };
    (VecB; $x:expr, $f:expr) => {
        for x in $x {
            $f(x)
        }
    };
    (Dev; $x:expr, $f:expr) => {
        let _ = $x;
    };
    (Val $t:ty; $x:expr, $f:expr) => {
        let _ = $x;
    };
    (Slice $t:ty; $x:expr, $f:expr) => {
        let _ = $x;
    };
}

/// Calls `$f` on each output tensor of kind `$kind`.
#[macro_export]
#[doc(hidden)]
macro_rules! ir_visit_out {
    (F; $x:expr, $f:expr) => {
        $f($x)
    };
    (I; $x:expr, $f:expr) => {
        $f($x)
    };
    (B; $x:expr, $f:expr) => {
        $f($x)
    };
    (FI; $x:expr, $f:expr) => {
        for x in $x {
            $f(x)
        }
    };
    (II; $x:expr, $f:expr) => {
        for x in $x {
            $f(x)
        }
    };
}

/// Generates one IR enum from an operation table.
macro_rules! define_ir {
    ($Enum:ident, $Trait:ident, $group:literal;
     lazy { $( $LV:ident = $lname:ident ( $($la:ident : $lk:ident $([$lt:ty])?),* $(,)? ) -> $lout:ident => $rule:expr; )* }
     eager { $( $EV:ident = $ename:ident ( $($ea:ident : $ek:ident $([$et:ty])?),* $(,)? ) -> $eout:ident; )* }
    ) => {
        #[doc = concat!("The recorded ", $group, " operations: one variant per backend method, its arguments and its outputs (`out`).")]
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[allow(missing_docs)]
        pub enum $Enum {
            $( $LV { $($la: $crate::ir_arg_ty!($lk $($lt)?),)* out: $crate::ir_out_ty!($lout) }, )*
            $( $EV { $($ea: $crate::ir_arg_ty!($ek $($et)?),)* out: $crate::ir_out_ty!($eout) }, )*
        }

        impl $Enum {
            /// The backend method this operation records.
            pub fn name(&self) -> &'static str {
                match self {
                    $( Self::$LV { .. } => stringify!($lname), )*
                    $( Self::$EV { .. } => stringify!($ename), )*
                }
            }

            /// Calls `f` on every tensor the operation reads, then on its outputs.
            pub fn for_each_tensor<'a>(&'a self, f: &mut dyn FnMut(&'a TensorIr)) {
                match self {
                    $( Self::$LV { $($la,)* out } => {
                        $( $crate::ir_visit!($lk $($lt)?; $la, f); )*
                        $crate::ir_visit_out!($lout; out, f);
                    } )*
                    $( Self::$EV { $($ea,)* out } => {
                        $( $crate::ir_visit!($ek $($et)?; $ea, f); )*
                        $crate::ir_visit_out!($eout; out, f);
                    } )*
                }
            }

            /// Calls `f` on every tensor the operation reads, then on its outputs, mutably.
            pub fn for_each_tensor_mut(&mut self, f: &mut dyn FnMut(&mut TensorIr)) {
                match self {
                    $( Self::$LV { $($la,)* out } => {
                        $( $crate::ir_visit!($lk $($lt)?; $la, f); )*
                        $crate::ir_visit_out!($lout; out, f);
                    } )*
                    $( Self::$EV { $($ea,)* out } => {
                        $( $crate::ir_visit!($ek $($et)?; $ea, f); )*
                        $crate::ir_visit_out!($eout; out, f);
                    } )*
                }
            }
        }

        // The rules are type-checked here, once, against the recorded argument types.
        #[allow(dead_code, unused_variables, clippy::too_many_arguments, clippy::ptr_arg)]
        const _: () = {
            $( fn $lname(c: &rules::RuleCtx, $($la: &$crate::ir_arg_ty!($lk $($lt)?)),*) {
                $( let $la = $la.clone(); )*
                let _ = ($rule)(c);
            } )*
        };
    };
}

crate::float_operations!(define_ir);
crate::int_operations!(define_ir);
crate::bool_operations!(define_ir);
crate::module_operations!(define_ir);
crate::activation_operations!(define_ir);

/// Any recorded operation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum OperationIr {
    /// An operation on float tensors.
    Float(FloatOperationIr),
    /// An operation on int tensors.
    Int(IntOperationIr),
    /// An operation on bool tensors.
    Bool(BoolOperationIr),
    /// A module operation (convolution, pooling, interpolation).
    /// Boxed: the convolutions' and pools' options make it the largest group by far.
    Module(Box<ModuleOperationIr>),
    /// An activation function or its gradient.
    Activation(ActivationOperationIr),
}

impl OperationIr {
    /// The backend method this operation records.
    pub fn name(&self) -> &'static str {
        match self {
            OperationIr::Float(op) => op.name(),
            OperationIr::Int(op) => op.name(),
            OperationIr::Bool(op) => op.name(),
            OperationIr::Module(op) => op.name(),
            OperationIr::Activation(op) => op.name(),
        }
    }

    /// Calls `f` on every tensor the operation reads, then on its outputs.
    pub fn for_each_tensor<'a>(&'a self, f: &mut dyn FnMut(&'a TensorIr)) {
        match self {
            OperationIr::Float(op) => op.for_each_tensor(f),
            OperationIr::Int(op) => op.for_each_tensor(f),
            OperationIr::Bool(op) => op.for_each_tensor(f),
            OperationIr::Module(op) => op.for_each_tensor(f),
            OperationIr::Activation(op) => op.for_each_tensor(f),
        }
    }

    /// Calls `f` on every tensor the operation reads, then on its outputs, mutably.
    pub fn for_each_tensor_mut(&mut self, f: &mut dyn FnMut(&mut TensorIr)) {
        match self {
            OperationIr::Float(op) => op.for_each_tensor_mut(f),
            OperationIr::Int(op) => op.for_each_tensor_mut(f),
            OperationIr::Bool(op) => op.for_each_tensor_mut(f),
            OperationIr::Module(op) => op.for_each_tensor_mut(f),
            OperationIr::Activation(op) => op.for_each_tensor_mut(f),
        }
    }

    /// The tensors the operation uses, inputs first, then outputs.
    pub fn tensors(&self) -> Vec<&TensorIr> {
        let mut all = Vec::new();
        self.for_each_tensor(&mut |t| all.push(t));
        all
    }
}

macro_rules! from_group {
    ($($variant:ident($ty:ident)),*) => {$(
        impl From<$ty> for OperationIr {
            fn from(op: $ty) -> Self {
                OperationIr::$variant(op)
            }
        }
    )*};
}

from_group!(
    Float(FloatOperationIr),
    Int(IntOperationIr),
    Bool(BoolOperationIr),
    Activation(ActivationOperationIr)
);

impl From<ModuleOperationIr> for OperationIr {
    fn from(op: ModuleOperationIr) -> Self {
        OperationIr::Module(Box::new(op))
    }
}
