//! serde for the tensors of a record: `TensorData` as dtype, shape and bytes (hex in
//! human-readable formats, raw bytes in binary ones).

/// `#[serde(with = …)]` for `Vec<(String, TensorData)>`.
pub(crate) mod named_tensors {
    use burn::tensor::{DType, TensorData};
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// One tensor as written.
    #[derive(Serialize)]
    struct Out<'a> {
        name: &'a str,
        dtype: DType,
        shape: &'a [usize],
        #[serde(with = "super::bytes")]
        bytes: &'a [u8],
    }

    /// One tensor as read.
    #[derive(Deserialize)]
    struct In {
        name: String,
        dtype: DType,
        shape: Vec<usize>,
        #[serde(with = "super::bytes")]
        bytes: Vec<u8>,
    }

    pub(crate) fn serialize<S: Serializer>(
        tensors: &[(String, TensorData)],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(tensors.iter().map(|(name, data)| Out {
            name,
            dtype: data.dtype,
            shape: &data.shape.dims,
            bytes: data.as_bytes(),
        }))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<(String, TensorData)>, D::Error> {
        Vec::<In>::deserialize(deserializer)?
            .into_iter()
            .map(|t| {
                if matches!(t.dtype, DType::QFloat(_) | DType::Bool(_)) {
                    return Err(D::Error::custom(format!(
                        "state tensor `{}`: dtype {:?} is not a state dtype",
                        t.name, t.dtype
                    )));
                }
                let expected = t.shape.iter().product::<usize>() * t.dtype.size();
                if t.bytes.len() != expected {
                    return Err(D::Error::custom(format!(
                        "state tensor `{}`: {} bytes do not hold shape {:?} of {:?}",
                        t.name,
                        t.bytes.len(),
                        t.shape,
                        t.dtype
                    )));
                }
                let data = TensorData::from_bytes_slice(&t.bytes, t.shape, t.dtype);
                Ok((t.name, data))
            })
            .collect()
    }
}

/// `#[serde(with = …)]` for byte buffers: a hex string when human-readable.
mod bytes {
    use serde::de::{Error, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        if serializer.is_human_readable() {
            const DIGITS: &[u8; 16] = b"0123456789abcdef";
            let mut hex = String::with_capacity(bytes.len() * 2);
            for byte in bytes {
                hex.push(DIGITS[usize::from(byte >> 4)] as char);
                hex.push(DIGITS[usize::from(byte & 0xf)] as char);
            }
            serializer.serialize_str(&hex)
        } else {
            serializer.serialize_bytes(bytes)
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Vec<u8>, D::Error> {
        if deserializer.is_human_readable() {
            deserializer.deserialize_str(BytesVisitor)
        } else {
            deserializer.deserialize_byte_buf(BytesVisitor)
        }
    }

    /// Accepts a hex string, bytes, or a sequence of numbers.
    struct BytesVisitor;

    impl<'de> Visitor<'de> for BytesVisitor {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            f.write_str("bytes, or a string of hex digits")
        }

        fn visit_str<E: Error>(self, hex: &str) -> Result<Vec<u8>, E> {
            if !hex.len().is_multiple_of(2) {
                return Err(E::custom("odd number of hex digits"));
            }
            (0..hex.len())
                .step_by(2)
                .map(|i| {
                    hex.get(i..i + 2)
                        .and_then(|pair| u8::from_str_radix(pair, 16).ok())
                        .ok_or_else(|| E::custom(format!("invalid hex digits at {i}")))
                })
                .collect()
        }

        fn visit_bytes<E: Error>(self, bytes: &[u8]) -> Result<Vec<u8>, E> {
            Ok(bytes.to_vec())
        }

        fn visit_byte_buf<E: Error>(self, bytes: Vec<u8>) -> Result<Vec<u8>, E> {
            Ok(bytes)
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(byte) = seq.next_element::<u8>()? {
                bytes.push(byte);
            }
            Ok(bytes)
        }
    }
}
