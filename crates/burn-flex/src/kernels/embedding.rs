//! Embedding lookup (row gather) and its backward (row scatter-add) over contiguous slices.

use super::common::{PARALLEL_WORK, check_len, for_each_chunk};
use crate::element::{FloatElement, IntElement};
use crate::tensor::{Storable, pool};
use burn_std::ToElement;

/// The row of `index` (found at `position` of the indices), or a panic naming the kernel.
fn row<I: IntElement>(kernel: &str, index: I, position: usize, rows: usize) -> usize {
    let i = ToElement::to_i64(&index);
    assert!(
        i >= 0 && (i as u64) < rows as u64,
        "{kernel}: expected indices in 0..{rows} (the embedding count), got {i} at position \
         {position}"
    );
    i as usize
}

/// Gathers rows of `weights` `[n, d]` at `indices` (any shape, flattened); the output holds
/// `indices.len() * d` values, shaped `[indices…, d]`. Panics on an index outside `0..n`.
pub fn embedding<T: Storable, I: IntElement>(
    weights: &[T],
    weights_shape: [usize; 2],
    indices: &[I],
) -> Vec<T> {
    let name = "embedding";
    check_len(name, "weights", weights.len(), &weights_shape);
    let [n, d] = weights_shape;
    let mut out = pool::for_overwrite::<T>(indices.len() * d);
    for_each_chunk(
        &mut out,
        d,
        indices.len() * d >= PARALLEL_WORK,
        |pos, dst| {
            let r = row(name, indices[pos], pos, n);
            dst.copy_from_slice(&weights[r * d..(r + 1) * d]);
        },
    );
    out
}

/// Gradient of [`embedding`] w.r.t. the weights: adds each `[d]` row of `grad_out`
/// (`[indices…, d]`) into row `indices[i]` of a zero `[n, d]` tensor (`weights_shape`).
pub fn embedding_backward<T: FloatElement, I: IntElement>(
    grad_out: &[T],
    indices: &[I],
    weights_shape: [usize; 2],
) -> Vec<T> {
    let name = "embedding_backward";
    let [n, d] = weights_shape;
    check_len(name, "output gradient", grad_out.len(), &[indices.len(), d]);
    let mut out = vec![T::zero(); n * d];
    if d == 0 {
        return out;
    }
    for (pos, (&index, g)) in indices.iter().zip(grad_out.chunks(d)).enumerate() {
        let r = row(name, index, pos, n);
        for (o, &v) in out[r * d..(r + 1) * d].iter_mut().zip(g) {
            *o = *o + v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::test_util::{assert_close, assert_scalar_close, back, data, dot, to};
    use burn_std::bf16;

    #[test]
    fn embedding_gathers_rows_and_backward_is_adjoint() {
        for (n, d, indices) in [
            (5usize, 3usize, vec![4i64, 0, 2, 2, 4, 1]),
            (7, 1, vec![6, 6, 6]),
            (3, 4, vec![]),
            (50, 64, (0..300).map(|i| (i * 37 % 50) as i64).collect()), // rayon path
        ] {
            let weights = data(n * d, d as f64);
            let out = embedding(&weights, [n, d], &indices);
            // Direct definition: out[p, e] = weights[indices[p], e].
            let expected: Vec<f64> = indices
                .iter()
                .flat_map(|&i| (0..d).map(move |e| (i as usize, e)))
                .map(|(i, e)| weights[i * d + e])
                .collect();
            assert_eq!(out, expected);
            let g = data(out.len(), 2.0);
            let dw = embedding_backward(&g, &indices, [n, d]);
            assert_eq!(dw.len(), n * d);
            assert_scalar_close(dot(&weights, &dw), dot(&out, &g), 1e-12, "adjoint");
            // Other index and element types.
            let idx32: Vec<i32> = indices.iter().map(|&i| i as i32).collect();
            assert_eq!(
                back(&embedding(&to::<f32>(&weights), [n, d], &idx32)),
                back(&to::<f32>(&expected))
            );
            let db = embedding_backward(&to::<bf16>(&g), &idx32, [n, d]);
            assert_close(&back(&db), &dw, 2e-2, "bf16 backward");
        }
    }

    #[test]
    fn backward_accumulates_repeated_indices() {
        // w = torch.zeros(3, 2, requires_grad=True)
        // F.embedding(torch.tensor([2, 0, 2]), w).backward(torch.tensor([[1., 2], [3, 4], [5, 6]]))
        // w.grad == [[3., 4.], [0., 0.], [6., 8.]]
        let dw = embedding_backward(&[1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &[2i64, 0, 2], [3, 2]);
        assert_eq!(dw, vec![3.0, 4.0, 0.0, 0.0, 6.0, 8.0]);
    }

    #[test]
    #[should_panic(
        expected = "embedding: expected indices in 0..3 (the embedding count), got 3 at position 1"
    )]
    fn rejects_out_of_range_index() {
        embedding(&[0.0f32; 6], [3, 2], &[0i64, 3]);
    }

    #[test]
    #[should_panic(
        expected = "embedding_backward: expected indices in 0..3 (the embedding count), got -1 at position 0"
    )]
    fn backward_rejects_negative_index() {
        embedding_backward(&[0.0f32; 2], &[-1i64], [3, 2]);
    }
}
