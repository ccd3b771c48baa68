//! Element-wise binary arithmetic with NumPy broadcasting, and the `_scalar` forms (the scalar
//! is converted to the tensor's dtype). Results reuse an input's buffer when allowed.

use super::arith::{NumElement, max_nan, min_nan};
use super::map::{map_same, zip_into, zip_same};
use crate::tensor::FlexTensor;
use burn_std::{Element, Scalar, ToElement};
use num_traits::Float;

/// Generates a tensor-tensor function and its scalar form for a numeric operation.
macro_rules! num_binary {
    ($($name:ident, $scalar:ident, $doc:literal => |$a:ident, $b:ident| $body:expr;)*) => {$(
        #[doc = concat!($doc, " (broadcasting; floats and ints).")]
        pub fn $name(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
            with_num!(lhs.dtype(), stringify!($name), E => {
                zip_same(stringify!($name), lhs, rhs, |$a: E, $b: E| $body)
            })
        }

        #[doc = concat!($doc, " with a scalar right operand converted to the tensor's dtype.")]
        pub fn $scalar(lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
            with_num!(lhs.dtype(), stringify!($scalar), E => {
                let $b: E = rhs.elem();
                map_same(lhs, move |$a: E| $body)
            })
        }
    )*};
}

num_binary! {
    add, add_scalar, "`lhs + rhs`" => |a, b| a.add(b);
    sub, sub_scalar, "`lhs - rhs`" => |a, b| a.sub(b);
    mul, mul_scalar, "`lhs * rhs`" => |a, b| a.mul(b);
    div, div_scalar, "`lhs / rhs`; integers truncate toward zero and panic on zero" => |a, b| a.div(b);
    remainder, remainder_scalar, "The remainder with the sign of `rhs` (Python `%`)" => |a, b| a.rem(b);
    max_pair, max_pair_scalar, "The larger of each pair, NaN propagating" => |a, b| max_nan(a, b);
    min_pair, min_pair_scalar, "The smaller of each pair, NaN propagating" => |a, b| min_nan(a, b);
}

/// `lhs ^ rhs` for float tensors (broadcasting).
pub fn powf(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    with_float!(lhs.dtype(), "powf", E => zip_same("powf", lhs, rhs, |a: E, b: E| a.powf(b)))
}

/// `lhs ^ rhs` for a float or int `lhs` and an int exponent tensor (broadcasting); the result
/// has `lhs`'s dtype.
pub fn powi(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    with_num!(lhs.dtype(), "powi", E => with_int!(rhs.dtype(), "powi (exponent)", I => {
        if E::IS_FLOAT {
            zip_into("powi", &lhs, &rhs, |a: E, b: I| {
                let b = i32::try_from(ToElement::to_i64(&b)).unwrap_or(i32::MAX);
                E::from_f64(ToElement::to_f64(&a).powi(b))
            })
        } else {
            zip_into(
                "powi",
                &lhs,
                &rhs,
                |a: E,
                b: I| NumElement::pow(a, E::from_i64(ToElement::to_i64(&b))),
            )
        }
    }))
}

/// The angle of `(rhs, lhs)`: `atan2(lhs, rhs)` for float tensors (broadcasting).
pub fn atan2(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    with_float!(lhs.dtype(), "atan2", E => zip_same("atan2", lhs, rhs, |a: E, b: E| a.atan2(b)))
}

/// `sqrt(lhs² + rhs²)` for float tensors (broadcasting), with no overflow in the squares.
pub fn hypot(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    with_float!(lhs.dtype(), "hypot", E => zip_same("hypot", lhs, rhs, |a: E, b: E| a.hypot(b)))
}

/// `atan2(lhs, rhs)` with a scalar `rhs`.
pub fn atan2_scalar(lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
    with_float!(lhs.dtype(), "atan2_scalar", E => {
        let b: E = rhs.elem();
        map_same(lhs, move |a: E| a.atan2(b))
    })
}

/// `lhs ^ rhs` element-wise for numeric tensors of the same dtype (broadcasting).
pub fn pow(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    with_num!(lhs.dtype(), "pow", E => zip_same("pow", lhs, rhs, |a: E, b: E| NumElement::pow(a, b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::{DType, bf16};

    fn f64s(t: FlexTensor) -> Vec<f64> {
        super::super::creation::cast(t, DType::F64).to_vec()
    }

    #[test]
    fn broadcasting_with_views_matches_reference() {
        // lhs: [2, 3] transposed to [3, 2]; rhs: [2] broadcast along rows.
        let a = FlexTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]).transpose();
        let b = FlexTensor::from_vec(vec![10.0f32, -2.0], [2]);
        let av = [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]];
        let bv = [10.0, -2.0];
        type Op = (
            fn(FlexTensor, FlexTensor) -> FlexTensor,
            fn(f64, f64) -> f64,
        );
        let table: [Op; 7] = [
            (add, |x, y| x + y),
            (sub, |x, y| x - y),
            (mul, |x, y| x * y),
            (div, |x, y| x / y),
            (remainder, |x, y| x - y * (x / y).floor()),
            (max_pair, f64::max),
            (powf, f64::powf),
        ];
        for (op, reference) in table {
            let got = f64s(op(a.clone(), b.clone()));
            let expected: Vec<f64> = av
                .iter()
                .flat_map(|r| [reference(r[0], bv[0]), reference(r[1], bv[1])])
                .collect();
            for (g, e) in got.iter().zip(&expected) {
                assert!((g - e).abs() < 1e-4 * e.abs().max(1.0), "{g} vs {e}");
            }
        }
        assert_eq!(a.to_vec::<f32>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    }

    #[test]
    fn clones_are_unchanged_by_in_place_ops() {
        let a = FlexTensor::from_vec(vec![1i32, 2, 3], [3]);
        let b = FlexTensor::from_vec(vec![10i32], [1]);
        let kept = a.clone();
        let c = add(a, b.clone());
        assert_eq!(c.to_vec::<i32>(), vec![11, 12, 13]);
        assert_eq!(kept.to_vec::<i32>(), vec![1, 2, 3]);
        // rhs is the unique full-shape operand: written in place, lhs broadcast.
        let d = sub(b, c);
        assert_eq!(d.to_vec::<i32>(), vec![-1, -2, -3]);
    }

    #[test]
    fn integer_semantics() {
        let a = FlexTensor::from_vec(vec![-7i64, 7, -7, 7], [4]);
        let b = FlexTensor::from_vec(vec![2i64, -2, -2, 2], [4]);
        assert_eq!(
            div(a.clone(), b.clone()).to_vec::<i64>(),
            vec![-3, -3, 3, 3]
        );
        assert_eq!(
            remainder(a.clone(), b.clone()).to_vec::<i64>(),
            vec![1, -1, -1, 1]
        );
        assert_eq!(
            remainder_scalar(a.clone(), Scalar::Int(3)).to_vec::<i64>(),
            vec![2, 1, 2, 1]
        );
        assert_eq!(
            mul_scalar(a.clone(), Scalar::Float(2.9)).to_vec::<i64>(),
            vec![-14, 14, -14, 14]
        );
        let e = FlexTensor::from_vec(vec![0i32, 1, 2, 3], [4]);
        let p = powi(FlexTensor::from_vec(vec![2.0f32], [1]), e.clone());
        assert_eq!(p.to_vec::<f32>(), vec![1.0, 2.0, 4.0, 8.0]);
        let p = powi(FlexTensor::from_vec(vec![3u8], [1]), e);
        assert_eq!(p.to_vec::<u8>(), vec![1, 3, 9, 27]);
        let f = FlexTensor::from_vec(vec![-7.5f64, 7.5], [2]);
        assert_eq!(
            remainder_scalar(f, Scalar::Float(-2.0)).to_vec::<f64>(),
            vec![-1.5, -0.5]
        );
    }

    #[test]
    #[should_panic(expected = "add: both tensors must have the same dtype")]
    fn dtype_mismatch_panics() {
        add(
            FlexTensor::from_vec(vec![1.0f32], [1]),
            FlexTensor::from_vec(vec![1.0f64], [1]),
        );
    }

    #[test]
    #[should_panic(expected = "mul: shapes [2] and [3] cannot be broadcast")]
    fn shape_mismatch_panics() {
        mul(
            FlexTensor::from_vec(vec![1.0f32; 2], [2]),
            FlexTensor::from_vec(vec![1.0f32; 3], [3]),
        );
    }

    #[test]
    fn bf16_smoke() {
        let a = FlexTensor::from_vec(vec![bf16::from_f32(1.5), bf16::from_f32(-2.0)], [2]);
        let got = add_scalar(a, Scalar::Float(0.5)).to_vec::<bf16>();
        assert_eq!(got, vec![bf16::from_f32(2.0), bf16::from_f32(-1.5)]);
        let t = FlexTensor::from_vec(vec![f64::NAN, 1.0], [2]);
        assert!(min_pair_scalar(t, Scalar::Float(0.0)).to_vec::<f64>()[0].is_nan());
    }
}
