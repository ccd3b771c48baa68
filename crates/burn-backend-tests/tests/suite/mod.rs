//! The conformance suite: every public operation of the tensor API, checked against the
//! float64 reference. Tests reach the device under test through `crate::device()`, which each
//! binary defines; nothing here names a backend.

mod bool;
mod capture;
mod float;
mod int;
mod misc;
mod quantization;
