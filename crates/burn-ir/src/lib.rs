//! The operation IR of the fusion decorator: what each backend operation reads and writes,
//! recorded without running it.
//!
//! Every operation of the backend contract that `Fusion<B>` records lazily has a variant here,
//! generated from the tables in [`table`] (one line per operation: its variant, its arguments by
//! kind, its output rule). Tensors are named by [`TensorId`] and carry their shape, dtype and
//! [`TensorStatus`].

#[macro_use]
pub mod table;
mod operation;
mod relative;
pub mod rules;
mod tensor;

pub use operation::*;
pub use relative::{RelativeKey, relative_key};
pub use rules::{RuleCtx, TensorSpec};
pub use tensor::{TensorId, TensorIr, TensorStatus};

/// The IR form of each argument kind of the operation tables (see [`table`]).
#[macro_export]
#[doc(hidden)]
macro_rules! ir_arg_ty {
    (F) => { $crate::TensorIr };
    (I) => { $crate::TensorIr };
    (B) => { $crate::TensorIr };
    (OptF) => { ::core::option::Option<$crate::TensorIr> };
    (OptB) => { ::core::option::Option<$crate::TensorIr> };
    (VecF) => { ::std::vec::Vec<$crate::TensorIr> };
    (VecI) => { ::std::vec::Vec<$crate::TensorIr> };
    (VecB) => { ::std::vec::Vec<$crate::TensorIr> };
    (Dev) => { () };
    (Val $t:ty) => { $t };
    (Slice $t:ty) => { ::std::vec::Vec<$t> };
}

/// The IR form of each output kind of the operation tables.
#[macro_export]
#[doc(hidden)]
macro_rules! ir_out_ty {
    (F) => {
        $crate::TensorIr
    };
    (I) => {
        $crate::TensorIr
    };
    (B) => {
        $crate::TensorIr
    };
    (FI) => {
        [$crate::TensorIr; 2]
    };
    (II) => {
        [$crate::TensorIr; 2]
    };
}
