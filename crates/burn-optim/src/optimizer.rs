//! The `Optimizer` trait (whole modules) and `SimpleOptimizer` (one tensor at a time).

use crate::LearningRate;
use crate::grads::GradientsParams;
use crate::record::OptimizerRecord;
use crate::state::ParamState;
use burn::module::Module;
use burn::tensor::Tensor;

/// Updates the parameters of a module of type `M` from their gradients.
///
/// Built by the optimizer configs (`SgdConfig::init::<M>()`, `AdamConfig::init::<M>()`…).
pub trait Optimizer<M: Module>: Send {
    /// The module with every parameter that has a gradient in `grads` updated with learning
    /// rate `lr`; the others are left as they are. Parameter ids are kept, and updated
    /// parameters are fresh leaves (requiring a gradient) of their autodiff device.
    fn step(&mut self, lr: LearningRate, module: M, grads: GradientsParams) -> M;

    /// The optimizer's state (per-parameter tensors and step counts) on the host.
    fn to_record(&self) -> OptimizerRecord;

    /// The optimizer with its state replaced by `record` (written by an optimizer of the same
    /// kind); state tensors move to each parameter's device at its next update.
    ///
    /// # Panics
    /// If the record was written by another kind of optimizer.
    fn load_record(self, record: OptimizerRecord) -> Self
    where
        Self: Sized;
}

/// An update rule applied to each parameter on its own, made an [`Optimizer`] by
/// [`OptimizerAdaptor`](crate::OptimizerAdaptor).
///
/// Implement it for a custom rule: the adaptor finds the gradients, clips them, keeps the
/// [`ParamState`] of each parameter, and runs `step` on the parameter's inner device.
pub trait SimpleOptimizer: Clone + Send + Sync + 'static {
    /// The name written into records (and checked when loading them).
    const NAME: &'static str;

    /// The new value of `param` (on the inner device) from its `grad`, reading and updating
    /// its `state` (empty on the first update; [`ParamState::step`] counts updates from 1).
    fn step<const D: usize>(
        &self,
        lr: LearningRate,
        param: Tensor<D>,
        grad: Tensor<D>,
        state: &mut ParamState,
    ) -> Tensor<D>;
}

/// Writes a rule's [`SimpleOptimizer`] impl and its config's `init`:
///
/// ```text
/// simple_optimizer! {
///     "Title": RuleConfig => Rule;
///     const NAME = "Rule";
///     fn step(&self, lr, param, grad, state) { … }
/// }
/// ```
///
/// `RuleConfig::init::<M>()` wraps `RuleConfig::build()` in an
/// [`OptimizerAdaptor`](crate::OptimizerAdaptor) clipping with the config's `grad_clipping`;
/// `step` gets the arguments of [`SimpleOptimizer::step`] under the given names, with the
/// tensors' rank `D`.
macro_rules! simple_optimizer {
    (
        $title:literal: $config:ident => $rule:ident;
        const NAME = $name:literal;
        fn step(&$self:ident, $lr:ident, $param:ident, $grad:ident, $state:ident) $body:block
    ) => {
        impl $config {
            #[doc = concat!("The ", $title, " optimizer for modules of type `M`.")]
            ///
            /// # Panics
            /// As [`build`](Self::build), or on an invalid clipping threshold.
            pub fn init<M: burn::module::Module>(&self) -> $crate::OptimizerAdaptor<$rule, M> {
                $crate::adaptor::adapt(self.build(), self.grad_clipping.as_ref())
            }
        }

        impl $crate::SimpleOptimizer for $rule {
            const NAME: &'static str = $name;

            fn step<const D: usize>(
                &$self,
                $lr: $crate::LearningRate,
                $param: burn::tensor::Tensor<D>,
                $grad: burn::tensor::Tensor<D>,
                $state: &mut $crate::ParamState,
            ) -> burn::tensor::Tensor<D> $body
        }
    };
}

pub(crate) use simple_optimizer;
