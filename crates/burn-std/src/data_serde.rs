//! serde for [`TensorData`], in Burn 0.23's form: a struct of `bytes`, `shape` (a plain list of
//! sizes) and `dtype`. Reading checks the byte count against shape and dtype, as the
//! constructors do, instead of trusting the encoded shape.

use crate::{Bytes, DType, Shape, TensorData};
use serde::de::Error as _;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl Serialize for TensorData {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut data = serializer.serialize_struct("TensorData", 3)?;
        data.serialize_field("bytes", self.bytes())?;
        data.serialize_field("shape", self.shape.as_slice())?;
        data.serialize_field("dtype", &self.dtype)?;
        data.end()
    }
}

/// The unchecked wire form.
#[derive(Deserialize)]
#[serde(rename = "TensorData")]
struct WireData {
    bytes: Bytes,
    shape: Vec<usize>,
    dtype: DType,
}

impl<'de> Deserialize<'de> for TensorData {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let wire = WireData::deserialize(deserializer)?;
        TensorData::try_from_bytes(wire.bytes, Shape::from(wire.shape), wire.dtype)
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_data_round_trips_through_json() {
        let data = TensorData::from([[1.5f32, -2.0], [3.0, 4.25]]);
        let json = serde_json::to_string(&data).unwrap();
        assert!(json.contains("\"shape\":[2,2]"), "{json}");
        let back: TensorData = serde_json::from_str(&json).unwrap();
        assert_eq!(back.to_vec::<f32>().unwrap(), vec![1.5, -2.0, 3.0, 4.25]);
        assert_eq!((back.shape, back.dtype), (data.shape, data.dtype));
    }

    #[test]
    fn a_shape_that_disagrees_with_the_bytes_is_refused() {
        let data = TensorData::from([1.0f32, 2.0]);
        let json = serde_json::to_string(&data)
            .unwrap()
            .replace("\"shape\":[2]", "\"shape\":[3]");
        let err = serde_json::from_str::<TensorData>(&json).unwrap_err();
        assert!(err.to_string().contains("expected 12"), "{err}");
    }
}
