//! Test helpers shared by the kernel tests: deterministic data, conversions and comparisons.

use burn_std::Element;

/// `n` deterministic values in [-1, 1], different for each `seed`.
pub fn data(n: usize, seed: f64) -> Vec<f64> {
    (0..n)
        .map(|i| ((i as f64 + 1.0) * (0.7137 + 0.1 * seed) + seed * 1.37).sin())
        .collect()
}

/// Converts `f64` values to the element type `T`.
pub fn to<T: Element>(values: &[f64]) -> Vec<T> {
    values.iter().map(|&v| T::from_f64(v)).collect()
}

/// Converts elements back to `f64`.
pub fn back<T: Element>(values: &[T]) -> Vec<f64> {
    values
        .iter()
        .map(|&v| burn_std::ToElement::to_f64(&v))
        .collect()
}

/// The dot product of two equally long vectors.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len(), "dot: lengths differ");
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Asserts `|actual - expected| <= tol * (1 + |expected|)` element-wise.
pub fn assert_close(actual: &[f64], expected: &[f64], tol: f64, what: &str) {
    assert_eq!(actual.len(), expected.len(), "{what}: lengths differ");
    for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
        let ok = (a - e).abs() <= tol * (1.0 + e.abs()) || (a.is_nan() && e.is_nan()) || a == e;
        assert!(
            ok,
            "{what}: element {i} is {a}, expected {e} (tolerance {tol})"
        );
    }
}

/// Asserts two scalars agree to `tol` relative to their magnitude.
pub fn assert_scalar_close(actual: f64, expected: f64, tol: f64, what: &str) {
    assert!(
        (actual - expected).abs() <= tol * (1.0 + expected.abs()),
        "{what}: {actual} vs {expected} (tolerance {tol})"
    );
}

/// Output length by PyTorch's documented formula, computed in floating point.
pub fn pool_out_len(len: usize, k: usize, s: usize, p: usize, d: usize, ceil: bool) -> usize {
    let q = (len as f64 + 2.0 * p as f64 - (d * (k - 1)) as f64 - 1.0) / s as f64;
    let mut out = if ceil { q.ceil() } else { q.floor() } as usize + 1;
    if ceil && (out - 1) * s >= len + p {
        out -= 1;
    }
    out
}

/// A pooling test problem: (shape, kernel, stride, padding, dilation).
pub type PoolCase = ([usize; 4], [usize; 2], [usize; 2], [usize; 2], [usize; 2]);

#[rustfmt::skip]
pub const POOL_CASES: &[PoolCase] = &[
    ([2, 3, 7, 6], [3, 2], [2, 1], [1, 1], [1, 2]),
    ([1, 2, 5, 5], [2, 2], [2, 2], [1, 1], [1, 1]),
    ([1, 1, 9, 8], [3, 3], [3, 2], [1, 0], [2, 1]),
    ([2, 2, 6, 7], [3, 3], [2, 2], [1, 1], [1, 1]),
    // Height 1: the 1-d problems.
    ([2, 3, 1, 11], [1, 3], [1, 2], [0, 1], [1, 2]),
    ([1, 2, 1, 6], [1, 3], [1, 2], [0, 1], [1, 1]),
    // Large enough for the rayon path.
    ([4, 8, 32, 32], [3, 3], [2, 2], [1, 1], [1, 1]),
];
