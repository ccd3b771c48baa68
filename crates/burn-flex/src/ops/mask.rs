//! Masking: `mask_where` / `mask_fill` with broadcasting of the mask and value, and `argwhere`.

use super::map::{broadcast_shape, for_each_out_row};
use super::reduce::indices_tensor;
use crate::simd::vectorized;
use crate::tensor::{FlexTensor, pool};
use burn_std::{DType, Scalar, Shape};

fn check_mask(op: &str, mask: &FlexTensor) {
    assert!(
        mask.dtype().is_bool(),
        "{op}: expected a bool mask, got dtype {}",
        mask.dtype()
    );
}

/// `value` where `mask` is true, else `tensor` (all three broadcast together). Rows where every
/// operand is contiguous (or the value one broadcast scalar) take a branch-free select that
/// vectorizes: a branch on a mask of random bits mispredicts half the time.
pub fn mask_where(tensor: FlexTensor, mask: FlexTensor, value: FlexTensor) -> FlexTensor {
    check_mask("mask_where", &mask);
    assert_eq!(
        tensor.dtype(),
        value.dtype(),
        "mask_where: value dtype {} differs from tensor dtype {}",
        value.dtype(),
        tensor.dtype()
    );
    let shape = broadcast_shape("mask_where", tensor.shape(), mask.shape());
    let shape = broadcast_shape("mask_where", &shape, value.shape());
    let lm = mask.layout().expand(&shape);
    let lv = value.layout().expand(&shape);
    let m = mask.storage::<bool>();
    let mut tensor = tensor;
    with_elem!(tensor.dtype(), E => {
        let v = value.storage::<E>();
        if *tensor.shape() == shape && let Some(out) = tensor.data_mut::<E>() {
            for_each_out_row(out, &shape, [&lm, &lv], #[inline(always)] |o, [pm, pv], [sm, sv]| {
                let n = o.len();
                match (sm, sv) {
                    (1, 1) => vectorized(#[inline(always)] || {
                        let pairs = m[pm..pm + n].iter().zip(&v[pv..pv + n]);
                        for (o, (&keep, &x)) in o.iter_mut().zip(pairs) {
                            *o = if keep { x } else { *o };
                        }
                    }),
                    (1, 0) => vectorized(#[inline(always)] || {
                        let x = v[pv];
                        for (o, &keep) in o.iter_mut().zip(&m[pm..pm + n]) {
                            *o = if keep { x } else { *o };
                        }
                    }),
                    _ => {
                        let (mut pm, mut pv) = (pm as isize, pv as isize);
                        for o in o {
                            if m[pm as usize] {
                                *o = v[pv as usize];
                            }
                            pm += sm;
                            pv += sv;
                        }
                    }
                }
            });
            return tensor;
        }
        let lt = tensor.layout().expand(&shape);
        let t = tensor.storage::<E>();
        let mut out = pool::aligned_for_overwrite::<E>(shape.num_elements());
        for_each_out_row(&mut out, &shape, [&lt, &lm, &lv], #[inline(always)] |o, [pt, pm, pv], [st, sm, sv]| {
            let n = o.len();
            match (st, sm, sv) {
                (1, 1, 1) => vectorized(#[inline(always)] || {
                    let values = t[pt..pt + n].iter().zip(&v[pv..pv + n]);
                    for (o, (&keep, (&a, &x))) in o.iter_mut().zip(m[pm..pm + n].iter().zip(values)) {
                        *o = if keep { x } else { a };
                    }
                }),
                (1, 1, 0) => vectorized(#[inline(always)] || {
                    let x = v[pv];
                    for (o, (&keep, &a)) in o.iter_mut().zip(m[pm..pm + n].iter().zip(&t[pt..pt + n])) {
                        *o = if keep { x } else { a };
                    }
                }),
                _ => {
                    let (mut pt, mut pm, mut pv) = (pt as isize, pm as isize, pv as isize);
                    for o in o {
                        *o = if m[pm as usize] { v[pv as usize] } else { t[pt as usize] };
                        pt += st;
                        pm += sm;
                        pv += sv;
                    }
                }
            }
        });
        FlexTensor::from_aligned(out, shape)
    })
}

/// `value` (converted to the tensor's dtype) where `mask` is true, else `tensor` (the mask
/// broadcasts with the tensor).
pub fn mask_fill(tensor: FlexTensor, mask: FlexTensor, value: Scalar) -> FlexTensor {
    check_mask("mask_fill", &mask);
    let value = with_elem!(tensor.dtype(), E => FlexTensor::from_vec(vec![value.elem::<E>()], [1]));
    mask_where(tensor, mask, value)
}

/// The coordinates of the non-zero (true) elements in row-major order, as an `[n, rank]` tensor
/// of `out_dtype`.
pub fn argwhere(tensor: FlexTensor, out_dtype: DType) -> FlexTensor {
    let dims = tensor.shape().dims.clone();
    let rank = dims.len();
    let nonzero: Vec<bool> = with_elem!(tensor.dtype(), E => {
        tensor.to_vec::<E>().into_iter().map(|x| x != E::default()).collect()
    });
    let mut coords = Vec::new();
    let mut index = vec![0usize; rank];
    for &nz in &nonzero {
        if nz {
            coords.extend_from_slice(&index);
        }
        for d in (0..rank).rev() {
            index[d] += 1;
            if index[d] < dims[d] {
                break;
            }
            index[d] = 0;
        }
    }
    let n = coords.len() / rank.max(1);
    let n = if rank == 0 {
        nonzero.iter().filter(|&&b| b).count()
    } else {
        n
    };
    indices_tensor(coords, Shape::new([n, rank]), out_dtype)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_where_broadcasts_all_operands() {
        let t = FlexTensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], [2, 3]);
        let mask = FlexTensor::from_vec(vec![true, false, true], [3]);
        let value = FlexTensor::from_vec(vec![-1.0f32, -2.0], [2, 1]);
        let kept = t.clone();
        let out = mask_where(t.clone(), mask.clone(), value.clone());
        assert_eq!(out.to_vec::<f32>(), vec![-1.0, 2.0, -1.0, -2.0, 5.0, -2.0]);
        assert_eq!(kept.to_vec::<f32>(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        drop(kept);
        let out = mask_where(t, mask.clone(), value);
        assert_eq!(out.to_vec::<f32>(), vec![-1.0, 2.0, -1.0, -2.0, 5.0, -2.0]);
        // The tensor itself broadcast: the output has the larger shape.
        let small = FlexTensor::from_vec(vec![7i32], [1]);
        let out = mask_fill(small, mask.unsqueeze(0), Scalar::Int(0));
        assert_eq!(out.to_vec::<i32>(), vec![0, 7, 0]);
        let b = FlexTensor::from_vec(vec![false, false], [2]);
        let out = mask_fill(
            b,
            FlexTensor::from_vec(vec![true, false], [2]),
            Scalar::Bool(true),
        );
        assert_eq!(out.to_vec::<bool>(), vec![true, false]);
    }

    #[test]
    fn argwhere_lists_coordinates() {
        let t = FlexTensor::from_vec(vec![false, true, true, false, false, true], [2, 3]);
        let w = argwhere(t.clone(), DType::I64);
        assert_eq!(w.shape().dims.to_vec(), vec![3, 2]);
        assert_eq!(w.to_vec::<i64>(), vec![0, 1, 0, 2, 1, 2]);
        let w = argwhere(t.transpose(), DType::I32);
        assert_eq!(w.to_vec::<i32>(), vec![1, 0, 2, 0, 2, 1]);
        let none = argwhere(FlexTensor::from_vec(vec![false; 4], [4]), DType::I64);
        assert_eq!(none.shape().dims.to_vec(), vec![0, 1]);
    }

    #[test]
    fn contiguous_selects_in_place_and_into_a_new_buffer() {
        let (rows, cols) = (300, 257);
        let n = rows * cols;
        let base: Vec<f32> = (0..n).map(|i| i as f32).collect();
        let other: Vec<f32> = (0..n).map(|i| -(i as f32) - 1.0).collect();
        let keep: Vec<bool> = (0..n)
            .map(|i| (i * 2_654_435_761usize) >> 7 & 1 == 1)
            .collect();
        let mask = FlexTensor::from_vec(keep.clone(), [rows, cols]);
        let want_value: Vec<f32> = (0..n)
            .map(|i| if keep[i] { other[i] } else { base[i] })
            .collect();
        let want_fill: Vec<f32> = (0..n)
            .map(|i| if keep[i] { 7.5 } else { base[i] })
            .collect();
        for shared in [false, true] {
            let t = FlexTensor::from_vec(base.clone(), [rows, cols]);
            let held = shared.then(|| t.clone());
            let value = FlexTensor::from_vec(other.clone(), [rows, cols]);
            let got = mask_where(t, mask.clone(), value).to_vec::<f32>();
            assert!(got == want_value, "tensor value, shared {shared}");
            let t = FlexTensor::from_vec(base.clone(), [rows, cols]);
            let held2 = shared.then(|| t.clone());
            let got = mask_fill(t, mask.clone(), Scalar::Float(7.5)).to_vec::<f32>();
            assert!(got == want_fill, "scalar fill, shared {shared}");
            if let (Some(a), Some(b)) = (held, held2) {
                assert!(
                    a.to_vec::<f32>() == base && b.to_vec::<f32>() == base,
                    "input kept"
                );
            }
        }
    }
}
