//! Padding and the identity matrix.

use super::args::TensorCreationOptions;
use super::check;
use crate::kind::Numeric;
use crate::{Float, Tensor};
use burn_backend::ops::PadMode;

impl<const D: usize, K: Numeric> Tensor<D, K> {
    /// Pads the last two dims: `(left, right, top, bottom)`, like PyTorch's `F.pad` with four
    /// values, filling by `mode`.
    pub fn pad(self, padding: (usize, usize, usize, usize), mode: PadMode) -> Self {
        if D < 2 {
            check::fail(
                "pad",
                format_args!("expected a tensor of rank 2 or more, got rank {D}"),
            );
        }
        let (left, right, top, bottom) = padding;
        self.pad_dim(D - 1, left, right, mode)
            .pad_dim(D - 2, top, bottom, mode)
    }

    /// Pads each dim `i` with `padding[i] = (before, after)` elements, filling by `mode`.
    pub fn pad_dims(self, padding: [(usize, usize); D], mode: PadMode) -> Self {
        padding
            .iter()
            .enumerate()
            .fold(self, |t, (dim, &(before, after))| {
                t.pad_dim(dim, before, after, mode)
            })
    }

    fn pad_dim(self, dim: usize, before: usize, after: usize, mode: PadMode) -> Self {
        if before == 0 && after == 0 {
            return self;
        }
        let size = self.dims()[dim];
        let side = |count: usize, at_start: bool| -> Option<Self> {
            if count == 0 {
                return None;
            }
            Some(match mode {
                PadMode::Constant(value) => self.side_fill(dim, count, value),
                PadMode::Zeros => self.side_fill(dim, count, 0.0),
                PadMode::Edge => {
                    let edge = self
                        .clone()
                        .narrow(dim, if at_start { 0 } else { size - 1 }, 1);
                    edge.repeat_dim(dim, count)
                }
                PadMode::Reflect => {
                    if count >= size {
                        check::fail(
                            "pad",
                            format_args!(
                                "reflect padding {count} must be smaller than dim {dim} of size {size}"
                            ),
                        );
                    }
                    let start = if at_start { 1 } else { size - 1 - count };
                    self.clone().narrow(dim, start, count).flip([dim as isize])
                }
            })
        };
        let parts: Vec<Self> = [side(before, true), Some(self.clone()), side(after, false)]
            .into_iter()
            .flatten()
            .collect();
        Tensor::cat(parts, dim)
    }

    fn side_fill(&self, dim: usize, count: usize, value: f64) -> Self {
        let mut dims = self.dims();
        dims[dim] = count;
        Self::full(dims, value, (&self.device(), self.dtype()))
    }
}

impl Tensor<2, Float> {
    /// The `size × size` identity matrix.
    pub fn eye(size: usize, options: impl Into<TensorCreationOptions>) -> Self {
        let options = options.into();
        let zeros = Self::zeros([size, size], options.clone());
        let mask = crate::Tensor::<2, crate::Bool>::diag_mask([size, size], 0, &options.device);
        zeros.mask_fill(mask.bool_not(), 1.0)
    }
}
