//! `GradientsParams`: the gradients of a module's parameters, keyed by `ParamId`.

use crate::erased::ErasedTensor;
use burn::module::ParamId;
use burn::tensor::{Device, Tensor};
use std::collections::HashMap;

/// The gradients of parameters, keyed by [`ParamId`], on the inner device (no autodiff).
///
/// Built from the `Gradients` of a backward pass with [`from_grads`](Self::from_grads), or
/// by hand with [`register`](Self::register); consumed by [`Optimizer::step`](crate::Optimizer),
/// which updates exactly the parameters found here.
#[derive(Default, Debug, Clone)]
pub struct GradientsParams {
    grads: HashMap<ParamId, ErasedTensor>,
}

impl GradientsParams {
    /// No gradients.
    pub fn new() -> Self {
        Self::default()
    }

    /// The gradient of parameter `id`, if any.
    ///
    /// # Panics
    /// If the gradient is not of rank `D`.
    pub fn get<const D: usize>(&self, id: ParamId) -> Option<Tensor<D>> {
        self.grads
            .get(&id)
            .map(|grad| grad.get_rank(&format_args!("the gradient of parameter {id}")))
    }

    /// Removes and returns the gradient of parameter `id`, if any.
    ///
    /// # Panics
    /// If the gradient is not of rank `D` (it is removed all the same).
    pub fn remove<const D: usize>(&mut self, id: ParamId) -> Option<Tensor<D>> {
        self.grads
            .remove(&id)
            .map(|grad| grad.into_rank(&format_args!("the gradient of parameter {id}")))
    }

    /// Sets the gradient of parameter `id` (replacing any). A gradient on an autodiff device
    /// is moved to its inner device.
    pub fn register<const D: usize>(&mut self, id: ParamId, value: Tensor<D>) {
        self.grads.insert(id, ErasedTensor::new(value.inner()));
    }

    /// The number of gradients.
    pub fn len(&self) -> usize {
        self.grads.len()
    }

    /// Whether there is no gradient.
    pub fn is_empty(&self) -> bool {
        self.grads.is_empty()
    }

    /// The ids of the parameters that have a gradient, in no particular order.
    pub fn ids(&self) -> impl Iterator<Item = ParamId> + '_ {
        self.grads.keys().copied()
    }

    /// Every gradient moved to `device` (for gradients computed on one device and applied to
    /// a module on another).
    pub fn to_device(self, device: &Device) -> Self {
        let device = device.inner();
        let grads = self
            .grads
            .into_iter()
            .map(|(id, grad)| (id, grad.to_device(&device)))
            .collect();
        Self { grads }
    }
}

#[cfg(feature = "autodiff")]
mod from_backward {
    use super::GradientsParams;
    use burn::module::{Module, ModuleVisitor, Param, ParamId};
    use burn::tensor::{Gradients, Tensor};

    /// Moves the gradients of a module's float parameters out of `Gradients`.
    struct Collect<'a> {
        grads: &'a mut Gradients,
        /// When set, only these parameters.
        only: Option<&'a [ParamId]>,
        out: GradientsParams,
    }

    impl ModuleVisitor for Collect<'_> {
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            // A parameter never built, or frozen, has no gradient.
            if !param.is_initialized() || !param.is_require_grad() {
                return;
            }
            if self.only.is_some_and(|ids| !ids.contains(&param.id)) {
                return;
            }
            if let Some(grad) = param.val().grad_remove(self.grads) {
                self.out.register(param.id, grad);
            }
        }
    }

    impl GradientsParams {
        /// The gradients of every float parameter of `module` that requires one (and got
        /// one from the backward pass), keyed by their ids.
        pub fn from_grads<M: Module>(mut grads: Gradients, module: &M) -> Self {
            Self::from_module(&mut grads, module)
        }

        /// Like [`from_grads`](Self::from_grads), but moves the gradients out of `grads`,
        /// leaving the others (of another module sharing the backward pass) there.
        pub fn from_module<M: Module>(grads: &mut Gradients, module: &M) -> Self {
            Self::collect(grads, module, None)
        }

        /// The gradients of the parameters of `module` whose ids are in `params` only, moved
        /// out of `grads` (to optimize parts of a model with different optimizers).
        pub fn from_params<M: Module>(
            grads: &mut Gradients,
            module: &M,
            params: &[ParamId],
        ) -> Self {
            Self::collect(grads, module, Some(params))
        }

        fn collect<M: Module>(grads: &mut Gradients, module: &M, only: Option<&[ParamId]>) -> Self {
            let mut collect = Collect {
                grads,
                only,
                out: GradientsParams::new(),
            };
            module.visit(&mut collect);
            collect.out
        }
    }
}
