//! Integer-only element-wise operations: bitwise logic and shifts (tensor and scalar forms).

use super::map::{map_same, zip_same};
use crate::element::IntElement;
use crate::tensor::FlexTensor;
use burn_std::{Scalar, ToElement};

/// `value << amount`; amounts at or beyond the bit width give 0, negative amounts leave the
/// value unchanged.
#[inline]
fn shl<E: IntElement>(value: E, amount: i64) -> E {
    let bits = (core::mem::size_of::<E>() * 8) as i64;
    match amount {
        a if a < 0 => value,
        a if a >= bits => E::zero(),
        a => value << a as usize,
    }
}

/// `value >> amount` (arithmetic for signed types); amounts at or beyond the bit width give
/// 0 or -1 by sign, negative amounts leave the value unchanged.
#[inline]
fn shr<E: IntElement>(value: E, amount: i64) -> E {
    let bits = (core::mem::size_of::<E>() * 8) as i64;
    match amount {
        a if a < 0 => value,
        a if a >= bits => {
            if value < E::zero() {
                !E::zero()
            } else {
                E::zero()
            }
        }
        a => value >> a as usize,
    }
}

/// Generates a bitwise tensor-tensor function and its scalar form.
macro_rules! int_binary {
    ($($name:ident, $scalar:ident, $doc:literal => |$a:ident, $b:ident| $body:expr;)*) => {$(
        #[doc = concat!($doc, " of two int tensors (broadcasting).")]
        pub fn $name(lhs: FlexTensor, rhs: FlexTensor) -> FlexTensor {
            with_int!(lhs.dtype(), stringify!($name), E => {
                zip_same(stringify!($name), lhs, rhs, |$a: E, $b: E| $body)
            })
        }

        #[doc = concat!($doc, " of an int tensor and a scalar.")]
        pub fn $scalar(lhs: FlexTensor, rhs: Scalar) -> FlexTensor {
            with_int!(lhs.dtype(), stringify!($scalar), E => {
                let $b: E = rhs.elem();
                map_same(lhs, move |$a: E| $body)
            })
        }
    )*};
}

int_binary! {
    bitwise_and, bitwise_and_scalar, "Bitwise and" => |a, b| a & b;
    bitwise_or, bitwise_or_scalar, "Bitwise or" => |a, b| a | b;
    bitwise_xor, bitwise_xor_scalar, "Bitwise exclusive or" => |a, b| a ^ b;
    bitwise_left_shift, bitwise_left_shift_scalar, "Left shift" => |a, b| shl(a, ToElement::to_i64(&b));
    bitwise_right_shift, bitwise_right_shift_scalar, "Right shift (arithmetic for signed types)" => |a, b| shr(a, ToElement::to_i64(&b));
}

/// Bitwise complement of an int tensor.
pub fn bitwise_not(tensor: FlexTensor) -> FlexTensor {
    with_int!(tensor.dtype(), "bitwise_not", E => map_same(tensor, |a: E| !a))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bitwise_ops() {
        let a = FlexTensor::from_vec(vec![0b1100i32, -8, 5], [3]);
        let b = FlexTensor::from_vec(vec![0b1010i32, 1, 40], [3]);
        assert_eq!(
            bitwise_and(a.clone(), b.clone()).to_vec::<i32>(),
            vec![0b1000, 0, 0]
        );
        assert_eq!(
            bitwise_or_scalar(a.clone(), Scalar::Int(1)).to_vec::<i32>(),
            vec![0b1101, -7, 5]
        );
        assert_eq!(
            bitwise_xor(a.clone(), b.clone()).to_vec::<i32>(),
            vec![0b0110, -7, 45]
        );
        assert_eq!(bitwise_not(a.clone()).to_vec::<i32>(), vec![!0b1100, 7, -6]);
        assert_eq!(
            bitwise_left_shift(a.clone(), b.clone()).to_vec::<i32>(),
            vec![0b1100 << 10, -16, 0]
        );
        assert_eq!(
            bitwise_right_shift(a.clone(), b).to_vec::<i32>(),
            vec![0, -4, 0]
        );
        let u = FlexTensor::from_vec(vec![0x80u8], [1]);
        assert_eq!(
            bitwise_right_shift_scalar(u, Scalar::Int(7)).to_vec::<u8>(),
            vec![1]
        );
    }
}
