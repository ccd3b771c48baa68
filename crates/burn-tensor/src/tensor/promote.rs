//! Aligning the dtypes of two operands.

use super::check;
use burn_backend::ops::FloatTensorOps;
use burn_backend::{DType, FloatDType, TensorMetadata};
use burn_dispatch::{Dispatch, DispatchTensor};

/// Returns both operands with one dtype: floats promote to the wider float type (as PyTorch
/// does); ints and bools must already match.
pub(crate) fn align_dtypes(
    op: &str,
    lhs: DispatchTensor,
    rhs: DispatchTensor,
) -> (DispatchTensor, DispatchTensor) {
    let (a, b) = (lhs.dtype(), rhs.dtype());
    if a == b {
        return (lhs, rhs);
    }
    // A quantized operand goes with any float one: the backend dequantizes it as needed.
    let quantized = |d: DType| matches!(d, DType::QFloat(_));
    if (quantized(a) && (b.is_float() || quantized(b))) || (quantized(b) && a.is_float()) {
        return (lhs, rhs);
    }
    match (FloatDType::try_from_dtype(a), FloatDType::try_from_dtype(b)) {
        (Some(fa), Some(fb)) => {
            let wide = fa.widest(fb);
            let cast = |t: DispatchTensor, from: FloatDType| {
                if from == wide {
                    t
                } else {
                    Dispatch::float_cast(t, wide)
                }
            };
            (cast(lhs, fa), cast(rhs, fb))
        }
        _ => {
            check::same_dtype(op, a, b);
            unreachable!("same_dtype panics when the dtypes differ")
        }
    }
}
