//! What every primitive tensor can tell about itself without reading its data.

use burn_std::{DType, Shape};

/// Metadata every primitive tensor exposes.
pub trait TensorMetadata: Clone + Send + Sync + core::fmt::Debug {
    /// The element type.
    fn dtype(&self) -> DType;
    /// The shape.
    fn shape(&self) -> Shape;
    /// The rank.
    fn rank(&self) -> usize {
        self.shape().num_dims()
    }
    /// Writes the size of each dimension into `out`, whose length must be the rank: the shape
    /// without allocating one, where the tensor keeps its sizes (a small operation's checks
    /// ask for it).
    fn dims_into(&self, out: &mut [usize]) {
        out.copy_from_slice(&self.shape().dims);
    }
}
