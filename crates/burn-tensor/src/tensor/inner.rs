//! Moving tensors between an autodiff device and its inner device (identity when the
//! `autodiff` feature is off).

use super::base::Tensor;
use crate::kind::Basic;
#[cfg(feature = "autodiff")]
use {crate::BridgeTensor, burn_backend::AutodiffBackend, burn_dispatch::Dispatch};

impl<const D: usize, K: Basic> Tensor<D, K> {
    /// The same values on the inner device (no autodiff): a float tensor leaves the graph.
    /// Int and bool tensors are unchanged.
    pub fn inner(self) -> Self {
        #[cfg(feature = "autodiff")]
        return match self.into_bridge() {
            BridgeTensor::Float(t) => Self::from_primitive(Dispatch::inner(t)),
            other => Self::from_primitive(other.into_primitive()),
        };
        #[cfg(not(feature = "autodiff"))]
        self
    }

    /// A tensor of the inner device seen from its autodiff device (untracked until
    /// `require_grad`). Int and bool tensors are unchanged.
    pub fn from_inner(inner: Self) -> Self {
        #[cfg(feature = "autodiff")]
        return match inner.into_bridge() {
            BridgeTensor::Float(t) => Self::from_primitive(Dispatch::from_inner(t)),
            other => Self::from_primitive(other.into_primitive()),
        };
        #[cfg(not(feature = "autodiff"))]
        inner
    }
}
