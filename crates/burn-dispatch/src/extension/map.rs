//! The conversions between `Dispatch` primitives and those of one catalog entry's backend
//! (or of `Autodiff` over it), as [`TensorMap`]s.

use super::route::RouteKey;
use super::types::TensorMap;
use crate::{BackendEntry, BackendTensor, Dispatch, DispatchTensor};
use burn_backend::tensor::{BoolTensor, FloatTensor, IntTensor, QuantizedTensor};
use core::marker::PhantomData;

/// `Dispatch` → the backend of entry `E` (autodiff tensors give their values).
///
/// # Panics
///
/// On a tensor of another entry or of another kind, naming both.
#[derive(Debug)]
pub struct ToBackend<E>(PhantomData<E>);

impl<E> ToBackend<E> {
    /// The conversion.
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

impl<E> Default for ToBackend<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: BackendEntry> TensorMap<Dispatch, E::Backend> for ToBackend<E> {
    fn float(&mut self, tensor: DispatchTensor) -> FloatTensor<E::Backend> {
        E::float(tensor)
    }
    fn int(&mut self, tensor: DispatchTensor) -> IntTensor<E::Backend> {
        E::int(tensor)
    }
    fn bool(&mut self, tensor: DispatchTensor) -> BoolTensor<E::Backend> {
        E::bool(tensor)
    }
    fn quantized(&mut self, tensor: DispatchTensor) -> QuantizedTensor<E::Backend> {
        E::unwrap(tensor).into_quantized()
    }
}

/// The backend of entry `E` → `Dispatch`. Float results of inputs from an autodiff device go
/// back to that device (untracked), so the caller's device is kept.
#[derive(Debug)]
pub struct FromBackend<E> {
    key: Option<RouteKey>,
    _entry: PhantomData<E>,
}

impl<E> FromBackend<E> {
    /// The conversion of the results of the call routed by `key`.
    pub fn new(key: RouteKey) -> Self {
        Self {
            key: Some(key),
            _entry: PhantomData,
        }
    }

    /// The conversion of results of a call without tensor inputs (plain tensors).
    pub fn untracked() -> Self {
        Self {
            key: None,
            _entry: PhantomData,
        }
    }
}

impl<E: BackendEntry> TensorMap<E::Backend, Dispatch> for FromBackend<E> {
    fn float(&mut self, tensor: FloatTensor<E::Backend>) -> DispatchTensor {
        match self.key.and_then(|key| key.strategy()) {
            #[cfg(feature = "autodiff")]
            Some(strategy) => {
                E::wrap_autodiff(burn_autodiff::AutodiffTensor::new(tensor), strategy)
            }
            _ => E::wrap_float(tensor),
        }
    }
    fn int(&mut self, tensor: IntTensor<E::Backend>) -> DispatchTensor {
        E::wrap_int(tensor)
    }
    fn bool(&mut self, tensor: BoolTensor<E::Backend>) -> DispatchTensor {
        E::wrap_bool(tensor)
    }
    fn quantized(&mut self, tensor: QuantizedTensor<E::Backend>) -> DispatchTensor {
        E::wrap(BackendTensor::Quantized(Box::new(tensor)))
    }
}

#[cfg(feature = "autodiff")]
mod autodiff {
    use super::*;
    use crate::GradientCheckpointingStrategy;
    use burn_autodiff::Autodiff;
    use burn_autodiff::checkpoint::strategy::CheckpointStrategy;

    /// `Dispatch` → `Autodiff<B, S>` for the backend `B` of entry `E`: float tensors become
    /// autodiff tensors (plain ones constants of the graph); other kinds are `B`'s.
    #[derive(Debug)]
    pub struct ToAutodiff<E, S>(PhantomData<(E, S)>);

    impl<E, S> ToAutodiff<E, S> {
        /// The conversion.
        pub fn new() -> Self {
            Self(PhantomData)
        }
    }

    impl<E, S> Default for ToAutodiff<E, S> {
        fn default() -> Self {
            Self::new()
        }
    }

    impl<E: BackendEntry, S: CheckpointStrategy> TensorMap<Dispatch, Autodiff<E::Backend, S>>
        for ToAutodiff<E, S>
    {
        fn float(&mut self, tensor: DispatchTensor) -> FloatTensor<Autodiff<E::Backend, S>> {
            E::autodiff(tensor)
        }
        fn int(&mut self, tensor: DispatchTensor) -> IntTensor<E::Backend> {
            E::int(tensor)
        }
        fn bool(&mut self, tensor: DispatchTensor) -> BoolTensor<E::Backend> {
            E::bool(tensor)
        }
        fn quantized(&mut self, tensor: DispatchTensor) -> QuantizedTensor<E::Backend> {
            E::unwrap(tensor).into_quantized()
        }
    }

    /// `Autodiff<B, S>` → `Dispatch`: float results keep their graph and the strategy of the
    /// route.
    #[derive(Debug)]
    pub struct FromAutodiff<E, S> {
        strategy: GradientCheckpointingStrategy,
        _types: PhantomData<(E, S)>,
    }

    impl<E, S> FromAutodiff<E, S> {
        /// The conversion of the results of the call routed by `key`.
        pub fn new(key: RouteKey) -> Self {
            Self {
                strategy: key.strategy().unwrap_or_default(),
                _types: PhantomData,
            }
        }
    }

    impl<E: BackendEntry, S: CheckpointStrategy> TensorMap<Autodiff<E::Backend, S>, Dispatch>
        for FromAutodiff<E, S>
    {
        fn float(&mut self, tensor: FloatTensor<Autodiff<E::Backend, S>>) -> DispatchTensor {
            E::wrap_autodiff(tensor, self.strategy)
        }
        fn int(&mut self, tensor: IntTensor<E::Backend>) -> DispatchTensor {
            E::wrap_int(tensor)
        }
        fn bool(&mut self, tensor: BoolTensor<E::Backend>) -> DispatchTensor {
            E::wrap_bool(tensor)
        }
        fn quantized(&mut self, tensor: QuantizedTensor<E::Backend>) -> DispatchTensor {
            E::wrap(BackendTensor::Quantized(Box::new(tensor)))
        }
    }
}

#[cfg(feature = "autodiff")]
pub use autodiff::{FromAutodiff, ToAutodiff};
