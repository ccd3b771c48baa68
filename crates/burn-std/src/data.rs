//! `TensorData`: a tensor's values on the host, as bytes with a shape and a dtype.

use crate::{Bytes, DType, Distribution, Element, Scalar, Shape, Tolerance};
use core::fmt;
use num_traits::Float;
use rand::RngCore;

/// Runs `$body` with `$E` bound to the host type of `$dtype` (floats, ints and `bool`).
///
/// Panics for quantized dtypes, which have no single host type.
#[macro_export]
macro_rules! with_dtype {
    ($dtype:expr, $E:ident => $body:expr) => {{
        match $dtype {
            $crate::DType::F64 => {
                type $E = f64;
                $body
            }
            $crate::DType::F32 => {
                type $E = f32;
                $body
            }
            $crate::DType::F16 => {
                type $E = $crate::f16;
                $body
            }
            $crate::DType::BF16 => {
                type $E = $crate::bf16;
                $body
            }
            $crate::DType::I64 => {
                type $E = i64;
                $body
            }
            $crate::DType::I32 => {
                type $E = i32;
                $body
            }
            $crate::DType::I16 => {
                type $E = i16;
                $body
            }
            $crate::DType::I8 => {
                type $E = i8;
                $body
            }
            $crate::DType::U64 => {
                type $E = u64;
                $body
            }
            $crate::DType::U32 => {
                type $E = u32;
                $body
            }
            $crate::DType::U16 => {
                type $E = u16;
                $body
            }
            $crate::DType::U8 => {
                type $E = u8;
                $body
            }
            $crate::DType::Bool(_) => {
                type $E = bool;
                $body
            }
            $crate::DType::QFloat(_) => {
                panic!("with_dtype: quantized data has no host element type")
            }
        }
    }};
}

/// Why a [`TensorData`] could not be read as the asked type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DataError {
    /// The data holds another dtype.
    TypeMismatch {
        /// The dtype asked for.
        expected: DType,
        /// The dtype the data holds.
        found: DType,
    },
    /// The bytes are not a valid sequence of the type.
    CastError(String),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::TypeMismatch { expected, found } => {
                write!(f, "tensor data holds {found}, not {expected}")
            }
            DataError::CastError(reason) => write!(f, "invalid tensor bytes: {reason}"),
        }
    }
}

impl std::error::Error for DataError {}

/// A tensor's values on the host: row-major bytes, a shape and a dtype.
///
/// The bytes live in 8-byte aligned storage so they can be viewed as any element type.
#[derive(Clone)]
pub struct TensorData {
    bytes: Bytes,
    /// The shape of the tensor.
    pub shape: Shape,
    /// The dtype of the values.
    pub dtype: DType,
}

impl TensorData {
    /// Data from values and a shape; panics when their sizes disagree.
    pub fn new<E: Element, S: Into<Shape>>(values: Vec<E>, shape: S) -> Self {
        let shape = shape.into();
        assert_eq!(
            values.len(),
            shape.num_elements(),
            "TensorData::new: {} values do not fill shape {shape:?} ({} elements)",
            values.len(),
            shape.num_elements()
        );
        Self::from_bytes_slice(bytemuck::cast_slice(&values), shape, E::DTYPE)
    }

    /// Data from raw row-major bytes (copied); panics when their length does not match shape
    /// and dtype.
    pub fn from_bytes_slice(bytes: &[u8], shape: impl Into<Shape>, dtype: DType) -> Self {
        Self::from_bytes(Bytes::from_bytes_slice(bytes), shape, dtype)
    }

    /// Data over `bytes`, row-major; panics when their length does not match shape and dtype.
    pub fn from_bytes<S: Into<Shape>>(bytes: Bytes, shape: S, dtype: DType) -> Self {
        Self::try_from_bytes(bytes, shape, dtype).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`from_bytes`](Self::from_bytes) over a plain byte vector.
    pub fn from_bytes_vec<S: Into<Shape>>(bytes: Vec<u8>, shape: S, dtype: DType) -> Self {
        Self::from_bytes(Bytes::from_bytes_vec(bytes), shape, dtype)
    }

    /// Data over `bytes`, or an error when their length does not match shape and dtype.
    pub fn try_from_bytes<S: Into<Shape>>(
        bytes: Bytes,
        shape: S,
        dtype: DType,
    ) -> Result<Self, DataError> {
        let shape = shape.into();
        let expected = match dtype {
            DType::QFloat(scheme) => crate::quantization::quantized_data_len(&scheme, &shape),
            dtype => shape.num_elements() * dtype.size(),
        };
        if bytes.len() != expected {
            return Err(DataError::CastError(format!(
                "TensorData::from_bytes: {} bytes do not hold shape {shape:?} of {dtype} \
                 (expected {expected})",
                bytes.len()
            )));
        }
        Ok(Self {
            bytes,
            shape,
            dtype,
        })
    }

    /// [`try_from_bytes`](Self::try_from_bytes) over a plain byte vector.
    pub fn try_from_bytes_vec<S: Into<Shape>>(
        bytes: Vec<u8>,
        shape: S,
        dtype: DType,
    ) -> Result<Self, DataError> {
        Self::try_from_bytes(Bytes::from_bytes_vec(bytes), shape, dtype)
    }

    /// The byte storage.
    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    /// The storage, the shape and the dtype.
    pub fn into_parts(self) -> (Bytes, Shape, DType) {
        (self.bytes, self.shape, self.dtype)
    }

    /// Data filled with `value` converted to `dtype`.
    pub fn full_dtype<S: Into<Shape>>(shape: S, value: impl Into<Scalar>, dtype: DType) -> Self {
        let shape = shape.into();
        let value = value.into();
        with_dtype!(dtype, E => Self::new(vec![value.elem::<E>(); shape.num_elements()], shape))
    }

    /// Data filled with `value`.
    pub fn full<E: Element, S: Into<Shape>>(shape: S, value: E) -> Self {
        let shape = shape.into();
        Self::new(vec![value; shape.num_elements()], shape)
    }

    /// Data filled with zeros of type `E`.
    pub fn zeros<E: Element, S: Into<Shape>>(shape: S) -> Self {
        Self::full(shape, E::from_f64(0.0))
    }

    /// Data filled with ones of type `E`.
    pub fn ones<E: Element, S: Into<Shape>>(shape: S) -> Self {
        Self::full(shape, E::from_f64(1.0))
    }

    /// Data of type `E` sampled from `distribution` with `rng`.
    pub fn random<E: Element, R: RngCore, S: Into<Shape>>(
        shape: S,
        distribution: Distribution,
        rng: &mut R,
    ) -> Self {
        let shape = shape.into();
        // Uniform draws are below `high` in f64 but may round up to it in a narrower type:
        // redraw those (a few times at most, so a range with no representable value ends).
        let high = match distribution {
            Distribution::Default => Some(1.0),
            Distribution::Uniform(low, high) if low < high => Some(high),
            _ => None,
        };
        let mut sampler = distribution.sampler(rng);
        let mut draw = || {
            let mut value = E::from_f64(sampler.sample());
            for _ in 0..16 {
                if high.is_none_or(|h| value.to_f64() < h) {
                    break;
                }
                value = E::from_f64(sampler.sample());
            }
            value
        };
        let values = (0..shape.num_elements()).map(|_| draw()).collect();
        Self::new(values, shape)
    }

    /// The raw row-major bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The raw row-major bytes, mutable.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
    }

    /// The byte storage, consuming the data.
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }

    /// The number of elements.
    pub fn num_elements(&self) -> usize {
        self.shape.num_elements()
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.num_dims()
    }

    fn check_type<E: Element>(&self) -> Result<(), DataError> {
        let same = match (E::DTYPE, self.dtype) {
            (DType::Bool(_), DType::Bool(_)) => true,
            (a, b) => a == b,
        };
        if same && E::DTYPE.size() == self.dtype.size() {
            Ok(())
        } else {
            Err(DataError::TypeMismatch {
                expected: E::DTYPE,
                found: self.dtype,
            })
        }
    }

    /// The values as a slice of `E`; an error when the data holds another dtype.
    pub fn as_slice<E: Element>(&self) -> Result<&[E], DataError> {
        self.check_type::<E>()?;
        bytemuck::checked::try_cast_slice(self.as_bytes())
            .map_err(|e| DataError::CastError(e.to_string()))
    }

    /// The values as a mutable slice of `E`; an error when the data holds another dtype.
    pub fn as_mut_slice<E: Element>(&mut self) -> Result<&mut [E], DataError> {
        self.check_type::<E>()?;
        bytemuck::checked::try_cast_slice_mut(self.as_bytes_mut())
            .map_err(|e| DataError::CastError(e.to_string()))
    }

    /// The values as a vector of `E`, converting from the stored dtype when it differs.
    pub fn to_vec<E: Element>(&self) -> Result<Vec<E>, DataError> {
        if let Ok(slice) = self.as_slice::<E>() {
            return Ok(slice.to_vec());
        }
        if matches!(self.dtype, DType::QFloat(_)) {
            return Err(DataError::TypeMismatch {
                expected: E::DTYPE,
                found: self.dtype,
            });
        }
        Ok(self.iter::<E>().collect())
    }

    /// The values as a vector of `E` (see [`to_vec`](Self::to_vec)).
    pub fn into_vec<E: Element>(self) -> Result<Vec<E>, DataError> {
        self.to_vec()
    }

    /// Iterates over the values converted to `E`.
    pub fn iter<E: Element>(&self) -> Box<dyn Iterator<Item = E> + '_> {
        with_dtype!(self.dtype, S => {
            let slice: &[S] = bytemuck::checked::cast_slice(self.as_bytes());
            Box::new(slice.iter().map(|v| E::from_scalar(v.to_scalar())))
        })
    }

    /// The same values converted to `E`.
    pub fn convert<E: Element>(self) -> Self {
        self.convert_dtype(E::DTYPE)
    }

    /// The same values converted to `dtype` (`as`-cast semantics; quantized data converts
    /// through its dequantized values).
    pub fn convert_dtype(self, dtype: DType) -> Self {
        if dtype == self.dtype {
            return self;
        }
        if let DType::QFloat(scheme) = self.dtype {
            // Quantized data converts through its dequantized f32 values.
            let shape = self.shape.clone();
            let (values, scales) = self
                .as_quantized()
                .unwrap_or_else(|e| panic!("convert_dtype: invalid quantized data: {e}"))
                .into_vec_i8();
            let floats =
                crate::quantization::dequantize_values(&values, &shape.dims, &scheme, &scales);
            return Self::new(floats, shape).convert_dtype(dtype);
        }
        let shape = self.shape.clone();
        with_dtype!(dtype, E => Self::new(self.iter::<E>().collect::<Vec<E>>(), shape))
    }

    /// Panics unless `other` has the same shape and values; with `strict`, also the same dtype.
    /// The message lists the first mismatches.
    pub fn assert_eq(&self, other: &Self, strict: bool) {
        if strict {
            assert_eq!(
                self.dtype, other.dtype,
                "TensorData::assert_eq: dtypes differ ({} vs {})",
                self.dtype, other.dtype
            );
        }
        self.assert_shapes(other, "assert_eq");
        let mismatches: Vec<String> = self
            .iter::<f64>()
            .zip(other.iter::<f64>())
            .enumerate()
            .filter(|(_, (a, b))| !(a == b || (a.is_nan() && b.is_nan())))
            .take(5)
            .map(|(i, (a, b))| format!("index {i}: {a} != {b}"))
            .collect();
        if !mismatches.is_empty() {
            panic!(
                "TensorData::assert_eq: values differ: {}\n  left:  {self}\n  right: {other}",
                mismatches.join(", ")
            );
        }
    }

    /// Panics unless `other` has the same shape and values within `tolerance`.
    pub fn assert_approx_eq<F: Float + Element>(&self, other: &Self, tolerance: Tolerance<F>) {
        self.assert_shapes(other, "assert_approx_eq");
        let mismatches: Vec<String> = self
            .iter::<f64>()
            .zip(other.iter::<f64>())
            .enumerate()
            .filter(|(_, (a, b))| !tolerance.approx_eq(*a, *b))
            .take(5)
            .map(|(i, (a, b))| format!("index {i}: {a} vs {b} (diff {:e})", (a - b).abs()))
            .collect();
        if !mismatches.is_empty() {
            panic!(
                "TensorData::assert_approx_eq: values differ beyond {tolerance:?}: {}",
                mismatches.join(", ")
            );
        }
    }

    fn assert_shapes(&self, other: &Self, what: &str) {
        assert_eq!(
            self.shape, other.shape,
            "TensorData::{what}: shapes differ ({:?} vs {:?})",
            self.shape, other.shape
        );
    }
}

impl PartialEq for TensorData {
    fn eq(&self, other: &Self) -> bool {
        self.shape == other.shape
            && self.dtype == other.dtype
            && self.as_bytes() == other.as_bytes()
    }
}

impl fmt::Debug for TensorData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TensorData {{ shape: {:?}, dtype: {}, values: {self} }}",
            self.shape, self.dtype
        )
    }
}

impl fmt::Display for TensorData {
    /// Writes the values as a flat list (up to 64 of them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(self.dtype, DType::QFloat(_)) {
            return write!(f, "<{} quantized bytes>", self.bytes.len());
        }
        let limit = 64;
        with_dtype!(self.dtype, E => {
            let slice: &[E] = bytemuck::checked::cast_slice(self.as_bytes());
            write!(f, "[")?;
            for (i, v) in slice.iter().take(limit).enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{v}")?;
            }
            if slice.len() > limit {
                write!(f, ", … ({} more)", slice.len() - limit)?;
            }
            write!(f, "]")
        })
    }
}

impl<E: Element> From<&[E]> for TensorData {
    fn from(values: &[E]) -> Self {
        Self::new(values.to_vec(), [values.len()])
    }
}

impl<E: Element> From<Vec<E>> for TensorData {
    fn from(values: Vec<E>) -> Self {
        let len = values.len();
        Self::new(values, [len])
    }
}

impl<E: Element, const A: usize> From<[E; A]> for TensorData {
    fn from(values: [E; A]) -> Self {
        Self::new(values.to_vec(), [A])
    }
}

impl<E: Element, const A: usize, const B: usize> From<[[E; B]; A]> for TensorData {
    fn from(values: [[E; B]; A]) -> Self {
        Self::new(values.iter().flatten().copied().collect(), [A, B])
    }
}

impl<E: Element, const A: usize, const B: usize, const C: usize> From<[[[E; C]; B]; A]>
    for TensorData
{
    fn from(values: [[[E; C]; B]; A]) -> Self {
        let flat = values.iter().flatten().flatten().copied().collect();
        Self::new(flat, [A, B, C])
    }
}

impl<E: Element, const A: usize, const B: usize, const C: usize, const D: usize>
    From<[[[[E; D]; C]; B]; A]> for TensorData
{
    fn from(values: [[[[E; D]; C]; B]; A]) -> Self {
        let flat = values
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .copied()
            .collect();
        Self::new(flat, [A, B, C, D])
    }
}

impl<E: Element, const A: usize, const B: usize, const C: usize, const D: usize, const F: usize>
    From<[[[[[E; F]; D]; C]; B]; A]> for TensorData
{
    fn from(values: [[[[[E; F]; D]; C]; B]; A]) -> Self {
        let flat = values
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .flatten()
            .copied()
            .collect();
        Self::new(flat, [A, B, C, D, F])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_converts() {
        let data = TensorData::from([[1.0f32, 2.5], [-3.0, 4.0]]);
        assert_eq!(data.shape, Shape::new([2, 2]));
        assert_eq!(data.as_slice::<f32>().unwrap(), &[1.0, 2.5, -3.0, 4.0]);
        assert!(data.as_slice::<f64>().is_err());
        let ints = data.clone().convert::<i32>();
        assert_eq!(ints.as_slice::<i32>().unwrap(), &[1, 2, -3, 4]);
        let bools = TensorData::from([true, false]);
        assert_eq!(bools.to_vec::<i64>().unwrap(), vec![1, 0]);
    }

    #[test]
    #[should_panic(expected = "values differ")]
    fn assert_eq_reports_mismatch() {
        TensorData::from([1, 2, 3]).assert_eq(&TensorData::from([1, 2, 4]), true);
    }

    #[test]
    fn uniform_samples_stay_below_high_after_rounding() {
        use rand::{SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(3);
        // bf16 has 8 bits of mantissa: about 1 in 500 f64 draws in [0, 1) rounds up to 1.0.
        let data =
            TensorData::random::<half::bf16, _, _>([20_000], Distribution::Default, &mut rng);
        assert!(data.iter::<f64>().all(|v| (0.0..1.0).contains(&v)));
        let data =
            TensorData::random::<f32, _, _>([1000], Distribution::Uniform(2.0, 2.0), &mut rng);
        assert!(data.iter::<f64>().all(|v| v == 2.0), "an empty range ends");
    }

    #[test]
    fn approx_eq_uses_tolerance() {
        let a = TensorData::from([1.0f32, 2.0]);
        let b = TensorData::from([1.000001f32, 2.0]);
        a.assert_approx_eq::<f32>(&b, Tolerance::default());
    }
}
