//! Operations over [`FlexTensor`](crate::FlexTensor)s, one file per family, written once
//! generically over element types and instantiated per dtype by the dispatch macros.

pub mod arith;
pub mod binary;
pub mod compare;
pub mod creation;
pub mod index;
pub mod int;
pub mod map;
pub mod mask;
pub mod matmul;
pub mod qmatmul;
pub mod quantize;
pub mod random;
pub mod reduce;
pub mod scan;
pub mod shape;
pub mod softmax;
#[cfg(target_arch = "x86_64")]
mod softmax_x86;
pub mod sort;
pub mod take;
pub mod unary;
