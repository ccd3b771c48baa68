//! Comparisons (tensor-tensor with broadcasting, and `_elem` scalar forms) producing bool
//! tensors, and the boolean logic operations.

use super::map::{check_same_dtype, map_into, map_same, zip_into, zip_same};
use crate::tensor::FlexTensor;
use burn_std::Scalar;

/// Generates a comparison and its scalar (`_elem`) form over every dtype.
macro_rules! comparison {
    ($($name:ident, $elem:ident, $doc:literal => |$a:ident, $b:ident| $body:expr;)*) => {$(
        #[doc = concat!("Whether `", $doc, "` element-wise (broadcasting), as a bool tensor.")]
        #[allow(clippy::bool_comparison)]
        pub fn $name(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
            check_same_dtype(stringify!($name), &lhs, &rhs);
            with_elem!(lhs.dtype(), E => {
                zip_into(stringify!($name), &lhs, &rhs, |$a: E, $b: E| -> bool { $body })
            })
        }

        #[doc = concat!("Whether `", $doc, "` against a scalar converted to the tensor's dtype.")]
        #[allow(clippy::bool_comparison)]
        pub fn $elem(lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
            with_elem!(lhs.dtype(), E => {
                let $b: E = rhs.elem();
                map_into(&lhs, move |$a: E| -> bool { $body })
            })
        }
    )*};
}

comparison! {
    equal, equal_elem, "lhs == rhs" => |a, b| a == b;
    not_equal, not_equal_elem, "lhs != rhs" => |a, b| a != b;
    greater, greater_elem, "lhs > rhs" => |a, b| a > b;
    greater_equal, greater_equal_elem, "lhs >= rhs" => |a, b| a >= b;
    lower, lower_elem, "lhs < rhs" => |a, b| a < b;
    lower_equal, lower_equal_elem, "lhs <= rhs" => |a, b| a <= b;
}

fn check_bool(op: &str, t: &FlexTensor) {
    assert!(
        t.dtype().is_bool(),
        "{op}: expected a bool tensor, got dtype {}",
        t.dtype()
    );
}

/// Logical and of two bool tensors (broadcasting).
pub fn bool_and(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    check_bool("bool_and", &lhs);
    zip_same("bool_and", lhs, rhs, |a: bool, b: bool| a & b)
}

/// Logical or of two bool tensors (broadcasting).
pub fn bool_or(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    check_bool("bool_or", &lhs);
    zip_same("bool_or", lhs, rhs, |a: bool, b: bool| a | b)
}

/// Logical exclusive or of two bool tensors (broadcasting).
pub fn bool_xor(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
    check_bool("bool_xor", &lhs);
    zip_same("bool_xor", lhs, rhs, |a: bool, b: bool| a ^ b)
}

/// Logical negation of a bool tensor.
pub fn bool_not(tensor: FlexTensor) -> FlexTensor {
    check_bool("bool_not", &tensor);
    map_same(tensor, |a: bool| !a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons_broadcast_over_views() {
        let a = FlexTensor::from_vec(vec![1.0f32, 5.0, 3.0, f32::NAN], [2, 2]).transpose(); // [[1, 3], [5, nan]]
        let b = FlexTensor::from_vec(vec![3.0f32, 3.0], [2, 1])
            .slice(&[burn_std::Slice::new(0, None, -1)]);
        assert_eq!(
            greater(a.clone(), b.clone()).to_vec::<bool>(),
            vec![false, false, true, false]
        );
        assert_eq!(
            lower_equal(a.clone(), b).to_vec::<bool>(),
            vec![true, true, false, false]
        );
        assert_eq!(
            not_equal_elem(a.clone(), Scalar::Int(3)).to_vec::<bool>(),
            vec![true, false, true, true]
        );
        let i = FlexTensor::from_vec(vec![-1i8, 0, 2], [3]);
        assert_eq!(
            greater_equal_elem(i, Scalar::Int(0)).to_vec::<bool>(),
            vec![false, true, true]
        );
    }

    #[test]
    fn bool_logic() {
        let a = FlexTensor::from_vec(vec![true, true, false, false], [4]);
        let b = FlexTensor::from_vec(vec![true, false, true, false], [4]);
        assert_eq!(
            bool_and(a.clone(), b.clone()).to_vec::<bool>(),
            vec![true, false, false, false]
        );
        assert_eq!(
            bool_or(a.clone(), b.clone()).to_vec::<bool>(),
            vec![true, true, true, false]
        );
        assert_eq!(
            bool_xor(a.clone(), b.clone()).to_vec::<bool>(),
            vec![false, true, true, false]
        );
        assert_eq!(
            bool_not(a.clone()).to_vec::<bool>(),
            vec![false, false, true, true]
        );
        assert_eq!(
            equal(a.clone(), b).to_vec::<bool>(),
            vec![true, false, false, true]
        );
        assert_eq!(a.to_vec::<bool>(), vec![true, true, false, false]);
    }
}
