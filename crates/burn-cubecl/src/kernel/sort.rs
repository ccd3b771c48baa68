//! Sorting along one dimension: values, the indices that sort them, or both.
//!
//! Every line along the sorted dim (a *row*) is padded to `m`, the next power of two, and its
//! `(value, original index)` pairs go through a bitonic sorting network:
//!
//! 1. `init` gathers the rows, read through the input's strides, into two work buffers
//!    (`[rows · m]` values and `u32` indices; padding slots get indices `n..m`).
//! 2. Compare-exchange stages `(k, j)` for `k = 2, 4, …, m` and `j = k/2, …, 1`. The stages
//!    with `j` below [`CHUNK`] stay within a chunk of `CHUNK` consecutive slots and run in
//!    one launch, each unit ordering one chunk by itself (`chunk`); larger `j` take one
//!    launch per [`MAX_FUSED`] stages, each unit exchanging a group of slots in registers
//!    (`merge`). Rows up to `CHUNK` long are sorted by a single `chunk` launch.
//! 3. `finish` writes the sorted values and/or indices, cast to the index dtype, into new
//!    contiguous tensors of the input's shape.
//!
//! The order is total: by value (NaN the largest, as on the CPU backend; `-0.0 == 0.0`), then
//! by original index, padding after everything. So the network, although not stable by itself,
//! yields exactly the stable order: ascending puts NaN last, descending puts NaN first and
//! still keeps equal values in their original order. Values are copied, never converted.

mod network;

use super::index::{buffer, divisors, sequence};
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, assert_storage, elem_type};
use crate::launch::{address_type, elementwise_geometry};
use burn_backend::{DType, Scalar, Shape};
use network::{chunk_kernel, finish_kernel, init_kernel, merge_kernel};

/// The slots one unit sorts by itself before the stages that span several units: rows up to
/// this long (padded) take a single launch.
const CHUNK: usize = 32;
/// The most stages one launch of the merge kernel applies (each unit then holds `2^MAX_FUSED`
/// slots in registers): every launch reads and writes every slot once.
const MAX_FUSED: usize = 3;

/// What a sort produces.
#[derive(Clone, Copy)]
struct Wanted {
    values: bool,
    /// The dtype of the indices, when they are wanted.
    indices: Option<DType>,
}

/// Sorts `tensor` along `dim`, producing what `wanted` says (see the module docs).
fn sort_impl(
    op: &str,
    tensor: CubeTensor,
    dim: usize,
    descending: bool,
    wanted: Wanted,
) -> (Option<CubeTensor>, Option<CubeTensor>) {
    let shape = tensor.shape.clone();
    let rank = shape.num_dims();
    assert!(
        dim < rank,
        "{op}: dim {dim} out of range for a tensor of rank {rank} (shape {:?})",
        shape.dims
    );
    let dtype = tensor.dtype;
    assert_arithmetic(op, &tensor.client, dtype);
    if let Some(index_dtype) = wanted.indices {
        assert!(
            index_dtype.is_int(),
            "{op}: the index dtype must be an integer dtype, got {index_dtype}"
        );
        assert_storage(op, &tensor.client, index_dtype);
    }
    let n = shape.dims[dim];
    let m = n.next_power_of_two();
    assert!(
        m <= 1 << 31,
        "{op}: dim {dim} of shape {:?} is too long to sort (at most 2^31 elements)",
        shape.dims
    );
    let new_values = || tensor.empty_contiguous_like(shape.clone(), dtype);
    let new_indices = |d: DType| tensor.empty_contiguous_like(shape.clone(), d);
    let count = shape.num_elements();
    if count == 0 || n == 1 {
        // Nothing to order: the values as they are, every index 0.
        let values = wanted.values.then(|| {
            if count == 0 {
                new_values()
            } else {
                tensor.clone().into_contiguous()
            }
        });
        let indices = wanted.indices.map(|d| {
            let zeros = new_indices(d);
            if count == 0 {
                zeros
            } else {
                super::fill::fill(zeros, Scalar::Int(0))
            }
        });
        return (values, indices);
    }

    let client = tensor.client.clone();
    let rows = count / n;
    let slots = rows * m;
    let log_m = m.trailing_zeros() as usize;
    let keys = tensor.empty_contiguous_like(Shape::new([slots]), dtype);
    let order = tensor.empty_contiguous_like(Shape::new([slots]), DType::U32);
    let others: Vec<usize> = (0..rank).filter(|&d| d != dim).collect();
    let sizes: Vec<usize> = others.iter().map(|&d| shape.dims[d]).collect();
    let in_strides: Vec<usize> = others.iter().map(|&d| tensor.strides[d]).collect();
    let element = elem_type(dtype);

    let (cube_count, cube_dim) = elementwise_geometry(&client, slots);
    crate::launch::before_launch(&client);
    init_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&tensor, &keys, &order]),
        buffer(&tensor),
        buffer(&keys),
        buffer(&order),
        divisors(&sizes),
        sequence(&in_strides),
        tensor.strides[dim],
        n,
        log_m,
        slots,
        element,
    );

    let work = address_type(&[&keys, &order]);
    let chunk = m.min(CHUNK);
    let row_mask = m - 1;
    let sort_chunks = |k_first: usize, k_last: usize| {
        let chunks = slots / chunk;
        let (cube_count, cube_dim) = elementwise_geometry(&client, chunks);
        crate::launch::before_launch(&client);
        chunk_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            work,
            buffer(&keys),
            buffer(&order),
            chunks,
            chunk,
            n as u32,
            row_mask,
            k_first,
            k_last,
            descending,
            element,
        );
    };
    sort_chunks(2, chunk);
    let mut k = 2 * chunk;
    while k <= m {
        // Stages `(k, j)` for `j = k/2 … chunk`, up to `MAX_FUSED` per launch.
        let mut j = k / 2;
        while j >= chunk {
            let stages = ((j / chunk).trailing_zeros() as usize + 1).min(MAX_FUSED);
            let groups = slots >> stages;
            let (cube_count, cube_dim) = elementwise_geometry(&client, groups);
            crate::launch::before_launch(&client);
            merge_kernel::launch(
                &client,
                cube_count,
                cube_dim,
                work,
                buffer(&keys),
                buffer(&order),
                groups,
                n as u32,
                row_mask,
                k,
                j >> (stages - 1),
                stages,
                descending,
                element,
            );
            j >>= stages;
        }
        sort_chunks(k, k);
        k *= 2;
    }

    let values = wanted.values.then(new_values);
    let indices = wanted.indices.map(new_indices);
    // An output that is not wanted is replaced by a one-element placeholder the kernel never
    // writes (comptime flags), so that no buffer is bound twice.
    let placeholder = |d: DType| tensor.empty_contiguous_like(Shape::new([1]), d);
    let values_arg = values.clone().unwrap_or_else(|| placeholder(dtype));
    let index_dtype = wanted.indices.unwrap_or(DType::U32);
    let indices_arg = indices.clone().unwrap_or_else(|| placeholder(index_dtype));
    // Both outputs are row-major in the input's shape.
    let contiguous = shape.contiguous_strides();
    let out_strides: Vec<usize> = others.iter().map(|&d| contiguous[d]).collect();
    let out_stride = contiguous[dim];
    let (cube_count, cube_dim) = elementwise_geometry(&client, count);
    crate::launch::before_launch(&client);
    finish_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&keys, &order, &values_arg, &indices_arg]),
        buffer(&keys),
        buffer(&order),
        buffer(&values_arg),
        buffer(&indices_arg),
        divisors(&sizes),
        sequence(&out_strides),
        out_stride,
        n,
        log_m,
        count,
        wanted.values,
        wanted.indices.is_some(),
        [element, elem_type(index_dtype)],
    );
    (values, indices)
}

/// The values of `tensor` sorted along `dim`, ascending (NaN last) or `descending` (NaN
/// first), into a new contiguous tensor of the same shape and dtype. Float, integer and bool
/// dtypes; the values are the input's own, bit for bit.
///
/// # Panics
///
/// When `dim` is out of range or the dtype is not one the device computes with.
pub fn sort(tensor: CubeTensor, dim: usize, descending: bool) -> CubeTensor {
    let wanted = Wanted {
        values: true,
        indices: None,
    };
    let (values, _) = sort_impl("sort", tensor, dim, descending, wanted);
    values.expect("sort produces values")
}

/// The sorted values (as [`sort`]) and, as `index_dtype` (an integer dtype), the position
/// along `dim` each came from. The sort is stable: equal values keep their order, in both
/// directions. Indices wrap when `index_dtype` cannot hold the length of `dim`.
///
/// # Panics
///
/// When `dim` is out of range, the dtype is not one the device computes with, or
/// `index_dtype` is not an integer dtype the device stores.
pub fn sort_with_indices(
    tensor: CubeTensor,
    dim: usize,
    descending: bool,
    index_dtype: DType,
) -> (CubeTensor, CubeTensor) {
    let wanted = Wanted {
        values: true,
        indices: Some(index_dtype),
    };
    let (values, indices) = sort_impl("sort_with_indices", tensor, dim, descending, wanted);
    (
        values.expect("sort produces values"),
        indices.expect("sort produces indices"),
    )
}

/// The indices (as `index_dtype`) that sort `tensor` stably along `dim`, as
/// [`sort_with_indices`] without the values.
///
/// # Panics
///
/// As [`sort_with_indices`].
pub fn argsort(tensor: CubeTensor, dim: usize, descending: bool, index_dtype: DType) -> CubeTensor {
    let wanted = Wanted {
        values: false,
        indices: Some(index_dtype),
    };
    let (_, indices) = sort_impl("argsort", tensor, dim, descending, wanted);
    indices.expect("argsort produces indices")
}
