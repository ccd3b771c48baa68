//! `ModuleSnapshot` (what every module can do with a store) and `ModuleStore` (what a store
//! does with a module).

use crate::apply::apply_source;
use crate::snapshot::Collector;
use crate::source::Source;
use crate::{ApplyResult, LoadOptions, StoreError, TensorSnapshot};
use burn_core::module::Module;

/// Saving a module into a store and loading it back; implemented for every [`Module`].
///
/// Loading mutates the module in place and returns what it did. It is all or nothing: on
/// any error the module is left exactly as it was (lazy parameters stay lazy); on success
/// every loaded parameter holds the stored values on its current device, in its current
/// dtype (quantized data keeps its scheme; see the crate docs), with its id and gradient
/// requirement kept, and lazy parameters are replaced without running their initializer.
///
/// ```
/// use burn_core as burn;
/// use burn::module::{Module, Param};
/// use burn::tensor::{Device, Tensor};
/// use burn_store::{ModuleSnapshot, SafetensorsStore};
///
/// #[derive(Module, Debug)]
/// struct Affine {
///     weight: Param<Tensor<2>>,
///     bias: Param<Tensor<1>>,
/// }
///
/// let device = Device::flex();
/// let trained = Affine {
///     weight: Param::from_tensor(Tensor::full([2, 3], 0.5, &device)),
///     bias: Param::from_tensor(Tensor::ones([3], &device)),
/// };
/// let mut store = SafetensorsStore::from_bytes(None);
/// trained.save_into(&mut store)?;
///
/// let mut fresh = Affine {
///     weight: Param::from_tensor(Tensor::zeros([2, 3], &device)),
///     bias: Param::from_tensor(Tensor::zeros([3], &device)),
/// };
/// let result = fresh.load_from(&mut store)?;
/// assert_eq!(result.applied, ["weight", "bias"]);
/// assert_eq!(fresh.bias.val().sum().into_scalar::<f32>(), 3.0);
/// # Ok::<(), burn_store::StoreError>(())
/// ```
pub trait ModuleSnapshot: Module {
    /// Every parameter's key (module path) and values, in visiting order. Lazy parameters
    /// are initialized to be read.
    fn collect(&self) -> Result<Vec<TensorSnapshot>, StoreError> {
        collect_snapshots(self, "<snapshots>")
    }

    /// Loads `snapshots` (keys as stored, remapped by `options`) into the module; all or
    /// nothing, as [`load_from`](Self::load_from).
    fn apply(
        &mut self,
        snapshots: &[TensorSnapshot],
        options: &LoadOptions,
    ) -> Result<ApplyResult, StoreError> {
        apply_source(
            self,
            Source::from_snapshots("<snapshots>", snapshots),
            options,
        )
    }

    /// Saves every parameter into `store`.
    fn save_into<S: ModuleStore>(&self, store: &mut S) -> Result<(), StoreError> {
        store.collect_from(self)
    }

    /// Loads the parameters from `store` in place; see the trait docs for the guarantees.
    fn load_from<S: ModuleStore>(&mut self, store: &mut S) -> Result<ApplyResult, StoreError> {
        store.apply_to(self)
    }
}

impl<M: Module> ModuleSnapshot for M {}

/// A place module weights are saved to and loaded from (a safetensors file or buffer).
/// Called through [`ModuleSnapshot::save_into`] and [`ModuleSnapshot::load_from`].
pub trait ModuleStore {
    /// Saves every parameter of `module`.
    fn collect_from<M: Module>(&mut self, module: &M) -> Result<(), StoreError>;

    /// Loads the stored tensors into `module` in place, all or nothing.
    fn apply_to<M: Module>(&mut self, module: &mut M) -> Result<ApplyResult, StoreError>;
}

/// The snapshots of `module`, reporting errors against `file`.
pub(crate) fn collect_snapshots<M: Module>(
    module: &M,
    file: &str,
) -> Result<Vec<TensorSnapshot>, StoreError> {
    let mut collector = Collector::new(file);
    module.visit(&mut collector);
    match collector.error {
        Some(error) => Err(error),
        None => Ok(collector.snapshots),
    }
}
