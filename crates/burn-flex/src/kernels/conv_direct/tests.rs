//! The direct kernel against the definition, on every instruction set the CPU runs.

use super::*;
use crate::kernels::conv_reference::{
    F32Kernel, check_f32_kernel, check_f32_kernel_nested, per_isa,
};

/// The direct kernel with the register tile of `tile`, as the reference checks take it.
fn kernel(tile: Isa) -> F32Kernel {
    F32Kernel {
        conv: conv_f32_with,
        isa: tile,
        tol: 1e-5,
    }
}

/// `(x, w, padding, dilation, groups)` in lifted 3-d form.
type Problem = ([usize; 5], [usize; 5], [usize; 3], [usize; 3], usize);

#[test]
fn direct_matches_the_definition() {
    let problems: &[Problem] = &[
        // W5's shape, smaller: 3×3, padding 1, a full 8-channel block.
        (
            [2, 16, 1, 14, 14],
            [16, 16, 1, 3, 3],
            [0, 1, 1],
            [1, 1, 1],
            1,
        ),
        // A channel tail (13 = 8 + 5), batch 1 (tiles split between threads), no padding.
        ([1, 5, 1, 30, 33], [13, 5, 1, 3, 3], [0, 0, 0], [1, 1, 1], 1),
        // Narrow rows (one vector spans several output rows), dilation and groups.
        ([2, 6, 1, 9, 5], [12, 3, 1, 3, 2], [0, 2, 1], [1, 2, 2], 2),
        // 3-d, and 1-d.
        ([1, 3, 5, 6, 7], [9, 3, 2, 3, 3], [1, 1, 0], [2, 1, 1], 1),
        ([3, 4, 1, 1, 70], [8, 4, 1, 1, 5], [0, 0, 2], [1, 1, 3], 1),
        // Padding past the kernel's reach (a 3×1 kernel, padding 2 across): rows keep
        // right zeros of their own.
        ([2, 8, 1, 10, 12], [8, 8, 1, 3, 1], [0, 1, 2], [1, 1, 1], 1),
        // Wide "same" padding: the last output's taps read `pw` values past the last row
        // (18 and 65 past it, beyond the tile slack of older versions).
        (
            [1, 8, 1, 1, 193],
            [8, 8, 1, 1, 37],
            [0, 0, 18],
            [1, 1, 1],
            1,
        ),
        (
            [1, 8, 1, 1, 200],
            [8, 8, 1, 1, 131],
            [0, 0, 65],
            [1, 1, 1],
            1,
        ),
        (
            [1, 8, 1, 19, 127],
            [8, 8, 1, 3, 3],
            [0, 18, 18],
            [1, 18, 18],
            1,
        ),
        // Batch 1 on a small plane with many channels (one task of points, so the output
        // channels are shared between threads) and a channel tail (50 = 6·8 + 2 = 8·6 + 2).
        ([1, 24, 1, 6, 7], [50, 24, 1, 3, 3], [0, 1, 1], [1, 1, 1], 1),
    ];
    for (i, &(xs, ws, padding, dilation, groups)) in problems.iter().enumerate() {
        let g = Geom {
            stride: [1, 1, 1],
            padding,
            dilation,
            groups,
        };
        for tile in per_isa("conv_direct") {
            let what = format!("{tile:?} problem {i}");
            check_f32_kernel(kernel(tile), xs, ws, &g, i as f64, &what);
        }
    }
}

#[test]
fn applies_to_w5_not_to_strided_or_wasteful_grids_or_few_points() {
    let g = |stride, padding| Geom {
        stride,
        padding,
        dilation: [1, 1, 1],
        groups: 1,
    };
    let ws = [64, 64, 1, 3, 3];
    let cpu = Isa::detect().is_some();
    assert_eq!(
        applies(1, ws, &g([1, 1, 1], [0, 1, 1]), [1, 56, 56], [1, 56, 56]),
        cpu
    );
    // Deep layers on small planes: 196 points are too few for one image, 392 enough.
    let same = g([1, 1, 1], [0, 1, 1]);
    let xs14 = [1, 14, 14];
    assert!(!applies(1, [256, 256, 1, 3, 3], &same, xs14, xs14));
    assert_eq!(applies(2, [256, 256, 1, 3, 3], &same, xs14, xs14), cpu);
    // (A batch of 64 below, so that the other rules are the ones tested.)
    assert!(!applies(
        64,
        ws,
        &g([1, 2, 2], [0, 1, 1]),
        [1, 56, 56],
        [1, 28, 28]
    ));
    // A 4×4 image padded to 6×6: 22 grid points for 16 outputs, one 48-point tile.
    assert!(!applies(
        64,
        ws,
        &g([1, 1, 1], [0, 1, 1]),
        [1, 4, 4],
        [1, 4, 4]
    ));
    // No input channels, or an empty image that padding alone gives outputs.
    assert!(!applies(
        64,
        [64, 0, 1, 3, 3],
        &g([1, 1, 1], [0, 1, 1]),
        [1, 56, 56],
        [1, 56, 56]
    ));
    assert!(!applies(
        64,
        [8, 8, 1, 1, 1],
        &g([1, 1, 1], [0, 1, 1]),
        [1, 0, 100],
        [1, 2, 102]
    ));
}

#[test]
fn stride_1_transposed_convolutions_run_direct() {
    if Isa::detect().is_none() {
        return;
    }
    // The first stride-1 case of `conv_transpose`'s tests (which check the values).
    let g = Geom {
        stride: [1, 1, 1],
        padding: [0, 1, 1],
        dilation: [1, 1, 1],
        groups: 1,
    };
    let (xs, ws) = ([2, 8, 1, 10, 12], [8, 8, 1, 3, 3]);
    let (x, w) = (vec![0.0; 2 * 8 * 120], vec![0.0; 8 * 8 * 9]);
    let args = ConvArgs {
        x: &x,
        x_shape: xs,
        w: &w,
        w_shape: ws,
        bias: None,
        g: &g,
        os: [1, 10, 12],
    };
    assert!(transposed_f32(&args).is_some());
    // An output padding (a grid one larger) or a stride keeps the gemm path.
    let padded_out = ConvArgs {
        os: [1, 11, 13],
        ..args
    };
    assert!(transposed_f32(&padded_out).is_none());
    let strided = Geom {
        stride: [1, 2, 2],
        ..g
    };
    let strided = ConvArgs {
        g: &strided,
        os: [1, 19, 23],
        ..args
    };
    assert!(transposed_f32(&strided).is_none());
}

#[test]
fn runs_inside_rayon_tasks() {
    if Isa::detect().is_none() {
        return;
    }
    // Batch 1 splits tiles between threads.
    let g = Geom {
        stride: [1, 1, 1],
        padding: [0, 1, 1],
        dilation: [1, 1, 1],
        groups: 1,
    };
    for tile in per_isa("conv_direct") {
        check_f32_kernel_nested(kernel(tile), [1, 8, 1, 40, 40], [8, 8, 1, 3, 3], &g);
    }
}
