//! `Tolerance`: how close two float values must be to compare equal in tests.

use core::marker::PhantomData;
use num_traits::Float;

/// Absolute and relative tolerances for comparing floats of type `F`.
///
/// Two values `a` and `b` are close when `|a - b| <= max(absolute, relative * max(|a|, |b|))`.
/// The named presets scale with the precision of `F`, so `Tolerance::<f16>::default()` is wider
/// than `Tolerance::<f32>::default()`.
#[derive(Debug, Clone, Copy)]
pub struct Tolerance<F> {
    relative: f64,
    absolute: f64,
    _float: PhantomData<F>,
}

impl<F: Float> Default for Tolerance<F> {
    fn default() -> Self {
        Self::balanced()
    }
}

impl<F: Float> Tolerance<F> {
    fn scaled(factor: f64) -> Self {
        let eps = F::epsilon().to_f64().unwrap_or(f64::EPSILON);
        let base = (4.0 * eps).max(1e-5) * factor;
        Self::rel_abs(base, base)
    }

    /// The default: a few units in the last place of `F`, at least `1e-5`.
    pub fn balanced() -> Self {
        Self::scaled(1.0)
    }

    /// Ten times tighter than [`balanced`](Self::balanced), for exact-ish results.
    pub fn strict() -> Self {
        Self::scaled(0.1)
    }

    /// Ten times looser than [`balanced`](Self::balanced), for long reductions.
    pub fn permissive() -> Self {
        Self::scaled(10.0)
    }

    /// Explicit relative and absolute tolerances.
    pub fn rel_abs(relative: f64, absolute: f64) -> Self {
        Self {
            relative,
            absolute,
            _float: PhantomData,
        }
    }

    /// Only an absolute tolerance.
    pub fn absolute(absolute: f64) -> Self {
        Self::rel_abs(0.0, absolute)
    }

    /// Only a relative tolerance.
    pub fn relative(relative: f64) -> Self {
        Self::rel_abs(relative, 0.0)
    }

    /// Returns this tolerance with another relative part.
    pub fn set_relative(mut self, relative: f64) -> Self {
        self.relative = relative;
        self
    }

    /// Returns this tolerance with another absolute part.
    pub fn set_absolute(mut self, absolute: f64) -> Self {
        self.absolute = absolute;
        self
    }

    /// Whether `a` and `b` are close; NaNs are close only to NaNs, infinities to themselves.
    pub fn approx_eq(&self, a: f64, b: f64) -> bool {
        if a.is_nan() || b.is_nan() {
            return a.is_nan() && b.is_nan();
        }
        if a.is_infinite() || b.is_infinite() {
            return a == b;
        }
        let diff = (a - b).abs();
        diff <= self.absolute.max(self.relative * a.abs().max(b.abs()))
    }
}
