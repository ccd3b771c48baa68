//! A tensor as a value: built from anything that becomes [`TensorData`] on the default
//! device, and serialized through its data (a read of the device).

use crate::kind::Basic;
use crate::{Device, Tensor, TensorData};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl<const D: usize, K: Basic, T: Into<TensorData>> From<T> for Tensor<D, K> {
    /// The data on the default device, in the kind's default dtype (`Tensor::from([1.0, 2.0])`).
    fn from(value: T) -> Self {
        Tensor::from_data(value, &Device::default())
    }
}

impl<const D: usize, K: Basic> Serialize for Tensor<D, K> {
    /// Writes the tensor's [`TensorData`] (waits for the device).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_data().serialize(serializer)
    }
}

impl<'de, const D: usize, K: Basic> Deserialize<'de> for Tensor<D, K> {
    /// Reads [`TensorData`] onto the default device, in its default dtype for the kind (as
    /// [`Tensor::from_data`] with a device).
    fn deserialize<De: Deserializer<'de>>(deserializer: De) -> Result<Self, De::Error> {
        let data = TensorData::deserialize(deserializer)?;
        if data.shape.num_dims() != D {
            return Err(serde::de::Error::custom(format!(
                "a tensor of rank {D} cannot hold data of shape {:?}",
                data.shape
            )));
        }
        Ok(Tensor::from_data(data, &Device::default()))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Device, Int, Tensor};

    #[test]
    fn tensors_round_trip_through_json() {
        let device = Device::default();
        let x = Tensor::<2, Int>::from_data([[1, -2], [3, 4]], &device);
        let json = serde_json::to_string(&x).unwrap();
        let back: Tensor<2, Int> = serde_json::from_str(&json).unwrap();
        assert_eq!(back.dtype(), x.dtype());
        assert_eq!(
            back.into_data().to_vec::<i64>(),
            x.into_data().to_vec::<i64>()
        );
    }

    #[test]
    fn data_of_another_rank_is_refused() {
        let json = serde_json::to_string(&Tensor::<1>::from([1.0f32, 2.0])).unwrap();
        let err = serde_json::from_str::<Tensor<2>>(&json).unwrap_err();
        assert!(err.to_string().contains("rank 2"), "{err}");
    }
}
