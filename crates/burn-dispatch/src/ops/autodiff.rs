//! Autodiff routing that depends on the expanded catalog: `AutodiffDevice`, the device and
//! tensor queries, and `AutodiffBackend` for `Dispatch` (tracked tensors route to
//! `Autodiff<B, C>` for the strategy they carry).

use super::prelude::*;
use crate::GradientCheckpointingStrategy;

/// A catalog device whose float tensors can be tracked, with its checkpointing strategy.
/// Build one with [`DispatchDevice::autodiff`]; it cannot wrap another autodiff device.
#[cfg(feature = "autodiff")]
#[derive(Clone, Debug)]
pub struct AutodiffDevice {
    inner: Box<DispatchDevice>,
    checkpointing: GradientCheckpointingStrategy,
}

#[cfg(feature = "autodiff")]
impl AutodiffDevice {
    /// The device without autodiff.
    pub fn inner(&self) -> &DispatchDevice {
        &self.inner
    }

    /// The checkpointing strategy of tensors created here.
    pub fn checkpointing(&self) -> GradientCheckpointingStrategy {
        self.checkpointing
    }
}

impl DispatchDevice {
    /// `device` with autodiff: float tensors created on it can be tracked
    /// (`NoCheckpointing`). An autodiff device keeps its hardware and takes the new strategy.
    #[cfg(feature = "autodiff")]
    pub fn autodiff(device: impl Into<DispatchDevice>) -> DispatchDevice {
        Self::autodiff_checkpointed(device, GradientCheckpointingStrategy::Disabled)
    }

    /// `device` with autodiff and the given checkpointing strategy.
    #[cfg(feature = "autodiff")]
    pub fn autodiff_checkpointed(
        device: impl Into<DispatchDevice>,
        checkpointing: GradientCheckpointingStrategy,
    ) -> DispatchDevice {
        let device: DispatchDevice = device.into();
        DispatchDevice::Autodiff(AutodiffDevice {
            inner: Box::new(device.base().clone()),
            checkpointing,
        })
    }

    /// The catalog device, without the autodiff wrapper.
    pub fn base(&self) -> &DispatchDevice {
        match self {
            #[cfg(feature = "autodiff")]
            DispatchDevice::Autodiff(device) => &device.inner,
            #[allow(unreachable_patterns)]
            other => other,
        }
    }

    /// The device without autodiff.
    pub fn inner(self) -> DispatchDevice {
        self.base().clone()
    }

    /// The checkpointing strategy when this is an autodiff device.
    pub fn checkpointing(&self) -> Option<GradientCheckpointingStrategy> {
        match self {
            #[cfg(feature = "autodiff")]
            DispatchDevice::Autodiff(device) => Some(device.checkpointing),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }

    /// Whether float tensors created on this device can be tracked.
    pub fn is_autodiff(&self) -> bool {
        self.checkpointing().is_some()
    }
}

impl DispatchTensor {
    /// The checkpointing strategy when this is a float tensor of an autodiff device.
    pub fn checkpointing(&self) -> Option<GradientCheckpointingStrategy> {
        dispatch!(self, E, B => E::unwrap_ref(self).checkpointing())
    }

    /// Whether backward steps are recorded for operations on this tensor.
    pub fn is_tracked(&self) -> bool {
        dispatch!(self, E, B => E::unwrap_ref(self).is_tracked())
    }
}

#[cfg(feature = "autodiff")]
mod backward {
    use super::*;
    use burn_autodiff::{BackwardError, Gradients};
    use burn_backend::AutodiffBackend;

    /// The autodiff tensor of `tensor`, for `operation`'s message.
    fn tracked<E: BackendEntry>(
        tensor: &DispatchTensor,
        operation: &str,
    ) -> burn_autodiff::AutodiffTensor<E::Backend> {
        match E::unwrap_ref(tensor) {
            BackendTensor::Autodiff(tensor, _) => tensor.clone(),
            other => panic!(
                "{operation}: expected a float tensor of an autodiff device, got a {} tensor \
                 of a plain {} device; create tensors on `device.autodiff()` and mark leaves \
                 with `require_grad()`",
                other.kind(),
                E::NAME
            ),
        }
    }

    impl Dispatch {
        /// `tensor` recorded under `strategy` from now on (its graph kept); any other tensor
        /// is returned unchanged.
        pub fn with_checkpointing_strategy(
            tensor: DispatchTensor,
            strategy: GradientCheckpointingStrategy,
        ) -> DispatchTensor {
            dispatch!(&tensor, E, B => match E::unwrap(tensor) {
                BackendTensor::Autodiff(t, _) => E::wrap_autodiff(t, strategy),
                other => E::wrap(other),
            })
        }

        /// Runs the backward pass from `tensor`, or says why it cannot (consuming nothing).
        ///
        /// # Panics
        /// If `tensor` is not a float tensor of an autodiff device.
        pub fn try_backward(tensor: &DispatchTensor) -> Result<Gradients, BackwardError> {
            dispatch!(tensor, E, B => tracked::<E>(tensor, "backward").try_backward())
        }
    }

    impl AutodiffBackend for Dispatch {
        type InnerBackend = Dispatch;
        type Gradients = Gradients;

        fn backward(tensor: DispatchTensor) -> Gradients {
            Dispatch::try_backward(&tensor).unwrap_or_else(|e| panic!("{e}"))
        }
        fn grad(tensor: &DispatchTensor, grads: &Gradients) -> Option<DispatchTensor> {
            dispatch!(tensor, E, B => tracked::<E>(tensor, "grad").grad(grads).map(E::wrap_float))
        }
        fn grad_remove(tensor: &DispatchTensor, grads: &mut Gradients) -> Option<DispatchTensor> {
            dispatch!(tensor, E, B => tracked::<E>(tensor, "grad_remove").grad_remove(grads).map(E::wrap_float))
        }
        fn grad_replace(tensor: &DispatchTensor, grads: &mut Gradients, grad: DispatchTensor) {
            dispatch!(tensor, E, B => tracked::<E>(tensor, "grad_replace").grad_replace(grads, E::float(grad)))
        }
        fn inner(tensor: DispatchTensor) -> DispatchTensor {
            dispatch!(&tensor, E, B => E::wrap_float(E::float(tensor)))
        }
        fn from_inner(tensor: DispatchTensor) -> DispatchTensor {
            dispatch!(&tensor, E, B => match tensor.checkpointing() {
                Some(_) => tensor,
                None => E::wrap_autodiff(
                    burn_autodiff::AutodiffTensor::new(E::float(tensor)),
                    GradientCheckpointingStrategy::Disabled,
                ),
            })
        }
        fn int_inner(tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn int_from_inner(tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn bool_inner(tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn bool_from_inner(tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn q_inner(tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
        fn q_from_inner(tensor: DispatchTensor) -> DispatchTensor {
            tensor
        }
    }
}
