//! Boolean logic on bool tensors.
//!
//! Bool tensors are stored as unsigned integers holding 0 or 1 (`Bool(U8)` as `u8`,
//! `Bool(U32)` as `u32`), so `and`, `or` and `not` are the bitwise `&`, `|` and `^ 1` of those
//! integers: each operation relabels its operands as the store's integer dtype, runs the
//! integer kernel of [`super::bitwise`] (broadcasting, strides, in-place reuse included) and
//! relabels the result as the bool dtype. 0/1 inputs give 0/1 outputs.

use super::bitwise::{BitwiseOp, bitwise_named, bitwise_scalar_named};
use crate::CubeTensor;
use crate::launch::assert_same_device;
use burn_backend::{BoolStore, DType, Scalar};

/// The integer dtype a bool tensor is stored as, panicking with `op` for other dtypes.
fn store_dtype(op: &str, dtype: DType) -> DType {
    match dtype {
        DType::Bool(BoolStore::U8 | BoolStore::Native) => DType::U8,
        DType::Bool(BoolStore::U32) => DType::U32,
        other => panic!("{op}: expected a bool tensor, got {other}"),
    }
}

/// The tensor relabelled with the integer dtype of its bool store (no data moves).
fn as_store(op: &str, mut tensor: CubeTensor) -> CubeTensor {
    tensor.dtype = store_dtype(op, tensor.dtype);
    tensor
}

/// `op` on two bool tensors of the same store, via the integer kernel.
fn logic_binary(name: &str, op: BitwiseOp, lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    let dtype = lhs.dtype;
    store_dtype(name, dtype);
    store_dtype(name, rhs.dtype);
    assert_eq!(
        dtype, rhs.dtype,
        "{name}: operands have different bool stores ({:?} and {:?})",
        dtype, rhs.dtype
    );
    assert_same_device(name, &[&lhs, &rhs]);
    let mut out = bitwise_named(name, op, as_store(name, lhs), as_store(name, rhs));
    out.dtype = dtype;
    out
}

/// Logical and of two bool tensors of one store, broadcast (NumPy rules) and read through their
/// strides.
///
/// # Panics
///
/// On non-bool or mixed dtypes, different devices, or shapes that do not broadcast.
pub fn bool_and(lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    logic_binary("bool_and", BitwiseOp::And, lhs, rhs)
}

/// Logical or of two bool tensors of one store, broadcast and read through their strides.
///
/// # Panics
///
/// On non-bool or mixed dtypes, different devices, or shapes that do not broadcast.
pub fn bool_or(lhs: CubeTensor, rhs: CubeTensor) -> CubeTensor {
    logic_binary("bool_or", BitwiseOp::Or, lhs, rhs)
}

/// Logical negation of a bool tensor.
///
/// # Panics
///
/// On a non-bool dtype.
pub fn bool_not(tensor: CubeTensor) -> CubeTensor {
    let dtype = tensor.dtype;
    let mut out = bitwise_scalar_named(
        "bool_not",
        BitwiseOp::Xor,
        as_store("bool_not", tensor),
        Scalar::Int(1),
    );
    out.dtype = dtype;
    out
}
