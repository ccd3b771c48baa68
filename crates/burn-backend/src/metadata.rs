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
}
