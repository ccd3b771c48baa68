//! The `Module` trait and the visitor/mapper traits it is traversed with.

use super::flag::Flag;
use super::group::ParamGroup;
use super::param::Param;
use super::quantize::Quantizer;
use super::traversal::{
    DeviceCollector, ParamCounter, ToDevice, ToInner, ToTraining, TrainingSettings,
};
use crate::store::{ModuleRecord, RecordError};
use burn_tensor::{Bool, Device, Int, Tensor};
use core::fmt::Debug;

/// The devices of a module's parameters (what [`Module::devices`] returns).
pub type Devices = Vec<Device>;

/// A neural-network module: a tree of parameters and sub-modules. Write it with
/// `#[derive(Module)]`; the derive implements [`visit`](Module::visit) and
/// [`map`](Module::map), and everything else follows from them.
///
/// ```
/// use burn_core as burn; // the derives name `burn::…`
/// use burn_core::module::{Module, Param};
/// use burn_core::tensor::{Device, Tensor};
///
/// #[derive(Module, Debug)]
/// struct Affine {
///     weight: Param<Tensor<2>>,
///     bias: Param<Tensor<1>>,
///     name_len: usize, // constants are carried along untouched
/// }
///
/// let device = Device::flex().autodiff();
/// let affine = Affine {
///     weight: Param::from_tensor(Tensor::ones([3, 2], &device)),
///     bias: Param::from_tensor(Tensor::zeros([2], &device)),
///     name_len: 6,
/// };
/// assert_eq!(affine.num_params(), 8);
/// let inference = affine.valid(); // the same weights on the inner device, untracked
/// assert!(!inference.weight.val().device().is_autodiff());
/// ```
pub trait Module: Clone + Debug + Send {
    /// Visits every parameter and flag, entering each sub-module under its name.
    fn visit<Visitor: ModuleVisitor>(&self, visitor: &mut Visitor);

    /// Rebuilds the module with every parameter and flag passed through `mapper`.
    fn map<Mapper: ModuleMapper>(self, mapper: &mut Mapper) -> Self;

    /// Adds the devices of the parameters to `devices`, skipping those already there (lazy
    /// parameters report the device they will be built on, without being built).
    fn collect_devices(&self, devices: Devices) -> Devices {
        let mut collector = DeviceCollector { devices };
        self.visit(&mut collector);
        collector.devices
    }

    /// The devices of the parameters, without duplicates, in visiting order.
    fn devices(&self) -> Devices {
        self.collect_devices(Devices::new())
    }

    /// The module with every parameter moved to `device`. Parameters that require a gradient
    /// are fresh leaves there (on an autodiff device): the moved module can be trained.
    fn to_device(self, device: &Device) -> Self {
        self.map(&mut ToDevice { device })
    }

    /// Same as [`to_device`](Module::to_device): the result is a module of its own leaves.
    fn fork(self, device: &Device) -> Self {
        self.to_device(device)
    }

    /// The module with every float parameter requiring a gradient, or none.
    fn set_require_grad(self, require_grad: bool) -> Self {
        self.map(&mut TrainingSettings::new(None, require_grad, None))
    }

    /// The module with no parameter requiring a gradient; the same as
    /// `set_require_grad(false)`. Flags are left as they are: dropout stays active (see
    /// [`freeze`](Module::freeze)).
    fn no_grad(self) -> Self {
        self.set_require_grad(false)
    }

    /// The module frozen: no parameter requires a gradient and every [`Flag`] is disabled
    /// (dropout, noise and running statistics stop), persistently: [`train`](Module::train)
    /// does not undo it.
    fn freeze(self) -> Self {
        self.map(&mut TrainingSettings::new(None, false, Some(false)))
    }

    /// The module unfrozen: every float parameter requires a gradient and every [`Flag`] is
    /// enabled.
    fn unfreeze(self) -> Self {
        self.map(&mut TrainingSettings::new(None, true, Some(true)))
    }

    /// [`set_require_grad`](Module::set_require_grad) for the float parameters of `group` only.
    fn set_require_grad_group(self, group: ParamGroup, require_grad: bool) -> Self {
        self.map(&mut TrainingSettings::new(Some(group), require_grad, None))
    }

    /// [`freeze`](Module::freeze) for the parameters and flags of `group` only.
    fn freeze_group(self, group: ParamGroup) -> Self {
        self.map(&mut TrainingSettings::new(Some(group), false, Some(false)))
    }

    /// [`unfreeze`](Module::unfreeze) for the parameters and flags of `group` only.
    fn unfreeze_group(self, group: ParamGroup) -> Self {
        self.map(&mut TrainingSettings::new(Some(group), true, Some(true)))
    }

    /// The module ready to train, the way back from [`valid`](Module::valid): every float
    /// parameter on the autodiff form of its device (see `Device::autodiff`), tracked when it
    /// requires a gradient, and every [`Flag`] back to its configured state. Without the
    /// `autodiff` feature, parameters stay where they are.
    fn train(self) -> Self {
        self.map(&mut ToTraining)
    }

    /// The number of float parameter elements (lazy parameters are not built to count).
    fn num_params(&self) -> usize {
        let mut counter = ParamCounter::default();
        self.visit(&mut counter);
        counter.count
    }

    /// The parameters as a [`ModuleRecord`]: each tensor under its path (`"encoder.weight"`)
    /// with its [`ParamId`](super::ParamId). Save it, or apply it to a module of the same
    /// structure with [`load_record`](Module::load_record).
    fn into_record(self) -> ModuleRecord
    where
        Self: Sized,
    {
        ModuleRecord::from_module(self, None)
    }

    /// The record of the parameters of `group` only (the others are not read); load it with
    /// `allow_partial(true)`.
    fn into_record_group(self, group: ParamGroup) -> ModuleRecord
    where
        Self: Sized,
    {
        ModuleRecord::from_module(self, Some(group))
    }

    /// The module with the values of `record`, or why they do not fit (a shape differs, a
    /// tensor is missing or unused, unless the record allows it). Each loaded parameter keeps
    /// its device and gradient requirement and takes the recorded id.
    fn try_load_record(self, record: ModuleRecord) -> Result<Self, RecordError>
    where
        Self: Sized,
    {
        record.apply(self)
    }

    /// [`try_load_record`](Module::try_load_record), panicking with the reason on failure.
    fn load_record(self, record: ModuleRecord) -> Self
    where
        Self: Sized,
    {
        self.try_load_record(record)
            .unwrap_or_else(|e| panic!("Module::load_record: {e}"))
    }

    /// Saves the parameters as a burnpack file at `path` (`path.bpk` when `path` has no
    /// extension), the format of Burn 0.23: files load in either framework. The file is
    /// replaced whole or not at all.
    fn save_file<P: AsRef<std::path::Path>>(self, path: P) -> Result<(), RecordError>
    where
        Self: Sized,
    {
        self.into_record().save(path)
    }

    /// The module with the parameters of the burnpack file at `path` (or `path.bpk`);
    /// panics with the reason when the file cannot be read or does not fit.
    fn load_file<P: AsRef<std::path::Path>>(self, path: P) -> Self
    where
        Self: Sized,
    {
        self.try_load_file(path)
            .unwrap_or_else(|e| panic!("Module::load_file: {e}"))
    }

    /// [`load_file`](Module::load_file), returning the error instead of panicking.
    fn try_load_file<P: AsRef<std::path::Path>>(self, path: P) -> Result<Self, RecordError>
    where
        Self: Sized,
    {
        self.try_load_record(ModuleRecord::load(path)?)
    }

    /// The module with every float parameter quantized by `quantizer` (see [`Quantizer`]).
    /// Operations dequantize the weights as they need them; a product of a quantized input
    /// with a quantized weight may run in integers (Flex).
    fn quantize_weights(self, quantizer: &mut Quantizer) -> Self {
        self.map(quantizer)
    }

    /// [`quantize_weights`](Module::quantize_weights) for the parameters of `group` only (the
    /// quantizer keeps `group` as its group).
    fn quantize_weights_group(self, quantizer: &mut Quantizer, group: ParamGroup) -> Self {
        quantizer.set_param_group(group);
        self.map(quantizer)
    }

    /// The module for inference: every parameter on the inner device (no autodiff),
    /// untracked, and every [`Flag`] disabled; [`train`](Module::train) restores both.
    fn valid(&self) -> Self {
        self.clone().map(&mut ToInner)
    }
}

/// Reads the parameters of a module tree. Every method has an empty default.
pub trait ModuleVisitor {
    /// Entering the sub-module (or field) `name` of a container kind (`"Struct"`, `"Enum"`,
    /// `"Vec"`, `"Array"`).
    fn enter_module(&mut self, _name: &str, _container_type: &str) {}
    /// Leaving the sub-module `name`.
    fn exit_module(&mut self, _name: &str, _container_type: &str) {}
    /// A float parameter.
    fn visit_float<const D: usize>(&mut self, _param: &Param<Tensor<D>>) {}
    /// An int parameter.
    fn visit_int<const D: usize>(&mut self, _param: &Param<Tensor<D, Int>>) {}
    /// A bool parameter.
    fn visit_bool<const D: usize>(&mut self, _param: &Param<Tensor<D, Bool>>) {}
    /// A module-owned [`Flag`].
    fn visit_flag(&mut self, _flag: &Param<Flag>) {}
}

/// Rewrites the parameters of a module tree. Every method defaults to the identity.
pub trait ModuleMapper {
    /// Entering the sub-module (or field) `name`.
    fn enter_module(&mut self, _name: &str, _container_type: &str) {}
    /// Leaving the sub-module `name`.
    fn exit_module(&mut self, _name: &str, _container_type: &str) {}
    /// A float parameter.
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param
    }
    /// An int parameter.
    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        param
    }
    /// A bool parameter.
    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        param
    }
    /// A module-owned [`Flag`].
    fn map_flag(&mut self, flag: Param<Flag>) -> Param<Flag> {
        flag
    }
}
