//! `+ - * / % -x` on tensors, with tensors or scalars on either side; `! & | ^` on bool tensors.

use crate::kind::Numeric;
use crate::{Bool, Float, Tensor};
use burn_backend::Element;
use core::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Not, Rem, Sub};

/// Generates `tensor op tensor` and `tensor op scalar`. The scalar impl is generic over
/// [`Element`] so that its output type is known before a literal's type is (`x + 1.0`).
macro_rules! binary_operator {
    ($trait:ident, $method:ident, $tensor_fn:ident, $scalar_fn:ident) => {
        impl<const D: usize, K: Numeric> $trait<Tensor<D, K>> for Tensor<D, K> {
            type Output = Tensor<D, K>;
            fn $method(self, rhs: Tensor<D, K>) -> Self::Output {
                self.$tensor_fn(rhs)
            }
        }
        impl<const D: usize, K: Numeric, E: Element> $trait<E> for Tensor<D, K> {
            type Output = Tensor<D, K>;
            fn $method(self, rhs: E) -> Self::Output {
                self.$scalar_fn(rhs.to_scalar())
            }
        }
    };
}

binary_operator!(Add, add, add, add_scalar);
binary_operator!(Sub, sub, sub, sub_scalar);
binary_operator!(Mul, mul, mul, mul_scalar);
binary_operator!(Div, div, div, div_scalar);
binary_operator!(Rem, rem, remainder, remainder_scalar);

/// Generates `scalar op tensor`.
macro_rules! scalar_lhs {
    ($($scalar:ty),*) => {$(
        impl<const D: usize, K: Numeric> Add<Tensor<D, K>> for $scalar {
            type Output = Tensor<D, K>;
            fn add(self, rhs: Tensor<D, K>) -> Self::Output {
                rhs.add_scalar(self)
            }
        }
        impl<const D: usize, K: Numeric> Sub<Tensor<D, K>> for $scalar {
            type Output = Tensor<D, K>;
            fn sub(self, rhs: Tensor<D, K>) -> Self::Output {
                rhs.neg().add_scalar(self)
            }
        }
        impl<const D: usize, K: Numeric> Mul<Tensor<D, K>> for $scalar {
            type Output = Tensor<D, K>;
            fn mul(self, rhs: Tensor<D, K>) -> Self::Output {
                rhs.mul_scalar(self)
            }
        }
        impl<const D: usize> Div<Tensor<D, Float>> for $scalar {
            type Output = Tensor<D, Float>;
            fn div(self, rhs: Tensor<D, Float>) -> Self::Output {
                rhs.recip().mul_scalar(self)
            }
        }
    )*};
}

scalar_lhs!(f64, f32, i64, i32);

impl<const D: usize, K: Numeric> Neg for Tensor<D, K> {
    type Output = Tensor<D, K>;
    fn neg(self) -> Self::Output {
        Tensor::neg(self)
    }
}

impl<const D: usize> Not for Tensor<D, Bool> {
    type Output = Tensor<D, Bool>;
    fn not(self) -> Self::Output {
        self.bool_not()
    }
}

/// Generates the logical operators of bool tensors from their methods.
macro_rules! bool_operator {
    ($($trait:ident, $method:ident => $tensor_fn:ident;)*) => {$(
        impl<const D: usize> $trait for Tensor<D, Bool> {
            type Output = Tensor<D, Bool>;
            fn $method(self, rhs: Self) -> Self::Output {
                self.$tensor_fn(rhs)
            }
        }
    )*};
}

bool_operator! {
    BitAnd, bitand => bool_and;
    BitOr, bitor => bool_or;
    BitXor, bitxor => bool_xor;
}
