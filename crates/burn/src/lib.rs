//! A deep-learning framework whose tensors carry no backend type: the [`Device`](tensor::Device)
//! picks the backend at run time.
//!
//! ```
//! use burn::tensor::{Device, Tensor};
//! let device = Device::default();
//! let x = Tensor::<2>::ones([2, 3], &device);
//! assert_eq!(x.sum().into_scalar().to_f32(), 6.0);
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
    #[cfg(feature = "autodiff")]
    pub use burn_dispatch::{AutodiffDevice, CheckpointingStrategy};
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
}

/// What most programs import.
pub mod prelude {
    pub use crate::tensor::{
        Bool, DType, Device, Distribution, ElementConversion, Float, Int, Shape, Tensor,
        TensorData, s,
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
    #[cfg(feature = "autodiff")]
    #[doc = include_str!("../../../burn-book/src/autodiff.md")]
    struct Autodiff;
}
