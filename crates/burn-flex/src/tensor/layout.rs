//! `Layout`: how a tensor's elements sit in its buffer (shape, strides, offset), and the views
//! that only change the layout.

use burn_std::{Shape, Slice};

/// Shape, strides (in elements, possibly negative or zero) and the buffer offset of element 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    shape: Shape,
    strides: Vec<isize>,
    offset: usize,
}

/// Row-major strides of `dims`, as signed values.
pub fn contiguous_strides(dims: &[usize]) -> Vec<isize> {
    let mut strides = vec![0isize; dims.len()];
    let mut acc = 1isize;
    for (stride, &size) in strides.iter_mut().zip(dims).rev() {
        *stride = acc;
        acc *= size.max(1) as isize;
    }
    strides
}

impl Layout {
    /// A row-major layout of `shape` starting at offset 0.
    pub fn contiguous(shape: impl Into<Shape>) -> Self {
        let shape = shape.into();
        let strides = contiguous_strides(&shape.dims);
        Self {
            shape,
            strides,
            offset: 0,
        }
    }

    /// A layout from its parts; panics when the rank of the strides differs from the shape's.
    pub fn new(shape: impl Into<Shape>, strides: Vec<isize>, offset: usize) -> Self {
        let shape = shape.into();
        assert_eq!(
            shape.num_dims(),
            strides.len(),
            "Layout::new: shape {shape:?} has rank {}, strides {strides:?} have rank {}",
            shape.num_dims(),
            strides.len()
        );
        Self {
            shape,
            strides,
            offset,
        }
    }

    /// The shape.
    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The strides, in elements.
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The buffer position of the first element.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The rank.
    #[inline]
    pub fn rank(&self) -> usize {
        self.shape.num_dims()
    }

    /// The number of elements.
    #[inline]
    pub fn num_elements(&self) -> usize {
        self.shape.num_elements()
    }

    /// Whether the elements are row-major and adjacent (strides of size-1 dims are ignored).
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1isize;
        for (&size, &stride) in self.shape.dims.iter().zip(&self.strides).rev() {
            if size == 1 {
                continue;
            }
            if size == 0 {
                return true;
            }
            if stride != expected {
                return false;
            }
            expected *= size as isize;
        }
        true
    }

    /// The buffer range holding the elements in row-major order, when the layout is contiguous.
    pub fn contiguous_range(&self) -> Option<core::ops::Range<usize>> {
        // One pass for both the check and the count (every in-place operation asks).
        let mut count = 1usize;
        for (&size, &stride) in self.shape.dims.iter().zip(&self.strides).rev() {
            if size == 0 {
                return Some(self.offset..self.offset);
            }
            if size != 1 && stride != count as isize {
                return None;
            }
            count *= size;
        }
        Some(self.offset..self.offset + count)
    }

    /// The smallest and one-past-largest buffer positions reached (`None` when empty).
    pub fn reach(&self) -> Option<(usize, usize)> {
        if self.num_elements() == 0 {
            return None;
        }
        let (mut low, mut high) = (self.offset as isize, self.offset as isize);
        for (&size, &stride) in self.shape.dims.iter().zip(&self.strides) {
            let span = (size as isize - 1) * stride;
            if span < 0 {
                low += span;
            } else {
                high += span;
            }
        }
        Some((low as usize, high as usize + 1))
    }

    /// The view with dimensions reordered: dimension `i` of the result is `axes[i]` of `self`.
    pub fn permute(&self, axes: &[usize]) -> Self {
        let rank = self.rank();
        let mut seen = vec![false; rank];
        let valid = axes.len() == rank
            && axes
                .iter()
                .all(|&a| a < rank && !std::mem::replace(&mut seen[a], true));
        assert!(
            valid,
            "permute: expected a permutation of 0..{rank}, got {axes:?}"
        );
        Self {
            shape: Shape::new(axes.iter().map(|&a| self.shape[a]).collect::<Vec<_>>()),
            strides: axes.iter().map(|&a| self.strides[a]).collect(),
            offset: self.offset,
        }
    }

    /// The view with dimensions `a` and `b` exchanged.
    pub fn swap_dims(&self, a: usize, b: usize) -> Self {
        let rank = self.rank();
        assert!(
            a < rank && b < rank,
            "swap_dims: dims ({a}, {b}) out of range for rank {rank}"
        );
        let mut out = self.clone();
        out.shape.dims.swap(a, b);
        out.strides.swap(a, b);
        out
    }

    /// The view with the last two dimensions exchanged (identity below rank 2).
    pub fn transpose(&self) -> Self {
        let rank = self.rank();
        if rank < 2 {
            return self.clone();
        }
        self.swap_dims(rank - 2, rank - 1)
    }

    /// The view of a slice per leading dimension (missing trailing dims are taken whole).
    /// Negative steps walk the range backwards, last element first.
    pub fn slice(&self, slices: &[Slice]) -> Self {
        assert!(
            slices.len() <= self.rank(),
            "slice: {} slices given for a tensor of rank {} (shape {:?})",
            slices.len(),
            self.rank(),
            self.shape
        );
        let mut out = self.clone();
        let mut offset = self.offset as isize;
        for (dim, slice) in slices.iter().enumerate() {
            assert!(slice.step != 0, "slice: step must not be 0 (dim {dim})");
            let size = self.shape[dim];
            let range = slice.to_range(size);
            let len = slice.output_size(size);
            let stride = self.strides[dim];
            if len > 0 {
                let first = if slice.step > 0 {
                    range.start
                } else {
                    range.end - 1
                };
                offset += first as isize * stride;
            }
            out.shape[dim] = len;
            out.strides[dim] = stride * slice.step;
        }
        out.offset = offset as usize;
        out
    }

    /// The view with the elements of each dimension in `axes` in reverse order.
    pub fn flip(&self, axes: &[usize]) -> Self {
        let mut out = self.clone();
        let mut offset = self.offset as isize;
        let mut flipped = vec![false; self.rank()];
        for &axis in axes {
            assert!(
                axis < self.rank(),
                "flip: axis {axis} out of range for rank {}",
                self.rank()
            );
            assert!(!flipped[axis], "flip: axis {axis} given twice in {axes:?}");
            flipped[axis] = true;
            let size = self.shape[axis];
            if size > 0 {
                offset += (size as isize - 1) * self.strides[axis];
            }
            out.strides[axis] = -self.strides[axis];
        }
        out.offset = offset as usize;
        out
    }

    /// The view broadcast to `shape` (aligned on the right; size-1 dims repeat with stride 0,
    /// new leading dims are added). Panics when a size differs and is not 1.
    pub fn expand(&self, shape: &Shape) -> Self {
        let rank = shape.num_dims();
        assert!(
            rank >= self.rank(),
            "expand: cannot expand shape {:?} to the lower rank shape {shape:?}",
            self.shape
        );
        let lead = rank - self.rank();
        let mut strides = vec![0isize; rank];
        for (i, stride) in strides.iter_mut().enumerate().skip(lead) {
            let (from, to) = (self.shape[i - lead], shape[i]);
            if from == to {
                *stride = self.strides[i - lead];
            } else {
                assert!(
                    from == 1,
                    "expand: cannot expand shape {:?} to {shape:?} (dim {i}: {from} to {to})",
                    self.shape
                );
            }
        }
        Self {
            shape: shape.clone(),
            strides,
            offset: self.offset,
        }
    }

    /// The same elements seen with another shape, when the strides allow it without a copy.
    /// Panics when the number of elements differs.
    pub fn reshape(&self, shape: &Shape) -> Option<Self> {
        let n = self.num_elements();
        assert_eq!(
            n,
            shape.num_elements(),
            "reshape: cannot reshape {:?} ({n} elements) to {shape:?} ({} elements)",
            self.shape,
            shape.num_elements()
        );
        if n == 0 || self.is_contiguous() {
            let mut out = Self::contiguous(shape.clone());
            out.offset = self.offset;
            return Some(out);
        }
        // Group the old dimensions into runs that are contiguous with each other; each run must
        // be covered exactly by a run of new dimensions, which then get strides inside it.
        let old: Vec<(usize, isize)> = self
            .shape
            .dims
            .iter()
            .zip(&self.strides)
            .filter(|(size, _)| **size != 1)
            .map(|(&size, &stride)| (size, stride))
            .collect();
        let new = &shape.dims;
        let mut strides = vec![0isize; new.len()];
        let mut nd = new.len();
        let mut od = old.len();
        while od > 0 {
            // The run of old dims ending at od - 1.
            let base_stride = old[od - 1].1;
            let mut run = old[od - 1].0;
            od -= 1;
            while od > 0 && old[od - 1].1 == old[od].1 * old[od].0 as isize {
                run *= old[od - 1].0;
                od -= 1;
            }
            // New dims (innermost first) whose product is exactly `run`.
            let mut covered = 1usize;
            while nd > 0 && (covered < run || new[nd - 1] == 1) {
                strides[nd - 1] = base_stride * covered as isize;
                covered *= new[nd - 1];
                nd -= 1;
            }
            if covered != run {
                return None;
            }
        }
        // Remaining new dims all have size 1.
        while nd > 0 {
            if new[nd - 1] != 1 {
                return None;
            }
            strides[nd - 1] = 0;
            nd -= 1;
        }
        Some(Self {
            shape: shape.clone(),
            strides,
            offset: self.offset,
        })
    }

    /// The view with a new size-1 dimension inserted at `dim`.
    pub fn unsqueeze(&self, dim: usize) -> Self {
        assert!(
            dim <= self.rank(),
            "unsqueeze: dim {dim} out of range for rank {}",
            self.rank()
        );
        let mut out = self.clone();
        let stride = if dim < self.rank() {
            self.strides[dim] * self.shape[dim] as isize
        } else {
            1
        };
        out.shape.dims.insert(dim, 1);
        out.strides.insert(dim, stride);
        out
    }

    /// The view without dimension `dim`, which must have size 1.
    pub fn squeeze(&self, dim: usize) -> Self {
        assert!(
            dim < self.rank() && self.shape[dim] == 1,
            "squeeze: dim {dim} of shape {:?} is not a size-1 dimension",
            self.shape
        );
        let mut out = self.clone();
        out.shape.dims.remove(dim);
        out.strides.remove(dim);
        out
    }

    /// The view of index `index` along `dim`, with that dimension removed.
    pub fn select_index(&self, dim: usize, index: usize) -> Self {
        assert!(
            dim < self.rank() && index < self.shape[dim],
            "select_index: index {index} out of range for dim {dim} of shape {:?}",
            self.shape
        );
        let mut out = self.clone();
        out.offset = (self.offset as isize + index as isize * self.strides[dim]) as usize;
        out.shape.dims.remove(dim);
        out.strides.remove(dim);
        out
    }

    /// The view of `len` elements starting at `start` along `dim`.
    pub fn narrow(&self, dim: usize, start: usize, len: usize) -> Self {
        assert!(
            dim < self.rank() && start + len <= self.shape[dim],
            "narrow: range {start}..{} out of range for dim {dim} of shape {:?}",
            start + len,
            self.shape
        );
        let mut out = self.clone();
        out.offset = (self.offset as isize + start as isize * self.strides[dim]) as usize;
        out.shape[dim] = len;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contiguity_and_views() {
        let l = Layout::contiguous([2, 3, 4]);
        assert!(l.is_contiguous());
        assert_eq!(l.strides(), &[12, 4, 1]);
        let t = l.transpose();
        assert!(!t.is_contiguous());
        assert_eq!(t.shape().dims.to_vec(), vec![2, 4, 3]);
        let p = l.permute(&[2, 0, 1]);
        assert_eq!(p.strides(), &[1, 12, 4]);
        let f = l.flip(&[2]);
        assert_eq!((f.offset(), f.strides()[2]), (3, -1));
        assert_eq!(f.reach(), Some((0, 24)));
    }

    #[test]
    fn the_contiguous_range_agrees_with_the_contiguity_check() {
        let base = Layout::contiguous([2, 3, 4]);
        let layouts = [
            base.clone(),
            base.transpose(),
            base.slice(&[Slice::new(1, None, 1)]),
            base.slice(&[Slice::new(0, None, 1), Slice::new(1, Some(2), 1)]),
            Layout::contiguous([3, 1, 4]).permute(&[1, 0, 2]),
            Layout::contiguous([2, 0, 4]),
            Layout::contiguous([5]).expand(&Shape::new([3, 5])),
        ];
        for layout in layouts {
            let expected = layout
                .is_contiguous()
                .then(|| layout.offset()..layout.offset() + layout.num_elements());
            assert_eq!(layout.contiguous_range(), expected, "{layout:?}");
        }
    }

    #[test]
    fn slices_with_steps() {
        let l = Layout::contiguous([10]);
        let s = l.slice(&[Slice::new(1, Some(8), 3)]);
        assert_eq!((s.shape()[0], s.offset(), s.strides()[0]), (3, 1, 3)); // 1, 4, 7
        let s = l.slice(&[Slice::new(1, Some(8), -3)]);
        assert_eq!((s.shape()[0], s.offset(), s.strides()[0]), (3, 7, -3)); // 7, 4, 1
        let s = l.slice(&[Slice::new(-3, None, 1)]);
        assert_eq!((s.shape()[0], s.offset()), (3, 7));
    }

    #[test]
    fn reshape_views_when_possible() {
        let l = Layout::contiguous([4, 6]);
        // Slicing rows keeps rows contiguous: [2, 6] -> [2, 2, 3] is a view.
        let s = l.slice(&[Slice::new(0, None, 2)]);
        let r = s.reshape(&Shape::new([2, 2, 3])).unwrap();
        assert_eq!(r.strides(), &[12, 3, 1]);
        // A transpose cannot be flattened without a copy.
        assert!(l.transpose().reshape(&Shape::new([24])).is_none());
        // But splitting one of its dims can.
        let r = l.transpose().reshape(&Shape::new([2, 3, 4])).unwrap();
        assert_eq!(r.strides(), &[3, 1, 6]);
        let e = Layout::contiguous([3, 1]).expand(&Shape::new([2, 3, 4]));
        assert_eq!(e.strides(), &[0, 1, 0]);
        let u = l.unsqueeze(1);
        assert_eq!(u.shape().dims.to_vec(), vec![4, 1, 6]);
        assert_eq!(u.squeeze(1), l);
    }
}
