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

/// Sets gradient requirements and flags (`Module::set_require_grad`, `freeze`, `unfreeze`
/// and their `_group` forms): float parameters get `require_grad`, flags `flag` (when set),
/// all of them or only those `group` selects by id or path.
pub(crate) struct TrainingSettings {
    group: Option<super::group::ParamGroup>,
    require_grad: bool,
    flag: Option<bool>,
    path: Vec<String>,
}

impl TrainingSettings {
    /// Settings for every parameter (`group: None`) or those of `group`.
    pub(crate) fn new(
        group: Option<super::group::ParamGroup>,
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

    /// Whether the setting applies to `id` at the current path (the path is only joined
    /// when a group asks).
    fn selects(&self, id: &super::param::ParamId) -> bool {
        self.group
            .as_ref()
            .is_none_or(|group| group.matches(id, Some(&self.path.join("."))))
    }
}

impl ModuleMapper for TrainingSettings {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        if self.group.is_some() {
            self.path.push(name.to_string());
        }
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
