//! `Shape`: the sizes of a tensor's dimensions.

use crate::MetadataError;
use core::fmt;
use core::ops::{Deref, DerefMut, Index, IndexMut};
use core::slice::SliceIndex;
use serde::{Deserialize, Serialize};
pub use smallvec::SmallVec;

/// How many dims a [`Shape`] holds without a heap allocation (as Burn's).
pub const INLINE_DIMS: usize = 5;

/// The sizes of a shape: inline up to [`INLINE_DIMS`] dims.
pub type ShapeDims = SmallVec<[usize; INLINE_DIMS]>;

/// The size of each dimension of a tensor, outermost first. Up to [`INLINE_DIMS`] dims live
/// inline, so making, cloning and comparing shapes costs no allocation.
#[derive(Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Shape {
    /// The size of each dimension.
    pub dims: ShapeDims,
}

impl Shape {
    /// A shape from anything that converts into a list of sizes.
    pub fn new<S: Into<Shape>>(dims: S) -> Self {
        dims.into()
    }

    /// The number of dimensions (the rank).
    pub fn num_dims(&self) -> usize {
        self.dims.len()
    }

    /// The number of dimensions (Burn's other name of [`num_dims`](Self::num_dims)).
    pub fn rank(&self) -> usize {
        self.dims.len()
    }

    /// The sizes as a slice.
    pub fn as_slice(&self) -> &[usize] {
        &self.dims
    }

    /// The sizes as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [usize] {
        &mut self.dims
    }

    /// The sizes as a vector.
    pub fn to_vec(&self) -> Vec<usize> {
        self.dims.to_vec()
    }

    /// Appends a dimension of size `size`.
    pub fn push(&mut self, size: usize) {
        self.dims.push(size);
    }

    /// Inserts a dimension of size `size` at `index`.
    pub fn insert(&mut self, index: usize, size: usize) {
        self.dims.insert(index, size);
    }

    /// Removes the dimension at `index` and returns its size.
    pub fn remove(&mut self, index: usize) -> usize {
        self.dims.remove(index)
    }

    /// The number of elements: the product of the sizes (1 for rank 0).
    #[inline]
    pub fn num_elements(&self) -> usize {
        self.dims.iter().product()
    }

    /// The sizes as a fixed-size array; panics when the rank is not `D`.
    pub fn dims<const D: usize>(&self) -> [usize; D] {
        self.dims.as_slice().try_into().unwrap_or_else(|_| {
            panic!(
                "Shape::dims: expected rank {D}, got shape {:?} of rank {}",
                self.dims,
                self.dims.len()
            )
        })
    }

    /// Row-major (C order) strides for this shape, in elements.
    pub fn contiguous_strides(&self) -> Vec<usize> {
        let mut strides = vec![0; self.dims.len()];
        let mut acc = 1;
        for (stride, &size) in strides.iter_mut().zip(&self.dims).rev() {
            *stride = acc;
            acc *= size;
        }
        strides
    }

    /// The shape both `self` and `other` broadcast to (NumPy rules, aligned on the right), or
    /// `None` when a pair of sizes differs and neither is 1.
    pub fn broadcast(&self, other: &Shape) -> Option<Shape> {
        self.try_broadcast(other).ok()
    }

    /// [`broadcast`](Self::broadcast), naming the output dim whose sizes do not broadcast.
    pub fn try_broadcast(&self, other: &Shape) -> Result<Shape, MetadataError> {
        let rank = self.num_dims().max(other.num_dims());
        let mut dims = ShapeDims::from_elem(0, rank);
        for (dim, out) in dims.iter_mut().enumerate() {
            let left = dim_from_right(&self.dims, rank - 1 - dim);
            let right = dim_from_right(&other.dims, rank - 1 - dim);
            *out = match (left, right) {
                (x, y) if x == y => x,
                (1, y) => y,
                (x, 1) => x,
                _ => return Err(MetadataError::IncompatibleDims { left, right, dim }),
            };
        }
        Ok(Shape { dims })
    }

    /// Iterates over the sizes.
    pub fn iter(&self) -> core::slice::Iter<'_, usize> {
        self.dims.iter()
    }
}

fn dim_from_right(dims: &[usize], from_right: usize) -> usize {
    if from_right < dims.len() {
        dims[dims.len() - 1 - from_right]
    } else {
        1
    }
}

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.dims, f)
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.dims, f)
    }
}

/// A shape reads as the slice of its sizes (`shape.len()`, `&shape[1..]`, `shape.iter()`).
impl Deref for Shape {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.dims
    }
}

impl DerefMut for Shape {
    fn deref_mut(&mut self) -> &mut [usize] {
        &mut self.dims
    }
}

impl AsRef<[usize]> for Shape {
    fn as_ref(&self) -> &[usize] {
        &self.dims
    }
}

/// `shape[i]` is a size, `shape[1..]` the sizes of a range of dimensions.
impl<I: SliceIndex<[usize]>> Index<I> for Shape {
    type Output = I::Output;
    fn index(&self, index: I) -> &I::Output {
        &self.dims[index]
    }
}

impl<I: SliceIndex<[usize]>> IndexMut<I> for Shape {
    fn index_mut(&mut self, index: I) -> &mut I::Output {
        &mut self.dims[index]
    }
}

impl<const D: usize> From<[usize; D]> for Shape {
    fn from(dims: [usize; D]) -> Self {
        Shape {
            dims: ShapeDims::from_slice(&dims),
        }
    }
}

impl<const D: usize> From<[i64; D]> for Shape {
    fn from(dims: [i64; D]) -> Self {
        Shape {
            dims: dims.iter().map(|&d| d as usize).collect(),
        }
    }
}

impl<const D: usize> From<[i32; D]> for Shape {
    fn from(dims: [i32; D]) -> Self {
        Shape {
            dims: dims.iter().map(|&d| d as usize).collect(),
        }
    }
}

impl From<Vec<usize>> for Shape {
    fn from(dims: Vec<usize>) -> Self {
        Shape {
            dims: ShapeDims::from_vec(dims),
        }
    }
}

impl From<ShapeDims> for Shape {
    fn from(dims: ShapeDims) -> Self {
        Shape { dims }
    }
}

impl From<&[usize]> for Shape {
    fn from(dims: &[usize]) -> Self {
        Shape {
            dims: ShapeDims::from_slice(dims),
        }
    }
}

impl From<&Vec<usize>> for Shape {
    fn from(dims: &Vec<usize>) -> Self {
        Shape::from(dims.as_slice())
    }
}

impl From<Shape> for Vec<usize> {
    fn from(shape: Shape) -> Self {
        shape.dims.into_vec()
    }
}

impl From<&Shape> for Shape {
    fn from(shape: &Shape) -> Self {
        shape.clone()
    }
}

impl<'a> IntoIterator for &'a Shape {
    type Item = &'a usize;
    type IntoIter = core::slice::Iter<'a, usize>;
    fn into_iter(self) -> Self::IntoIter {
        self.dims.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_follows_numpy() {
        let a = Shape::new([3, 1, 4]);
        let b = Shape::new([5, 1]);
        assert_eq!(a.broadcast(&b), Some(Shape::new([3, 5, 4])));
        assert_eq!(Shape::new([2, 3]).broadcast(&Shape::new([4, 3])), None);
    }

    #[test]
    fn strides_are_row_major() {
        assert_eq!(Shape::new([2, 3, 4]).contiguous_strides(), vec![12, 4, 1]);
        assert_eq!(Shape::new([2, 3, 4]).num_elements(), 24);
    }
}
