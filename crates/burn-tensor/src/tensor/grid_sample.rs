//! `grid_sample_2d` (PyTorch's `F.grid_sample` for images): sampling an image at normalized
//! coordinates, composed from gathers over each plane, so it differentiates with respect to the
//! image and the grid.

use super::check;
use crate::{Bool, Float, Int, Tensor};
use burn_backend::FloatDType;
use burn_backend::ops::{GridSampleOptions, GridSamplePaddingMode, InterpolateMode};

/// A coordinate normalized to `[-1, 1]` mapped to pixel units along an axis of `size`: -1 and 1
/// are the centres of the edge pixels with `align_corners`, their outer edges without.
fn unnormalize(coord: Tensor<3>, size: usize, align_corners: bool) -> Tensor<3> {
    let size = size as f64;
    match align_corners {
        true => (coord + 1.0) * ((size - 1.0) / 2.0),
        false => ((coord + 1.0) * size - 1.0) / 2.0,
    }
}

/// `coord` reflected into `[low, high]` as often as it takes (PyTorch's `reflect_coordinates`).
fn reflect(coord: Tensor<3>, low: f64, high: f64) -> Tensor<3> {
    let span = high - low;
    if span <= 0.0 {
        return coord.zeros_like();
    }
    let distance = (coord - low).abs();
    let flips = (distance.clone() / span).floor();
    let extra = distance - flips.clone() * span;
    let even = flips.remainder_scalar(2.0).equal_elem(0.0);
    let odd_side = (extra.clone() * -1.0) + (span + low);
    (extra + low).mask_where(even.bool_not(), odd_side)
}

/// The source coordinate along an axis of `size` under the padding mode (borders clamp,
/// reflection folds back into the image; zeros leave it, the taps outside weigh nothing).
fn source(coord: Tensor<3>, size: usize, options: &GridSampleOptions) -> Tensor<3> {
    let x = unnormalize(coord, size, options.align_corners);
    let last = size as f64 - 1.0;
    match options.padding_mode {
        GridSamplePaddingMode::Zeros => x,
        GridSamplePaddingMode::Border => x.clamp(0.0, last),
        GridSamplePaddingMode::Reflection => {
            let reflected = match options.align_corners {
                true => reflect(x, 0.0, last),
                false => reflect(x, -0.5, last + 0.5),
            };
            reflected.clamp(0.0, last)
        }
    }
}

/// The values of `planes [n, c, h·w]` at integer positions `(y, x)` (`[n, l]` each), as
/// `[n, c, l]`, and whether each position lies inside the plane (`[n, 1, l]`; the value read
/// there is the nearest edge's, for the caller to zero).
pub(crate) fn tap(
    planes: &Tensor<3>,
    y: Tensor<2, Int>,
    x: Tensor<2, Int>,
    [h, w]: [usize; 2],
) -> (Tensor<3>, Tensor<3, Bool>) {
    let [n, c, _] = planes.dims();
    let l = y.dims()[1];
    let inside = y
        .clone()
        .greater_equal_elem(0)
        .bool_and(y.clone().lower_elem(h as i64))
        .bool_and(x.clone().greater_equal_elem(0))
        .bool_and(x.clone().lower_elem(w as i64));
    let flat = y.clamp(0, h as i64 - 1) * (w as i64) + x.clamp(0, w as i64 - 1);
    let flat: Tensor<3, Int> = flat.reshape([n, 1, l]).expand([n, c, l]);
    (planes.clone().gather(2, flat), inside.reshape([n, 1, l]))
}

impl<const D: usize> Tensor<D, Float> {
    /// Samples the image `self [n, c, h, w]` at the points of `grid [n, h_out, w_out, 2]`, each an
    /// `(x, y)` pair normalized to `[-1, 1]` (`torch.nn.functional.grid_sample` for 4-d inputs):
    /// `[n, c, h_out, w_out]`. Bilinear or nearest (rounding half to even); points outside the
    /// image read zeros, the border or a reflection as `options.padding_mode` says. Gradients reach
    /// the image and, through the bilinear weights, the grid.
    ///
    /// # Panics
    ///
    /// Unless both are rank 4 with matching batch and a grid of pairs; for the bicubic and
    /// Lanczos modes, not supported here.
    pub fn grid_sample_2d(
        self,
        grid: Tensor<D>,
        options: impl Into<GridSampleOptions>,
    ) -> Tensor<D> {
        let op = "grid_sample_2d";
        let options = options.into();
        let (dims, grid_dims) = (self.dims(), grid.dims());
        if D != 4 || grid_dims[0] != dims[0] || grid_dims[D - 1] != 2 {
            check::fail(
                op,
                format_args!(
                    "expected an image [n, c, h, w] and a grid [n, h_out, w_out, 2], got {dims:?} and {grid_dims:?}"
                ),
            );
        }
        check::same_device(op, &self.device(), &grid.device());
        let [n, c, h, w] = [dims[0], dims[1], dims[2], dims[3]];
        let [ho, wo] = [grid_dims[1], grid_dims[2]];
        let dtype = FloatDType::from_dtype(self.dtype());
        let planes: Tensor<3> = self.reshape([n, c, h * w]);
        // Coordinates in at least f32: half precision would move points by up to a pixel.
        let grid: Tensor<4> = match FloatDType::from_dtype(grid.dtype()) {
            FloatDType::F16 | FloatDType::BF16 => grid.cast(FloatDType::F32),
            _ => grid,
        }
        .reshape([n, ho, wo, 2]);
        let gx: Tensor<3> = grid.clone().narrow(3, 0, 1).reshape([n, ho, wo]);
        let gy: Tensor<3> = grid.narrow(3, 1, 1).reshape([n, ho, wo]);
        let (x, y) = (source(gx, w, &options), source(gy, h, &options));
        let out = match options.mode {
            InterpolateMode::Bilinear => {
                let (x0, y0) = (x.clone().floor(), y.clone().floor());
                let (wx1, wy1) = (x - x0.clone(), y - y0.clone());
                let (wx0, wy0) = (wx1.clone().neg() + 1.0, wy1.clone().neg() + 1.0);
                let (x0, y0) = (x0.int(), y0.int());
                let (x1, y1) = (x0.clone().add_scalar(1), y0.clone().add_scalar(1));
                let weight = |a: &Tensor<3>, b: &Tensor<3>| -> Tensor<3> {
                    (a.clone() * b.clone()).reshape([n, 1, ho * wo]).cast(dtype)
                };
                [
                    (&y0, &x0, weight(&wy0, &wx0)),
                    (&y0, &x1, weight(&wy0, &wx1)),
                    (&y1, &x0, weight(&wy1, &wx0)),
                    (&y1, &x1, weight(&wy1, &wx1)),
                ]
                .into_iter()
                .map(|(ty, tx, weight)| {
                    let flat = |t: &Tensor<3, Int>| t.clone().reshape([n, ho * wo]);
                    let (values, inside) = tap(&planes, flat(ty), flat(tx), [h, w]);
                    (values * weight).mask_fill(inside.bool_not(), 0.0)
                })
                .reduce(|a, b| a + b)
                .unwrap_or_else(|| unreachable!("four taps"))
            }
            InterpolateMode::Nearest => {
                let flat = |t: Tensor<3>| t.round().int().reshape([n, ho * wo]);
                let (values, inside) = tap(&planes, flat(y), flat(x), [h, w]);
                values.mask_fill(inside.bool_not(), 0.0)
            }
            mode => check::fail(
                op,
                format_args!("mode {mode:?} is not supported (Bilinear and Nearest are)"),
            ),
        };
        out.reshape(crate::Shape::from(vec![n, c, ho, wo]))
    }
}
