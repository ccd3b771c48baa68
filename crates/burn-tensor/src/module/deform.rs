//! Deformable 2-d convolution (`torchvision.ops.deform_conv2d`): each kernel tap reads the input
//! at its place shifted by a learned offset (bilinearly, zeros outside), optionally scaled by a
//! mask, then the taps are combined by the weight as in a convolution. Composed from gathers and
//! a matmul, so it differentiates with respect to the input, offsets, mask, weight and bias.

use crate::tensor::check;
use crate::tensor::grid_sample::tap;
use crate::{Int, Tensor};
use burn_backend::ops::DeformConvOptions;

/// The values of `planes [n, c, h·w]` at real positions `y`, `x` (`[n, l]` each) by bilinear
/// interpolation, corners outside the plane reading zero: `[n, c, l]`.
fn bilinear(planes: &Tensor<3>, y: Tensor<2>, x: Tensor<2>, [h, w]: [usize; 2]) -> Tensor<3> {
    let n = planes.dims()[0];
    let l = y.dims()[1];
    let (y0, x0) = (y.clone().floor(), x.clone().floor());
    let (wy1, wx1) = (y - y0.clone(), x - x0.clone());
    let (wy0, wx0) = (wy1.clone().neg() + 1.0, wx1.clone().neg() + 1.0);
    let (y0, x0): (Tensor<2, Int>, Tensor<2, Int>) = (y0.int(), x0.int());
    let corner = |dy: i64, dx: i64, weight: Tensor<2>| -> Tensor<3> {
        let (cy, cx) = (y0.clone().add_scalar(dy), x0.clone().add_scalar(dx));
        let (values, inside) = tap(planes, cy, cx, [h, w]);
        let weight: Tensor<3> = weight.reshape([n, 1, l]);
        (values * weight).mask_fill(inside.bool_not(), 0.0)
    };
    corner(0, 0, wy0.clone() * wx0.clone())
        + corner(0, 1, wy0 * wx1.clone())
        + corner(1, 0, wy1.clone() * wx0)
        + corner(1, 1, wy1 * wx1)
}

/// Deformable 2-d convolution of `x [n, c_in, h, w]` by `weight [c_out, c_in / weight_groups,
/// kh, kw]` (`torchvision.ops.deform_conv2d`): tap `(i, j)` of output `(oy, ox)` reads offset
/// group `g`'s channels at `(oy·s - p + i·d + Δy, ox·s - p + j·d + Δx)`, the shifts taken from
/// `offset [n, 2 · offset_groups · kh · kw, oh, ow]` (channel `g·2·kh·kw + 2·(i·kw + j)` for
/// `Δy`, the next for `Δx`), each tap scaled by `mask [n, offset_groups · kh · kw, oh, ow]`
/// when given; plus `bias [c_out]`.
pub fn deform_conv2d(
    x: Tensor<4>,
    offset: Tensor<4>,
    weight: Tensor<4>,
    mask: Option<Tensor<4>>,
    bias: Option<Tensor<1>>,
    options: DeformConvOptions<2>,
) -> Tensor<4> {
    let op = "deform_conv2d";
    let [n, c_in, h, w] = x.dims();
    let [c_out, c_group, kh, kw] = weight.dims();
    let (wg, og) = (options.weight_groups, options.offset_groups);
    let taps = kh * kw;
    let size: [usize; 2] = core::array::from_fn(|i| {
        let extent = options.dilation[i] * ([kh, kw][i] - 1) + 1;
        ([h, w][i] + 2 * options.padding[i]).saturating_sub(extent) / options.stride[i] + 1
    });
    let [oh, ow] = size;
    let expected_offset = [n, 2 * og * taps, oh, ow];
    let bad_groups =
        wg == 0 || og == 0 || c_in % og != 0 || c_in != c_group * wg || c_out % wg != 0;
    if bad_groups
        || offset.dims() != expected_offset
        || mask
            .as_ref()
            .is_some_and(|m| m.dims() != [n, og * taps, oh, ow])
    {
        check::fail(
            op,
            format_args!(
                "expected x [n, c_in, h, w], weight [c_out, c_in / {wg}, kh, kw], offset {expected_offset:?} and mask [n, {}, {oh}, {ow}], got {:?}, {:?}, {:?} and {:?}",
                og * taps,
                x.dims(),
                weight.dims(),
                offset.dims(),
                mask.as_ref().map(|m| m.dims())
            ),
        );
    }
    check::same_device(op, &x.device(), &offset.device());
    let l = oh * ow;
    let (device, dtype) = (x.device(), x.dtype());
    // The undeformed position of every output and tap along one axis: `[l]` per tap.
    let base = |axis: usize, tap: usize| -> Tensor<2> {
        let k = [tap / kw, tap % kw][axis];
        let values: Vec<f64> = (0..l)
            .map(|o| {
                let out = [o / ow, o % ow][axis];
                (out * options.stride[axis] + k * options.dilation[axis]) as f64
                    - options.padding[axis] as f64
            })
            .collect();
        Tensor::<1>::from_data(crate::TensorData::new(values, [l]), (&device, dtype))
            .reshape([1, l])
    };
    let per_group = c_in / og;
    let planes: Tensor<3> = x.reshape([n, c_in, h * w]);
    let offset: Tensor<3> = offset.reshape([n, 2 * og * taps, l]);
    let mask: Option<Tensor<3>> = mask.map(|m| m.reshape([n, og * taps, l]));
    let mut columns = Vec::with_capacity(og);
    for g in 0..og {
        let group = planes.clone().narrow(1, g * per_group, per_group);
        let sampled: Vec<Tensor<3>> = (0..taps)
            .map(|t| {
                let channel = g * 2 * taps + 2 * t;
                let dy: Tensor<2> = offset.clone().narrow(1, channel, 1).reshape([n, l]);
                let dx: Tensor<2> = offset.clone().narrow(1, channel + 1, 1).reshape([n, l]);
                let value = bilinear(&group, base(0, t) + dy, base(1, t) + dx, [h, w]);
                match &mask {
                    Some(mask) => value * mask.clone().narrow(1, g * taps + t, 1),
                    None => value,
                }
            })
            .collect();
        // `[n, per_group, taps, l]`: the columns of this offset group, taps within channels.
        columns.push(Tensor::stack::<4>(sampled, 2));
    }
    let columns: Tensor<4> = Tensor::cat(columns, 1);
    // Grouped matmul: `[wg, c_out / wg, c_group · taps]` by `[n, wg, c_group · taps, l]`.
    let columns: Tensor<4> = columns.reshape([n, wg, c_group * taps, l]);
    let weight: Tensor<4> = weight.reshape([1, wg, c_out / wg, c_group * taps]);
    let out = weight.matmul(columns).reshape([n, c_out, oh, ow]);
    match bias {
        Some(bias) => out + bias.reshape([1, c_out, 1, 1]),
        None => out,
    }
}
