//! The second pass of a load: builds every planned tensor on its parameter's device, in the
//! dtype its plan gives (quantized again when the parameter is), before the module is
//! touched (so a failure here leaves it as it was).

use super::plan::Plan;
use crate::snapshot::PathStack;
use crate::source::Remapped;
use burn_core::module::{ModuleVisitor, Param, Parameter};
use burn_core::tensor::{BasicOps, Bool, Int, Tensor};
use std::any::Any;
use std::collections::HashMap;

/// A built value, to be downcast to the parameter's `Tensor<D, K>`.
pub(crate) type Built = Box<dyn Any + Send>;

/// Visits the module and builds the new value of each planned parameter.
pub(crate) struct Builder<'s, 'a> {
    source: &'s Remapped<'a>,
    plans: HashMap<&'s str, &'s Plan>,
    path: PathStack,
    /// Module path → new value.
    pub(crate) built: HashMap<String, Built>,
}

impl<'s, 'a> Builder<'s, 'a> {
    /// A builder for `plans`, reading `source`.
    pub(crate) fn new(source: &'s Remapped<'a>, plans: &'s [Plan]) -> Self {
        Self {
            source,
            plans: plans.iter().map(|plan| (plan.key.as_str(), plan)).collect(),
            path: PathStack::default(),
            built: HashMap::new(),
        }
    }

    /// Builds the planned value of `_param`, passing the new tensor through `finish` (with
    /// its plan) before gradients are required.
    fn build<const D: usize, K: BasicOps>(
        &mut self,
        _param: &Param<Tensor<D, K>>,
        finish: impl FnOnce(Tensor<D, K>, &Plan) -> Tensor<D, K>,
    ) where
        Tensor<D, K>: Parameter,
    {
        let key = self.path.current();
        let Some(plan) = self.plans.get(key.as_str()) else {
            return;
        };
        if self.built.contains_key(&key) {
            return;
        }
        let (_, tensor) = &self.source.by_path[&key];
        let stored = tensor
            .dtype
            .clone()
            .expect("the planner only plans readable dtypes");
        let data = tensor.decode(stored);
        let value = Tensor::<D, K>::from_data(data, (&plan.device, plan.dtype));
        let value = finish(value, plan).with_require_grad(plan.require_grad);
        self.built.insert(key, Box::new(value));
    }
}

/// Quantizes `tensor` when `plan` says so (a quantized parameter loading plain data).
fn requantize<const D: usize>(tensor: Tensor<D>, plan: &Plan) -> Tensor<D> {
    match &plan.requantize {
        Some(scheme) => tensor.quantize_dynamic(scheme),
        None => tensor,
    }
}

impl ModuleVisitor for Builder<'_, '_> {
    fn enter_module(&mut self, name: &str, _container_type: &str) {
        self.path.enter(name);
    }
    fn exit_module(&mut self, _name: &str, _container_type: &str) {
        self.path.exit();
    }
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        self.build(param, requantize);
    }
    fn visit_int<const D: usize>(&mut self, param: &Param<Tensor<D, Int>>) {
        self.build(param, |tensor, _| tensor);
    }
    fn visit_bool<const D: usize>(&mut self, param: &Param<Tensor<D, Bool>>) {
        self.build(param, |tensor, _| tensor);
    }
}
