//! Creation and conversion: constant tensors, ranges, random tensors, dtype casts.

use super::map::map_into;
use crate::tensor::{FlexTensor, Storable, pool};
use burn_std::{DType, Distribution, Element, Scalar, Shape, TensorData};
use rand::{SeedableRng, rngs::StdRng};
use std::sync::Mutex;

/// Seed of the random generator until [`seed`] is called.
const DEFAULT_SEED: u64 = 0x5EED_F1E8_2026_0001;

static RNG: Mutex<Option<StdRng>> = Mutex::new(None);

/// Reseeds the device's random generator.
pub fn seed(seed: u64) {
    *RNG.lock().unwrap_or_else(|e| e.into_inner()) = Some(StdRng::seed_from_u64(seed));
}

/// A tensor of `shape` filled with `value` converted to `dtype`.
pub fn full(shape: impl Into<Shape>, value: Scalar, dtype: DType) -> FlexTensor {
    let shape = shape.into();
    with_elem!(dtype, E => {
        let v: E = value.elem();
        FlexTensor::from_vec(pool::filled(shape.num_elements(), v), shape)
    })
}

/// A tensor of zeros.
pub fn zeros(shape: impl Into<Shape>, dtype: DType) -> FlexTensor {
    full(shape, Scalar::Int(0), dtype)
}

/// A tensor of ones.
pub fn ones(shape: impl Into<Shape>, dtype: DType) -> FlexTensor {
    full(shape, Scalar::Int(1), dtype)
}

/// A tensor whose values are unspecified (Flex fills zeros).
pub fn empty(shape: impl Into<Shape>, dtype: DType) -> FlexTensor {
    zeros(shape, dtype)
}

/// The 1-D tensor `start, start + step, …` below `range.end`, of an int (or float) dtype.
pub fn arange(range: core::ops::Range<i64>, step: usize, dtype: DType) -> FlexTensor {
    assert!(step > 0, "arange: step must be positive, got 0");
    let values: Vec<i64> = range.step_by(step).collect();
    let n = values.len();
    with_elem!(dtype, E => {
        let v: Vec<E> = values.into_iter().map(E::from_i64).collect();
        FlexTensor::from_vec(v, [n])
    })
}

/// A tensor of `dtype` sampled from `distribution` with the device's random generator.
pub fn random(shape: impl Into<Shape>, distribution: Distribution, dtype: DType) -> FlexTensor {
    let shape = shape.into();
    let mut guard = RNG.lock().unwrap_or_else(|e| e.into_inner());
    let rng = guard.get_or_insert_with(|| StdRng::seed_from_u64(DEFAULT_SEED));
    let data = with_elem!(dtype, E => TensorData::random::<E, _, _>(shape, distribution, rng));
    FlexTensor::from_data(data)
}

/// The values converted to `dtype` (`as`-cast semantics; bool ↔ numbers as 0/1).
pub fn cast(tensor: FlexTensor, dtype: DType) -> FlexTensor {
    let same = tensor.dtype() == dtype || (tensor.dtype().is_bool() && dtype.is_bool());
    if same {
        return tensor;
    }
    with_elem!(tensor.dtype(), S => with_elem!(dtype, D => cast_typed::<S, D>(&tensor)))
}

fn cast_typed<S: Storable, D: Storable>(tensor: &FlexTensor) -> FlexTensor {
    map_into(tensor, |v: S| D::from_scalar(v.to_scalar()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::bf16;

    #[test]
    fn constants_and_ranges() {
        let t = full([2, 2], Scalar::Float(2.5), DType::F32);
        assert_eq!(t.to_vec::<f32>(), vec![2.5; 4]);
        assert_eq!(ones([3], DType::I32).to_vec::<i32>(), vec![1; 3]);
        assert_eq!(arange(-2..5, 3, DType::I64).to_vec::<i64>(), vec![-2, 1, 4]);
        let b = zeros([2], DType::Bool(burn_std::BoolStore::Native));
        assert_eq!(b.to_vec::<bool>(), vec![false, false]);
    }

    #[test]
    fn casts_follow_as_semantics() {
        let t = FlexTensor::from_vec(vec![-1.7f32, 0.0, 300.9, f32::NAN], [4]);
        assert_eq!(
            cast(t.clone(), DType::I32).to_vec::<i32>(),
            vec![-1, 0, 300, 0]
        );
        assert_eq!(
            cast(t.clone(), DType::U8).to_vec::<u8>(),
            vec![0, 0, 255, 0]
        );
        let b = cast(t.clone(), DType::Bool(burn_std::BoolStore::Native));
        assert_eq!(b.to_vec::<bool>(), vec![true, false, true, true]);
        let back = cast(b, DType::F64);
        assert_eq!(back.to_vec::<f64>(), vec![1.0, 0.0, 1.0, 1.0]);
        let h = cast(t.transpose(), DType::BF16);
        assert_eq!(h.to_vec::<bf16>()[0], bf16::from_f32(-1.7));
        let i = FlexTensor::from_vec(vec![-1i64, 258], [2]);
        assert_eq!(cast(i, DType::U8).to_vec::<u8>(), vec![255, 2]);
    }

    #[test]
    fn random_is_reproducible_after_seed() {
        seed(42);
        let a = random([100], Distribution::Uniform(-1.0, 1.0), DType::F32);
        seed(42);
        let b = random([100], Distribution::Uniform(-1.0, 1.0), DType::F32);
        assert_eq!(a.to_vec::<f32>(), b.to_vec::<f32>());
        assert!(a.to_vec::<f32>().iter().all(|v| (-1.0..1.0).contains(v)));
        let bern = random([1000], Distribution::Bernoulli(0.3), DType::F64).to_vec::<f64>();
        assert!(bern.iter().all(|&v| v == 0.0 || v == 1.0));
    }
}
