//! Stepped slicing, slice assignment and flips.
//!
//! A slice resolves, per dim, to a first element and a signed stride (the dim's stride times
//! the step; negative steps walk backwards from the last selected element), as on the CPU
//! backend. Tensors here have unsigned strides, so a slice with positive steps only is a view
//! (sharing the buffer when its start offset is aligned as the runtime requires), while
//! negative steps and flips copy through a kernel that walks the signed view.

use super::index::{buffer, divisors, sequence};
use crate::CubeTensor;
use crate::dtype::{assert_storage, elem_type};
use crate::launch::{address_type, assert_same_device, elementwise_geometry};
use burn_backend::{Shape, Slice};
use cubecl::prelude::*;
use cubecl::std::FastDivmod;

/// Copies, for every coordinate `c` of `shape`, `input[input_offset ± Σ c·input_strides]` to
/// `output[output_offset ± Σ c·output_strides]`: a dim whose bit is set in `input_flips`
/// (`output_flips`) walks its input (output) stride backwards. The offsets point at the
/// element of coordinate 0, so every partial sum stays within the buffer.
#[cube(launch, address_type = "dynamic")]
fn view_copy_kernel<C: Numeric>(
    input: &[C],
    output: &mut [C],
    shape: Sequence<FastDivmod<usize>>,
    input_strides: Sequence<usize>,
    output_strides: Sequence<usize>,
    input_offset: usize,
    output_offset: usize,
    units: usize,
    #[comptime] input_flips: u64,
    #[comptime] output_flips: u64,
    #[define(C)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= units {
        terminate!();
    }
    let rank = comptime![shape.len()];
    let mut remaining = ABSOLUTE_POS;
    let mut from = input_offset;
    let mut to = output_offset;
    #[unroll]
    for i in 0..rank {
        let d = comptime![rank - 1 - i];
        let (quotient, coordinate) = shape[d].div_mod(remaining);
        remaining = quotient;
        if comptime![(input_flips >> d) & 1 == 1] {
            from -= coordinate * input_strides[d];
        } else {
            from += coordinate * input_strides[d];
        }
        if comptime![(output_flips >> d) & 1 == 1] {
            to -= coordinate * output_strides[d];
        } else {
            to += coordinate * output_strides[d];
        }
    }
    output[to] = input[from];
}

/// Elements of a buffer addressed with signed strides: `offset + Σ c·strides` (in elements)
/// for the coordinates `c` of `shape`.
#[derive(Debug, Clone)]
struct SignedView {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: usize,
}

impl SignedView {
    /// The tensor's own layout.
    fn of(tensor: &CubeTensor) -> Self {
        Self {
            shape: tensor.shape.to_vec(),
            strides: tensor.strides.iter().map(|&s| s as isize).collect(),
            offset: 0,
        }
    }

    /// The region `slices` select (one per leading dim; later dims whole), as the CPU backend
    /// resolves them: negative bounds count from the end, a negative step starts at the last
    /// selected element.
    fn slice(mut self, op: &str, slices: &[Slice]) -> Self {
        let rank = self.shape.len();
        assert!(
            slices.len() <= rank,
            "{op}: {} slices for a tensor of rank {rank} (shape {:?})",
            slices.len(),
            self.shape
        );
        let mut offset = self.offset as isize;
        for (d, slice) in slices.iter().enumerate() {
            assert!(
                slice.step != 0,
                "{op}: step must not be 0 (dim {d}, {slice:?})"
            );
            let size = self.shape[d];
            let range = slice.to_range(size);
            let len = slice.output_size(size);
            if len > 0 {
                let first = if slice.step > 0 {
                    range.start
                } else {
                    range.end - 1
                };
                offset += first as isize * self.strides[d];
            }
            self.shape[d] = len;
            self.strides[d] *= slice.step;
        }
        self.offset = offset as usize;
        self
    }

    /// The view with each dim of `axes` reversed.
    fn flip(mut self, axes: &[usize]) -> Self {
        let rank = self.shape.len();
        let mut flipped = vec![false; rank];
        let mut offset = self.offset as isize;
        for &axis in axes {
            assert!(
                axis < rank,
                "flip: axis {axis} out of range for a tensor of rank {rank} (axes {axes:?})"
            );
            assert!(
                !std::mem::replace(&mut flipped[axis], true),
                "flip: axis {axis} given twice in {axes:?}"
            );
            let size = self.shape[axis];
            if size > 0 {
                offset += (size as isize - 1) * self.strides[axis];
            }
            self.strides[axis] = -self.strides[axis];
        }
        self.offset = offset as usize;
        self
    }

    /// The dims (of size above 1) walked backwards, as a bit set.
    fn flips(&self) -> u64 {
        assert!(
            self.shape.len() <= 64,
            "burn-cubecl: slicing and flipping support up to 64 dims, got {}",
            self.shape.len()
        );
        self.shape
            .iter()
            .zip(&self.strides)
            .enumerate()
            .filter(|&(_, (&size, &stride))| size > 1 && stride < 0)
            .fold(0, |bits, (d, _)| bits | (1 << d))
    }

    /// The stride magnitudes.
    fn abs_strides(&self) -> Vec<usize> {
        self.strides.iter().map(|s| s.unsigned_abs()).collect()
    }

    fn num_elements(&self) -> usize {
        self.shape.iter().product()
    }
}

/// Launches [`view_copy_kernel`] from `input` (through `from`) into `output` (through `to`),
/// both views of the same shape.
fn copy_view(input: &CubeTensor, from: &SignedView, output: &CubeTensor, to: &SignedView) {
    let units = from.num_elements();
    let client = input.client.clone();
    let (cube_count, cube_dim) = elementwise_geometry(&client, units);
    crate::launch::before_launch(&client);
    view_copy_kernel::launch(
        &client,
        cube_count,
        cube_dim,
        address_type(&[input, output]),
        buffer(input),
        buffer(output),
        divisors(&from.shape),
        sequence(&from.abs_strides()),
        sequence(&to.abs_strides()),
        from.offset,
        to.offset,
        units,
        from.flips(),
        to.flips(),
        elem_type(input.dtype),
    );
}

/// The elements of `tensor` a signed view selects, as a view of its buffer when the strides
/// are non-negative and the start offset aligned, else a contiguous copy.
fn materialize(tensor: CubeTensor, view: SignedView) -> CubeTensor {
    let shape = Shape::from(view.shape.clone());
    if view.num_elements() == 0 {
        return tensor.empty_like(shape, tensor.dtype);
    }
    let bytes = (view.offset * tensor.dtype.size()) as u64;
    let alignment = tensor.client.properties().memory.alignment.max(1);
    if view.flips() == 0 && bytes.is_multiple_of(alignment) {
        let mut out = tensor;
        if bytes > 0 {
            out.handle = out.handle.offset_start(bytes);
        }
        out.strides = view.abs_strides();
        out.shape = shape;
        return out;
    }
    let output = tensor.empty_contiguous_like(shape, tensor.dtype);
    copy_view(&tensor, &view, &output, &SignedView::of(&output));
    output
}

/// The sub-tensor `slices` select, one [`Slice`] per leading dim (later dims whole): negative
/// bounds count from the end of the dim, out-of-range bounds are clamped, and a negative step
/// walks backwards from the last selected element (`Slice::new(0, None, -1)` reverses a dim).
/// A view of the same buffer when every step is positive and the start offset is aligned,
/// else a contiguous copy. Works for every stored dtype.
///
/// # Panics
///
/// When there are more slices than dims, or a step is 0.
pub fn slice(tensor: CubeTensor, slices: &[Slice]) -> CubeTensor {
    assert_storage("slice", &tensor.client, tensor.dtype);
    let view = SignedView::of(&tensor).slice("slice", slices);
    materialize(tensor, view)
}

/// `tensor` with each dim of `axes` reversed, in a new contiguous tensor (the tensor itself
/// when no flipped dim has more than one element).
///
/// # Panics
///
/// When an axis is out of range or repeated.
pub fn flip(tensor: CubeTensor, axes: &[usize]) -> CubeTensor {
    assert_storage("flip", &tensor.client, tensor.dtype);
    let view = SignedView::of(&tensor).flip(axes);
    if view.flips() == 0 {
        return tensor;
    }
    materialize(tensor, view)
}

/// `tensor` with the region `slices` select (same semantics as [`slice`], steps included)
/// replaced by `value`, which has the region's shape and `tensor`'s dtype. Written into
/// `tensor`'s buffer when it is unique and non-overlapping (whatever its strides), else into a
/// contiguous copy.
///
/// # Panics
///
/// When the dtypes differ, `value`'s shape is not the region's, a slice is invalid (see
/// [`slice`]), or the tensors are on different devices.
pub fn slice_assign(tensor: CubeTensor, slices: &[Slice], value: CubeTensor) -> CubeTensor {
    assert_eq!(
        value.dtype, tensor.dtype,
        "slice_assign: value of dtype {} for a tensor of dtype {}",
        value.dtype, tensor.dtype
    );
    assert_same_device("slice_assign", &[&tensor, &value]);
    assert_storage("slice_assign", &tensor.client, tensor.dtype);
    let region = SignedView::of(&tensor).slice("slice_assign", slices);
    assert_eq!(
        region.shape[..],
        value.shape.dims[..],
        "slice_assign: value of shape {:?} for a region of shape {:?}",
        value.shape.dims,
        region.shape
    );
    if region.num_elements() == 0 {
        return tensor;
    }
    let output = if tensor.can_mut() && tensor.is_nonoverlapping() {
        tensor
    } else {
        super::copy_strided(&tensor, 0)
    };
    // The same region, in the output's layout.
    let region = SignedView::of(&output).slice("slice_assign", slices);
    copy_view(&value, &SignedView::of(&value), &output, &region);
    output
}
