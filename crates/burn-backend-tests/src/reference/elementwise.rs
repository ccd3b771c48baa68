//! Element-wise maps and broadcasting zips, and the scalar functions the suite compares with.

use super::{RefArray, unravel};

/// The shape two shapes broadcast to (NumPy rules: align from the right, sizes equal or 1).
pub fn broadcast_shape(a: &[usize], b: &[usize]) -> Option<Vec<usize>> {
    let rank = a.len().max(b.len());
    let size = |s: &[usize], i: usize| {
        let pad = rank - s.len();
        if i < pad { 1 } else { s[i - pad] }
    };
    (0..rank)
        .map(|i| match (size(a, i), size(b, i)) {
            (x, y) if x == y => Some(x),
            (1, y) => Some(y),
            (x, 1) => Some(x),
            _ => None,
        })
        .collect()
}

impl RefArray {
    /// `f` applied to every element.
    pub fn map(&self, f: impl Fn(f64) -> f64) -> Self {
        Self::new(&self.shape, self.data.iter().map(|&v| f(v)).collect())
    }

    /// The array broadcast to `shape` (which must have at least this rank).
    pub fn broadcast_to(&self, shape: &[usize]) -> Self {
        let pad = shape
            .len()
            .checked_sub(self.rank())
            .expect("broadcast_to: target rank is smaller");
        for (d, &size) in self.shape.iter().enumerate() {
            assert!(
                size == 1 || size == shape[d + pad],
                "broadcast_to: {:?} does not broadcast to {shape:?}",
                self.shape
            );
        }
        Self::from_fn(shape, |index| {
            let source: Vec<usize> = self
                .shape
                .iter()
                .enumerate()
                .map(|(d, &size)| if size == 1 { 0 } else { index[d + pad] })
                .collect();
            self.at(&source)
        })
    }

    /// `f(self, other)` element-wise, broadcasting both operands.
    pub fn zip(&self, other: &Self, f: impl Fn(f64, f64) -> f64) -> Self {
        let shape = broadcast_shape(&self.shape, &other.shape).unwrap_or_else(|| {
            panic!(
                "zip: {:?} and {:?} do not broadcast",
                self.shape, other.shape
            )
        });
        let (a, b) = (self.broadcast_to(&shape), other.broadcast_to(&shape));
        let data = a.data.iter().zip(&b.data).map(|(&x, &y)| f(x, y)).collect();
        Self::new(&shape, data)
    }

    /// `value` where `mask` is non-zero, else `self`; all three broadcast.
    pub fn mask_where(&self, mask: &Self, value: &Self) -> Self {
        let shape = broadcast_shape(&self.shape, &mask.shape)
            .and_then(|s| broadcast_shape(&s, &value.shape))
            .expect("mask_where: shapes do not broadcast");
        let (a, m, v) = (
            self.broadcast_to(&shape),
            mask.broadcast_to(&shape),
            value.broadcast_to(&shape),
        );
        let data = (0..a.len())
            .map(|i| {
                if m.data[i] != 0.0 {
                    v.data[i]
                } else {
                    a.data[i]
                }
            })
            .collect();
        Self::new(&shape, data)
    }

    /// Every multi-index with its value, row-major (for building masks by position).
    pub fn indexed(&self) -> impl Iterator<Item = (Vec<usize>, f64)> + '_ {
        self.data
            .iter()
            .enumerate()
            .map(|(i, &v)| (unravel(&self.shape, i), v))
    }
}

/// Scalar functions with their textbook definitions.
pub mod f {
    use std::f64::consts::PI;

    /// The error function: `2/√π · e^(-x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1))`, a series of
    /// positive terms (no cancellation), and ±1 beyond |x| = 6 (where 1 - erf < 1e-17).
    pub fn erf(x: f64) -> f64 {
        if x.is_nan() {
            return f64::NAN;
        }
        if x.abs() >= 6.0 {
            return x.signum();
        }
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term.abs() > 1e-18 * sum.abs() {
            n += 1.0;
            term *= 2.0 * x * x / (2.0 * n + 1.0);
            sum += term;
        }
        2.0 / PI.sqrt() * (-x * x).exp() * sum
    }

    /// `x · Φ(x)` with `Φ(x) = (1 + erf(x / √2)) / 2`.
    pub fn gelu(x: f64) -> f64 {
        0.5 * x * (1.0 + erf(x / 2f64.sqrt()))
    }

    /// `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 x³)))`.
    pub fn gelu_tanh(x: f64) -> f64 {
        0.5 * x * (1.0 + ((2.0 / PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
    }

    /// `1 / (1 + e^-x)`.
    pub fn sigmoid(x: f64) -> f64 {
        if x >= 0.0 {
            1.0 / (1.0 + (-x).exp())
        } else {
            x.exp() / (1.0 + x.exp())
        }
    }

    /// `ln(sigmoid(x)) = -ln(1 + e^-x)`.
    pub fn log_sigmoid(x: f64) -> f64 {
        -softplus(-x, 1.0)
    }

    /// `ln(1 + e^(β·x)) / β`.
    pub fn softplus(x: f64, beta: f64) -> f64 {
        let z = beta * x;
        (z.max(0.0) + (-z.abs()).exp().ln_1p()) / beta
    }

    /// `x · sigmoid(x)`.
    pub fn silu(x: f64) -> f64 {
        x * sigmoid(x)
    }

    /// `x · tanh(softplus(x))`.
    pub fn mish(x: f64) -> f64 {
        x * softplus(x, 1.0).tanh()
    }

    /// `max(x, 0)`.
    pub fn relu(x: f64) -> f64 {
        if x > 0.0 { x } else { 0.0 }
    }

    /// `min(max(x, 0), 6)`.
    pub fn relu6(x: f64) -> f64 {
        x.clamp(0.0, 6.0)
    }

    /// `x · relu6(x + 3) / 6`.
    pub fn hard_swish(x: f64) -> f64 {
        x * relu6(x + 3.0) / 6.0
    }

    /// `x` for `x >= 0`, `slope · x` otherwise.
    pub fn leaky_relu(x: f64, slope: f64) -> f64 {
        if x >= 0.0 { x } else { slope * x }
    }

    /// `x` for `x > 0`, `alpha · (e^x - 1)` otherwise.
    pub fn elu(x: f64, alpha: f64) -> f64 {
        if x > 0.0 { x } else { alpha * x.exp_m1() }
    }

    /// `x` for `x > 0`, `alpha · (e^(x/alpha) - 1)` otherwise.
    pub fn celu(x: f64, alpha: f64) -> f64 {
        if x > 0.0 {
            x
        } else {
            alpha * (x / alpha).exp_m1()
        }
    }

    /// `γ · elu(x, α)` with the constants of the SELU paper.
    pub fn selu(x: f64) -> f64 {
        1.050_700_987_355_480_5 * elu(x, 1.673_263_242_354_377_3)
    }

    /// `x / (1 + |x|)`.
    pub fn softsign(x: f64) -> f64 {
        x / (1.0 + x.abs())
    }

    /// `x - tanh(x)`.
    pub fn tanhshrink(x: f64) -> f64 {
        x - x.tanh()
    }

    /// `x` where `x > threshold`, `value` elsewhere.
    pub fn threshold(x: f64, threshold: f64, value: f64) -> f64 {
        if x > threshold { x } else { value }
    }

    /// `x - bias` above `lambda`, `x + bias` below `-lambda`, 0 between.
    pub fn shrink(x: f64, lambda: f64, bias: f64) -> f64 {
        if x > lambda {
            x - bias
        } else if x < -lambda {
            x + bias
        } else {
            0.0
        }
    }

    /// `x` where `|x| > lambda`, 0 elsewhere.
    pub fn hard_shrink(x: f64, lambda: f64) -> f64 {
        if x.abs() > lambda { x } else { 0.0 }
    }

    /// `softplus(x, beta)` where `beta · x <= threshold`, `x` above it.
    pub fn softplus_with_threshold(x: f64, beta: f64, threshold: f64) -> f64 {
        if beta * x > threshold {
            x
        } else {
            softplus(x, beta)
        }
    }

    /// `clamp(alpha · x + beta, 0, 1)`.
    pub fn hard_sigmoid(x: f64, alpha: f64, beta: f64) -> f64 {
        (alpha * x + beta).clamp(0.0, 1.0)
    }

    /// `torch.remainder`: `a - b · floor(a / b)`, the sign of the divisor.
    pub fn remainder(a: f64, b: f64) -> f64 {
        a - b * (a / b).floor()
    }

    /// Integer division truncating toward zero.
    pub fn int_div(a: f64, b: f64) -> f64 {
        (a as i64 / b as i64) as f64
    }

    /// Integer remainder with the sign of the divisor.
    pub fn int_remainder(a: f64, b: f64) -> f64 {
        let (a, b) = (a as i64, b as i64);
        let r = a % b;
        (if r != 0 && (r < 0) != (b < 0) {
            r + b
        } else {
            r
        }) as f64
    }

    /// -1, 0 or 1.
    pub fn sign(x: f64) -> f64 {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    }
}
