//! A float tensor of any rank behind one type, for maps keyed by `ParamId` whose parameters
//! have different ranks (gradients, optimizer state).

use burn::tensor::{Device, Tensor, TensorData};
use std::any::Any;

/// What a `Tensor<D>` can do without its rank in the type.
trait AnyRank: Send + Sync {
    fn rank(&self) -> usize;
    fn device(&self) -> Device;
    fn to_data(&self) -> TensorData;
    fn to_device(&self, device: &Device) -> ErasedTensor;
    fn clone_box(&self) -> ErasedTensor;
    fn as_any(&self) -> &dyn Any;
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

impl<const D: usize> AnyRank for Tensor<D> {
    fn rank(&self) -> usize {
        D
    }
    fn device(&self) -> Device {
        Tensor::device(self)
    }
    fn to_data(&self) -> TensorData {
        Tensor::to_data(self)
    }
    fn to_device(&self, device: &Device) -> ErasedTensor {
        ErasedTensor::new(self.clone().to_device(device))
    }
    fn clone_box(&self) -> ErasedTensor {
        ErasedTensor::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

/// A float tensor whose rank is known at run time only.
pub(crate) struct ErasedTensor(Box<dyn AnyRank>);

impl ErasedTensor {
    /// Erases the rank of `tensor`.
    pub(crate) fn new<const D: usize>(tensor: Tensor<D>) -> Self {
        Self(Box::new(tensor))
    }

    /// The rank.
    pub(crate) fn rank(&self) -> usize {
        self.0.rank()
    }

    /// The device.
    pub(crate) fn device(&self) -> Device {
        self.0.device()
    }

    /// The values on the host.
    pub(crate) fn to_data(&self) -> TensorData {
        self.0.to_data()
    }

    /// The tensor on `device`.
    pub(crate) fn to_device(&self, device: &Device) -> Self {
        self.0.to_device(device)
    }

    /// The tensor of rank `D`; panics naming `what` when its rank is another.
    pub(crate) fn into_rank<const D: usize>(self, what: &dyn core::fmt::Display) -> Tensor<D> {
        let rank = self.rank();
        match self.0.into_any().downcast::<Tensor<D>>() {
            Ok(tensor) => *tensor,
            Err(_) => panic!("{what} has rank {rank}, not the requested rank {D}"),
        }
    }

    /// A clone of the tensor of rank `D`; panics naming `what` when its rank is another.
    pub(crate) fn get_rank<const D: usize>(&self, what: &dyn core::fmt::Display) -> Tensor<D> {
        match self.0.as_any().downcast_ref::<Tensor<D>>() {
            Some(tensor) => tensor.clone(),
            None => panic!(
                "{what} has rank {}, not the requested rank {D}",
                self.rank()
            ),
        }
    }
}

impl Clone for ErasedTensor {
    fn clone(&self) -> Self {
        self.0.clone_box()
    }
}

impl core::fmt::Debug for ErasedTensor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ErasedTensor")
            .field("rank", &self.rank())
            .field("device", &self.device())
            .finish()
    }
}
