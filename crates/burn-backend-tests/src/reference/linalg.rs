//! Matrix products and the cross product.

use super::RefArray;
use super::elementwise::broadcast_shape;

impl RefArray {
    /// The matrix product over the last two dims; the batch dims broadcast.
    pub fn matmul(&self, other: &Self) -> Self {
        let (ra, rb) = (self.rank(), other.rank());
        assert!(ra >= 2 && rb >= 2, "matmul: rank below 2");
        let (m, k) = (self.shape[ra - 2], self.shape[ra - 1]);
        let (k2, n) = (other.shape[rb - 2], other.shape[rb - 1]);
        assert_eq!(k, k2, "matmul: inner sizes differ");
        let batch = broadcast_shape(&self.shape[..ra - 2], &other.shape[..rb - 2])
            .expect("matmul: batch dims do not broadcast");
        let with = |rows: usize, cols: usize| {
            let mut s = batch.clone();
            s.extend([rows, cols]);
            s
        };
        let a = self.broadcast_to(&with(m, k));
        let b = other.broadcast_to(&with(k, n));
        let batches: usize = batch.iter().product();
        let mut data = Vec::with_capacity(batches * m * n);
        for p in 0..batches {
            for i in 0..m {
                for j in 0..n {
                    let dot: f64 = (0..k)
                        .map(|t| a.data[p * m * k + i * k + t] * b.data[p * k * n + t * n + j])
                        .sum();
                    data.push(dot);
                }
            }
        }
        Self::new(&with(m, n), data)
    }

    /// The cross product along `dim` (size 3), broadcasting the other dims.
    pub fn cross(&self, other: &Self, dim: usize) -> Self {
        let shape = broadcast_shape(&self.shape, &other.shape).expect("cross: shapes");
        let (a, b) = (self.broadcast_to(&shape), other.broadcast_to(&shape));
        Self::from_fn(&shape, |index| {
            let at = |t: &Self, c: usize| {
                let mut i = index.to_vec();
                i[dim] = c;
                t.at(&i)
            };
            let (c1, c2) = ((index[dim] + 1) % 3, (index[dim] + 2) % 3);
            at(&a, c1) * at(&b, c2) - at(&a, c2) * at(&b, c1)
        })
    }
}
