//! Cumulative operations along a dimension: cumsum, cumprod, cummin, cummax.

use super::arith::{NumElement, max_nan, min_nan};
use super::creation::cast;
use crate::tensor::{FlexTensor, Storable};
use burn_std::DType;

/// Replaces every line along `dim` of a contiguous copy of `tensor` by its running `f`-fold.
fn scan<E: Storable>(
    op: &str,
    tensor: FlexTensor,
    dim: usize,
    f: impl Fn(E, E) -> E + Sync,
) -> FlexTensor {
    let shape = tensor.shape().clone();
    assert!(
        dim < shape.num_dims(),
        "{op}: dim {dim} out of range for a tensor of rank {} (shape {shape:?})",
        shape.num_dims()
    );
    let mut tensor = tensor.into_mut();
    let size = shape[dim];
    let inner: usize = shape.dims[dim + 1..].iter().product();
    let block = size * inner;
    let data = tensor.data_mut::<E>().expect("a unique contiguous tensor");
    if block == 0 {
        return tensor;
    }
    let scan_block = |b: &mut [E]| {
        for k in 1..size {
            let (done, rest) = b.split_at_mut(k * inner);
            let prev = &done[(k - 1) * inner..];
            for (x, &p) in rest[..inner].iter_mut().zip(prev) {
                *x = f(p, *x);
            }
        }
    };
    if data.len() >= super::map::PAR_THRESHOLD && data.len() / block > 1 {
        crate::parallel::for_each_chunk_mut(data, block, |_, b| scan_block(b));
    } else {
        data.chunks_mut(block).for_each(scan_block);
    }
    tensor
}

/// Runs `f` in `f32` for half-precision tensors, so running sums and products accumulate in
/// single precision (as PyTorch does) and each output is rounded once.
fn widen_half(tensor: FlexTensor, f: impl FnOnce(FlexTensor) -> FlexTensor) -> FlexTensor {
    let dtype = tensor.dtype();
    if matches!(dtype, DType::F16 | DType::BF16) {
        cast(f(cast(tensor, DType::F32)), dtype)
    } else {
        f(tensor)
    }
}

/// Running sum along `dim`.
pub fn cumsum(tensor: FlexTensor, dim: usize) -> FlexTensor {
    widen_half(
        tensor,
        |tensor| with_num!(tensor.dtype(), "cumsum", E => scan("cumsum", tensor, dim, |a: E, b: E| a.add(b))),
    )
}

/// Running product along `dim`.
pub fn cumprod(tensor: FlexTensor, dim: usize) -> FlexTensor {
    widen_half(
        tensor,
        |tensor| with_num!(tensor.dtype(), "cumprod", E => scan("cumprod", tensor, dim, |a: E, b: E| a.mul(b))),
    )
}

/// Running minimum along `dim` (NaN propagates).
pub fn cummin(tensor: FlexTensor, dim: usize) -> FlexTensor {
    with_num!(tensor.dtype(), "cummin", E => scan("cummin", tensor, dim, min_nan::<E>))
}

/// Running maximum along `dim` (NaN propagates).
pub fn cummax(tensor: FlexTensor, dim: usize) -> FlexTensor {
    with_num!(tensor.dtype(), "cummax", E => scan("cummax", tensor, dim, max_nan::<E>))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scans_match_reference_on_views() {
        // [[1, 2, 3], [4, 5, 6]] transposed: [[1, 4], [2, 5], [3, 6]].
        let t = FlexTensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]).transpose();
        assert_eq!(
            cumsum(t.clone(), 0).to_vec::<f64>(),
            vec![1.0, 4.0, 3.0, 9.0, 6.0, 15.0]
        );
        assert_eq!(
            cumsum(t.clone(), 1).to_vec::<f64>(),
            vec![1.0, 5.0, 2.0, 7.0, 3.0, 9.0]
        );
        assert_eq!(
            cumprod(t.clone(), 0).to_vec::<f64>(),
            vec![1.0, 4.0, 2.0, 20.0, 6.0, 120.0]
        );
        assert_eq!(t.to_vec::<f64>(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        let i = FlexTensor::from_vec(vec![3i32, 1, 4, 1, 5], [5]).flip(&[0]);
        assert_eq!(cummin(i.clone(), 0).to_vec::<i32>(), vec![5, 1, 1, 1, 1]);
        assert_eq!(cummax(i, 0).to_vec::<i32>(), vec![5, 5, 5, 5, 5]);
        let n = FlexTensor::from_vec(vec![1.0f32, f32::NAN, 3.0], [3]);
        let m = cummax(n, 0).to_vec::<f32>();
        assert_eq!(m[0], 1.0);
        assert!(m[1].is_nan() && m[2].is_nan());
    }
}
