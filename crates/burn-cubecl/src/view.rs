//! Layout-only views: permutations, slices, broadcasts and reshapes that change a tensor's
//! shape and strides without touching its buffer (copying only when no such view exists).

use crate::CubeTensor;
use crate::kernel::{copy_strided, into_contiguous};
use burn_backend::Shape;
use core::ops::Range;

impl CubeTensor {
    /// The tensor with its dimensions reordered: dimension `i` of the result is dimension
    /// `axes[i]` of `self`. No data moves.
    ///
    /// # Panics
    ///
    /// When `axes` is not a permutation of `0..rank`.
    pub fn permute(mut self, axes: &[usize]) -> Self {
        let rank = self.shape.num_dims();
        let mut seen = vec![false; rank];
        let valid = axes.len() == rank
            && axes
                .iter()
                .all(|&a| a < rank && !std::mem::replace(&mut seen[a], true));
        assert!(
            valid,
            "permute: {axes:?} is not a permutation of the {rank} dims of {:?}",
            self.shape.dims
        );
        self.shape = Shape::from(axes.iter().map(|&a| self.shape.dims[a]).collect::<Vec<_>>());
        self.strides = axes.iter().map(|&a| self.strides[a]).collect();
        self
    }

    /// The tensor with dimensions `a` and `b` exchanged. No data moves.
    pub fn swap_dims(self, a: usize, b: usize) -> Self {
        let rank = self.shape.num_dims();
        assert!(
            a < rank && b < rank,
            "swap_dims: dims {a} and {b} out of range for rank {rank}"
        );
        let mut axes: Vec<usize> = (0..rank).collect();
        axes.swap(a, b);
        self.permute(&axes)
    }

    /// The sub-tensor `ranges[d]` along each leading dim `d` (later dims are kept whole).
    ///
    /// A view of the same buffer when the start offset is aligned as the runtime requires of
    /// buffer bindings; otherwise a contiguous copy of the selected elements.
    ///
    /// # Panics
    ///
    /// When there are more ranges than dims, or a range is reversed or out of bounds.
    pub fn slice(self, ranges: &[Range<usize>]) -> Self {
        let rank = self.shape.num_dims();
        assert!(
            ranges.len() <= rank,
            "slice: {} ranges for a tensor of rank {rank}",
            ranges.len()
        );
        let mut dims = self.shape.dims.clone();
        let mut offset = 0;
        for (d, range) in ranges.iter().enumerate() {
            assert!(
                range.start <= range.end && range.end <= dims[d],
                "slice: range {range:?} out of bounds for dim {d} of size {} (shape {:?})",
                dims[d],
                self.shape.dims
            );
            offset += range.start * self.strides[d];
            dims[d] = range.end - range.start;
        }
        let shape = Shape::from(dims);
        if shape.num_elements() == 0 {
            return self.empty_like(shape, self.dtype);
        }
        let bytes = (offset * self.dtype.size()) as u64;
        let alignment = self.client.properties().memory.alignment.max(1);
        if bytes.is_multiple_of(alignment) {
            let mut view = self;
            if bytes > 0 {
                view.handle = view.handle.offset_start(bytes);
            }
            view.shape = shape;
            view
        } else {
            let view = Self { shape, ..self };
            copy_strided(&view, offset)
        }
    }

    /// The tensor broadcast to `shape` (NumPy rules: leading dims may be added, dims of size 1
    /// stretched). No data moves; the result has zero strides and is never written in place.
    ///
    /// # Panics
    ///
    /// When the shape is not a broadcast of the tensor's.
    pub fn expand(self, shape: Shape) -> Self {
        let rank = shape.num_dims();
        assert!(
            rank >= self.shape.num_dims(),
            "expand: cannot expand shape {:?} to the lower rank {:?}",
            self.shape.dims,
            shape.dims
        );
        let mut tensor = self.unsqueeze_to(rank);
        for d in 0..rank {
            let (from, to) = (tensor.shape.dims[d], shape.dims[d]);
            assert!(
                from == to || from == 1,
                "expand: shape {:?} cannot be broadcast to {:?}",
                tensor.shape.dims,
                shape.dims
            );
            if from != to {
                tensor.strides[d] = 0;
            }
        }
        tensor.shape = shape;
        tensor
    }

    /// The tensor with a new shape of the same number of elements, in row-major order. A view
    /// when the tensor is contiguous, else a contiguous copy first.
    ///
    /// # Panics
    ///
    /// When the element counts differ.
    pub fn reshape(self, shape: Shape) -> Self {
        assert_eq!(
            self.shape.num_elements(),
            shape.num_elements(),
            "reshape: cannot reshape {:?} into {:?} (different numbers of elements)",
            self.shape.dims,
            shape.dims
        );
        let mut tensor = into_contiguous(self);
        tensor.strides = shape.contiguous_strides();
        tensor.shape = shape;
        tensor
    }

    /// The tensor in a new row-major buffer, or itself when already contiguous.
    pub fn into_contiguous(self) -> Self {
        into_contiguous(self)
    }

    /// The tensor with leading dims of size 1 added up to `rank` (their strides chosen so a
    /// contiguous tensor stays contiguous).
    pub(crate) fn unsqueeze_to(mut self, rank: usize) -> Self {
        let missing = rank.saturating_sub(self.shape.num_dims());
        if missing > 0 {
            let outer = self
                .shape
                .dims
                .first()
                .zip(self.strides.first())
                .map_or(1, |(size, stride)| size * stride);
            let mut dims = vec![1; missing];
            dims.extend_from_slice(&self.shape.dims);
            let mut strides = vec![outer.max(1); missing];
            strides.extend_from_slice(&self.strides);
            self.shape = Shape::from(dims);
            self.strides = strides;
        }
        self
    }
}
