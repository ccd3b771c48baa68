//! The `Module` trait and the visitor/mapper traits it is traversed with.

use super::param::Param;
use super::quantize::Quantizer;
use super::traversal::{DeviceCollector, NoGrad, ParamCounter, ToDevice, ToInner};
use crate::record::{FileRecorder, RecorderError, with_extension};
use burn_tensor::{Bool, Device, Int, Tensor};
use std::path::PathBuf;

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
pub trait Module: Clone + Send + core::fmt::Debug {
    /// Visits every parameter, entering each sub-module under its name.
    fn visit<V: ModuleVisitor>(&self, visitor: &mut V);

    /// Rebuilds the module with every parameter passed through `mapper`.
    fn map<M: ModuleMapper>(self, mapper: &mut M) -> Self;

    /// The devices of the parameters, without duplicates, in visiting order.
    fn devices(&self) -> Vec<Device> {
        let mut collector = DeviceCollector::default();
        self.visit(&mut collector);
        collector.devices
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

    /// The module with no parameter requiring a gradient (for freezing layers).
    fn no_grad(self) -> Self {
        self.map(&mut NoGrad)
    }

    /// The number of float parameter elements.
    fn num_params(&self) -> usize {
        let mut counter = ParamCounter::default();
        self.visit(&mut counter);
        counter.count
    }

    /// Saves the parameters to `path` plus the recorder's extension
    /// (`model` → `model.safetensors`).
    fn save_file<R: FileRecorder>(
        self,
        path: impl Into<PathBuf>,
        recorder: &R,
    ) -> Result<(), RecorderError> {
        recorder.save_module(&self, &with_extension::<R>(&path.into()))
    }

    /// Loads the parameters saved at `path` (plus the recorder's extension) into the module
    /// and moves it to `device`.
    fn load_file<R: FileRecorder>(
        self,
        path: impl Into<PathBuf>,
        recorder: &R,
        device: &Device,
    ) -> Result<Self, RecorderError> {
        let loaded = recorder.load_module(self, &with_extension::<R>(&path.into()))?;
        Ok(loaded.to_device(device))
    }

    /// The module with every float parameter quantized by `quantizer` (see [`Quantizer`]).
    /// Operations dequantize the weights as they need them; a product of a quantized input
    /// with a quantized weight may run in integers (Flex).
    fn quantize_weights(self, quantizer: &mut Quantizer) -> Self {
        self.map(quantizer)
    }

    /// The module for inference: every parameter on the inner device (no autodiff),
    /// untracked. Moving it back with `to_device(&device.autodiff())` makes it trainable.
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
}
