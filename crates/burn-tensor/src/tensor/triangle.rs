//! Triangular masks for `tril`/`triu` and the bool mask constructors.

use super::check;
use crate::kind::Basic;
use crate::{Bool, Tensor};
use burn_backend::TensorData;

/// A bool mask, true where `tril` (`upper = false`) or `triu` (`upper = true`) zeroes.
pub(crate) fn triangle_mask<const D: usize>(
    op: &str,
    tensor: &Tensor<D, impl Basic>,
    diagonal: i64,
    upper: bool,
) -> Tensor<D, Bool> {
    if D < 2 {
        check::fail(
            op,
            format_args!("expected a tensor of rank 2 or more, got rank {D}"),
        );
    }
    let dims = tensor.dims();
    let (rows, cols) = (dims[D - 2], dims[D - 1]);
    let values: Vec<bool> = (0..rows * cols)
        .map(|i| {
            let (r, c) = ((i / cols) as i64, (i % cols) as i64);
            if upper {
                c - r < diagonal
            } else {
                c - r > diagonal
            }
        })
        .collect();
    let mut shape = vec![1; D];
    shape[D - 2] = rows;
    shape[D - 1] = cols;
    Tensor::<D, Bool>::from_data(TensorData::new(values, shape), &tensor.device())
}
