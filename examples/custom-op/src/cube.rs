//! The CubeCL implementation: one kernel computes `relu(x · weight + bias)`, one unit per
//! output element (a dot product, the bias, the clamp), so the product never leaves
//! registers. Written once in Rust; compiled at run time for WGPU, CUDA, ROCm or the CPU.
//!
//! A unit per element re-reads rows and columns from global memory: simple, not fast (a
//! tiled kernel would share them through shared memory). The point is the fusion seam.

use crate::ops::{FusedOps, composed};
use burn::backend::TensorMetadata;
use burn::backend::cube::cubecl;
use burn::backend::cube::{CubeBackend, CubeTensor, dtype::elem_type, kernel::into_contiguous};
use burn::backend::tensor::FloatTensor;
use burn::tensor::{DType, Shape};
use cubecl::ir::AddressType;
use cubecl::prelude::*;

/// `out[r, c] = max(bias[c] + Σ_i x[r, i] · weight[i, c], 0)` over contiguous row-major
/// buffers; `k` is the shared dimension, `n` the number of columns.
#[cube(launch, address_type = "dynamic")]
fn linear_relu_kernel<F: Float>(
    x: &[F],
    weight: &[F],
    bias: &[F],
    out: &mut [F],
    k: usize,
    n: usize,
    #[define(F)] _dtype: ElemType,
) {
    if ABSOLUTE_POS >= out.len() {
        terminate!();
    }
    let row = ABSOLUTE_POS / n;
    let col = ABSOLUTE_POS % n;
    let mut acc = bias[col];
    for i in 0..k {
        acc += x[row * k + i] * weight[i * n + col];
    }
    // `acc < 0` is false for NaN: NaN stays NaN, as in `relu`.
    if acc < F::new(0.0) {
        acc = F::new(0.0);
    }
    out[ABSOLUTE_POS] = acc;
}

/// A launch argument over the whole buffer of a contiguous tensor.
fn buffer(tensor: &CubeTensor) -> BufferArg {
    let len = tensor.handle().size_in_used() as usize / tensor.dtype().size();
    // SAFETY: the handle belongs to the tensor's client and holds `len` elements of its dtype;
    // the kernel reads and writes only inside `len` (bounds-checked launch).
    unsafe { BufferArg::from_raw_parts(tensor.handle().clone(), len) }
}

impl FusedOps for CubeBackend {
    fn linear_relu(
        x: FloatTensor<Self>,
        weight: FloatTensor<Self>,
        bias: FloatTensor<Self>,
    ) -> FloatTensor<Self> {
        let dtype = x.dtype();
        if !matches!(dtype, DType::F32 | DType::F16 | DType::F64) {
            return composed::<CubeBackend>(x, weight, bias);
        }
        let [m, k] = x.shape().dims::<2>();
        let n = weight.shape().dims::<2>()[1];
        let (x, weight, bias) = (
            into_contiguous(x),
            into_contiguous(weight),
            into_contiguous(bias),
        );
        let out = CubeTensor::empty(Shape::new([m, n]), dtype, x.device());
        let count = m * n;
        if count == 0 {
            return out;
        }
        let client = x.client().clone();
        let cube_dim = CubeDim::new(&client, count);
        let cube_count = cubecl::calculate_cube_count_elemwise(&client, count, cube_dim);
        let largest = [&x, &weight, &bias, &out]
            .iter()
            .map(|t| t.num_elements())
            .max()
            .unwrap_or(0);
        linear_relu_kernel::launch(
            &client,
            cube_count,
            cube_dim,
            AddressType::from_len(largest),
            buffer(&x),
            buffer(&weight),
            buffer(&bias),
            buffer(&out),
            k,
            n,
            elem_type(dtype),
        );
        out
    }
}
