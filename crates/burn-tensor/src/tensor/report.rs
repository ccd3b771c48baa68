//! [`check_closeness`]: a printed report of how close two float tensors are.

use crate::Tensor;

/// Prints, for tolerances from `1e-1` down to `1e-8` (relative and absolute alike, as
/// [`Tensor::is_close`]), how many elements of `output` are within it of `expected`, marked
/// `[PASS]` (all), `[WARN]` (at least 90 %) or `[FAIL]`. A debugging aid for ports: where two
/// implementations part ways shows at a glance.
pub fn check_closeness<const D: usize>(output: &Tensor<D>, expected: &Tensor<D>) {
    println!("Tensor Closeness Check Results:");
    println!("===============================");
    for epsilon in [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8] {
        println!("Epsilon: {epsilon:e}");
        let close = output
            .clone()
            .is_close(expected.clone(), Some(epsilon), Some(epsilon))
            .into_data();
        let total = close.num_elements();
        let count = close.iter::<bool>().filter(|&c| c).count();
        let percentage = if total == 0 {
            100.0
        } else {
            count as f64 / total as f64 * 100.0
        };
        println!("  Close elements: {count}/{total} ({percentage:.2}%)");
        let verdict = if count == total {
            "[PASS] All elements are within tolerance"
        } else if percentage >= 90.0 {
            "[WARN] Most elements are within tolerance"
        } else {
            "[FAIL] Significant differences detected"
        };
        println!("  {verdict}\n");
    }
    println!("Closeness check complete.");
}
