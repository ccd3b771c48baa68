//! Optimizers, learning-rate schedulers and gradient clipping for [`burn_core`] modules.
//!
//! An optimizer takes a module, the [`GradientsParams`] of its parameters (taken from the
//! `Gradients` of a backward pass) and a learning rate, and returns the module with every
//! parameter that has a gradient updated. Updates run on the parameters' inner device (no
//! autodiff graph is recorded); the updated values come back as fresh leaves of the autodiff
//! device, with the same [`ParamId`](burn::module::ParamId)s.
//!
//! ```
//! use burn_core as burn; // the derives name `burn::…`
//! use burn::module::{Module, Param};
//! use burn::tensor::{Device, Tensor};
//! use burn_optim::{AdamConfig, GradientsParams, Optimizer};
//!
//! #[derive(Module, Debug)]
//! struct Line {
//!     slope: Param<Tensor<1>>,
//! }
//!
//! let device = Device::flex().autodiff();
//! let mut line = Line { slope: Param::from_tensor(Tensor::from_floats([3.0], &device)) };
//! let mut optim = AdamConfig::new().init::<Line>();
//! for _ in 0..10 {
//!     let loss = line.slope.val().powi_scalar(2).sum(); // minimum at 0
//!     let grads = GradientsParams::from_grads(loss.backward(), &line);
//!     line = optim.step(0.1, line, grads);
//! }
//! assert!(line.slope.val().into_scalar::<f64>() < 2.2);
//! ```
//!
//! The update rules are those of the papers (and of PyTorch): see each optimizer's docs.
//! Optimizer state is saved with [`Optimizer::to_record`] as an [`OptimizerRecord`], a
//! serializable set of named tensors per parameter.
#![warn(missing_docs)]

// The derives name `burn::…`.
extern crate burn_core as burn;

mod adagrad;
mod adam;
mod adamw;
mod adaptive;
pub mod adaptor;
pub mod decay;
mod erased;
pub mod grad_clipping;
mod grads;
pub mod lr_scheduler;
pub mod momentum;
mod optimizer;
mod record;
mod record_serde;
mod rmsprop;
mod sgd;
mod state;
mod validate;

pub use adagrad::{AdaGrad, AdaGradConfig};
pub use adam::{Adam, AdamConfig};
pub use adamw::{AdamW, AdamWConfig};
pub use adaptor::OptimizerAdaptor;
pub use grad_clipping::{GradientClipping, GradientClippingConfig};
pub use grads::GradientsParams;
pub use optimizer::{Optimizer, SimpleOptimizer};
pub use record::{OptimizerRecord, ParamStateRecord};
pub use rmsprop::{RmsProp, RmsPropConfig};
pub use sgd::{Sgd, SgdConfig};
pub use state::ParamState;

/// A learning rate (also what a [`LrScheduler`](lr_scheduler::LrScheduler) yields).
pub type LearningRate = f64;
