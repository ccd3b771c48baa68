//! Interpolation and its backward against float64 references: every mode, `align_corners`
//! both ways, up- and down-sampling (and mixed, to and from one sample), batches,
//! channels-last (permuted) inputs, every float dtype. The reference is the separable linear
//! map `Y = Wy · X · Wxᵀ` per plane, its per-axis matrices written from PyTorch's definitions;
//! the backward is its adjoint `Wyᵀ · G · Wx`.

use crate::conv::{at4, dot, expect_panic, nchw};
use crate::device_or_skip;
use crate::harness::{assert_close, random_values, read, rng, round_to, tensor, tolerance};
use crate::unary::float_dtypes;
use burn_backend::{DType, InterpolateMode, InterpolateOptions};
use burn_cubecl::kernel::{interpolate, interpolate_backward};

/// The Keys cubic kernel W(d), a = −0.75.
fn keys(d: f64) -> f64 {
    let (a, d) = (-0.75, d.abs());
    if d <= 1.0 {
        (a + 2.0) * d.powi(3) - (a + 3.0) * d.powi(2) + 1.0
    } else if d < 2.0 {
        a * d.powi(3) - 5.0 * a * d.powi(2) + 8.0 * a * d - 4.0 * a
    } else {
        0.0
    }
}

/// The `[out, len]` matrix of one axis: row `o` holds the weights of the inputs output `o`
/// reads (indices clamped into the axis).
fn axis_matrix(mode: InterpolateMode, align: bool, len: usize, out: usize) -> Vec<Vec<f64>> {
    let src = |o: usize| match (align, out) {
        (true, 1) => 0.0,
        (true, _) => o as f64 * (len as f64 - 1.0) / (out as f64 - 1.0),
        (false, _) => (o as f64 + 0.5) * len as f64 / out as f64 - 0.5,
    };
    let clamp = |i: isize| i.clamp(0, len as isize - 1) as usize;
    (0..out)
        .map(|o| {
            let mut row = vec![0.0; len];
            match mode {
                InterpolateMode::Nearest => row[clamp((o * len / out) as isize)] = 1.0,
                InterpolateMode::NearestExact => {
                    let s = (o as f64 + 0.5) * len as f64 / out as f64;
                    row[clamp(s.floor() as isize)] = 1.0;
                }
                InterpolateMode::Lanczos3 => unreachable!("not among MODES"),
                InterpolateMode::Bilinear => {
                    let s = src(o).max(0.0);
                    let (i0, t) = (s.floor(), s - s.floor());
                    row[clamp(i0 as isize)] += 1.0 - t;
                    row[clamp(i0 as isize + 1)] += t;
                }
                InterpolateMode::Bicubic => {
                    let s = src(o);
                    let base = s.floor() as isize;
                    for i in base - 1..=base + 2 {
                        row[clamp(i)] += keys(s - i as f64);
                    }
                }
            }
            row
        })
        .collect()
}

/// `Wy · X · Wxᵀ` for every plane of `x [n, c, h, w]`.
fn apply(wy: &[Vec<f64>], wx: &[Vec<f64>], x: &[f64], shape: [usize; 4]) -> Vec<f64> {
    let [n, c, h, w] = shape;
    let out = [n, c, wy.len(), wx.len()];
    let mut y = vec![0.0; out.iter().product()];
    for b in 0..n {
        for ch in 0..c {
            for (oy, ry) in wy.iter().enumerate() {
                for (ox, rx) in wx.iter().enumerate() {
                    y[at4(out, b, ch, oy, ox)] = (0..h)
                        .flat_map(|iy| (0..w).map(move |ix| (iy, ix)))
                        .map(|(iy, ix)| ry[iy] * rx[ix] * x[at4(shape, b, ch, iy, ix)])
                        .sum();
                }
            }
        }
    }
    y
}

/// `Wᵀ` of an `[out, len]` matrix.
fn transpose(m: &[Vec<f64>]) -> Vec<Vec<f64>> {
    (0..m[0].len())
        .map(|j| m.iter().map(|row| row[j]).collect())
        .collect()
}

const MODES: [InterpolateMode; 4] = [
    InterpolateMode::Nearest,
    InterpolateMode::NearestExact,
    InterpolateMode::Bilinear,
    InterpolateMode::Bicubic,
];

/// Input shapes and output sizes: up, down, mixed, to and from a single sample.
const SIZES: [([usize; 4], [usize; 2]); 7] = [
    ([1, 1, 3, 4], [7, 9]),
    ([2, 3, 8, 9], [3, 4]),
    ([1, 2, 5, 5], [5, 8]),
    ([2, 1, 6, 4], [11, 3]),
    ([1, 1, 4, 5], [1, 1]),
    ([1, 2, 1, 6], [4, 2]),
    ([1, 1, 16, 13], [5, 29]),
];

#[test]
fn interpolate_and_backward_match_the_definition() {
    let device = device_or_skip!();
    for dtype in float_dtypes(&device) {
        let (abs, rel) = tolerance(dtype);
        // Source coordinates are computed in f32 (f64 for f64 tensors), weights follow them.
        let (abs, rel) = if dtype == DType::F32 {
            (abs * 10.0, rel * 10.0)
        } else {
            (abs, rel)
        };
        for mode in MODES {
            for align in [false, true] {
                for (i, &(shape, out)) in SIZES.iter().enumerate() {
                    let [n, c, h, w] = shape;
                    let out_shape = [n, c, out[0], out[1]];
                    let (wy, wx) = (
                        axis_matrix(mode, align, h, out[0]),
                        axis_matrix(mode, align, w, out[1]),
                    );
                    let mut r = rng(500 + i as u64);
                    let x = random_values(&mut r, &[shape.iter().product()], dtype, -1.0, 1.0);
                    let g = random_values(&mut r, &[out_shape.iter().product()], dtype, -1.0, 1.0);
                    let expected = apply(&wy, &wx, &x, shape);
                    let expected_dx = apply(&transpose(&wy), &transpose(&wx), &g, out_shape);
                    let options = InterpolateOptions::new(mode).with_align_corners(align);
                    let what = format!("{dtype} {mode:?} align {align} {shape:?} -> {out:?}");
                    let channels_last = (i + usize::from(align)) % 2 == 1;
                    let y =
                        interpolate(nchw(&device, &x, shape, dtype, channels_last), out, options);
                    assert_close(
                        &format!("interpolate {what}"),
                        &read(y, &out_shape, dtype),
                        &round_to(&expected, dtype),
                        (abs * 2.0, rel * 2.0),
                    );
                    let dx = interpolate_backward(
                        tensor(&device, &x, &shape, dtype),
                        nchw(&device, &g, out_shape, dtype, !channels_last),
                        out,
                        options,
                    );
                    // Each input collects about (out / len + 4)² gradient values.
                    let fan = ((out[0] / h + 4) * (out[1] / w + 4)) as f64;
                    assert_close(
                        &format!("interpolate_backward {what}"),
                        &read(dx, &shape, dtype),
                        &round_to(&expected_dx, dtype),
                        (abs * fan, rel * 4.0),
                    );
                }
            }
        }
    }
}

#[test]
fn interpolate_backward_is_the_adjoint_of_interpolate() {
    // <backward(g), v> == <g, forward(v)> with both sides computed on the device.
    let device = device_or_skip!();
    let dtype = DType::F32;
    let (shape, out) = ([2, 2, 7, 5], [4, 12]);
    let out_shape = [2, 2, 4, 12];
    for mode in MODES {
        for align in [false, true] {
            let options = InterpolateOptions::new(mode).with_align_corners(align);
            let mut r = rng(77);
            let v = random_values(&mut r, &[shape.iter().product()], dtype, -1.0, 1.0);
            let g = random_values(&mut r, &[out_shape.iter().product()], dtype, -1.0, 1.0);
            let fv = read(
                interpolate(tensor(&device, &v, &shape, dtype), out, options),
                &out_shape,
                dtype,
            );
            let bg = interpolate_backward(
                tensor(&device, &v, &shape, dtype),
                tensor(&device, &g, &out_shape, dtype),
                out,
                options,
            );
            let bg = read(bg, &shape, dtype);
            let (lhs, rhs) = (dot(&bg, &v), dot(&g, &fv));
            assert!(
                (lhs - rhs).abs() <= 1e-4 * (1.0 + rhs.abs()),
                "{mode:?} align {align}: {lhs} vs {rhs}"
            );
        }
    }
}

#[test]
fn interpolate_known_values() {
    // F.interpolate(torch.tensor([[[[1., 2.], [3., 4.]]]]), size=(3, 3), mode='bilinear',
    // align_corners=True) == [[1, 1.5, 2], [2, 2.5, 3], [3, 3.5, 4]]
    let device = device_or_skip!();
    let x = tensor(&device, &[1.0, 2.0, 3.0, 4.0], &[1, 1, 2, 2], DType::F32);
    let options = InterpolateOptions::new(InterpolateMode::Bilinear);
    let y = read(
        interpolate(x.clone(), [3, 3], options),
        &[1, 1, 3, 3],
        DType::F32,
    );
    assert_eq!(y, [1.0, 1.5, 2.0, 2.0, 2.5, 3.0, 3.0, 3.5, 4.0]);
    // ... mode='nearest' to (4, 4): each sample repeated twice in each direction.
    let options = InterpolateOptions::new(InterpolateMode::Nearest);
    let y = read(interpolate(x, [4, 4], options), &[1, 1, 4, 4], DType::F32);
    assert_eq!(y[..8], [1.0, 1.0, 2.0, 2.0, 1.0, 1.0, 2.0, 2.0]);
}

#[test]
fn interpolate_misuse_names_the_op() {
    let device = device_or_skip!();
    let t = |shape: &[usize]| {
        let n = shape.iter().product();
        tensor(&device, &vec![0.0; n], shape, DType::F32)
    };
    let options = InterpolateOptions::new(InterpolateMode::Bicubic);
    expect_panic(&["interpolate:", "non-empty input plane"], || {
        interpolate(t(&[1, 1, 0, 3]), [2, 2], options);
    });
    expect_panic(&["interpolate:", "rank 4", "[3, 3]"], || {
        interpolate(t(&[3, 3]), [2, 2], options);
    });
    expect_panic(
        &[
            "interpolate_backward:",
            "output gradient",
            "[1, 1, 2, 2]",
            "[1, 1, 3, 2]",
        ],
        || {
            interpolate_backward(t(&[1, 1, 4, 4]), t(&[1, 1, 3, 2]), [2, 2], options);
        },
    );
}
