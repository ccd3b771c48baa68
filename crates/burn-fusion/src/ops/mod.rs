//! The backend methods of `Fusion<B>` and the executor of recorded operations, generated from
//! `burn-ir`'s operation tables (see `burn_ir::table`), plus the few methods that do not record
//! (reads, uploads, device moves).

#[macro_use]
mod generate;
mod bool;
mod float;
mod int;
mod module;
mod prelude;
pub(crate) mod read;

pub(crate) use burn_ir::execute;
