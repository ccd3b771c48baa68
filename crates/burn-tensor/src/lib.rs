//! The public tensor API: [`Tensor`], [`Device`], the kinds [`Float`], [`Int`], [`Bool`], and
//! the function modules [`activation`], [`module`] and [`loss`].
//!
//! ```
//! use burn_tensor::{Device, Tensor, activation};
//! let device = Device::default();
//! let x = Tensor::<2>::from_floats([[1.0, -2.0], [3.0, -4.0]], &device);
//! let y = activation::relu(x).sum();
//! assert_eq!(y.into_scalar::<f32>(), 4.0);
//! ```
#![warn(missing_docs)]

pub mod activation;
mod bridge;
pub mod capture;
/// Checked conversions between element types (`2.5f32.to_i64()`).
pub mod cast {
    pub use burn_backend::cast::ToElement;
}
mod device;
#[cfg(feature = "cube")]
mod device_cube;
mod device_select;
pub mod grid;
pub use grid::cartesian_grid;
pub mod kind;
pub mod loss;
pub mod module;
pub mod quantization;
mod shape_macros;
mod tensor;

pub use bridge::BridgeTensor;
pub use burn_backend::{
    AsIndex, AsSize, BoolDType, BoolStore, Bytes, DType, DataError, DeviceError, DeviceSettings,
    Distribution, Element, ElementAdd, ElementComparison, ElementConversion, ElementEq,
    ElementLimits, ElementOrdered, ElementRandom, ExecutionError, ExpressionError, FloatDType,
    HardwareKind, IntDType, MetadataError, Scalar, SettingsError, Shape, Slice, SliceArg,
    SliceIter, TensorData, TensorReadError, Tolerance, bf16, calculate_matmul_output, f16,
    ravel_index, wrap_index,
};

/// A map of values of any type under ids (a backward pass's gradients, for one).
pub mod container {
    pub use burn_backend::TensorContainer;
}
/// How an autodiff tensor's operations keep the values their backward steps need.
pub use burn_dispatch::GradientCheckpointingStrategy;
/// The gradients of a backward pass, and why a backward pass can be refused.
#[cfg(feature = "autodiff")]
pub use burn_dispatch::burn_autodiff::{BackwardError, Gradients};
pub use device::{Device, DeviceConfig};
#[cfg(feature = "cube")]
pub use device_cube::DeviceUnavailable;
pub use device_select::{DeviceFilter, DeviceIndex, DeviceKind, DeviceType, Devices};
pub use kind::{BasicOps, Bool, Float, Int, TensorKind};
#[doc(hidden)]
pub use shape_macros::{__check_shape_exact, __check_shape_rest};
pub use tensor::{
    BroadcastArgs, Cast, DEFAULT_ATOL, DEFAULT_RTOL, DimIter, IntoPadding, MovedimArgs,
    PrintOptions, ReshapeArgs, Tensor, TensorCreationOptions, Transaction, ZeroDimPlaceholders,
    check_closeness, set_print_options,
};

/// Option structs of the module operations and the backend ops traits.
pub mod ops {
    pub use burn_backend::ops::*;
}

/// The backend layer, for extensions and tests that name it.
pub mod backend {
    pub use burn_backend::{AutodiffBackend, Backend, BackendTypes, DeviceOps, TensorMetadata};
    pub use burn_dispatch::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};
}
