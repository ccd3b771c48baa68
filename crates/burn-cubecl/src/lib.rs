//! The CubeCL backend: tensors in the buffers of any CubeCL runtime (WGPU on Vulkan, Metal or
//! WebGPU; CUDA; ROCm; CPU) and the kernels that compute on them, each written once as a
//! `#[cube]` function and compiled at run time for the device and dtype at hand.
//!
//! This crate sits beside `burn-flex` under the backend contract of `burn-backend`: a
//! [`CubeDevice`] names the runtime and the device, a [`CubeTensor`] is a buffer with its
//! shape, strides and dtype, and [`kernel`] holds the operations.
//!
//! ```no_run
//! use burn_backend::{DType, Shape, TensorData};
//! use burn_cubecl::{CubeDevice, CubeTensor, kernel};
//!
//! let device = CubeDevice::default();
//! let x = CubeTensor::from_data(TensorData::new(vec![1.0f32, 2.0, 3.0], [3]), &device);
//! let y = kernel::binary_scalar(kernel::BinaryOp::Mul, x, 2.0.into());
//! let y = kernel::unary(kernel::UnaryOp::Exp, y);
//! let values = y.into_data_sync().unwrap();
//! assert_eq!(values.shape, Shape::new([3]));
//! # let _ = DType::F32;
//! ```
#![warn(missing_docs)]

mod backend;
mod device;
pub mod dtype;
mod error;
#[cfg(feature = "fusion")]
pub mod fusion;
pub mod kernel;
mod launch;
mod tensor;
mod transfer;
mod view;

pub use backend::{CubeBackend, CubeGraph};
pub use device::{
    CubeDevice, DeviceUnavailable, RuntimeId, WgpuBackend, WgpuDevice, WgpuDeviceKind,
};
pub use error::execution_error;
pub use kernel::fused;
pub use launch::launch_count;
pub use tensor::{BufferId, CubeTensor, is_contiguous};

/// The CubeCL backend as the framework uses it: [`CubeBackend`] wrapped in the fusion
/// decorator (element-wise runs as one kernel) with the `fusion` feature.
#[cfg(feature = "fusion")]
pub type Cube = burn_fusion::Fusion<CubeBackend>;

/// The CubeCL backend as the framework uses it: [`CubeBackend`] (the `fusion` feature wraps it in
/// the fusion decorator).
#[cfg(not(feature = "fusion"))]
pub type Cube = CubeBackend;

/// [`Cube`] on WGPU devices (the runtime is chosen by the device, so this is the same type).
#[cfg(feature = "wgpu")]
pub type Wgpu = Cube;

/// [`Cube`] on CUDA devices (the runtime is chosen by the device, so this is the same type).
#[cfg(feature = "cuda")]
pub type Cuda = Cube;

/// [`Cube`] on ROCm devices (the runtime is chosen by the device, so this is the same type).
#[cfg(feature = "rocm")]
pub type Rocm = Cube;

/// [`Cube`] on CubeCL's CPU runtime (the runtime is chosen by the device, so this is the same
/// type).
#[cfg(feature = "cpu")]
pub type Cpu = Cube;

/// The CubeCL crate this backend is built on, for writing custom kernels against it.
pub use cubecl;
