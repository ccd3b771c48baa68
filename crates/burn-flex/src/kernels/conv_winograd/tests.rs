//! The Winograd kernel against the direct definition.

use super::*;
use crate::kernels::conv_reference::{
    F32Kernel, WINOGRAD_TOLERANCE, check_f32_kernel, check_f32_kernel_nested, per_isa,
};

/// The kernel on `isa`, as the reference checks take it.
fn kernel(isa: Isa) -> F32Kernel {
    F32Kernel {
        conv: conv_f32_with,
        isa,
        tol: WINOGRAD_TOLERANCE,
    }
}

/// `(x, w, padding)` in lifted 3-d form.
type Problem = ([usize; 5], [usize; 5], [usize; 3]);

#[test]
fn winograd_matches_the_definition() {
    let problems: &[Problem] = &[
        // W5's shape, smaller.
        ([2, 16, 1, 14, 14], [16, 16, 1, 3, 3], [0, 1, 1]),
        // Odd output extents (a half tile at the bottom and right), no padding, channel
        // counts off the register tile (17 in, 20 out).
        ([1, 17, 1, 13, 15], [20, 17, 1, 3, 3], [0, 0, 0]),
        // Wide rows (runs of 16, 16 and 3 tiles), padding 2 (patches wholly in the padding).
        ([1, 16, 1, 9, 70], [16, 16, 1, 3, 3], [0, 2, 2]),
        // Several blocks per image, blocks starting inside a tile row, unequal paddings.
        ([3, 16, 1, 40, 41], [24, 16, 1, 3, 3], [0, 1, 0]),
        // The smallest output it takes (2×2) and a tall narrow image.
        ([2, 32, 1, 2, 2], [16, 32, 1, 3, 3], [0, 1, 1]),
        ([1, 16, 1, 37, 3], [16, 16, 1, 3, 3], [0, 1, 1]),
        // Padding 3: whole patches, and whole output rows, in the padding (bias only).
        ([1, 16, 1, 5, 6], [19, 16, 1, 3, 3], [0, 3, 3]),
        // 64 channels each way: the smallest blocks (48 tiles), two per image.
        ([1, 64, 1, 12, 20], [64, 64, 1, 3, 3], [0, 1, 1]),
    ];
    for (i, &(xs, ws, padding)) in problems.iter().enumerate() {
        let g = Geom {
            stride: [1, 1, 1],
            padding,
            dilation: [1, 1, 1],
            groups: 1,
        };
        // Most of these are below `MIN_TILES`: the kernel is checked directly, whether or not
        // `applies` would give it the problem.
        for isa in per_isa("conv_winograd") {
            let what = format!("problem {i} {isa:?}");
            check_f32_kernel(kernel(isa), xs, ws, &g, i as f64, &what);
        }
    }
}

#[test]
fn applies_to_w5_not_to_other_kernels_strides_few_channels_or_few_tiles() {
    let g = |stride, padding, dilation, groups| Geom {
        stride,
        padding,
        dilation,
        groups,
    };
    let plain = g([1, 1, 1], [0, 1, 1], [1, 1, 1], 1);
    let (xs, os) = ([1, 56, 56], [1, 56, 56]);
    let cpu = Isa::detect().is_some();
    // W5 (1568 tiles) and one of its images (196).
    assert_eq!(applies(8, [64, 64, 1, 3, 3], &plain, xs, os), cpu);
    assert_eq!(applies(1, [64, 64, 1, 3, 3], &plain, xs, os), cpu);
    // Deep layers on small planes: 4 and 128 tiles are too few, 192 are enough.
    let (xs7, xs14) = ([1, 7, 7], [1, 14, 14]);
    assert!(!applies(1, [512, 512, 1, 3, 3], &plain, xs7, xs7));
    assert!(!applies(8, [256, 256, 1, 3, 3], &plain, xs14, xs14));
    assert_eq!(applies(12, [256, 256, 1, 3, 3], &plain, xs14, xs14), cpu);
    // Strided, dilated, grouped, 5×5, 3-d, or too few channels: not Winograd.
    let strided = g([1, 2, 2], [0, 1, 1], [1, 1, 1], 1);
    assert!(!applies(8, [64, 64, 1, 3, 3], &strided, xs, [1, 28, 28]));
    let dilated = g([1, 1, 1], [0, 2, 2], [1, 2, 2], 1);
    assert!(!applies(8, [64, 64, 1, 3, 3], &dilated, xs, os));
    let grouped = g([1, 1, 1], [0, 1, 1], [1, 1, 1], 2);
    assert!(!applies(8, [64, 32, 1, 3, 3], &grouped, xs, os));
    assert!(!applies(8, [64, 64, 1, 5, 5], &plain, xs, [1, 54, 54]));
    assert!(!applies(
        8,
        [64, 64, 3, 3, 3],
        &plain,
        [3, 56, 56],
        [1, 56, 56]
    ));
    assert!(!applies(8, [64, 8, 1, 3, 3], &plain, xs, os));
    assert!(!applies(8, [8, 64, 1, 3, 3], &plain, xs, os));
}

#[test]
fn runs_inside_rayon_tasks() {
    let g = Geom {
        stride: [1, 1, 1],
        padding: [0, 1, 1],
        dilation: [1, 1, 1],
        groups: 1,
    };
    for isa in per_isa("conv_winograd") {
        let (xs, ws) = ([1, 16, 1, 30, 30], [16, 16, 1, 3, 3]);
        check_f32_kernel_nested(kernel(isa), xs, ws, &g);
    }
}
