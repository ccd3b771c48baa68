//! The native CPU implementation: Flex's gemm for the product, then bias and ReLU applied in
//! place on the product's buffer, row by row (one pass, no second tensor).

use crate::ops::{FusedOps, composed};
use burn::backend::Flex;
use burn::backend::ops::FloatTensorOps;
use burn::backend::tensor::FloatTensor;
use burn::tensor::DType;

/// Adds `bias` to every row of `out` (rows of `bias.len()` values) and clamps at zero.
fn bias_relu_rows<E: Copy + PartialOrd + core::ops::Add<Output = E> + Default>(
    out: &mut [E],
    bias: &[E],
) {
    for row in out.chunks_mut(bias.len()) {
        for (value, &b) in row.iter_mut().zip(bias) {
            let v = *value + b;
            // `v < 0` is false for NaN: NaN stays NaN, as in `relu`.
            *value = if v < E::default() { E::default() } else { v };
        }
    }
}

impl FusedOps for Flex {
    fn linear_relu(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        let dtype = x.dtype();
        if !matches!(dtype, DType::F32 | DType::F64) || bias.num_elements() == 0 {
            return composed::<Flex>(x, weight, bias);
        }
        // A fresh product: contiguous and owned, so `data_mut` gives its buffer.
        let mut out = Flex::float_matmul(x, weight).into_mut();
        match dtype {
            DType::F32 => {
                let bias = bias.values::<f32>().into_owned();
                bias_relu_rows(
                    out.data_mut::<f32>().expect("a fresh product is owned"),
                    &bias,
                );
            }
            _ => {
                let bias = bias.values::<f64>().into_owned();
                bias_relu_rows(
                    out.data_mut::<f64>().expect("a fresh product is owned"),
                    &bias,
                );
            }
        }
        out
    }
}
