//! Autodiff as a property of a tensor (the methods of Burn's `Autodiff` kind): moving a tensor
//! between an autodiff device and its inner device, its checkpointing strategy. Without the
//! `autodiff` feature every tensor is plain and these are identities.

use super::base::Tensor;
use crate::GradientCheckpointingStrategy;
use crate::kind::{Autodiff, Float};
#[cfg(feature = "autodiff")]
use {crate::BridgeTensor, burn_backend::AutodiffBackend, burn_dispatch::Dispatch};

impl<const D: usize, K: Autodiff> Tensor<D, K> {
    /// The same values on the inner device (no autodiff): the tensor leaves the graph. A
    /// plain tensor is returned unchanged.
    pub fn inner(self) -> Tensor<D, K> {
        #[cfg(feature = "autodiff")]
        return match self.into_bridge() {
            BridgeTensor::Float(t) => Self::from_primitive(Dispatch::inner(t)),
            other => Self::from_primitive(other.into_primitive()),
        };
        #[cfg(not(feature = "autodiff"))]
        self
    }

    /// `inner` seen from its autodiff device (untracked until `require_grad`), with the
    /// default strategy (no checkpointing). An autodiff tensor is returned unchanged.
    pub fn from_inner(inner: Tensor<D, K>) -> Self {
        #[cfg(feature = "autodiff")]
        return match inner.into_bridge() {
            BridgeTensor::Float(t) => Self::from_primitive(Dispatch::from_inner(t)),
            other => Self::from_primitive(other.into_primitive()),
        };
        #[cfg(not(feature = "autodiff"))]
        inner
    }

    /// Whether the tensor belongs to an autodiff device (operations on it can be recorded).
    pub fn is_autodiff(&self) -> bool {
        self.primitive().checkpointing().is_some()
    }

    /// This tensor on the autodiff view of its device, untracked (the default strategy); an
    /// autodiff tensor is returned unchanged, with its strategy. The same as
    /// [`from_inner`](Self::from_inner) on `self`.
    pub fn autodiff(self) -> Self {
        Self::from_inner(self)
    }

    /// This tensor on its plain device, out of any graph; a plain tensor is returned
    /// unchanged. The same as [`inner`](Self::inner).
    pub fn without_autodiff(self) -> Self {
        self.inner()
    }

    /// The checkpointing strategy the tensor's operations are recorded under, `None` for a
    /// plain tensor.
    pub fn gradient_checkpointing_strategy(&self) -> Option<GradientCheckpointingStrategy> {
        self.primitive().checkpointing()
    }

    /// The tensor recorded under `strategy` from now on (a tracked tensor keeps its graph).
    ///
    /// # Panics
    /// If the tensor is not an autodiff tensor (call [`autodiff`](Self::autodiff) first).
    pub fn with_gradient_checkpointing_strategy(
        self,
        strategy: GradientCheckpointingStrategy,
    ) -> Self {
        assert!(
            self.is_autodiff(),
            "Tensor::with_gradient_checkpointing_strategy: expected an autodiff tensor, got one \
             of the plain device {:?}; call `autodiff()` first",
            self.device()
        );
        #[cfg(feature = "autodiff")]
        return Self::from_primitive(Dispatch::with_checkpointing_strategy(
            self.into_primitive(),
            strategy,
        ));
        #[cfg(not(feature = "autodiff"))]
        {
            let _ = strategy;
            self
        }
    }
}

impl<const D: usize> Tensor<D, Float> {
    /// Whether the tensor takes part in an autodiff graph: a leaf that requires a gradient or
    /// a result computed from one. A constant of an autodiff device is not tracked.
    pub fn is_tracked(&self) -> bool {
        self.primitive().is_tracked()
    }
}
