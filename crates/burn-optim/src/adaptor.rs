//! `OptimizerAdaptor`: a per-tensor [`SimpleOptimizer`] made an [`Optimizer`] of modules.

use crate::LearningRate;
use crate::grad_clipping::GradientClipping;
use crate::grads::GradientsParams;
use crate::optimizer::{Optimizer, SimpleOptimizer};
use crate::record::OptimizerRecord;
use crate::state::ParamState;
use burn::module::{Module, ModuleMapper, Param, ParamId};
use burn::tensor::Tensor;
use core::marker::PhantomData;
use std::collections::HashMap;

/// A [`SimpleOptimizer`] applied to every parameter of a module of type `M` that has a
/// gradient, with optional gradient clipping and the per-parameter [`ParamState`].
///
/// For each such parameter, a step: moves the gradient to the parameter's inner device, clips
/// it, runs the rule on the inner value (no autodiff graph is recorded) with the parameter's
/// state placed on that device, and puts the result back on the parameter's device as a leaf
/// requiring a gradient, under the same [`ParamId`].
pub struct OptimizerAdaptor<O, M> {
    optim: O,
    states: HashMap<ParamId, ParamState>,
    grad_clipping: Option<GradientClipping>,
    module: PhantomData<fn() -> M>,
}

impl<O: SimpleOptimizer, M: Module> OptimizerAdaptor<O, M> {
    /// The adaptor of `optim`, with no state and no clipping.
    pub fn new(optim: O) -> Self {
        Self {
            optim,
            states: HashMap::new(),
            grad_clipping: None,
            module: PhantomData,
        }
    }

    /// The adaptor clipping every gradient with `clipping` before the update.
    pub fn with_grad_clipping(mut self, clipping: GradientClipping) -> Self {
        self.grad_clipping = Some(clipping);
        self
    }

    /// Whether gradients are clipped.
    pub fn has_gradient_clipping(&self) -> bool {
        self.grad_clipping.is_some()
    }

    /// The update rule.
    pub fn optimizer(&self) -> &O {
        &self.optim
    }

    /// The state of parameter `id`, if it was updated (or loaded) already.
    pub fn state(&self, id: ParamId) -> Option<&ParamState> {
        self.states.get(&id)
    }
}

impl<O: SimpleOptimizer, M: Module> From<O> for OptimizerAdaptor<O, M> {
    fn from(optim: O) -> Self {
        Self::new(optim)
    }
}

impl<O: Clone, M> Clone for OptimizerAdaptor<O, M> {
    fn clone(&self) -> Self {
        Self {
            optim: self.optim.clone(),
            states: self.states.clone(),
            grad_clipping: self.grad_clipping,
            module: PhantomData,
        }
    }
}

impl<O: core::fmt::Debug, M> core::fmt::Debug for OptimizerAdaptor<O, M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("OptimizerAdaptor")
            .field("optim", &self.optim)
            .field("params_with_state", &self.states.len())
            .field("grad_clipping", &self.grad_clipping)
            .finish()
    }
}

impl<O: SimpleOptimizer, M: Module> Optimizer<M> for OptimizerAdaptor<O, M> {
    fn step(&mut self, lr: LearningRate, module: M, mut grads: GradientsParams) -> M {
        module.map(&mut StepMapper {
            optim: &self.optim,
            states: &mut self.states,
            grad_clipping: self.grad_clipping.as_ref(),
            grads: &mut grads,
            lr,
        })
    }

    fn to_record(&self) -> OptimizerRecord {
        OptimizerRecord {
            optimizer: O::NAME.to_string(),
            params: self
                .states
                .iter()
                .map(|(id, state)| (*id, state.to_record()))
                .collect(),
        }
    }

    fn load_record(mut self, record: OptimizerRecord) -> Self {
        assert_eq!(
            record.optimizer,
            O::NAME,
            "OptimizerRecord: a record written by `{}` cannot be loaded into `{}`",
            record.optimizer,
            O::NAME
        );
        self.states = record
            .params
            .into_iter()
            .map(|(id, state)| (id, ParamState::from_record(state)))
            .collect();
        self
    }
}

/// Applies one step to each float parameter with a gradient.
struct StepMapper<'a, O> {
    optim: &'a O,
    states: &'a mut HashMap<ParamId, ParamState>,
    grad_clipping: Option<&'a GradientClipping>,
    grads: &'a mut GradientsParams,
    lr: LearningRate,
}

impl<O: SimpleOptimizer> ModuleMapper for StepMapper<'_, O> {
    fn map_float<const D: usize>(&mut self, param: Param<Tensor<D>>) -> Param<Tensor<D>> {
        let id = param.id;
        let Some(grad) = self.grads.remove::<D>(id) else {
            return param;
        };
        let require_grad = param.is_require_grad();
        param.map(|value| {
            let device = value.device();
            let inner = value.inner();
            let inner_device = inner.device();
            let mut grad = grad.to_device(&inner_device);
            if let Some(clipping) = self.grad_clipping {
                grad = clipping.clip_gradient(grad);
            }
            let state = self.states.entry(id).or_default();
            state.begin_step(&inner_device);
            let updated = self.optim.step(self.lr, inner, grad, state);
            // Back on the parameter's device (same storage when only autodiff differs).
            updated.to_device(&device).set_require_grad(require_grad)
        })
    }
}

/// The adaptor of `optim` clipping with `clipping` (for the configs' `init`).
pub(crate) fn adapt<O: SimpleOptimizer, M: Module>(
    optim: O,
    clipping: Option<&crate::GradientClippingConfig>,
) -> OptimizerAdaptor<O, M> {
    let adaptor = OptimizerAdaptor::new(optim);
    match clipping {
        Some(config) => adaptor.with_grad_clipping(config.init()),
        None => adaptor,
    }
}
