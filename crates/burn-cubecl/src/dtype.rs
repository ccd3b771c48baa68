//! Data types: the mapping from our `DType` to CubeCL's `ElemType`, and what a device supports.

use crate::CubeDevice;
use burn_backend::{BoolStore, DType, DTypeUsage};
use cubecl::client::Client;
use cubecl::features::TypeUsage;
use cubecl::ir::{ElemType, FloatKind, IntKind, UIntKind};

/// The CubeCL element type that stores `dtype` in device buffers.
///
/// Booleans are stored as integers (`Bool(U8)` as `u8`, `Bool(U32)` as `u32`, holding 0 or 1):
/// no CubeCL runtime can keep native `bool` in a buffer, so `Bool(Native)` maps to `u8`, whose
/// bytes it shares.
///
/// # Panics
///
/// For quantized dtypes, which this backend does not support yet.
pub fn elem_type(dtype: DType) -> ElemType {
    match dtype {
        DType::F64 => ElemType::Float(FloatKind::F64),
        DType::F32 => ElemType::Float(FloatKind::F32),
        DType::F16 => ElemType::Float(FloatKind::F16),
        DType::BF16 => ElemType::Float(FloatKind::BF16),
        DType::I64 => ElemType::Int(IntKind::I64),
        DType::I32 => ElemType::Int(IntKind::I32),
        DType::I16 => ElemType::Int(IntKind::I16),
        DType::I8 => ElemType::Int(IntKind::I8),
        DType::U64 => ElemType::UInt(UIntKind::U64),
        DType::U32 => ElemType::UInt(UIntKind::U32),
        DType::U16 => ElemType::UInt(UIntKind::U16),
        DType::U8 | DType::Bool(BoolStore::U8) | DType::Bool(BoolStore::Native) => {
            ElemType::UInt(UIntKind::U8)
        }
        DType::Bool(BoolStore::U32) => ElemType::UInt(UIntKind::U32),
        DType::QFloat(_) => panic!("burn-cubecl: quantized tensors are not supported yet"),
    }
}

/// What `client`'s device can do with `dtype`, as the runtime registered it: storage needs
/// buffer and conversion support, arithmetic needs arithmetic support, and `accelerated` means a
/// matrix-multiply instruction (CMMA/MMA) takes the type.
///
/// `Bool(Native)` is never supported (tensors of it are stored as `Bool(U8)` or `Bool(U32)`, see
/// [`bool_store`]); quantized dtypes of a supported scheme are held as integer values and `f32`
/// scales, so they go where `f32` goes.
pub fn dtype_usage(client: &Client, dtype: DType) -> DTypeUsage {
    if let DType::QFloat(scheme) = dtype {
        // Composed from int (`i8`, else `i32`) values and `f32` scales.
        return if scheme.is_supported() {
            dtype_usage(client, DType::F32)
        } else {
            DTypeUsage::none()
        };
    }
    if matches!(dtype, DType::Bool(BoolStore::Native)) {
        return DTypeUsage::none();
    }
    if dtype == DType::BF16 && crate::launch::is_cpu_runtime(client) {
        // CubeCL 0.11.3's CPU runtime registers bf16, but its kernels give wrong values for it
        // (every f32 -> bf16 cast and every bf16 sum of the conformance suite): unsupported
        // here, so that bf16 is refused with a clear message instead of computed wrongly.
        return DTypeUsage::none();
    }
    let elem = elem_type(dtype);
    let usage = client.properties().type_usage(elem);
    let matmul = &client.properties().features.matmul;
    let accelerated = matmul
        .cmma
        .iter()
        .chain(matmul.mma.iter())
        .any(|c| c.a_type == elem || c.b_type == elem);
    let storage = usage.contains(TypeUsage::Buffer) && usage.contains(TypeUsage::Conversion);
    DTypeUsage {
        storage,
        arithmetic: storage && usage.contains(TypeUsage::Arithmetic),
        accelerated: storage && accelerated,
    }
}

/// [`dtype_usage`] for a device (creates its client if needed).
pub fn device_dtype_usage(device: &CubeDevice, dtype: DType) -> DTypeUsage {
    dtype_usage(&device.client(), dtype)
}

/// How booleans are stored on `client`'s device: one byte per value where the device has `u8`
/// buffers (Vulkan/SPIR-V, CUDA, ROCm, CPU), else one `u32` (WGSL has no 8-bit buffers).
pub fn bool_store(client: &Client) -> BoolStore {
    if dtype_usage(client, DType::U8).arithmetic {
        BoolStore::U8
    } else {
        BoolStore::U32
    }
}

/// The dtype boolean results take on `client`'s device: `Bool` with [`bool_store`].
pub fn bool_dtype(client: &Client) -> DType {
    DType::Bool(bool_store(client))
}

/// Panics, naming `op`, unless `client`'s device can store and compute with `dtype`.
pub(crate) fn assert_arithmetic(op: &str, client: &Client, dtype: DType) {
    assert!(
        dtype_usage(client, dtype).arithmetic,
        "{op}: dtype {dtype} is not supported by this device ({})",
        client.name()
    );
}

/// Panics, naming `op`, unless `client`'s device can store `dtype`.
pub(crate) fn assert_storage(op: &str, client: &Client, dtype: DType) {
    assert!(
        dtype_usage(client, dtype).storage,
        "{op}: dtype {dtype} cannot be stored on this device ({})",
        client.name()
    );
}
