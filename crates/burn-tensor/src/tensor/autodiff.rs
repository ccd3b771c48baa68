//! Autodiff on the public tensor: gradients of tracked tensors, and moving between an
//! autodiff device and its inner device.
//!
//! ```
//! use burn_tensor::{Device, Tensor};
//! let device = Device::flex().autodiff();
//! let x = Tensor::<1>::from_floats([1.0, 2.0, 3.0], &device).require_grad();
//! let y = (x.clone() * x.clone()).sum();
//! let grads = y.backward();
//! let dx = x.grad(&grads).unwrap();
//! dx.into_data().assert_eq(&burn_tensor::TensorData::from([2.0f32, 4.0, 6.0]), true);
//! ```

use super::base::Tensor;
use crate::kind::Float;
use burn_backend::AutodiffBackend;
use burn_dispatch::Dispatch;
use burn_dispatch::burn_autodiff::{BackwardError, Gradients};

impl<const D: usize> Tensor<D, Float> {
    /// Runs the backward pass from this tensor (its gradient seeded with ones; usually a
    /// scalar loss). Consumes every step reachable from it, also those shared by clones.
    ///
    /// # Panics
    /// If the tensor is not on an autodiff device, or a step it needs was consumed by an
    /// earlier backward pass (see [`try_backward`](Self::try_backward)).
    pub fn backward(&self) -> Gradients {
        Dispatch::backward(self.primitive().clone())
    }

    /// Runs the backward pass, or returns why it cannot (nothing is consumed then).
    ///
    /// # Panics
    /// If the tensor is not on an autodiff device.
    pub fn try_backward(&self) -> Result<Gradients, BackwardError> {
        Dispatch::try_backward(self.primitive())
    }

    /// This tensor's gradient in `grads`, on the inner device; `None` when the tensor is not
    /// a leaf that required a gradient, or no gradient reached it.
    pub fn grad(&self, grads: &Gradients) -> Option<Tensor<D, Float>> {
        Dispatch::grad(self.primitive(), grads).map(Tensor::from_primitive)
    }

    /// Removes and returns this tensor's gradient from `grads`.
    pub fn grad_remove(&self, grads: &mut Gradients) -> Option<Tensor<D, Float>> {
        Dispatch::grad_remove(self.primitive(), grads).map(Tensor::from_primitive)
    }

    /// Sets this tensor's gradient in `grads`.
    pub fn grad_replace(&self, grads: &mut Gradients, grad: Tensor<D, Float>) {
        Dispatch::grad_replace(self.primitive(), grads, grad.into_primitive())
    }
}
