//! Argument checks of the public API: each failure names the operation, what it expected and
//! what it got.

use burn_backend::{DType, Shape};

/// Panics with `Tensor::{op}: {message}`.
#[track_caller]
pub(crate) fn fail(op: &str, message: impl core::fmt::Display) -> ! {
    panic!("Tensor::{op}: {message}")
}

/// Panics unless `dim < rank`.
#[track_caller]
pub(crate) fn dim_in_range(op: &str, dim: usize, rank: usize) {
    if dim >= rank {
        fail(
            op,
            format_args!("dim {dim} is out of range for a tensor of rank {rank}"),
        );
    }
}

/// Resolves a dim given as any integer (negative counts from the end) against `rank`,
/// panicking with the operation's name when out of range.
#[track_caller]
pub(crate) fn dim(op: &str, dim: impl crate::AsIndex, rank: usize) -> usize {
    resolve_dim(op, dim.as_index(), rank)
}

/// Resolves an index into a dim of `size` (negative counts from the end), panicking with the
/// operation's name when out of range.
#[track_caller]
pub(crate) fn index(op: &str, index: impl crate::AsIndex, size: usize) -> usize {
    let index = index.as_index();
    let resolved = if index < 0 {
        index + size as isize
    } else {
        index
    };
    if resolved < 0 || resolved as usize >= size {
        fail(
            op,
            format_args!("index {index} is out of range for a dim of size {size}"),
        );
    }
    resolved as usize
}

/// Resolves a possibly negative dim against `rank`, panicking when out of range.
#[track_caller]
pub(crate) fn resolve_dim(op: &str, dim: isize, rank: usize) -> usize {
    let resolved = if dim < 0 { dim + rank as isize } else { dim };
    if resolved < 0 || resolved as usize >= rank {
        fail(
            op,
            format_args!("dim {dim} is out of range for a tensor of rank {rank}"),
        );
    }
    resolved as usize
}

/// The shape two operands broadcast to, or a panic naming both.
#[track_caller]
pub(crate) fn broadcast(op: &str, lhs: &Shape, rhs: &Shape) -> Shape {
    lhs.broadcast(rhs).unwrap_or_else(|| {
        fail(
            op,
            format_args!(
                "shapes {lhs:?} and {rhs:?} cannot be broadcast together (sizes must match or be 1)"
            ),
        )
    })
}

/// Panics unless the shapes are equal.
#[track_caller]
pub(crate) fn same_shape(op: &str, lhs: &Shape, rhs: &Shape) {
    if lhs != rhs {
        fail(
            op,
            format_args!("expected equal shapes, got {lhs:?} and {rhs:?}"),
        );
    }
}

/// Panics unless the dtypes are equal.
#[track_caller]
pub(crate) fn same_dtype(op: &str, lhs: DType, rhs: DType) {
    if lhs != rhs {
        fail(
            op,
            format_args!("expected operands of one dtype, got {lhs} and {rhs}; use `cast` first"),
        );
    }
}

/// Panics unless the devices are equal.
#[track_caller]
pub(crate) fn same_device<
    D: AsRef<burn_dispatch::DispatchDevice> + PartialEq + core::fmt::Debug,
>(
    op: &str,
    lhs: &D,
    rhs: &D,
) {
    // Inside a capture, tensors from outside become constants of the graph.
    let capturing =
        lhs.as_ref().recording_base().is_some() || rhs.as_ref().recording_base().is_some();
    if !capturing && lhs != rhs {
        fail(
            op,
            format_args!(
                "tensors are on different devices ({lhs:?} and {rhs:?}); move one with `to_device`"
            ),
        );
    }
}

/// Panics when `op` (a max/min-like reduction with no identity) would reduce nothing: an empty
/// tensor, or a size-0 `dim`. Sums, products and means of nothing are fine (0, 1, NaN).
#[track_caller]
pub(crate) fn reducible(op: &str, shape: &Shape, dim: Option<usize>) {
    let has_identity = matches!(
        op,
        "sum" | "sum_dim" | "prod" | "prod_dim" | "mean" | "mean_dim"
    );
    if has_identity {
        return;
    }
    let empty = match dim {
        Some(d) => shape[d] == 0,
        None => shape.num_elements() == 0,
    };
    if empty {
        fail(
            op,
            format_args!("cannot reduce zero elements (shape {shape:?})"),
        );
    }
}
