//! Scalars passed to kernels, converted to the tensor's dtype on the host.

use crate::dtype::elem_type;
use burn_backend::{DType, Scalar, bf16, f16};
use cubecl::prelude::InputScalar;

/// `value` converted to `dtype` with Rust `as` semantics (floats to ints truncate and
/// saturate, `true` is 1), as a kernel argument of that dtype.
pub(crate) fn scalar_arg(value: Scalar, dtype: DType) -> InputScalar {
    let elem = elem_type(dtype);
    match dtype {
        DType::F64 => InputScalar::new(value.elem::<f64>(), elem),
        DType::F32 => InputScalar::new(value.elem::<f32>(), elem),
        DType::F16 => InputScalar::new(value.elem::<f16>(), elem),
        DType::BF16 => InputScalar::new(value.elem::<bf16>(), elem),
        DType::I64 => InputScalar::new(value.elem::<i64>(), elem),
        DType::I32 => InputScalar::new(value.elem::<i32>(), elem),
        DType::I16 => InputScalar::new(value.elem::<i16>(), elem),
        DType::I8 => InputScalar::new(value.elem::<i8>(), elem),
        DType::U64 => InputScalar::new(value.elem::<u64>(), elem),
        DType::U32 => InputScalar::new(value.elem::<u32>(), elem),
        DType::U16 => InputScalar::new(value.elem::<u16>(), elem),
        DType::U8 => InputScalar::new(value.elem::<u8>(), elem),
        DType::Bool(_) => InputScalar::new(u8::from(value.to_bool()), elem),
        DType::QFloat(_) => panic!("burn-cubecl: quantized tensors are not supported yet"),
    }
}
