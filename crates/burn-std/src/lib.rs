//! Core value types shared by every layer of the framework.
//!
//! Nothing here knows about devices or backends: these are the words that the backend contract
//! (`burn-backend`), the backends and the public API all use.
#![warn(missing_docs)]

mod bytes;
pub mod cast;
mod container;
mod data;
mod data_read;
mod data_serde;
mod distribution;
mod dtype;
mod element;
mod error;
pub mod indexing;
mod metadata;
mod options;
pub mod quantization;
mod scalar;
mod settings;
mod shape;
mod slice;
mod tolerance;

pub use bytes::Bytes;
pub use cast::ToElement;
pub use container::TensorContainer;
pub use data::{DataError, TensorData};
pub use data_read::TensorReadError;
pub use distribution::{Distribution, DistributionSampler};
pub use dtype::{BoolDType, BoolStore, DType, FloatDType, IntDType};
pub use element::{
    Element, ElementAdd, ElementComparison, ElementConversion, ElementEq, ElementLimits,
    ElementOrdered, ElementRandom,
};
pub use error::ExecutionError;
pub use half::{bf16, f16};
pub use indexing::{AsIndex, AsSize, ravel_index, wrap_index};
pub use metadata::{MetadataError, calculate_matmul_output};
pub use options::*;
pub use quantization::{
    BlockSize, Calibration, QuantConfig, QuantMode, QuantPropagation, QuantScheme, QuantStore,
    QuantValue, ScaleDtype,
};
pub use scalar::Scalar;
pub use settings::DeviceSettings;
pub use shape::{INLINE_DIMS, Shape, ShapeDims, SmallVec};
pub use slice::{ExpressionError, Slice, SliceArg, SliceIter};
pub use tolerance::Tolerance;
