//! Deferred index validation, as CUDA's device-side asserts do it: an operation that takes
//! indices (gather, select, scatter, select_add) launches a small kernel that raises a flag
//! when an index lies outside its dim, and returns at once. The flags are read at the next
//! synchronisation point of the thread that launched the operation on that device (any read
//! back, or `sync`), which then fails with an [`ExecutionError`] naming the operation. No host
//! round trip is added to the operation. Keeping the checks per thread means work on other
//! threads (another model, another test) never sees an error it did not cause.
//!
//! The kernels themselves never touch memory outside a tensor: an out-of-range index reads 0
//! or is skipped; this check is what turns that into an error instead of a wrong number.

use super::scalar::scalar_arg;
use crate::dtype::elem_type;
use crate::launch::{address_type, elementwise_geometry};
use crate::{CubeDevice, CubeTensor, execution_error};
use burn_backend::{DType, ExecutionError, Scalar};
use cubecl::client::Client;
use cubecl::prelude::*;
use cubecl::server::Handle;
use cubecl::std::tensor::layout::linear::LinearView;
use std::sync::Mutex;
use std::thread::ThreadId;

#[cube(launch, address_type = "dynamic")]
fn bounds_kernel<I: Numeric, N: Size>(
    indices: LinearView<'_, Vector<I, N>>,
    flag: &mut [u32],
    size: InputScalar,
    #[define(I)] _dtype: ElemType,
) {
    if !indices.is_in_bounds(ABSOLUTE_POS) {
        terminate!();
    }
    // Launched with vectors of one element.
    let index = indices.read(ABSOLUTE_POS).extract(0usize);
    if index < I::from_int(0) || index >= size.get::<I>() {
        // Every offending unit writes the same value: the race is harmless.
        flag[0] = 1;
    }
}

/// A raised-or-not flag and the error it stands for.
struct Pending {
    device: CubeDevice,
    thread: ThreadId,
    client: Client,
    flag: Handle,
    message: String,
}

static PENDING: Mutex<Vec<Pending>> = Mutex::new(Vec::new());

/// The largest value an integer dtype holds, as `u64`.
fn int_max(dtype: DType) -> u64 {
    match dtype {
        DType::I8 => i8::MAX as u64,
        DType::I16 => i16::MAX as u64,
        DType::I32 => i32::MAX as u64,
        DType::I64 => i64::MAX as u64,
        DType::U8 => u8::MAX as u64,
        DType::U16 => u16::MAX as u64,
        DType::U32 => u32::MAX as u64,
        _ => u64::MAX,
    }
}

/// Queues the check that every value of `indices` lies in `0..size` (`size` being dim `dim` of
/// the indexed tensor); a failure is reported, naming `op`, at the next read or sync.
pub(crate) fn validate(op: &str, indices: &CubeTensor, size: usize, dim: usize) {
    let count = indices.num_elements();
    let signed = !matches!(
        indices.dtype,
        DType::U8 | DType::U16 | DType::U32 | DType::U64
    );
    if count == 0 || (!signed && size as u64 > int_max(indices.dtype)) {
        // No index, or none can be out of range.
        return;
    }
    let client = indices.client().clone();
    let flag = client.create_from_slice(bytemuck::bytes_of(&0u32));
    let size_arg = if size as u64 > int_max(indices.dtype) {
        // Only negative values can be wrong: compare with the dtype's maximum, which no value
        // exceeds, so the upper test never fires.
        scalar_arg(Scalar::Int(i64::MAX), indices.dtype)
    } else {
        scalar_arg(Scalar::Int(size as i64), indices.dtype)
    };
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    // SAFETY: the flag buffer belongs to `client` and holds one u32.
    let flag_arg = unsafe { BufferArg::from_raw_parts(flag.clone(), 1) };
    crate::launch::before_launch(&client);
    bounds_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[indices]),
        1,
        indices.clone().into_linear_view(),
        flag_arg,
        size_arg,
        elem_type(indices.dtype),
    );
    let message = format!(
        "{op}: an index is out of range for dim {dim} of size {size} (indices must lie in \
         0..{size})"
    );
    PENDING
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(Pending {
            device: indices.device().clone(),
            thread: std::thread::current().id(),
            client,
            flag,
            message,
        });
}

/// The checks the calling thread queued on `device`, taken out of the queue.
fn take(device: &CubeDevice) -> Vec<Pending> {
    let thread = std::thread::current().id();
    let mut pending = PENDING.lock().unwrap_or_else(|e| e.into_inner());
    let (mine, rest): (Vec<_>, Vec<_>) = pending
        .drain(..)
        .partition(|p| &p.device == device && p.thread == thread);
    *pending = rest;
    mine
}

/// Reads the flags of the checks the calling thread queued on `device` (after the work before
/// them has run) and fails with the first raised one's error. The checks are taken when the
/// future is created, so the thread that calls this is the one whose checks are reported.
pub(crate) fn report(device: CubeDevice) -> impl Future<Output = Result<(), ExecutionError>> {
    let checks = take(&device);
    async move { read_flags(checks).await }
}

async fn read_flags(checks: Vec<Pending>) -> Result<(), ExecutionError> {
    for pending in checks {
        let bytes = pending
            .client
            .read_async(vec![pending.flag])
            .await
            .map_err(execution_error)?;
        if bytes
            .first()
            .is_some_and(|b| b.iter().any(|&byte| byte != 0))
        {
            return Err(ExecutionError::generic(pending.message));
        }
    }
    Ok(())
}
