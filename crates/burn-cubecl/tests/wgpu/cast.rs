//! Casts between every pair of dtypes the device stores.

use crate::creation::arithmetic_dtypes;
use crate::device_or_skip;
use crate::harness::{read, round_to, tensor};
use burn_backend::DType;
use burn_cubecl::kernel::cast;

/// Values every dtype holds exactly, zeros included (negative ones where signed).
fn values(from: DType, to: DType) -> Vec<f64> {
    let signed = |d: DType| d.is_float() || d.is_signed_int();
    let mut v: Vec<f64> = vec![
        0.0, 1.0, 2.0, 7.0, 0.0, 100.0, 3.0, 64.0, 5.0, 0.0, 1.0, 9.0,
    ];
    if from.is_float() {
        v = v
            .iter()
            .enumerate()
            .map(|(i, x)| if i % 3 == 1 { x + 0.75 } else { *x })
            .collect();
    }
    if signed(from) && signed(to) {
        v = v
            .iter()
            .enumerate()
            .map(|(i, x)| if i % 2 == 1 { -x } else { *x })
            .collect();
    }
    if from.is_bool() {
        v = v.iter().map(|&x| f64::from(u8::from(x != 0.0))).collect();
    }
    v
}

#[test]
fn every_pair_of_dtypes() {
    let device = device_or_skip!();
    let dtypes = arithmetic_dtypes(&device);
    for &from in &dtypes {
        for &to in &dtypes {
            let x = values(from, to);
            let x = round_to(&x, from);
            // `as` semantics: truncation toward zero to integers, non-zero to true.
            let expected: Vec<f64> = x
                .iter()
                .map(|&v| {
                    if to.is_bool() {
                        f64::from(u8::from(v != 0.0))
                    } else if to.is_float() {
                        v
                    } else {
                        v.trunc()
                    }
                })
                .collect();
            for shape in [&[12usize][..], &[3, 4]] {
                let out = cast(tensor(&device, &x, shape, from), to);
                assert_eq!(
                    read(out, shape, to),
                    round_to(&expected, to),
                    "cast {from} -> {to} {shape:?}"
                );
            }
            // A transposed input.
            let t = tensor(&device, &x, &[3, 4], from).swap_dims(0, 1);
            let transposed: Vec<f64> = (0..12).map(|i| expected[(i % 3) * 4 + i / 3]).collect();
            assert_eq!(
                read(cast(t, to), &[4, 3], to),
                round_to(&transposed, to),
                "cast {from} -> {to} transposed"
            );
        }
    }
}
