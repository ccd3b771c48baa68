//! Reductions checked against f64 references: dense and strided views, every dimension, ties,
//! NaN, and the outer-dimension path's thread splits.

use super::*;
use burn_std::{Slice, f16};

/// A [4, 5, 6] f64 tensor, and the same values seen through a permuted, flipped, stepped view.
fn inputs() -> Vec<(FlexTensor, Vec<usize>, Vec<f64>)> {
    let base: Vec<f64> = (0..120)
        .map(|i| ((i * 37) % 23) as f64 - 11.0 + 0.25)
        .collect();
    let t = FlexTensor::from_vec(base.clone(), [4, 5, 6]);
    let dense = (t.clone(), vec![4, 5, 6], base.clone());
    let view = t
        .permute(&[2, 0, 1])
        .flip(&[1])
        .slice(&[Slice::new(0, None, 2)]);
    let dims = view.shape().to_vec();
    let values = view.to_vec::<f64>();
    vec![dense, (view, dims, values)]
}

fn reference_dim(
    dims: &[usize],
    values: &[f64],
    dim: usize,
    f: impl Fn(&[f64]) -> f64,
) -> Vec<f64> {
    let outer: usize = dims[..dim].iter().product();
    let inner: usize = dims[dim + 1..].iter().product();
    let mut out = vec![];
    for o in 0..outer {
        for i in 0..inner {
            let line: Vec<f64> = (0..dims[dim])
                .map(|k| values[(o * dims[dim] + k) * inner + i])
                .collect();
            out.push(f(&line));
        }
    }
    out
}

#[test]
fn dim_reductions_match_reference() {
    for (t, dims, values) in inputs() {
        for dim in 0..3 {
            let got = sum_dim(t.clone(), dim);
            let mut shape = dims.clone();
            shape[dim] = 1;
            assert_eq!(got.shape().to_vec(), shape);
            assert_eq!(
                got.to_vec::<f64>(),
                reference_dim(&dims, &values, dim, |l| l.iter().sum())
            );
            let got = mean_dim(t.clone(), dim).to_vec::<f64>();
            let expected = reference_dim(&dims, &values, dim, |l| {
                l.iter().sum::<f64>() / l.len() as f64
            });
            for (g, e) in got.iter().zip(&expected) {
                assert!((g - e).abs() < 1e-12);
            }
            let expected = reference_dim(&dims, &values, dim, |l| {
                l.iter().cloned().fold(f64::MIN, f64::max)
            });
            assert_eq!(max_dim(t.clone(), dim).to_vec::<f64>(), expected);
            let expected_idx = reference_dim(&dims, &values, dim, |l| {
                let m = l.iter().cloned().fold(f64::MAX, f64::min);
                l.iter().position(|&v| v == m).unwrap() as f64
            });
            let (v, i) = min_dim_with_indices(t.clone(), dim, DType::I64);
            let idx: Vec<f64> = i.to_vec::<i64>().into_iter().map(|x| x as f64).collect();
            assert_eq!(idx, expected_idx);
            assert_eq!(v.shape().to_vec(), shape);
            let expected = reference_dim(&dims, &values, dim, |l| l.iter().product());
            assert_eq!(prod_dim(t.clone(), dim).to_vec::<f64>(), expected);
        }
        assert_eq!(
            sum(t.clone()).to_vec::<f64>(),
            vec![values.iter().sum::<f64>()]
        );
        assert_eq!(
            max(t.clone()).to_vec::<f64>(),
            vec![values.iter().cloned().fold(f64::MIN, f64::max)]
        );
    }
}

#[test]
fn ties_nan_and_bools() {
    let t = FlexTensor::from_vec(vec![3i32, 1, 3, 1], [1, 4]);
    assert_eq!(argmax(t.clone(), 1, DType::I64).to_vec::<i64>(), vec![0]);
    assert_eq!(argmin(t.clone(), 1, DType::I32).to_vec::<i32>(), vec![1]);
    assert_eq!(mean(t).to_vec::<i32>(), vec![2]);
    let t = FlexTensor::from_vec(vec![1.0f32, f32::NAN, 5.0, f32::NAN], [4]);
    assert!(max(t.clone()).to_vec::<f32>()[0].is_nan());
    assert!(min_dim(t.clone(), 0).to_vec::<f32>()[0].is_nan());
    assert_eq!(argmax(t.clone(), 0, DType::I64).to_vec::<i64>(), vec![1]);
    assert_eq!(argmin(t, 0, DType::I64).to_vec::<i64>(), vec![1]);
    let b = FlexTensor::from_vec(vec![true, false, false, false], [2, 2]);
    assert_eq!(any(b.clone()).to_vec::<bool>(), vec![true]);
    assert_eq!(all(b.clone()).to_vec::<bool>(), vec![false]);
    assert_eq!(any_dim(b.clone(), 0).to_vec::<bool>(), vec![true, false]);
    assert_eq!(any_dim(b.clone(), 1).to_vec::<bool>(), vec![true, false]);
    assert_eq!(
        all_dim(b.transpose(), 1).to_vec::<bool>(),
        vec![false, false]
    );
    let f = FlexTensor::from_vec(vec![0.0f64, -0.0], [2]);
    assert_eq!(any(f).to_vec::<bool>(), vec![false]);
}

#[test]
fn outer_dimension_reductions_match_the_reference_on_every_path() {
    // `[outer, size, inner]` reduced over `size`: small (one thread), one outer row whose
    // reduced range is split between threads, outer rows shared out, rows longer than a
    // block of accumulators. Integer values repeat, so sums are exact in any order and the
    // extremes tie across the threads' ranges (the first index must win).
    let first = |l: &[f64], v: f64| l.iter().position(|&x| x == v).unwrap() as f64;
    for dims in [
        [2, 3, 4],
        [1, 300, 257],
        [1, 256, 1024],
        [5, 40, 600],
        [1, 33, 2500],
    ] {
        let n: usize = dims.iter().product();
        let mut values: Vec<f64> = (0..n).map(|i| ((i * 37) % 23) as f64 - 11.0).collect();
        // NaN in the second half of column 1's reduced range, twice (the first wins).
        let inner = dims[2];
        if dims[1] > 4 {
            values[(dims[1] - 3) * inner + 1] = f64::NAN;
            values[(dims[1] - 1) * inner + 1] = f64::NAN;
        }
        let t = FlexTensor::from_vec(values.clone(), dims);
        let d = &dims[..];
        let same = |got: Vec<f64>, expected: Vec<f64>, what: &str| {
            assert_eq!(got.len(), expected.len(), "{what} {dims:?}");
            for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert!(
                    g == e || (g.is_nan() && e.is_nan()),
                    "{what} {dims:?} at {i}"
                );
            }
        };
        same(
            sum_dim(t.clone(), 1).to_vec(),
            reference_dim(d, &values, 1, |l| l.iter().sum()),
            "sum",
        );
        let nan_max = |l: &[f64]| l.iter().cloned().fold(f64::MIN, max_nan);
        same(
            max_dim(t.clone(), 1).to_vec(),
            reference_dim(d, &values, 1, nan_max),
            "max",
        );
        let nan_min = |l: &[f64]| l.iter().cloned().fold(f64::MAX, min_nan);
        let to_f64 = |i: FlexTensor| i.to_vec::<i64>().into_iter().map(|x| x as f64).collect();
        same(
            to_f64(argmax(t.clone(), 1, DType::I64)),
            reference_dim(d, &values, 1, |l| match l.iter().position(|x| x.is_nan()) {
                Some(at) => at as f64,
                None => first(l, nan_max(l)),
            }),
            "argmax",
        );
        same(
            to_f64(argmin(t.clone(), 1, DType::I64)),
            reference_dim(d, &values, 1, |l| match l.iter().position(|x| x.is_nan()) {
                Some(at) => at as f64,
                None => first(l, nan_min(l)),
            }),
            "argmin",
        );
        let floats = FlexTensor::from_vec(values.iter().map(|&v| v as f32).collect(), dims);
        let got: Vec<f64> = sum_dim(floats, 1)
            .to_vec::<f32>()
            .into_iter()
            .map(f64::from)
            .collect();
        same(
            got,
            reference_dim(d, &values, 1, |l| l.iter().sum()),
            "f32 sum",
        );
    }
}

#[test]
fn long_lines_take_the_extremes_and_propagate_nan_from_any_lane() {
    // Lines of 53 values (three 16-lane chunks and a tail), the extremes and the NaN at
    // every position class: in a lane's first chunk, a later chunk, and the tail.
    let values: Vec<f64> = (0..53)
        .map(|i| ((i * 29 % 53) as f64 - 26.0) * 0.5)
        .collect();
    for at in [0, 7, 20, 47, 52] {
        let mut line = values.clone();
        line[at] = 100.0;
        line[(at + 11) % 53] = -100.0;
        let t = FlexTensor::from_vec(line.iter().map(|&v| v as f32).collect(), [1, 53]);
        assert_eq!(
            max_dim(t.clone(), 1).to_vec::<f32>(),
            vec![100.0],
            "max, at {at}"
        );
        assert_eq!(min_dim(t, 1).to_vec::<f32>(), vec![-100.0], "min, at {at}");
        let ints = FlexTensor::from_vec(line.iter().map(|&v| v as i32).collect(), [53]);
        assert_eq!(
            max(ints.clone()).to_vec::<i32>(),
            vec![100],
            "int max, at {at}"
        );
        assert_eq!(min(ints).to_vec::<i32>(), vec![-100], "int min, at {at}");
        line[at] = f64::NAN;
        let t = FlexTensor::from_vec(line.clone(), [53]);
        assert!(
            max(t.clone()).to_vec::<f64>()[0].is_nan(),
            "max, NaN at {at}"
        );
        assert!(min(t).to_vec::<f64>()[0].is_nan(), "min, NaN at {at}");
    }
}

#[test]
fn arg_extremes_of_long_lines_take_the_first_tie_and_the_first_nan() {
    // Lines of 203 values (whole 16-value chunks and a tail), values repeating so the extremes
    // tie, NaN placed in a first chunk, a later one and the tail, against a scalar reference.
    let n = 203;
    let base: Vec<f64> = (0..n).map(|i| ((i * 29 % 41) as f64) - 20.0).collect();
    let reference = |line: &[f64], max: bool| -> i64 {
        if let Some(at) = line.iter().position(|x| x.is_nan()) {
            return at as i64;
        }
        let best = if max {
            line.iter().cloned().fold(f64::MIN, f64::max)
        } else {
            line.iter().cloned().fold(f64::MAX, f64::min)
        };
        line.iter().position(|&x| x == best).unwrap() as i64
    };
    let mut lines = vec![base.clone()];
    for at in [3, 40, 200] {
        let mut line = base.clone();
        line[at] = f64::NAN;
        line[(at + 7) % n] = f64::NAN;
        lines.push(line);
    }
    for line in lines {
        let rows = FlexTensor::from_vec([line.clone(), line.clone()].concat(), [2, n]);
        let floats = FlexTensor::from_vec(line.iter().map(|&v| v as f32).collect(), [1, n]);
        for (max, arg) in [(true, argmax as fn(_, _, _) -> _), (false, argmin)] {
            let expected = reference(&line, max);
            let got = arg(rows.clone(), 1, DType::I64).to_vec::<i64>();
            assert_eq!(got, vec![expected; 2], "max {max}");
            let got = arg(floats.clone(), 1, DType::I64).to_vec::<i64>();
            assert_eq!(got, vec![expected], "f32, max {max}");
        }
        if !line.iter().any(|x| x.is_nan()) {
            let ints = FlexTensor::from_vec(line.iter().map(|&v| v as i32).collect(), [n]);
            assert_eq!(
                argmax(ints, 0, DType::I64).to_vec::<i64>(),
                vec![reference(&line, true)]
            );
        }
    }
}

#[test]
fn large_and_half_sums() {
    let n = 300_000;
    let t = FlexTensor::from_vec(vec![1.0f32; n], [n]);
    assert_eq!(sum(t.clone()).to_vec::<f32>(), vec![n as f32]);
    let t2 = t.reshape([600, 500]);
    let s = sum_dim(t2.clone(), 0).to_vec::<f32>();
    assert!(s.iter().all(|&v| v == 600.0));
    let s = sum_dim(t2.transpose(), 1).to_vec::<f32>();
    assert!(s.iter().all(|&v| v == 600.0));
    let h = FlexTensor::from_vec(vec![f16::from_f32(0.1); 1000], [1000]);
    let got = sum(h).to_vec::<f16>()[0].to_f32();
    assert!((got - 100.0).abs() < 0.1, "{got}");
}
