//! Reading by index tensors: `gather` and `select` along a dim, and the index checks and
//! kernel arguments `scatter` and `select_add` share.
//!
//! Indices may be of any integer dtype the device computes with; kernels read them in that
//! dtype and convert only checked values. **Out-of-range indices** (negative, or not below the
//! size of the indexed dim) never touch memory outside the tensor: a read (`gather`,
//! `select`) yields 0 for that element, an update (`scatter`, `select_add`) is skipped.

use super::scalar::scalar_arg;
use crate::CubeTensor;
use crate::dtype::{assert_arithmetic, assert_storage, elem_type};
use crate::launch::{address_type, assert_same_device, elementwise_geometry};
use burn_backend::{DType, Scalar, Shape};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// `output[i] = input[Σ c·input_strides + indices[Σ c·index_strides] · input_strides[dim]]` for
/// the coordinates `c` of `i` in `shape` (the input's `dim` stride is left out of the sum),
/// or 0 when the index is out of `0..=last`.
#[cube(launch, address_type = "dynamic")]
fn gather_kernel<T: Numeric, I: Int>(
    input: &[T],
    indices: &[I],
    output: &mut [T],
    shape: Sequence<FastDivmod<usize>>,
    input_strides: Sequence<usize>,
    index_strides: Sequence<usize>,
    units: usize,
    last: InputScalar,
    #[comptime] dim: usize,
    #[define(T, I)] _dtypes: [ElemType; 2],
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let rank = comptime![shape.len()];
    let mut remaining = ABSOLUTE_POS;
    let mut base = 0;
    let mut at = 0;
    #[unroll]
    for i in 0..rank {
        let d = comptime![rank - 1 - i];
        let (quotient, coordinate) = shape[d].div_mod(remaining);
        if comptime![d != dim] {
            base += coordinate * input_strides[d];
        }
        at += coordinate * index_strides[d];
        remaining = quotient;
    }
    let index = indices[at];
    if index >= I::from_int(0) && index <= last.get::<I>() {
        output[ABSOLUTE_POS] = input[base + usize::cast_from(index) * input_strides[dim]];
    } else {
        output[ABSOLUTE_POS] = T::from_int(0);
    }
}

/// The largest value of an integer dtype (as `u64`).
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

/// The largest valid index into a dim of `size` (> 0), capped at the index dtype's maximum
/// (every value of a narrower dtype is then below `size`), as a kernel scalar of that dtype.
pub(super) fn last_index(size: usize, index_dtype: DType) -> InputScalar {
    let last = (size as u64 - 1).min(int_max(index_dtype));
    scalar_arg(Scalar::Int(last as i64), index_dtype)
}

/// Panics, naming `op`, unless `indices` is an integer tensor the device computes with, on
/// `tensor`'s device.
pub(super) fn check_indices(op: &str, tensor: &CubeTensor, indices: &CubeTensor) {
    assert!(
        indices.dtype.is_int(),
        "{op}: expected integer indices, got dtype {}",
        indices.dtype
    );
    assert_same_device(op, &[tensor, indices]);
    assert_storage(op, &tensor.client, tensor.dtype);
    assert_arithmetic(op, &indices.client, indices.dtype);
}

/// Panics, naming `op`, unless `dim` is a dim of `shape`.
pub(super) fn check_dim(op: &str, shape: &Shape, dim: usize) {
    assert!(
        dim < shape.num_dims(),
        "{op}: dim {dim} out of range for a tensor of rank {} (shape {:?})",
        shape.num_dims(),
        shape.dims
    );
}

/// Panics, naming `op`, unless `indices` has `tensor`'s rank and no larger size outside `dim`.
pub(super) fn check_index_shape(op: &str, tensor: &Shape, indices: &Shape, dim: usize) {
    let fits = tensor.num_dims() == indices.num_dims()
        && (0..tensor.num_dims()).all(|d| d == dim || indices.dims[d] <= tensor.dims[d]);
    assert!(
        fits,
        "{op}: indices of shape {:?} do not fit a tensor of shape {:?} outside dim {dim}",
        indices.dims, tensor.dims
    );
}

/// Panics, naming `op`, unless `values` has `tensor`'s dtype and device.
pub(super) fn check_values(op: &str, tensor: &CubeTensor, values: &CubeTensor) {
    assert_eq!(
        values.dtype, tensor.dtype,
        "{op}: values of dtype {} for a tensor of dtype {}",
        values.dtype, tensor.dtype
    );
    assert_same_device(op, &[tensor, values]);
}

/// A kernel buffer argument over a tensor's whole binding.
pub(super) fn buffer(tensor: &CubeTensor) -> BufferArg {
    let len = tensor.handle.size_in_used() as usize / tensor.dtype.size();
    // SAFETY: the handle belongs to the tensor's client and holds `len` elements of its dtype;
    // the kernels are launched checked, so no access leaves the buffer.
    unsafe { BufferArg::from_raw_parts(tensor.handle.clone(), len) }
}

/// The sizes of `dims` as a kernel sequence of divisors.
pub(super) fn divisors(dims: &[usize]) -> SequenceArg<FastDivmod<usize>> {
    let mut sequence = SequenceArg::new();
    for &size in dims {
        sequence.push(size.max(1));
    }
    sequence
}

/// `values` as a kernel sequence.
pub(super) fn sequence(values: &[usize]) -> SequenceArg<usize> {
    let mut sequence = SequenceArg::new();
    for &value in values {
        sequence.push(value);
    }
    sequence
}

/// Index tensors as a kernel reads them: `tensor` broadcast to `shape` through `strides`
/// (its own layout for `gather`/`scatter`, the 1-D indices repeated over every other dim for
/// `select`/`select_add`).
pub(super) struct IndexView {
    pub(super) tensor: CubeTensor,
    pub(super) strides: Vec<usize>,
    pub(super) shape: Shape,
}

impl IndexView {
    /// The indices read through their own layout.
    pub(super) fn own(tensor: CubeTensor) -> Self {
        Self {
            strides: tensor.strides.clone(),
            shape: tensor.shape.clone(),
            tensor,
        }
    }

    /// 1-D indices repeated over every dim of `shape` but `dim` (whose size becomes theirs).
    pub(super) fn along(tensor: CubeTensor, mut shape: Shape, dim: usize) -> Self {
        let mut strides = vec![0; shape.num_dims()];
        strides[dim] = tensor.strides[0];
        shape.dims[dim] = tensor.shape.dims[0];
        Self {
            tensor,
            strides,
            shape,
        }
    }
}

/// Reads `tensor` along `dim` at `indices`; the output has the indices' (broadcast) shape:
/// the shared body of `gather` and `select`.
fn gather_with(dim: usize, tensor: CubeTensor, indices: IndexView) -> CubeTensor {
    let out_shape = indices.shape.clone();
    let output = tensor.empty_contiguous_like(out_shape.clone(), tensor.dtype);
    let units = out_shape.num_elements();
    if units == 0 {
        return output;
    }
    let size = tensor.shape.dims[dim];
    if size == 0 {
        // Every index is out of range.
        return super::fill::fill(output, Scalar::Int(0));
    }
    let client = tensor.client.clone();
    let index_dtype = indices.tensor.dtype;
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);
    crate::launch::before_launch(&client);
    gather_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[&tensor, &indices.tensor, &output]),
        buffer(&tensor),
        buffer(&indices.tensor),
        buffer(&output),
        divisors(&out_shape.dims),
        sequence(&tensor.strides),
        sequence(&indices.strides),
        units,
        last_index(size, index_dtype),
        dim,
        [elem_type(tensor.dtype), elem_type(index_dtype)],
    );
    output
}

/// `out[..i..] = tensor[.. indices[..i..] (along dim) ..]`: the output has the indices' shape.
/// `indices` (any integer dtype) has `tensor`'s rank and no larger size in any dim but `dim`;
/// out-of-range indices read 0. Works for every dtype the device stores, bools included.
///
/// # Panics
///
/// When `dim` is not a dim of `tensor`, the indices are not integers or do not fit, or the
/// tensors are on different devices.
pub fn gather(dim: usize, tensor: CubeTensor, indices: CubeTensor) -> CubeTensor {
    check_indices("gather", &tensor, &indices);
    check_dim("gather", &tensor.shape, dim);
    check_index_shape("gather", &tensor.shape, &indices.shape, dim);
    super::bounds::validate("gather", &indices, tensor.shape.dims[dim], dim);
    gather_with(dim, tensor, IndexView::own(indices))
}

/// The slices of `tensor` at the 1-D `indices` (any integer dtype) along `dim`, in that order:
/// the output has `tensor`'s shape with `dims[dim] = indices.len()`. Out-of-range indices
/// read slices of 0.
///
/// # Panics
///
/// When `dim` is not a dim of `tensor`, the indices are not 1-D integers, or the tensors are on
/// different devices.
pub fn select(tensor: CubeTensor, dim: usize, indices: CubeTensor) -> CubeTensor {
    check_indices("select", &tensor, &indices);
    check_dim("select", &tensor.shape, dim);
    assert_eq!(
        indices.shape.num_dims(),
        1,
        "select: expected 1-D indices, got shape {:?}",
        indices.shape.dims
    );
    super::bounds::validate("select", &indices, tensor.shape.dims[dim], dim);
    let indices = IndexView::along(indices, tensor.shape.clone(), dim);
    gather_with(dim, tensor, indices)
}
