//! Reductions (along a dim, kept with size 1, and over everything), running ops, sorting and
//! softmax: everything that works lane by lane along one dim.

use super::{RefArray, lane_geometry};

impl RefArray {
    /// `f` of each lane along `dim`, kept as a dim of size 1.
    pub fn reduce_dim(&self, dim: usize, f: impl Fn(&[f64]) -> f64) -> Self {
        let (outer, size, inner) = lane_geometry(&self.shape, dim);
        let mut shape = self.shape.clone();
        shape[dim] = 1;
        let mut data = Vec::with_capacity(outer * inner);
        for o in 0..outer {
            for i in 0..inner {
                let lane: Vec<f64> = (0..size)
                    .map(|k| self.data[(o * size + k) * inner + i])
                    .collect();
                data.push(f(&lane));
            }
        }
        Self::new(&shape, data)
    }

    /// `f` of all elements, shape `[1]`.
    pub fn reduce_all(&self, f: impl Fn(&[f64]) -> f64) -> Self {
        Self::scalar(f(&self.data))
    }

    /// Each lane along `dim` replaced by `f(lane)` (which keeps its length).
    pub fn map_lanes(&self, dim: usize, f: impl Fn(&[f64]) -> Vec<f64>) -> Self {
        let (outer, size, inner) = lane_geometry(&self.shape, dim);
        let mut data = vec![0.0; self.len()];
        for o in 0..outer {
            for i in 0..inner {
                let lane: Vec<f64> = (0..size)
                    .map(|k| self.data[(o * size + k) * inner + i])
                    .collect();
                let out = f(&lane);
                assert_eq!(out.len(), size, "map_lanes: the lane changed length");
                for (k, v) in out.into_iter().enumerate() {
                    data[(o * size + k) * inner + i] = v;
                }
            }
        }
        Self::new(&self.shape, data)
    }

    /// The sum along `dim`.
    pub fn sum_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::sum)
    }

    /// The mean along `dim`.
    pub fn mean_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::mean)
    }

    /// The product along `dim`.
    pub fn prod_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::prod)
    }

    /// The largest value along `dim` (NaN if the lane has one).
    pub fn max_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::max)
    }

    /// The smallest value along `dim` (NaN if the lane has one).
    pub fn min_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::min)
    }

    /// The index of the first largest value along `dim`.
    pub fn argmax_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::argmax)
    }

    /// The index of the first smallest value along `dim`.
    pub fn argmin_dim(&self, dim: usize) -> Self {
        self.reduce_dim(dim, lane::argmin)
    }

    /// The variance along `dim`, dividing by `n - correction`.
    pub fn var_dim(&self, dim: usize, correction: usize) -> Self {
        self.reduce_dim(dim, |v| {
            let mean = lane::mean(v);
            v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (v.len() - correction) as f64
        })
    }

    /// The running sum along `dim`.
    pub fn cumsum(&self, dim: usize) -> Self {
        self.scan(dim, |a, b| a + b)
    }

    /// The running product along `dim`.
    pub fn cumprod(&self, dim: usize) -> Self {
        self.scan(dim, |a, b| a * b)
    }

    /// The running minimum along `dim`.
    pub fn cummin(&self, dim: usize) -> Self {
        self.scan(dim, f64::min)
    }

    /// The running maximum along `dim`.
    pub fn cummax(&self, dim: usize) -> Self {
        self.scan(dim, f64::max)
    }

    /// A running fold along `dim`.
    pub fn scan(&self, dim: usize, f: impl Fn(f64, f64) -> f64) -> Self {
        self.map_lanes(dim, |lane| {
            let mut acc = Vec::with_capacity(lane.len());
            for (k, &v) in lane.iter().enumerate() {
                acc.push(if k == 0 { v } else { f(acc[k - 1], v) });
            }
            acc
        })
    }

    /// Sorted along `dim` (stable), with the source index of each value.
    pub fn sort_with_indices(&self, dim: usize, descending: bool) -> (Self, Self) {
        let values = self.map_lanes(dim, |lane| {
            lane::stable_order(lane, descending)
                .into_iter()
                .map(|k| lane[k])
                .collect()
        });
        let indices = self.map_lanes(dim, |lane| {
            lane::stable_order(lane, descending)
                .into_iter()
                .map(|k| k as f64)
                .collect()
        });
        (values, indices)
    }

    /// Softmax along `dim`.
    pub fn softmax(&self, dim: usize) -> Self {
        self.map_lanes(dim, |lane| {
            let max = lane::max(lane);
            let exp: Vec<f64> = lane.iter().map(|v| (v - max).exp()).collect();
            let total: f64 = exp.iter().sum();
            exp.iter().map(|e| e / total).collect()
        })
    }

    /// Log-softmax along `dim`.
    pub fn log_softmax(&self, dim: usize) -> Self {
        self.map_lanes(dim, |lane| {
            let max = lane::max(lane);
            let log_sum = lane.iter().map(|v| (v - max).exp()).sum::<f64>().ln();
            lane.iter().map(|v| v - max - log_sum).collect()
        })
    }
}

/// Reductions of one lane of values.
pub mod lane {
    /// The sum.
    pub fn sum(v: &[f64]) -> f64 {
        v.iter().sum()
    }

    /// The mean.
    pub fn mean(v: &[f64]) -> f64 {
        sum(v) / v.len() as f64
    }

    /// The product.
    pub fn prod(v: &[f64]) -> f64 {
        v.iter().product()
    }

    /// The largest value; NaN when there is one.
    pub fn max(v: &[f64]) -> f64 {
        v.iter().copied().fold(f64::NEG_INFINITY, |m, x| {
            if x.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(x)
            }
        })
    }

    /// The smallest value; NaN when there is one.
    pub fn min(v: &[f64]) -> f64 {
        v.iter().copied().fold(f64::INFINITY, |m, x| {
            if x.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.min(x)
            }
        })
    }

    /// The largest absolute value.
    pub fn max_abs(v: &[f64]) -> f64 {
        v.iter().map(|x| x.abs()).fold(0.0, f64::max)
    }

    /// The index of the first largest value.
    pub fn argmax(v: &[f64]) -> f64 {
        let mut best = 0;
        for (k, &x) in v.iter().enumerate() {
            if x > v[best] {
                best = k;
            }
        }
        best as f64
    }

    /// The index of the first smallest value.
    pub fn argmin(v: &[f64]) -> f64 {
        let mut best = 0;
        for (k, &x) in v.iter().enumerate() {
            if x < v[best] {
                best = k;
            }
        }
        best as f64
    }

    /// The positions of `v` in sorted order; equal values keep their order.
    pub fn stable_order(v: &[f64], descending: bool) -> Vec<usize> {
        let mut order: Vec<usize> = (0..v.len()).collect();
        order.sort_by(|&a, &b| {
            let ord = v[a]
                .partial_cmp(&v[b])
                .expect("stable_order: NaN in a sorted lane");
            if descending { ord.reverse() } else { ord }
        });
        order
    }
}
