//! A deep-learning framework whose tensors carry no backend type: the [`Device`](tensor::Device)
//! picks the backend at run time.
//!
//! ```
//! use burn::tensor::{Device, Tensor};
//! let device = Device::default();
//! let x = Tensor::<2>::ones([2, 3], &device);
//! assert_eq!(x.sum().into_scalar::<f32>(), 6.0);
//! ```
#![warn(missing_docs)]

/// Tensors, devices, dtypes and the functions over tensors.
pub mod tensor {
    pub use burn_tensor::*;
}

/// The backend layer: the contract, the routing backend and the executing backends.
pub mod backend {
    #[cfg(feature = "autodiff")]
    pub use burn_autodiff::Autodiff;
    pub use burn_backend::{
        AutodiffBackend, Backend, BackendTypes, DTypeUsage, DeviceId, DeviceOps, GraphUnsupported,
        TensorMetadata,
    };
    #[cfg(feature = "cpu")]
    pub use burn_cubecl::Cpu;
    #[cfg(feature = "cuda")]
    pub use burn_cubecl::Cuda;
    #[cfg(feature = "rocm")]
    pub use burn_cubecl::Rocm;
    #[cfg(feature = "wgpu")]
    pub use burn_cubecl::Wgpu;
    #[cfg(feature = "cube")]
    pub use burn_cubecl::{Cube, CubeBackend, CubeDevice};
    #[cfg(feature = "fusion")]
    pub use burn_fusion::Fusion;

    /// The CubeCL backend crate: its tensor (`CubeTensor`), kernels and helpers, and the
    /// `cubecl` crate it is built on (`use burn::backend::cube::cubecl;` for custom kernels).
    #[cfg(feature = "cube")]
    pub mod cube {
        pub use burn_cubecl::*;
    }

    /// The fusion decorator (`Cube` = `Fusion<CubeBackend>` with the `fusion` feature): its
    /// statistics, and the traits a backend implements to fuse its operations.
    #[cfg(feature = "fusion")]
    pub mod fusion {
        pub use burn_fusion::*;
        pub use burn_ir as ir;
    }
    #[cfg(feature = "autodiff")]
    pub use burn_dispatch::{AutodiffDevice, GradientCheckpointingStrategy};
    pub use burn_dispatch::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};
    #[cfg(feature = "flex")]
    pub use burn_flex::{Flex, FlexDevice};

    /// Reverse-mode autodiff: `Autodiff<B, C>`, checkpoint strategies, `Gradients`, and the
    /// API for writing the backward of a custom operation.
    #[cfg(feature = "autodiff")]
    pub mod autodiff {
        pub use burn_autodiff::*;
    }

    /// The primitive types of a backend.
    pub mod tensor {
        pub use burn_backend::tensor::*;
    }

    /// The ops traits and their option structs.
    pub mod ops {
        pub use burn_backend::ops::*;
    }

    /// Writing custom operations: [`backend_extension`] generates the routing of a trait of
    /// new operations from `Dispatch` to the backends that implement it;
    /// [`ExtensionType`](macro@ExtensionType) converts structs and enums of tensors. See the
    /// book's "Backend extensions" chapter.
    pub use burn_backend_extension::{ExtensionType, backend_extension};
    pub use burn_dispatch::extension::ExtensionType;

    /// The run-time side of backend extensions: conversions between `Dispatch` and one
    /// backend, and the routing errors.
    pub mod extension {
        pub use burn_dispatch::extension::*;
    }

    /// The routing crate, for the code `#[backend_extension]` generates (not an API).
    #[doc(hidden)]
    pub use burn_dispatch as __dispatch;
}

/// Modules: the `Module` trait, `Param`, `#[derive(Module)]`.
pub mod module {
    pub use burn_core::module::*;
    pub use burn_nn::{Initializer, RunningState};
}

/// Configs: the `Config` trait and `#[derive(Config)]`.
pub mod config {
    pub use burn_core::config::*;
}

/// Neural-network layers, initializers and losses.
pub mod nn {
    pub use burn_nn::*;
}

/// Optimizers, learning-rate schedulers, gradient clipping.
pub mod optim {
    pub use burn_optim::*;
}

/// Learning-rate schedulers, also at `burn::optim::lr_scheduler` (Burn keeps both paths).
pub mod lr_scheduler {
    pub use burn_optim::lr_scheduler::*;
}

/// Gradient clipping, also at `burn::optim::grad_clipping` (Burn keeps both paths).
pub mod grad_clipping {
    pub use burn_optim::grad_clipping::*;
}

/// Saving and loading module parameters: [`ModuleRecord`](store::ModuleRecord) and burnpack
/// files (what `Module::save_file` / `load_file` use), plus the safetensors store, key
/// remapping and filtering.
pub mod store {
    pub use burn_core::store::*;
    pub use burn_store::*;
}

/// Datasets, batchers and data loaders.
pub mod data {
    pub use burn_data::*;
}

/// The training loop (feature `train`).
#[cfg(feature = "train")]
pub mod train {
    pub use burn_train::*;
}

/// serde, for the code `#[derive(Config)]` generates.
pub use burn_core::serde;
pub use burn_core::{Config, Module, empty};
/// The tensor type, at the crate root as in Burn (`burn::Tensor`).
pub use burn_tensor::Tensor;

/// CubeCL, the crate Cube's kernels are written in (0.11.3 here; see API_DIFFERENCES.md), for
/// custom kernels.
#[cfg(feature = "cubecl")]
pub mod cubecl {
    pub use burn_cubecl::cubecl::*;
}

/// What most programs import.
pub mod prelude {
    pub use crate::config::Config;
    pub use crate::module::{Module, Param};
    pub use crate::nn;
    pub use crate::tensor::{
        Bool, DType, Device, DeviceIndex, DeviceKind, Distribution, ElementConversion, Float, Int,
        Shape, SliceArg, Tensor, TensorData, assert_shape, cast::ToElement, debug_assert_shape, s,
    };
}

/// The book's pages, compiled and run as doc tests.
#[cfg(doctest)]
mod book {
    #[doc = include_str!("../../../burn-book/src/introduction.md")]
    struct Introduction;
    #[doc = include_str!("../../../burn-book/src/getting-started.md")]
    struct GettingStarted;
    #[doc = include_str!("../../../burn-book/src/tensor.md")]
    struct Tensors;
    #[doc = include_str!("../../../burn-book/src/devices.md")]
    struct Devices;
    #[cfg(feature = "wgpu")]
    #[doc = include_str!("../../../burn-book/src/cube.md")]
    struct Cube;
    #[cfg(feature = "autodiff")]
    #[doc = include_str!("../../../burn-book/src/autodiff.md")]
    struct Autodiff;
    #[cfg(all(feature = "flex", feature = "autodiff"))]
    #[doc = include_str!("../../../burn-book/src/extensions.md")]
    struct Extensions;
    #[cfg(feature = "autodiff")]
    #[doc = include_str!("../../../burn-book/src/modules.md")]
    struct Modules;
    #[cfg(feature = "autodiff")]
    #[doc = include_str!("../../../burn-book/src/records.md")]
    struct Records;
    #[doc = include_str!("../../../burn-book/src/quantization.md")]
    struct Quantization;
    #[cfg(feature = "autodiff")]
    #[doc = include_str!("../../../burn-book/src/capture.md")]
    struct Capture;
    #[cfg(feature = "autodiff")]
    #[doc = include_str!("../../../burn-book/src/optimizers.md")]
    struct Optimizers;
    #[cfg(feature = "train")]
    #[doc = include_str!("../../../burn-book/src/training.md")]
    struct Training;
    #[cfg(feature = "fusion")]
    #[doc = include_str!("../../../burn-book/src/fusion.md")]
    struct Fusion;
    #[doc = include_str!("../../../burn-book/src/benchmarks.md")]
    struct Benchmarks;
}
