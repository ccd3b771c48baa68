//! Launch geometry shared by the element-wise kernels: how many units, in which cube shape,
//! reading how many elements at once, with which address width.

use crate::CubeTensor;
use burn_backend::{DType, Shape};
use cubecl::client::Client;
use cubecl::ir::AddressType;
use cubecl::prelude::{CubeCount, CubeDim};
use cubecl::std::tensor::layout::linear::LinearViewLaunch;
use std::sync::atomic::{AtomicU64, Ordering};

/// Kernel launches made through this crate since the process started.
static LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// Counts one kernel launch, and on CubeCL's CPU runtime first waits for the launches queued
/// before it. Called right before every kernel launch of this crate (each `#[cube(launch)]`
/// kernel's `launch` and each call into a cubek launcher, which counts as one launch: kernels
/// cubek itself may add, such as a layout copy, are not seen).
///
/// Why the CPU runtime waits: CubeCL 0.11's CPU runtime runs one task per unit of a cube on a
/// pool of one worker per core, and a worker holding a task whose predecessors have not finished
/// spins on it without yielding. With launches queued ahead, the workers spin on those while the
/// thread issuing the launches waits for a core: the digits MLP trained 5× slower queued (1.43 s
/// per epoch on 2 cores) than with every launch awaited (0.28 s). Waiting here keeps every task
/// a worker receives ready to run, while the host still prepares the next launch during the
/// current one.
pub(crate) fn before_launch(client: &Client) {
    LAUNCHES.fetch_add(1, Ordering::Relaxed);
    if is_cpu_runtime(client) {
        // A failed launch reports itself on the buffers it did not write, when they are read;
        // the flush has nothing of its own to report.
        let _ = client.flush();
    }
}

/// Whether `client` is CubeCL's CPU runtime (the name cubecl-cpu gives its clients), for the
/// decisions only a client is at hand for; with a device, ask `device.runtime()`.
pub(crate) fn is_cpu_runtime(client: &Client) -> bool {
    client.name() == "cpu"
}

/// The number of kernel launches this process has made through burn-cubecl, on every device
/// and thread (see `before_launch` for what counts). Meant for benchmarks and tests that show
/// how many kernels a computation takes: read it before and after, and take the difference
/// (other threads launching at the same time are counted too).
pub fn launch_count() -> u64 {
    LAUNCHES.load(Ordering::Relaxed)
}

/// The cube count and cube dim for `units` independent work items.
pub(crate) fn elementwise_geometry(client: &Client, units: usize) -> (CubeCount, CubeDim) {
    let dim = CubeDim::new(client, units);
    let count = cubecl::calculate_cube_count_elemwise(client, units, dim);
    (count, dim)
}

/// The widest vector width every operand can be read with when the output of `out_shape` is
/// walked in row-major order, `elem_size` being the largest element size involved.
///
/// An operand allows width `v` when its last dimension is not broadcast, is contiguous
/// (stride 1) and divisible by `v`, and every other stride it steps along is a multiple of `v`
/// (so a vector never straddles a row). Width 1 always works.
pub(crate) fn vector_size(
    client: &Client,
    out_shape: &Shape,
    operands: &[&CubeTensor],
    elem_size: usize,
) -> usize {
    let rank = out_shape.num_dims();
    if rank == 0 {
        return 1;
    }
    let last = out_shape.dims[rank - 1];
    let allows = |v: usize| {
        last.is_multiple_of(v)
            && operands.iter().all(|t| {
                let shape = &t.shape.dims;
                let strides = &t.strides;
                shape[rank - 1] == last
                    && (last == 1 || strides[rank - 1] == 1)
                    && (0..rank - 1).all(|d| shape[d] == 1 || strides[d].is_multiple_of(v))
            })
    };
    client
        .io_optimized_vector_sizes(elem_size)
        .filter(|&v| v > 1)
        .find(|&v| allows(v))
        .unwrap_or(1)
}

/// The address width needed to index every buffer of `tensors` (32-bit unless one is larger).
pub(crate) fn address_type(tensors: &[&CubeTensor]) -> AddressType {
    let len = tensors
        .iter()
        .map(|t| t.handle.size() as usize / t.dtype.size().max(1))
        .max()
        .unwrap_or(0);
    AddressType::from_len(len)
}

/// Panics, naming `op`, unless every tensor lives on the first one's device.
pub(crate) fn assert_same_device(op: &str, tensors: &[&CubeTensor]) {
    if let Some((first, rest)) = tensors.split_first() {
        for other in rest {
            assert!(
                first.device == other.device,
                "{op}: tensors are on different devices ({:?} and {:?})",
                first.device,
                other.device
            );
        }
    }
}

/// Where an element-wise operation writes and how it is launched.
pub(crate) struct ElementwisePlan {
    /// The output: one of the operands (written in place) or a new tensor.
    pub output: CubeTensor,
    /// The view the kernel writes through: an alias of the reused operand, or the new tensor.
    pub out_view: LinearViewLaunch,
    /// The vector width every operand and the output can be read and written with.
    pub vector: usize,
    /// The address width the buffers need.
    pub addresses: AddressType,
    /// The number of cubes.
    pub cube_count: CubeCount,
    /// The shape of one cube.
    pub cube_dim: CubeDim,
}

/// Plans an element-wise launch producing `dtype` over `out_shape` (at least one element) from
/// `operands` (of that rank, launched as kernel inputs in this order): the result goes into the
/// first operand whose buffer is unique, non-overlapping, of `out_shape` and of `dtype`, else
/// into a new tensor.
pub(crate) fn plan_elementwise(
    operands: &[&CubeTensor],
    out_shape: &Shape,
    dtype: DType,
) -> ElementwisePlan {
    let first = operands[0];
    let client = first.client.clone();
    let reused = operands
        .iter()
        .position(|t| t.dtype == dtype && t.can_reuse_for(out_shape));
    let output = match reused {
        Some(position) => operands[position].clone(),
        None => first.empty_like(out_shape.clone(), dtype),
    };
    let mut all: Vec<&CubeTensor> = operands.to_vec();
    all.push(&output);
    let elem_size = all.iter().map(|t| t.dtype.size()).max().unwrap_or(1);
    let vector = vector_size(&client, out_shape, &all, elem_size);
    let addresses = address_type(&all);
    let (cube_count, cube_dim) = elementwise_geometry(&client, out_shape.num_elements() / vector);
    let out_view = match reused {
        Some(position) => output.as_linear_view_alias(position),
        None => output.clone().into_linear_view(),
    };
    ElementwisePlan {
        output,
        out_view,
        vector,
        addresses,
        cube_count,
        cube_dim,
    }
}
