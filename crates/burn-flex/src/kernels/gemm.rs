//! Matrix products through the `gemm` crate.

use super::transpose::transpose;
use crate::element::FloatElement;
use crate::tensor::pool;
use gemm::Parallelism;

/// Work (m·k·n) below which a product runs on one thread.
const PARALLEL_THRESHOLD: usize = 1 << 18;

fn parallelism(m: usize, k: usize, n: usize) -> Parallelism {
    if m * k * n >= PARALLEL_THRESHOLD {
        Parallelism::Rayon(0)
    } else {
        Parallelism::None
    }
}

/// Whether a column-major `rhs` (a transposed view, as in the input gradient `dY·Wᵀ`) is worth
/// copying row-major before the product.
///
/// `gemm` computes a row-major product as its transpose, where `rhs` becomes the left operand;
/// a column-major one is then row-major on the left, which `gemm` packs on the calling thread
/// alone while the others wait, gathering down 4 KiB-strided columns that share one cache set.
/// At `256×1024·1024×1024` that packing took a third of the product (4.6 ms against 2.5 ms
/// row-major on 2 cores); the parallel blocked [`transpose`] costs about 0.3 ms.
fn transposes_rhs_first(m: usize, k: usize, n: usize, rhs_strides: [isize; 2]) -> bool {
    rhs_strides[0] == 1
        && rhs_strides[1] >= k as isize
        && k > 1
        && n > 1
        && m >= 16
        && m * k * n >= PARALLEL_THRESHOLD
}

/// `dst (m×n, row-major, contiguous) = lhs (m×k) · rhs (k×n)` with `gemm`'s own kernel for `T`.
///
/// `lhs_strides` / `rhs_strides` are `[row, column]` strides in elements; the slices must cover
/// every element those strides reach.
#[allow(clippy::too_many_arguments)]
pub fn gemm_native<T: FloatElement>(
    m: usize,
    k: usize,
    n: usize,
    lhs: &[T],
    lhs_strides: [isize; 2],
    rhs: &[T],
    rhs_strides: [isize; 2],
    dst: &mut [T],
) {
    assert_eq!(
        dst.len(),
        m * n,
        "gemm: destination holds {} values, expected {m}×{n}",
        dst.len()
    );
    if m == 0 || n == 0 {
        return;
    }
    if k == 0 {
        dst.fill(T::zero());
        return;
    }
    check_reach(lhs.len(), m, k, lhs_strides, "lhs");
    check_reach(rhs.len(), k, n, rhs_strides, "rhs");
    if transposes_rhs_first(m, k, n, rhs_strides) {
        let mut rows = pool::for_overwrite::<T>(k * n);
        transpose(rhs, n, k, rhs_strides[1] as usize, &mut rows);
        gemm_native(m, k, n, lhs, lhs_strides, &rows, [n as isize, 1], dst);
        pool::give_back(rows);
        return;
    }
    // SAFETY: the reach checks above guarantee every index gemm visits lies inside the slices;
    // dst is contiguous row-major with m·n elements.
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            false,
            lhs.as_ptr(),
            lhs_strides[1],
            lhs_strides[0],
            rhs.as_ptr(),
            rhs_strides[1],
            rhs_strides[0],
            T::zero(),
            T::one(),
            false,
            false,
            false,
            parallelism(m, k, n),
        );
    }
}

/// The same product for element types `gemm` has no kernel for: converts to `f32`, multiplies,
/// and rounds back.
#[allow(clippy::too_many_arguments)]
pub fn gemm_via_f32<T: FloatElement>(
    m: usize,
    k: usize,
    n: usize,
    lhs: &[T],
    lhs_strides: [isize; 2],
    rhs: &[T],
    rhs_strides: [isize; 2],
    dst: &mut [T],
) {
    let lhs32: Vec<f32> = lhs.iter().map(|v| v.to_f32().unwrap_or(f32::NAN)).collect();
    let rhs32: Vec<f32> = rhs.iter().map(|v| v.to_f32().unwrap_or(f32::NAN)).collect();
    let mut dst32 = vec![0f32; m * n];
    gemm_native(
        m,
        k,
        n,
        &lhs32,
        lhs_strides,
        &rhs32,
        rhs_strides,
        &mut dst32,
    );
    for (d, s) in dst.iter_mut().zip(dst32) {
        *d = T::from(s).unwrap_or(T::nan());
    }
}

fn check_reach(len: usize, rows: usize, cols: usize, strides: [isize; 2], name: &str) {
    assert!(
        strides[0] >= 0 && strides[1] >= 0,
        "gemm: {name} strides {strides:?} must be non-negative"
    );
    let last = (rows - 1) as isize * strides[0] + (cols - 1) as isize * strides[1];
    assert!(
        (last as usize) < len,
        "gemm: {name} of {rows}×{cols} with strides {strides:?} reaches past its {len} values"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_std::bf16;

    fn naive(m: usize, k: usize, n: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                out[i * n + j] = (0..k).map(|p| a[i * k + p] * b[p * n + j]).sum();
            }
        }
        out
    }

    #[test]
    fn matches_naive_product_including_transposed_operand() {
        let (m, k, n) = (5, 7, 3);
        let a: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.11).cos()).collect();
        let expected = naive(m, k, n, &a, &b);
        let mut out = vec![0.0; m * n];
        gemm_native(m, k, n, &a, [k as isize, 1], &b, [n as isize, 1], &mut out);
        for (o, e) in out.iter().zip(&expected) {
            assert!((o - e).abs() < 1e-12);
        }
        // b stored transposed (n×k), read with swapped strides.
        let bt: Vec<f64> = (0..n * k).map(|i| b[(i % k) * n + i / k]).collect();
        gemm_native(m, k, n, &a, [k as isize, 1], &bt, [1, k as isize], &mut out);
        for (o, e) in out.iter().zip(&expected) {
            assert!((o - e).abs() < 1e-12);
        }
        let a16: Vec<bf16> = a.iter().map(|&v| bf16::from_f64(v)).collect();
        let b16: Vec<bf16> = b.iter().map(|&v| bf16::from_f64(v)).collect();
        let mut out16 = vec![bf16::ZERO; m * n];
        gemm_via_f32(
            m,
            k,
            n,
            &a16,
            [k as isize, 1],
            &b16,
            [n as isize, 1],
            &mut out16,
        );
        for (o, e) in out16.iter().zip(&expected) {
            assert!((o.to_f64() - e).abs() < 0.05);
        }
    }

    #[test]
    fn column_major_rhs_taken_through_the_transpose_matches() {
        // Large enough to take the transpose-first path, with a column stride past k.
        let (m, k, n, ld) = (40, 90, 80, 97);
        assert!(transposes_rhs_first(m, k, n, [1, ld as isize]));
        let a: Vec<f64> = (0..m * k).map(|i| (i as f64 * 0.37).sin()).collect();
        let b: Vec<f64> = (0..k * n).map(|i| (i as f64 * 0.11).cos()).collect();
        let expected = naive(m, k, n, &a, &b);
        let mut bt = vec![f64::NAN; n * ld];
        for p in 0..k {
            for j in 0..n {
                bt[j * ld + p] = b[p * n + j];
            }
        }
        let mut out = vec![0.0; m * n];
        gemm_native(
            m,
            k,
            n,
            &a,
            [k as isize, 1],
            &bt,
            [1, ld as isize],
            &mut out,
        );
        for (o, e) in out.iter().zip(&expected) {
            assert!((o - e).abs() < 1e-11, "{o} vs {e}");
        }
    }
}
