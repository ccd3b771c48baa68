//! `Shape`: the sizes of a tensor's dimensions.

use core::fmt;
use core::ops::{Index, IndexMut};
use serde::{Deserialize, Serialize};

/// The size of each dimension of a tensor, outermost first.
#[derive(Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Shape {
    /// The size of each dimension.
    pub dims: Vec<usize>,
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
        let rank = self.num_dims().max(other.num_dims());
        let mut dims = vec![0; rank];
        for (i, out) in dims.iter_mut().enumerate() {
            let a = dim_from_right(&self.dims, rank - 1 - i);
            let b = dim_from_right(&other.dims, rank - 1 - i);
            *out = match (a, b) {
                (x, y) if x == y => x,
                (1, y) => y,
                (x, 1) => x,
                _ => return None,
            };
        }
        Some(Shape { dims })
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

impl Index<usize> for Shape {
    type Output = usize;
    fn index(&self, index: usize) -> &usize {
        &self.dims[index]
    }
}

impl IndexMut<usize> for Shape {
    fn index_mut(&mut self, index: usize) -> &mut usize {
        &mut self.dims[index]
    }
}

impl<const D: usize> From<[usize; D]> for Shape {
    fn from(dims: [usize; D]) -> Self {
        Shape {
            dims: dims.to_vec(),
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
        Shape { dims }
    }
}

impl From<&[usize]> for Shape {
    fn from(dims: &[usize]) -> Self {
        Shape {
            dims: dims.to_vec(),
        }
    }
}

impl From<&Vec<usize>> for Shape {
    fn from(dims: &Vec<usize>) -> Self {
        Shape { dims: dims.clone() }
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
