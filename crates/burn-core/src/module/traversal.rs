//! The visitors and mappers behind `Module`'s provided methods.

use super::base::{ModuleMapper, ModuleVisitor};
use super::flag::Flag;
use super::param::Param;
use burn_tensor::{Bool, Device, Int, Tensor};

/// Collects parameter devices (`Module::devices`).
#[derive(Default)]
pub(crate) struct DeviceCollector {
    pub(crate) devices: Vec<Device>,
}

impl DeviceCollector {
    fn add(&mut self, device: Device) {
        if !self.devices.contains(&device) {
            self.devices.push(device);
        }
    }
}

impl ModuleVisitor for DeviceCollector {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.add(param.lazy_device());
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.add(param.lazy_device());
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.add(param.lazy_device());
    }
}

/// Counts float parameter elements (`Module::num_params`).
#[derive(Default)]
pub(crate) struct ParamCounter {
    pub(crate) count: usize,
}

impl ModuleVisitor for ParamCounter {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.count += param.lazy_shape().num_elements();
    }
}

/// Moves parameters (`Module::to_device`).
pub(crate) struct ToDevice<'a> {
    pub(crate) device: &'a Device,
}

impl ModuleMapper for ToDevice<'_> {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.to_device(self.device)
    }
    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        param.to_device(self.device)
    }
    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        param.to_device(self.device)
    }
}

/// Sets whether every float parameter requires a gradient (`Module::set_require_grad`).
pub(crate) struct SetRequireGrad(pub(crate) bool);

impl ModuleMapper for SetRequireGrad {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.set_require_grad(self.0)
    }
}

/// Freezes (`true`) or unfreezes every float parameter and flag (`Module::freeze`).
pub(crate) struct Freeze(pub(crate) bool);

impl ModuleMapper for Freeze {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.set_require_grad(!self.0)
    }
    fn map_flag(&mut self, flag: Param<Flag>) -> Param<Flag> {
        flag.with_value(!self.0)
    }
}

/// Puts float parameters on the autodiff form of their device and restores flags
/// (`Module::train`).
pub(crate) struct ToTraining;

impl ModuleMapper for ToTraining {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        #[cfg(feature = "autodiff")]
        {
            let device = param.lazy_device();
            if !device.is_autodiff() {
                return param.to_device(&device.autodiff());
            }
        }
        param
    }
    fn map_flag(&mut self, flag: Param<Flag>) -> Param<Flag> {
        flag.restored_for_training()
    }
}

/// Moves parameters to the inner device (`Module::valid`).
pub(crate) struct ToInner;

impl ModuleMapper for ToInner {
    fn map_flag(&mut self, flag: Param<Flag>) -> Param<Flag> {
        flag.disabled_for_validation()
    }
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        param.to_inner()
    }
    fn map_int<const D: usize>(&mut self, param: Param<Tensor<D, Int>>) -> Param<Tensor<D, Int>> {
        param.to_inner()
    }
    fn map_bool<const D: usize>(
        &mut self,
        param: Param<Tensor<D, Bool>>,
    ) -> Param<Tensor<D, Bool>> {
        param.to_inner()
    }
}

/// Applies `freeze`/`set_require_grad` settings to the parameters and flags of a group only
/// (`Module::freeze_group` and friends): matched float parameters get `require_grad`, matched
/// flags `flag` (when set).
pub(crate) struct GroupSettings {
    pub(crate) group: super::group::ParamGroup,
    pub(crate) require_grad: bool,
    pub(crate) flag: Option<bool>,
    pub(crate) path: Vec<String>,
}

impl GroupSettings {
    /// Settings for `group`: `require_grad` for its float parameters, `flag` (when set) for
    /// its flags.
    pub(crate) fn new(
        group: super::group::ParamGroup,
        require_grad: bool,
        flag: Option<bool>,
    ) -> Self {
        Self {
            group,
            require_grad,
            flag,
            path: Vec::new(),
        }
    }

    fn selects(&self, id: &super::param::ParamId) -> bool {
        self.group.matches(id, Some(&self.path.join(".")))
    }
}

impl ModuleMapper for GroupSettings {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.push(name.to_string());
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.pop();
    }
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        if self.selects(&param.id) {
            param.set_require_grad(self.require_grad)
        } else {
            param
        }
    }
    fn map_flag(&mut self, flag: Param<Flag>) -> Param<Flag> {
        match self.flag {
            Some(value) if self.selects(&flag.id) => flag.with_value(value),
            _ => flag,
        }
    }
}
