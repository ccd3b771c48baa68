//! Resizing with `interpolate`: nearest, nearest-exact, bilinear and bicubic, up and down, with
//! `align_corners` both ways (PyTorch's formulas; nearest ignores `align_corners`, as in
//! PyTorch), sized by an output size or a scale factor; the options the backends do not
//! implement are refused by name.

use burn::tensor::module::{interpolate, interpolate_output_size};
use burn::tensor::ops::{
    GridSampleOptions, GridSamplePaddingMode, InterpolateMode, InterpolateOptions,
};
use burn_backend_tests::{Env, Layout, RefArray, seed};

const SIZES: [([usize; 4], [usize; 2]); 5] = [
    ([1, 1, 2, 2], [4, 4]),
    ([2, 3, 4, 5], [7, 3]),
    ([1, 2, 6, 6], [3, 2]),
    ([1, 1, 5, 3], [5, 8]),
    ([1, 1, 3, 4], [1, 1]),
];

fn run(
    mode: InterpolateMode,
    align_corners: bool,
    reference: impl Fn(&RefArray, [usize; 2]) -> RefArray,
    factor: f64,
) {
    let env = Env::new(crate::device());
    let options = InterpolateOptions::new(mode).with_align_corners(align_corners);
    for (k, (shape, out)) in SIZES.into_iter().enumerate() {
        let x = env.random(
            &shape,
            -2.0,
            2.0,
            seed(&format!("{mode:?}{align_corners}")) + k as u64,
        );
        let expected = reference(&x, out);
        for layout in Layout::ALL {
            let got = interpolate(env.float_in(&x, layout), options.with_output_size(out));
            let label = format!(
                "interpolate {mode:?} align_corners={align_corners} {shape:?} -> {out:?} ({layout:?})"
            );
            env.check(&label, got, &expected, factor);
        }
    }
}

#[test]
fn nearest() {
    run(
        InterpolateMode::Nearest,
        false,
        |x, out| x.interpolate_nearest(out),
        0.0,
    );
}

#[test]
fn nearest_exact() {
    run(
        InterpolateMode::NearestExact,
        false,
        |x, out| x.interpolate_nearest_exact(out),
        0.0,
    );
}

#[test]
fn scale_factor_sizes_the_output() {
    // F.interpolate(x, scale_factor=2, mode='nearest') of [1, 1, 2, 3] is [1, 1, 4, 6].
    let env = Env::new(crate::device());
    let x = env.random(&[1, 1, 2, 3], -2.0, 2.0, seed("interpolate scale"));
    let options = InterpolateOptions::new(InterpolateMode::Nearest).with_scale_factor([2.0, 2.0]);
    assert_eq!(interpolate_output_size([2, 3], &options), [4, 6]);
    let got = interpolate(env.float(&x), options);
    env.check("nearest scale 2", got, &x.interpolate_nearest([4, 6]), 0.0);
    let options = InterpolateOptions::new(InterpolateMode::Bilinear)
        .with_align_corners(false)
        .with_scale_factor([0.5, 1.0 / 3.0]);
    let got = interpolate(env.float(&x), options);
    env.check(
        "bilinear scale 1/2, 1/3",
        got,
        &x.interpolate_bilinear([1, 1], false),
        2.0,
    );
}

#[test]
#[should_panic(expected = "give no whole output size")]
fn inexact_scale_factor_is_refused() {
    let env = Env::new(crate::device());
    let x = env.random(&[1, 1, 3, 3], -2.0, 2.0, 7);
    let options = InterpolateOptions::new(InterpolateMode::Nearest).with_scale_factor([1.5, 1.5]);
    interpolate(env.float(&x), options);
}

#[test]
#[should_panic(expected = "Lanczos3 with AlignCorners coordinates")]
fn unsupported_mode_is_refused() {
    let env = Env::new(crate::device());
    let x = env.random(&[1, 1, 3, 3], -2.0, 2.0, 8);
    let options = InterpolateOptions::new(InterpolateMode::Lanczos3).with_output_size([4, 4]);
    interpolate(env.float(&x), options);
}

#[test]
#[should_panic(expected = "expected output_size or scale_factor")]
fn missing_size_is_refused() {
    let env = Env::new(crate::device());
    let x = env.random(&[1, 1, 3, 3], -2.0, 2.0, 9);
    interpolate(
        env.float(&x),
        InterpolateOptions::new(InterpolateMode::Nearest),
    );
}

#[test]
fn nearest_ignores_align_corners() {
    run(
        InterpolateMode::Nearest,
        true,
        |x, out| x.interpolate_nearest(out),
        0.0,
    );
}

#[test]
fn bilinear_align_corners() {
    run(
        InterpolateMode::Bilinear,
        true,
        |x, out| x.interpolate_bilinear(out, true),
        2.0,
    );
}

#[test]
fn bilinear_half_pixel() {
    run(
        InterpolateMode::Bilinear,
        false,
        |x, out| x.interpolate_bilinear(out, false),
        2.0,
    );
}

#[test]
fn bicubic_align_corners() {
    run(
        InterpolateMode::Bicubic,
        true,
        |x, out| x.interpolate_bicubic(out, true),
        4.0,
    );
}

#[test]
fn bicubic_half_pixel() {
    run(
        InterpolateMode::Bicubic,
        false,
        |x, out| x.interpolate_bicubic(out, false),
        4.0,
    );
}

#[test]
fn bilinear_known_values() {
    // F.interpolate(torch.tensor([[[[1., 2.], [4., 5.]]]]), size=(4, 4), mode='bilinear',
    //   align_corners=True)[0, 0, 0] = [1.0000, 1.3333, 1.6667, 2.0000]
    // align_corners=False: [1.0000, 1.2500, 1.7500, 2.0000]
    let env = Env::new(crate::device());
    let x = RefArray::new(&[1, 1, 2, 2], vec![1.0, 2.0, 4.0, 5.0]);
    let options = InterpolateOptions::new(InterpolateMode::Bilinear);
    let got =
        interpolate(env.float(&x), options.with_output_size([4, 4])).slice([0..1, 0..1, 0..1]);
    let expected = env.round(&RefArray::new(
        &[1, 1, 1, 4],
        vec![1.0, 4.0 / 3.0, 5.0 / 3.0, 2.0],
    ));
    env.check("bilinear align_corners known", got, &expected, 1.0);
    let options = options.with_align_corners(false).with_output_size([4, 4]);
    let got = interpolate(env.float(&x), options).slice([0..1, 0..1, 0..1]);
    let expected = RefArray::new(&[1, 1, 1, 4], vec![1.0, 1.25, 1.75, 2.0]);
    env.check("bilinear half pixel known", got, &expected, 1.0);
}

#[test]
fn nearest_known_values() {
    // F.interpolate(torch.arange(3.).reshape(1, 1, 1, 3), size=(1, 6), mode='nearest')
    //   = [[[[0., 0., 1., 1., 2., 2.]]]]
    let env = Env::new(crate::device());
    let x = RefArray::iota(&[1, 1, 1, 3]);
    let options = InterpolateOptions::new(InterpolateMode::Nearest).with_output_size([1, 6]);
    let got = interpolate(env.float(&x), options);
    env.check(
        "nearest known",
        got,
        &RefArray::new(&[1, 1, 1, 6], vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0]),
        0.0,
    );
}

/// PyTorch's `grid_sample` of one image at one point, scalar by scalar: the value of plane
/// `(b, ch)` of `x [n, c, h, w]` at normalized `(gx, gy)`.
#[allow(clippy::too_many_arguments)]
fn grid_sample_at(
    x: &RefArray,
    b: usize,
    ch: usize,
    (gx, gy): (f64, f64),
    bilinear: bool,
    padding: GridSamplePaddingMode,
    align: bool,
) -> f64 {
    let [h, w] = [x.shape[2], x.shape[3]];
    let coord = |g: f64, size: usize| {
        let size = size as f64;
        let mut c = if align {
            (g + 1.0) / 2.0 * (size - 1.0)
        } else {
            ((g + 1.0) * size - 1.0) / 2.0
        };
        match padding {
            GridSamplePaddingMode::Zeros => {}
            GridSamplePaddingMode::Border => c = c.clamp(0.0, size - 1.0),
            GridSamplePaddingMode::Reflection => {
                let (low, high) = if align {
                    (0.0, size - 1.0)
                } else {
                    (-0.5, size - 0.5)
                };
                let span = high - low;
                if span <= 0.0 {
                    c = 0.0;
                } else {
                    let mut d = (c - low).abs();
                    // Fold back and forth until inside.
                    let mut forward = true;
                    while d > span {
                        d -= span;
                        forward = !forward;
                    }
                    c = if forward { low + d } else { high - d };
                }
                c = c.clamp(0.0, size - 1.0);
            }
        }
        c
    };
    let (ix, iy) = (coord(gx, w), coord(gy, h));
    let read = |y: f64, xx: f64| {
        if y < 0.0 || xx < 0.0 || y >= h as f64 || xx >= w as f64 {
            0.0
        } else {
            x.at(&[b, ch, y as usize, xx as usize])
        }
    };
    if !bilinear {
        return read(iy.round_ties_even(), ix.round_ties_even());
    }
    let (x0, y0) = (ix.floor(), iy.floor());
    let (tx, ty) = (ix - x0, iy - y0);
    (1.0 - ty) * ((1.0 - tx) * read(y0, x0) + tx * read(y0, x0 + 1.0))
        + ty * ((1.0 - tx) * read(y0 + 1.0, x0) + tx * read(y0 + 1.0, x0 + 1.0))
}

#[test]
fn grid_sample_2d_follows_torch() {
    // torch.nn.functional.grid_sample(x, grid, mode, padding_mode, align_corners), with points
    // inside, on the border and outside the image.
    let env = Env::new(crate::device());
    let x = env.random(&[2, 3, 4, 5], -2.0, 2.0, seed("grid_sample x"));
    let grid = env.random(&[2, 3, 6, 2], -1.4, 1.4, seed("grid_sample grid"));
    for mode in [InterpolateMode::Bilinear, InterpolateMode::Nearest] {
        for padding in [
            GridSamplePaddingMode::Zeros,
            GridSamplePaddingMode::Border,
            GridSamplePaddingMode::Reflection,
        ] {
            for align in [false, true] {
                let expected = RefArray::from_fn(&[2, 3, 3, 6], |i| {
                    let point = (
                        grid.at(&[i[0], i[2], i[3], 0]),
                        grid.at(&[i[0], i[2], i[3], 1]),
                    );
                    let bilinear = mode == InterpolateMode::Bilinear;
                    grid_sample_at(&x, i[0], i[1], point, bilinear, padding, align)
                });
                let options = GridSampleOptions::new(mode)
                    .with_padding_mode(padding)
                    .with_align_corners(align);
                let got = env.float::<4>(&x).grid_sample_2d(env.float(&grid), options);
                let label = format!("grid_sample_2d {mode:?} {padding:?} align={align}");
                env.check(&label, got, &expected, 4.0);
            }
        }
    }
}
