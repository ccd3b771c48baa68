//! Saving and loading module weights as [safetensors](https://github.com/huggingface/safetensors).
//!
//! Every [`Module`](burn_core::module::Module) is a [`ModuleSnapshot`]: it can
//! [`save_into`](ModuleSnapshot::save_into) and [`load_from`](ModuleSnapshot::load_from) a
//! [`ModuleStore`], such as a [`SafetensorsStore`] backed by a file or a buffer. Tensors are
//! keyed by module path (field names joined with `.`, e.g. `layers.0.weight`) and keep
//! their dtype; a [`StoreDTypePolicy`] can narrow floats on save, and loading converts to each
//! parameter's current dtype and device.
//!
//! Loading is all or nothing: every parameter must be found with its shape (unless
//! [`LoadOptions::allow_partial`]), and on any [`StoreError`] — which names the file and the
//! key — the module is left exactly as it was. File keys can be renamed with a
//! [`KeyRemapper`] (for PyTorch checkpoints); tensors no parameter uses are listed in the
//! [`ApplyResult`].
//!
//! ```
//! use burn_core as burn;
//! use burn::module::{Module, Param};
//! use burn::tensor::{Device, Int, Tensor};
//! use burn_store::{KeyRemapper, ModuleSnapshot, SafetensorsStore};
//!
//! #[derive(Module, Debug)]
//! struct Layer {
//!     weight: Param<Tensor<2>>,
//!     steps: Param<Tensor<1, Int>>,
//! }
//!
//! #[derive(Module, Debug)]
//! struct Net {
//!     layers: Vec<Layer>,
//! }
//!
//! let layer = |value: f32, device: &Device| Layer {
//!     weight: Param::from_tensor(Tensor::full([2, 2], value, device)),
//!     steps: Param::from_tensor(Tensor::from_ints([7], device)),
//! };
//! let net = Net { layers: vec![layer(1.0, &Device::flex())] };
//! let mut store = SafetensorsStore::from_bytes(None);
//! net.save_into(&mut store)?;
//! assert_eq!(store.read_keys()?, ["layers.0.steps", "layers.0.weight"]);
//!
//! // Load into a trainable model on another device, renaming nothing but the top level.
//! let device = Device::flex().autodiff();
//! let mut bytes = SafetensorsStore::from_bytes(Some(store.to_bytes()?))
//!     .with_key_remapper(KeyRemapper::new().prefix("layers.", "blocks."));
//! #[derive(Module, Debug)]
//! struct Renamed {
//!     blocks: Vec<Layer>,
//! }
//! let mut renamed = Renamed { blocks: vec![layer(0.0, &device)] };
//! renamed.load_from(&mut bytes)?;
//! let weight = renamed.blocks[0].weight.val();
//! assert!(weight.is_require_grad() && weight.device().is_autodiff());
//! assert_eq!(weight.sum().into_scalar::<f32>(), 4.0);
//! # Ok::<(), burn_store::StoreError>(())
//! ```
//!
//! ## Quantized weights
//!
//! A quantized parameter (dtype `QFloat(scheme)`, e.g. after
//! [`Module::quantize_weights`](burn_core::module::Module::quantize_weights)) is saved as its
//! quantized bytes, with its scheme, and loads back bit-identically. Quantized data loaded
//! into a float parameter makes it quantized with the stored scheme (so a quantized file turns
//! a freshly initialized float model into the quantized model); plain float data loaded into
//! a quantized parameter is quantized again with the parameter's scheme (min-max
//! calibration). [`SafetensorsStore`] describes how such tensors are written.
//!
//! ```
//! use burn_core as burn;
//! use burn::module::{Module, Param, Quantizer};
//! use burn::tensor::quantization::{Calibration, QuantScheme, QuantValue};
//! use burn::tensor::{DType, Device, Tensor};
//! use burn_store::{ModuleSnapshot, SafetensorsStore};
//!
//! #[derive(Module, Debug)]
//! struct Linear {
//!     weight: Param<Tensor<2>>,
//! }
//!
//! let device = Device::flex();
//! let linear = |value: f32| Linear {
//!     weight: Param::from_tensor(Tensor::full([4, 8], value, &device)),
//! };
//! let scheme = QuantScheme::default().with_value(QuantValue::Q8S);
//! let mut quantizer = Quantizer::new(Calibration::MinMax, scheme);
//! let quantized = linear(0.5).quantize_weights(&mut quantizer);
//!
//! let mut store = SafetensorsStore::from_bytes(None);
//! quantized.save_into(&mut store)?;
//! let mut model = linear(0.0);
//! model.load_from(&mut store)?;
//! let weight = model.weight.val();
//! assert_eq!(weight.dtype(), DType::QFloat(scheme));
//! assert_eq!(weight.into_data(), quantized.weight.val().into_data()); // the same bytes
//! # Ok::<(), burn_store::StoreError>(())
//! ```
#![warn(missing_docs)]

mod apply;
mod error;
mod options;
mod policy;
mod quantized;
mod remap;
mod result;
mod safetensors;
mod snapshot;
mod source;
mod traits;

pub use crate::safetensors::SafetensorsStore;
pub use error::StoreError;
pub use options::LoadOptions;
pub use policy::StoreDTypePolicy;
pub use remap::KeyRemapper;
pub use result::ApplyResult;
pub use snapshot::TensorSnapshot;
pub use traits::{ModuleSnapshot, ModuleStore};
