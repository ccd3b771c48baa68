//! [`DimIter`]: the slices of a tensor along one dim, one at a time, from either end.

use crate::Tensor;
use crate::kind::Basic;

/// The slices of size 1 of a tensor along one dim, in order (from [`Tensor::iter_dim`]); each
/// keeps the tensor's rank. Reversible and of known length.
pub struct DimIter<const D: usize, K: Basic> {
    tensor: Tensor<D, K>,
    dim: usize,
    start: usize,
    end: usize,
}

impl<const D: usize, K: Basic> DimIter<D, K> {
    /// The slices of `tensor` along `dim` (already checked against the rank).
    pub(crate) fn new(tensor: Tensor<D, K>, dim: usize) -> Self {
        let end = tensor.dims()[dim];
        Self {
            tensor,
            dim,
            start: 0,
            end,
        }
    }

    fn slice_at(&self, index: usize) -> Tensor<D, K> {
        self.tensor.clone().narrow(self.dim, index, 1)
    }
}

impl<const D: usize, K: Basic> Iterator for DimIter<D, K> {
    type Item = Tensor<D, K>;

    fn next(&mut self) -> Option<Tensor<D, K>> {
        (self.start < self.end).then(|| {
            self.start += 1;
            self.slice_at(self.start - 1)
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len(), Some(self.len()))
    }
}

impl<const D: usize, K: Basic> DoubleEndedIterator for DimIter<D, K> {
    fn next_back(&mut self) -> Option<Tensor<D, K>> {
        (self.start < self.end).then(|| {
            self.end -= 1;
            self.slice_at(self.end)
        })
    }
}

impl<const D: usize, K: Basic> ExactSizeIterator for DimIter<D, K> {
    fn len(&self) -> usize {
        self.end - self.start
    }
}
