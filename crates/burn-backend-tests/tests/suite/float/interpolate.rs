//! Resizing with `interpolate`: nearest, bilinear and bicubic, up and down, with
//! `align_corners` both ways (PyTorch's formulas; nearest ignores `align_corners`, as in
//! PyTorch).

use burn::tensor::module::interpolate;
use burn::tensor::ops::{InterpolateMode, InterpolateOptions};
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
            let got = interpolate(env.float_in(&x, layout), out, options);
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
    let got = interpolate(env.float(&x), [4, 4], options).slice([0..1, 0..1, 0..1]);
    let expected = env.round(&RefArray::new(
        &[1, 1, 1, 4],
        vec![1.0, 4.0 / 3.0, 5.0 / 3.0, 2.0],
    ));
    env.check("bilinear align_corners known", got, &expected, 1.0);
    let got = interpolate(env.float(&x), [4, 4], options.with_align_corners(false)).slice([
        0..1,
        0..1,
        0..1,
    ]);
    let expected = RefArray::new(&[1, 1, 1, 4], vec![1.0, 1.25, 1.75, 2.0]);
    env.check("bilinear half pixel known", got, &expected, 1.0);
}

#[test]
fn nearest_known_values() {
    // F.interpolate(torch.arange(3.).reshape(1, 1, 1, 3), size=(1, 6), mode='nearest')
    //   = [[[[0., 0., 1., 1., 2., 2.]]]]
    let env = Env::new(crate::device());
    let x = RefArray::iota(&[1, 1, 1, 3]);
    let got = interpolate(
        env.float(&x),
        [1, 6],
        InterpolateOptions::new(InterpolateMode::Nearest),
    );
    env.check(
        "nearest known",
        got,
        &RefArray::new(&[1, 1, 1, 6], vec![0.0, 0.0, 1.0, 1.0, 2.0, 2.0]),
        0.0,
    );
}
