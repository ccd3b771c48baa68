//! The visitors and mappers behind `Module`'s provided methods.

use super::base::{ModuleMapper, ModuleVisitor};
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

/// Moves float parameters to the autodiff form of their device (`Module::train`).
#[cfg(feature = "autodiff")]
pub(crate) struct ToAutodiff;

#[cfg(feature = "autodiff")]
impl ModuleMapper for ToAutodiff {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let device = param.lazy_device();
        if device.is_autodiff() {
            param
        } else {
            param.to_device(&device.autodiff())
        }
    }
}

/// Moves parameters to the inner device (`Module::valid`).
pub(crate) struct ToInner;

impl ModuleMapper for ToInner {
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
