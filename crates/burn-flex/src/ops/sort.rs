//! Sorting along a dimension: stable, ascending or descending, NaN treated as the largest value
//! (last when ascending, first when descending, like PyTorch).

use super::arith::{NumElement, cmp_nan_last};
use super::map::PAR_THRESHOLD;
use super::reduce::indices_tensor;
use crate::element::as_f32;
use crate::parallel;
use crate::tensor::FlexTensor;
use burn_std::{DType, Shape, Slice};

/// Sorted values and their original indices along `dim`, as contiguous buffers laid out with
/// `dim` moved last, plus that permuted shape and the permutation.
fn sort_lines<E: NumElement>(
    op: &str,
    tensor: &FlexTensor,
    dim: usize,
    descending: bool,
) -> (Vec<E>, Vec<usize>, Shape, Vec<usize>) {
    let rank = tensor.rank();
    assert!(
        dim < rank,
        "{op}: dim {dim} out of range for a tensor of rank {rank}"
    );
    let mut axes: Vec<usize> = (0..rank).filter(|&d| d != dim).collect();
    axes.push(dim);
    let moved = tensor.clone().permute(&axes);
    let shape = moved.shape().clone();
    let values = moved.to_vec::<E>();
    let size = tensor.shape()[dim];
    let mut sorted = vec![E::default(); values.len()];
    let mut order = vec![0usize; values.len()];
    if size > 0 {
        assert!(
            u32::try_from(size).is_ok(),
            "{op}: dim {dim} has {size} values, more than the 2^32 - 1 this sort handles"
        );
        let sort_line = |((line, out), idx): ((&[E], &mut [E]), &mut [usize])| {
            if let Some(floats) = as_f32(line) {
                let order = sort_f32_line(floats, descending);
                for ((o, slot), &i) in out.iter_mut().zip(idx.iter_mut()).zip(&order) {
                    *slot = i;
                    *o = line[i];
                }
                return;
            }
            for (i, slot) in idx.iter_mut().enumerate() {
                *slot = i;
            }
            if descending {
                idx.sort_by(|&a, &b| cmp_nan_last(&line[b], &line[a]));
            } else {
                idx.sort_by(|&a, &b| cmp_nan_last(&line[a], &line[b]));
            }
            for (o, &i) in out.iter_mut().zip(idx.iter()) {
                *o = line[i];
            }
        };
        if values.len() >= PAR_THRESHOLD {
            parallel::for_each_chunk_pair_mut(
                &mut sorted,
                size,
                &mut order,
                size,
                |i, out, idx| sort_line(((&values[i * size..(i + 1) * size], out), idx)),
            );
        } else {
            let lines = values
                .chunks(size)
                .zip(sorted.chunks_mut(size))
                .zip(order.chunks_mut(size));
            lines.for_each(sort_line);
        }
    }
    // Inverse permutation to put `dim` back.
    let mut back = vec![0; rank];
    for (i, &a) in axes.iter().enumerate() {
        back[a] = i;
    }
    (sorted, order, shape, back)
}

/// The sort keys of an `f32` line: `key(value) << 32 | index`, where `key` orders the bits as
/// the values (NaN largest, -0 as +0; reversed when `descending`). The index in the low half
/// makes every key distinct, so an unstable sort of them is stable for the values, and
/// comparing integers in one array beats comparing floats through an index.
fn f32_keys(line: &[f32], descending: bool) -> Vec<u64> {
    line.iter()
        .enumerate()
        .map(|(i, &v)| {
            let key = if v.is_nan() {
                u32::MAX
            } else {
                let bits = (v + 0.0).to_bits();
                if bits >> 31 == 1 {
                    !bits
                } else {
                    bits | 1 << 31
                }
            };
            let key = if descending { !key } else { key };
            u64::from(key) << 32 | i as u64
        })
        .collect()
}

/// The order that sorts an `f32` line stably (see [`f32_keys`]).
fn sort_f32_line(line: &[f32], descending: bool) -> Vec<usize> {
    let mut keys = f32_keys(line, descending);
    keys.sort_unstable();
    keys.into_iter().map(|k| k as u32 as usize).collect()
}

/// The `k` largest values along `dim` (largest first, ties in index order, NaN largest) and
/// their indices (as `out_dtype`): the first `k` of a descending stable sort. `f32` lines
/// select their `k` largest keys in linear time and sort only those.
pub fn topk_with_indices(
    tensor: FlexTensor,
    k: usize,
    dim: usize,
    out_dtype: DType,
) -> (FlexTensor, FlexTensor) {
    let rank = tensor.rank();
    assert!(
        dim < rank,
        "topk: dim {dim} out of range for a tensor of rank {rank}"
    );
    let size = tensor.shape()[dim];
    assert!(
        k <= size,
        "topk: k = {k} exceeds the size {size} of dim {dim}"
    );
    if tensor.dtype() != DType::F32 || k == 0 || k == size || u32::try_from(size).is_err() {
        let (values, indices) = sort_with_indices(tensor, dim, true, out_dtype);
        let mut slices = vec![Slice::full(); rank];
        slices[dim] = Slice::new(0, Some(k as isize), 1);
        return (values.slice(&slices), indices.slice(&slices));
    }
    let mut axes: Vec<usize> = (0..rank).filter(|&d| d != dim).collect();
    axes.push(dim);
    let moved = tensor.permute(&axes);
    let values = moved.values::<f32>();
    let lines = values.len() / size;
    let mut top = vec![0f32; lines * k];
    let mut order = vec![0usize; lines * k];
    let select = |i: usize, out: &mut [f32], idx: &mut [usize]| {
        let line = &values[i * size..(i + 1) * size];
        let mut keys = f32_keys(line, true);
        keys.select_nth_unstable(k - 1);
        keys[..k].sort_unstable();
        for ((o, slot), &key) in out.iter_mut().zip(idx.iter_mut()).zip(&keys[..k]) {
            *slot = key as u32 as usize;
            *o = line[*slot];
        }
    };
    if values.len() >= PAR_THRESHOLD {
        parallel::for_each_chunk_pair_mut(&mut top, k, &mut order, k, select);
    } else {
        let lines = top.chunks_mut(k).zip(order.chunks_mut(k)).enumerate();
        lines.for_each(|(i, (out, idx))| select(i, out, idx));
    }
    let mut shape = moved.shape().clone();
    shape[rank - 1] = k;
    let mut back = vec![0; rank];
    for (i, &a) in axes.iter().enumerate() {
        back[a] = i;
    }
    (
        FlexTensor::from_vec(top, shape.clone()).permute(&back),
        indices_tensor(order, shape, out_dtype).permute(&back),
    )
}

/// The values sorted along `dim` (stable; NaN last when ascending).
pub fn sort(tensor: FlexTensor, dim: usize, descending: bool) -> FlexTensor {
    with_num!(tensor.dtype(), "sort", E => {
        let (values, _, shape, back) = sort_lines::<E>("sort", &tensor, dim, descending);
        FlexTensor::from_vec(values, shape).permute(&back)
    })
}

/// The indices (as `out_dtype`) that sort the values along `dim` (stable).
pub fn argsort(tensor: FlexTensor, dim: usize, descending: bool, out_dtype: DType) -> FlexTensor {
    with_num!(tensor.dtype(), "argsort", E => {
        let (_, order, shape, back) = sort_lines::<E>("argsort", &tensor, dim, descending);
        indices_tensor(order, shape, out_dtype).permute(&back)
    })
}

/// The sorted values along `dim` and the indices (as `out_dtype`) that sort them.
pub fn sort_with_indices(
    tensor: FlexTensor,
    dim: usize,
    descending: bool,
    out_dtype: DType,
) -> (FlexTensor, FlexTensor) {
    with_num!(tensor.dtype(), "sort_with_indices", E => {
        let (values, order, shape, back) = sort_lines::<E>("sort_with_indices", &tensor, dim, descending);
        (
            FlexTensor::from_vec(values, shape.clone()).permute(&back),
            indices_tensor(order, shape, out_dtype).permute(&back),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_along_each_dim_stably() {
        let t = FlexTensor::from_vec(vec![3.0f32, 1.0, f32::NAN, 1.0, 2.0, 0.0], [2, 3]);
        let (v, i) = sort_with_indices(t.clone(), 1, false, DType::I64);
        let v = v.to_vec::<f32>();
        assert_eq!(&v[..2], &[1.0, 3.0]);
        assert!(v[2].is_nan());
        assert_eq!(&v[3..], &[0.0, 1.0, 2.0]);
        assert_eq!(i.to_vec::<i64>(), vec![1, 0, 2, 2, 0, 1]);
        let d = argsort(t.clone(), 1, true, DType::I32).to_vec::<i32>();
        assert_eq!(d, vec![2, 0, 1, 1, 0, 2]);
        let s = sort(t, 0, false).to_vec::<f32>();
        assert_eq!(&s[..2], &[1.0, 1.0]);
        assert!(s[5].is_nan());
        let ties = FlexTensor::from_vec(vec![2i32, 1, 2, 1, 2], [5]).flip(&[0]);
        assert_eq!(
            argsort(ties.clone(), 0, false, DType::I64).to_vec::<i64>(),
            vec![1, 3, 0, 2, 4]
        );
        assert_eq!(
            argsort(ties, 0, true, DType::I64).to_vec::<i64>(),
            vec![0, 2, 4, 1, 3]
        );
    }

    #[test]
    fn f32_keys_sort_as_the_comparison_sort_of_f64() {
        // Duplicates, ±0, ±inf, NaN of both signs; rows of 257 in a parallel split.
        let specials = [
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            1.5,
        ];
        let values: Vec<f32> = (0..257 * 300)
            .map(|i: usize| match i.wrapping_mul(2_654_435_761) % 23 {
                k if k < 7 => specials[k],
                k => ((i * 37 % 101) as f32 - 50.0) * if k % 2 == 0 { 0.25 } else { 1.0 },
            })
            .collect();
        let wide: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
        for dim in [0, 1] {
            for descending in [false, true] {
                let t = FlexTensor::from_vec(values.clone(), [300, 257]);
                let reference = FlexTensor::from_vec(wide.clone(), [300, 257]);
                let got = argsort(t, dim, descending, DType::I64).to_vec::<i64>();
                let want = argsort(reference, dim, descending, DType::I64).to_vec::<i64>();
                assert!(got == want, "dim {dim}, descending {descending}");
            }
        }
    }

    #[test]
    fn topk_is_the_head_of_the_descending_sort() {
        // Ties, ±0 and NaN; lines along either dim, split between threads or not; f32 selects,
        // f64 sorts: both must give the head of the stable descending sort.
        let values: Vec<f32> = (0..300 * 257)
            .map(|i: usize| match i.wrapping_mul(2_654_435_761) % 29 {
                0 => f32::NAN,
                1 => -0.0,
                2 => 0.0,
                k => (k % 7) as f32 - 3.0,
            })
            .collect();
        for dim in [0, 1] {
            for k in [1, 5, 40] {
                let t = FlexTensor::from_vec(values.clone(), [300, 257]);
                let (v, i) = topk_with_indices(t.clone(), k, dim, DType::I64);
                let (sv, si) = sort_with_indices(t, dim, true, DType::I64);
                let mut slices = vec![Slice::full(); 2];
                slices[dim] = Slice::new(0, Some(k as isize), 1);
                let want_v = sv.slice(&slices).to_vec::<f32>();
                let want_i = si.slice(&slices).to_vec::<i64>();
                assert_eq!(
                    v.shape(),
                    &Shape::from(if dim == 0 { [k, 257] } else { [300, k] })
                );
                assert!(i.to_vec::<i64>() == want_i, "indices, dim {dim}, k {k}");
                let same = v
                    .to_vec::<f32>()
                    .iter()
                    .zip(&want_v)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "values, dim {dim}, k {k}");
            }
        }
    }
}
