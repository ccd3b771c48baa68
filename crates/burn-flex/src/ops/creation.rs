//! Creation and conversion: constant tensors, ranges, dtype casts (random tensors: `random.rs`).

use super::map::map_into;
use crate::tensor::{FlexTensor, Storable, pool};
use burn_std::{DType, Element, Scalar, Shape};

/// A tensor of `shape` filled with `value` converted to `dtype`.
pub fn full(shape: impl Into<Shape>, value: Scalar, dtype: DType) -> FlexTensor {
    let shape = shape.into();
    with_elem!(dtype, E => {
        let v: E = value.elem();
        FlexTensor::from_aligned(pool::aligned_filled(shape.num_elements(), v), shape)
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

/// Returns from the enclosing function with `v as D` mapped over `$tensor` when its dtype and
/// `$dtype` are one of the listed pairs: a primitive cast the compiler vectorizes, where the
/// general path goes through a `Scalar` per value.
macro_rules! as_casts {
    ($tensor:expr, $dtype:expr, [$(($s:ty, $d:ty)),* $(,)?]) => {
        $(
            if $tensor.dtype() == <$s as Element>::DTYPE && $dtype == <$d as Element>::DTYPE {
                return map_into(&$tensor, |v: $s| v as $d);
            }
        )*
    };
}

/// The values converted to `dtype` (`as`-cast semantics; bool ↔ numbers as 0/1).
pub fn cast(tensor: FlexTensor, dtype: DType) -> FlexTensor {
    let same = tensor.dtype() == dtype || (tensor.dtype().is_bool() && dtype.is_bool());
    if same {
        return tensor;
    }
    as_casts!(
        tensor,
        dtype,
        [
            (f32, i32),
            (f32, i64),
            (i32, f32),
            (i64, f32),
            (f32, f64),
            (f64, f32),
            (f64, i64),
            (i64, f64),
            (i32, i64),
            (i64, i32)
        ]
    );
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
        // The primitive fast paths saturate like `as`, NaN to 0.
        let wide = FlexTensor::from_vec(vec![3e10f32, f32::NEG_INFINITY, f32::NAN, -2.9], [4]);
        assert_eq!(
            cast(wide.clone(), DType::I32).to_vec::<i32>(),
            vec![i32::MAX, i32::MIN, 0, -2]
        );
        assert_eq!(
            cast(wide, DType::I64).to_vec::<i64>(),
            vec![30_000_001_024, i64::MIN, 0, -2]
        );
        let big = FlexTensor::from_vec(vec![(1i64 << 53) + 1, -7], [2]);
        assert_eq!(
            cast(big.clone(), DType::F32).to_vec::<f32>(),
            vec![9.007_199e15, -7.0]
        );
        assert_eq!(cast(big, DType::I32).to_vec::<i32>(), vec![1, -7]);
        let i = FlexTensor::from_vec(vec![-1i64, 258], [2]);
        assert_eq!(cast(i, DType::U8).to_vec::<u8>(), vec![255, 2]);
    }
}
