//! Padding and the identity matrix.

use super::check;
use crate::Tensor;
use crate::kind::Numeric;
use burn_backend::ops::PadMode;

/// The padding of [`Tensor::pad`]: `(before, after)` pairs for the last dims (fewer pairs than
/// dims leave the leading dims unpadded), or `(left, right, top, bottom)` for the last two, as
/// PyTorch's `F.pad` with four values.
pub trait IntoPadding<const D: usize> {
    /// The `(before, after)` pair of every dim.
    fn into_padding(self) -> [(usize, usize); D];
}

/// `pairs` placed on the last dims of `D`, panicking when there are more pairs than dims.
fn trailing<const D: usize>(pairs: &[(usize, usize)]) -> [(usize, usize); D] {
    if pairs.len() > D {
        check::fail(
            "pad",
            format_args!("{} padding pairs for a tensor of rank {D}", pairs.len()),
        );
    }
    let mut out = [(0, 0); D];
    out[D - pairs.len()..].copy_from_slice(pairs);
    out
}

impl<const D: usize, const N: usize> IntoPadding<D> for [(usize, usize); N] {
    fn into_padding(self) -> [(usize, usize); D] {
        trailing(&self)
    }
}

impl<const D: usize> IntoPadding<D> for &[(usize, usize)] {
    fn into_padding(self) -> [(usize, usize); D] {
        trailing(self)
    }
}

impl<const D: usize> IntoPadding<D> for Vec<(usize, usize)> {
    fn into_padding(self) -> [(usize, usize); D] {
        trailing(&self)
    }
}

impl<const D: usize> IntoPadding<D> for (usize, usize, usize, usize) {
    fn into_padding(self) -> [(usize, usize); D] {
        let (left, right, top, bottom) = self;
        if D < 2 {
            check::fail(
                "pad",
                format_args!("(left, right, top, bottom) pads two dims; the tensor has rank {D}"),
            );
        }
        trailing(&[(top, bottom), (left, right)])
    }
}

impl<const D: usize, K: Numeric> Tensor<D, K> {
    /// Pads with `(before, after)` elements per dim (pairs for the last dims, or
    /// `(left, right, top, bottom)` for the last two, as PyTorch's `F.pad`), filling by `mode`
    /// (a [`PadMode`], or a value for a constant).
    ///
    /// ```
    /// use burn_tensor::{Device, Tensor, ops::PadMode};
    ///
    /// let x = Tensor::<2>::from_data([[1.0, 2.0], [3.0, 4.0]], &Device::default());
    /// assert_eq!(x.clone().pad((1, 0, 0, 0), 9.0).dims(), [2, 3]);
    /// assert_eq!(x.clone().pad([(1, 1)], PadMode::Edge).into_data().to_vec::<f32>().unwrap(),
    ///     [1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0]);
    /// assert_eq!(x.pad([(1, 0), (0, 0)], PadMode::Reflect).dims(), [3, 2]);
    /// ```
    pub fn pad(self, padding: impl IntoPadding<D>, mode: impl Into<PadMode>) -> Self {
        self.pad_dims(padding.into_padding(), mode.into())
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
                PadMode::Constant(value) => self.side_fill(dim, count, value as f64),
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
