//! The values of [`Initializer::Orthogonal`](crate::Initializer::Orthogonal): a random
//! orthogonal matrix (Saxe et al. 2013), as `torch.nn.init.orthogonal_`.
//!
//! The first dim is the rows, the others flatten into the columns. A Gaussian matrix drawn on
//! the device is factored `QR` on the host in `f64` (Householder reflections; an initializer
//! runs once per parameter) and `Q`'s columns take the signs of `R`'s diagonal, which makes `Q`
//! uniformly distributed over orthogonal matrices. A wide matrix is factored transposed, so its
//! rows are orthonormal instead of its columns.

use burn::tensor::{Device, Distribution, Shape, Tensor, TensorData};

/// `gain · Q` of `shape` (rank 2 or more), `Q` with orthonormal rows or columns.
pub(crate) fn orthogonal<const D: usize>(shape: Shape, gain: f64, device: &Device) -> Tensor<D> {
    assert!(
        D >= 2,
        "Initializer::Orthogonal: expected a shape of rank 2 or more, got {shape:?}"
    );
    let rows = shape[0];
    let total = shape.num_elements();
    if total == 0 {
        return Tensor::zeros(shape, device);
    }
    let cols = total / rows;
    let gaussian = Tensor::<2>::random([rows, cols], Distribution::Normal(0.0, 1.0), device);
    let values: Vec<f64> = gaussian
        .into_data()
        .convert::<f64>()
        .into_vec()
        .expect("f64 data");
    // Factor the tall orientation: m ≥ n.
    let wide = rows < cols;
    let (m, n) = if wide { (cols, rows) } else { (rows, cols) };
    let a: Vec<f64> = if wide {
        transpose(&values, rows, cols)
    } else {
        values
    };
    let q = thin_q(a, m, n);
    let q = if wide { transpose(&q, m, n) } else { q };
    let scaled: Vec<f64> = q.into_iter().map(|v| v * gain).collect();
    Tensor::from_data(TensorData::new(scaled, shape), device)
}

/// The `m × n` row-major transpose of the `n × m` matrix `a` (given as `rows × cols`).
fn transpose(a: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let mut out = vec![0.0; a.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = a[r * cols + c];
        }
    }
    out
}

/// The `m × n` factor `Q` of `a = QR` (row-major, `m ≥ n`), each column's sign that of `R`'s
/// diagonal entry (so `R`'s diagonal is positive).
fn thin_q(mut a: Vec<f64>, m: usize, n: usize) -> Vec<f64> {
    let mut reflectors: Vec<Vec<f64>> = Vec::with_capacity(n);
    let mut diagonal = Vec::with_capacity(n);
    for k in 0..n {
        // The reflector mapping a[k.., k] onto alpha·e₁.
        let norm = (k..m).map(|i| a[i * n + k].powi(2)).sum::<f64>().sqrt();
        let x0 = a[k * n + k];
        let alpha = if x0 >= 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (k..m).map(|i| a[i * n + k]).collect();
        v[0] -= alpha;
        let v_norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if v_norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= v_norm);
            // a[k.., k..] -= 2 v (vᵀ a[k.., k..])
            for j in k..n {
                let dot: f64 = (k..m).map(|i| v[i - k] * a[i * n + j]).sum();
                for i in k..m {
                    a[i * n + j] -= 2.0 * v[i - k] * dot;
                }
            }
        }
        diagonal.push(a[k * n + k]);
        reflectors.push(v);
    }
    // Q = H₀ H₁ … Hₙ₋₁ applied to the first n columns of the identity.
    let mut q = vec![0.0; m * n];
    for i in 0..n {
        q[i * n + i] = 1.0;
    }
    for (k, v) in reflectors.iter().enumerate().rev() {
        for j in 0..n {
            let dot: f64 = (k..m).map(|i| v[i - k] * q[i * n + j]).sum();
            for i in k..m {
                q[i * n + j] -= 2.0 * v[i - k] * dot;
            }
        }
    }
    for (j, r) in diagonal.iter().enumerate() {
        if *r < 0.0 {
            (0..m).for_each(|i| q[i * n + j] = -q[i * n + j]);
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_reproduces_the_matrix_with_a_positive_r() {
        // a = QR ⇒ R = Qᵀa is upper triangular with a positive diagonal.
        let (m, n) = (5, 3);
        let a: Vec<f64> = (0..m * n).map(|i| ((i * 7919) % 13) as f64 - 6.0).collect();
        let q = thin_q(a.clone(), m, n);
        for i in 0..n {
            for j in 0..n {
                let r: f64 = (0..m).map(|k| q[k * n + i] * a[k * n + j]).sum();
                let qq: f64 = (0..m).map(|k| q[k * n + i] * q[k * n + j]).sum();
                assert!(
                    (qq - f64::from(i == j)).abs() < 1e-12,
                    "QᵀQ[{i}][{j}] = {qq}"
                );
                if i > j {
                    assert!(r.abs() < 1e-10, "R[{i}][{j}] = {r}");
                }
                if i == j {
                    assert!(r > 0.0, "R[{i}][{i}] = {r}");
                }
            }
        }
    }
}
