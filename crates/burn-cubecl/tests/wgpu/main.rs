//! The CubeCL kernels run on a real WGPU device (Mesa's lavapipe on machines without a GPU)
//! and compared with a float64 host reference: random inputs, broadcast shapes, permuted and
//! sliced operands, every dtype the device supports, and the misuse that must panic.
//!
//! One test binary, so the device is created once and the process-wide guards (time limit,
//! abort on a runtime-thread panic; see `harness`) cover every test.

mod harness;

mod binary;
mod bitwise;
mod cast;
mod compare;
mod conv;
mod creation;
mod cubek;
mod device;
mod errors;
mod fused;
mod fused_matmul;
mod fused_reduce;
mod fused_support;
mod index;
mod int_matmul;
mod interpolate;
mod layout;
mod logic;
mod mask;
mod pool;
mod scan;
mod scatter;
mod slice;
mod sort;
mod unary;
