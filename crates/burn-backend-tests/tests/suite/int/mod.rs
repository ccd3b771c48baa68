//! Int tensors.

mod arith;
mod bitwise;
mod convert;
mod creation;
mod dtypes;
mod indexing;
mod reduce;
