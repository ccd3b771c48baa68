//! `CubeBackend`: the backend contract over [`CubeTensor`]. Float, int and bool primitives are
//! all `CubeTensor`s (booleans stored as `Bool(U8)` or `Bool(U32)`, see [`crate::dtype`]); each
//! ops trait lives in its own file and forwards to [`crate::kernel`].
//!
//! One backend type serves every runtime: the [`CubeDevice`] of each tensor says whether its
//! kernels run on WGPU, CUDA, ROCm or the CPU runtime.

/// Writes trait methods that hand their arguments unchanged to an expression (the common case;
/// methods that adapt their arguments are written out).
macro_rules! delegate {
    ($(fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty => $body:expr;)*) => {$(
        fn $name($($arg: $ty),*) -> $ret {
            $body
        }
    )*};
}

mod bool;
mod float;
mod graph;
mod int;
mod module;
mod random;

pub use graph::CubeGraph;

use crate::dtype::{bool_store, device_dtype_usage};
use crate::{CubeDevice, CubeTensor, kernel};
use burn_backend::ops::{ActivationOps, QTensorOps, TransactionOps};
use burn_backend::quantization::ComposedQTensor;
use burn_backend::{
    Backend, BackendTypes, DType, DTypeUsage, DeviceSettings, ExecutionError, FloatDType, IntDType,
    TensorMetadata, get_device_settings, read_sync,
};

/// The CubeCL backend: one type for every CubeCL runtime, the device picks which.
#[derive(Clone, Copy, Debug, Default)]
pub struct CubeBackend;

impl BackendTypes for CubeBackend {
    type Device = CubeDevice;
    type FloatTensorPrimitive = CubeTensor;
    type IntTensorPrimitive = CubeTensor;
    type BoolTensorPrimitive = CubeTensor;
    type QuantizedTensorPrimitive = ComposedQTensor<CubeBackend>;
    type GraphPrimitive = CubeGraph;
}

impl Backend for CubeBackend {
    fn name(device: &CubeDevice) -> String {
        let runtime = match device.runtime() {
            crate::RuntimeId::Wgpu => "wgpu",
            crate::RuntimeId::Cuda => "cuda",
            crate::RuntimeId::Hip => "rocm",
            crate::RuntimeId::Metal => "metal",
            crate::RuntimeId::Cpu => "cpu",
        };
        format!("cube<{runtime}>")
    }

    fn seed(_device: &CubeDevice, seed: u64) {
        random::seed(seed);
    }

    fn sync(device: &CubeDevice) -> Result<(), ExecutionError> {
        read_sync(device.client().sync()).map_err(crate::execution_error)?;
        read_sync(kernel::report_index_errors(device.clone()))
    }

    fn flush(device: &CubeDevice) {
        // A flush failure is an execution error that the next sync or read reports.
        let _ = device.client().flush();
    }

    fn dtype_usage(device: &CubeDevice, dtype: DType) -> DTypeUsage {
        device_dtype_usage(device, dtype)
    }

    /// `f32`; `i64` where the device computes with it, else `i32`; booleans in the device's
    /// store (`Bool(U8)`, or `Bool(U32)` where there are no byte buffers).
    fn default_settings(device: &CubeDevice) -> DeviceSettings {
        let client = device.client();
        let int = if device_dtype_usage(device, DType::I64).arithmetic {
            IntDType::I64
        } else {
            IntDType::I32
        };
        DeviceSettings::new(FloatDType::F32, int, bool_store(&client))
    }

    fn memory_cleanup(device: &CubeDevice) {
        // Nothing is lost when the cleanup cannot run; the memory stays cached.
        let _ = device.client().memory_cleanup();
    }

    fn graph_prepare(device: &CubeDevice) -> Result<(), ExecutionError> {
        Self::prepare_graph(device)
    }

    fn graph_start_capture(device: &CubeDevice) -> Result<(), ExecutionError> {
        Self::start_graph(device)
    }

    fn graph_stop_capture(device: &CubeDevice) -> Result<CubeGraph, ExecutionError> {
        Self::stop_graph(device)
    }

    unsafe fn graph_replay(device: &CubeDevice, graph: &CubeGraph) -> Result<(), ExecutionError> {
        // SAFETY: the caller's obligations, forwarded.
        unsafe { Self::replay_graph(device, graph) }
    }
}

/// Quantized tensors are integer values and `f32` scales composed from the backend's own
/// kernels.
impl QTensorOps<CubeBackend> for CubeBackend {
    burn_backend::composed_qtensor_ops!(Self);
}

impl TransactionOps<CubeBackend> for CubeBackend {}

impl ActivationOps<CubeBackend> for CubeBackend {
    fn relu(tensor: CubeTensor) -> CubeTensor {
        kernel::unary(kernel::UnaryOp::Relu, tensor)
    }
    fn sigmoid(tensor: CubeTensor) -> CubeTensor {
        kernel::unary(kernel::UnaryOp::Sigmoid, tensor)
    }
}

/// The settings in force on `device`.
fn settings_of(device: &CubeDevice) -> DeviceSettings {
    get_device_settings::<CubeBackend>(device)
}

/// The settings in force on the tensor's device.
fn settings(tensor: &CubeTensor) -> DeviceSettings {
    settings_of(tensor.device())
}

/// The device's default int dtype (for indices).
fn int_dtype(tensor: &CubeTensor) -> DType {
    settings(tensor).int_dtype.into()
}

/// The device's bool dtype (for comparison results).
fn bool_dtype(tensor: &CubeTensor) -> DType {
    settings(tensor).bool_dtype
}

/// Both float operands in the wider of their dtypes (no conversion when they agree).
fn promote(lhs: CubeTensor, rhs: CubeTensor) -> (CubeTensor, CubeTensor) {
    let (a, b) = (lhs.dtype(), rhs.dtype());
    if a == b || !a.is_float() || !b.is_float() {
        return (lhs, rhs);
    }
    let wide: DType = FloatDType::from_dtype(a)
        .widest(FloatDType::from_dtype(b))
        .into();
    (kernel::cast(lhs, wide), kernel::cast(rhs, wide))
}

/// Unwraps a kernel result whose failure is an unsupported device or problem, panicking with
/// the operation's name (the backend contract's operations are infallible).
fn expect<T>(op: &str, result: Result<T, ExecutionError>) -> T {
    result.unwrap_or_else(|err| panic!("{op}: {err}"))
}

/// `tensor` moved to `device`: itself when already there, else through the host.
fn to_device(tensor: CubeTensor, device: &CubeDevice) -> CubeTensor {
    if tensor.device() == device {
        return tensor;
    }
    let data = expect("to_device", tensor.into_data_sync());
    CubeTensor::from_data(data, device)
}
