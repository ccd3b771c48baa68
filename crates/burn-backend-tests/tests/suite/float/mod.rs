//! Float tensors: the part of the suite that runs under every default float dtype.

mod activation;
mod arg;
mod binary;
mod cat;
mod compare;
mod conv;
mod convert;
mod creation;
mod dtypes;
mod indexing;
mod interpolate;
mod large;
mod layout;
mod loss;
mod matmul;
mod nn;
mod operators;
mod pool;
mod reduce;
mod scan;
mod select_nd;
mod slice;
mod sort;
mod stats;
mod unary;
mod volume;
