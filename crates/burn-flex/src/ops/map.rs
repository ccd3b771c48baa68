//! The element-wise engine: maps and broadcasting zips over strided tensors, writing into the
//! input's buffer when it may be reused, and splitting large outputs across rayon threads.

use crate::parallel;
use crate::simd::vectorized;
pub use crate::tensor::rows::{
    PAR_THRESHOLD, for_each_out_row, for_each_out_row_weighted, map_row,
};
use crate::tensor::{FlexTensor, Storable, pool};
use burn_std::Shape;

/// The shape `a` and `b` broadcast to; panics naming `op` when they are incompatible.
pub fn broadcast_shape(op: &str, a: &Shape, b: &Shape) -> Shape {
    a.broadcast(b)
        .unwrap_or_else(|| panic!("{op}: shapes {a:?} and {b:?} cannot be broadcast together"))
}

/// Panics naming `op` unless both dtypes are equal.
pub fn check_same_dtype(op: &str, lhs: &FlexTensor, rhs: &FlexTensor) {
    assert_eq!(
        lhs.dtype(),
        rhs.dtype(),
        "{op}: both tensors must have the same dtype, got {} and {}",
        lhs.dtype(),
        rhs.dtype()
    );
}

/// `out[i] = f(a[..], b[..])` for a row of two strided inputs.
#[inline(always)]
pub fn zip_row<A: Copy, B: Copy, O>(
    out: &mut [O],
    (a, pa, sa): (&[A], usize, isize),
    (b, pb, sb): (&[B], usize, isize),
    f: &impl Fn(A, B) -> O,
) {
    let len = out.len();
    match (sa, sb) {
        (1, 1) => {
            let pairs = a[pa..pa + len].iter().zip(&b[pb..pb + len]);
            for (o, (&x, &y)) in out.iter_mut().zip(pairs) {
                *o = f(x, y);
            }
        }
        (1, 0) => {
            let y = b[pb];
            for (o, &x) in out.iter_mut().zip(&a[pa..pa + len]) {
                *o = f(x, y);
            }
        }
        (0, 1) => {
            let x = a[pa];
            for (o, &y) in out.iter_mut().zip(&b[pb..pb + len]) {
                *o = f(x, y);
            }
        }
        _ => {
            let (mut p, mut q) = (pa as isize, pb as isize);
            for o in out {
                *o = f(a[p as usize], b[q as usize]);
                p += sa;
                q += sb;
            }
        }
    }
}

/// `f` applied to every element into a new tensor of element type `O`.
pub fn map_into<E: Storable, O: Storable>(t: &FlexTensor, f: impl Fn(E) -> O + Sync) -> FlexTensor {
    let shape = t.shape().clone();
    let data = t.storage::<E>();
    let mut out = pool::aligned_for_overwrite::<O>(shape.num_elements());
    for_each_out_row(
        &mut out,
        &shape,
        [t.layout()],
        #[inline(always)]
        |o, [p], [s]| map_row(o, data, p, s, &f),
    );
    FlexTensor::from_aligned(out, shape)
}

/// `f` applied to every element, in place when the buffer may be reused.
pub fn map_same<E: Storable>(mut t: FlexTensor, f: impl Fn(E) -> E + Sync) -> FlexTensor {
    if let Some(data) = t.data_mut::<E>() {
        // A unique contiguous buffer is one flat row: no shape to walk (or clone, which would
        // allocate on every small operation).
        let apply = |chunk: &mut [E]| {
            vectorized(
                #[inline(always)]
                || {
                    for v in chunk {
                        *v = f(*v);
                    }
                },
            )
        };
        // The size first: asking rayon for its thread count costs more than a small op.
        if data.len() >= PAR_THRESHOLD && parallel::threads() > 1 {
            let chunk = data.len().div_ceil(parallel::threads() * 4);
            parallel::for_each_chunk_mut(data, chunk, |_, piece| apply(piece));
        } else {
            apply(data);
        }
        return t;
    }
    map_into(&t, f)
}

/// `f(lhs, rhs)` element-wise with broadcasting, into a new tensor of element type `O`.
pub fn zip_into<A: Storable, B: Storable, O: Storable>(
    op: &str,
    lhs: &FlexTensor,
    rhs: &FlexTensor,
    f: impl Fn(A, B) -> O + Sync,
) -> FlexTensor {
    let shape = broadcast_shape(op, lhs.shape(), rhs.shape());
    let (la, lb) = (lhs.layout().expand(&shape), rhs.layout().expand(&shape));
    let (a, b) = (lhs.storage::<A>(), rhs.storage::<B>());
    let mut out = pool::aligned_for_overwrite::<O>(shape.num_elements());
    for_each_out_row(
        &mut out,
        &shape,
        [&la, &lb],
        #[inline(always)]
        |o, [pa, pb], [sa, sb]| zip_row(o, (a, pa, sa), (b, pb, sb), &f),
    );
    FlexTensor::from_aligned(out, shape)
}

/// `f(lhs, rhs)` element-wise with broadcasting, written into `lhs` or `rhs` when one of them
/// has the output's shape and may be reused.
pub fn zip_same<E: Storable>(
    op: &str,
    mut lhs: FlexTensor,
    mut rhs: FlexTensor,
    f: impl Fn(E, E) -> E + Sync,
) -> FlexTensor {
    check_same_dtype(op, &lhs, &rhs);
    // Operands of equal shapes need no broadcast shape built (an allocation every small
    // operation would pay): `None` then.
    let broadcast =
        (lhs.shape() != rhs.shape()).then(|| broadcast_shape(op, lhs.shape(), rhs.shape()));
    // `data_mut` is the check itself: a separate `can_mut` first could be overtaken by
    // `compute_pending` sharing a deferred result on another thread in between.
    if broadcast.as_ref().is_none_or(|shape| lhs.shape() == shape)
        && let Some(a) = lhs.data_mut::<E>()
    {
        zip_in_place(a, &rhs, broadcast.as_ref(), &f);
        return lhs;
    }
    if broadcast.as_ref().is_none_or(|shape| rhs.shape() == shape)
        && let Some(b) = rhs.data_mut::<E>()
    {
        zip_in_place(b, &lhs, broadcast.as_ref(), |y, x| f(x, y));
        return rhs;
    }
    zip_into(op, &lhs, &rhs, f)
}

/// `out[i] = g(out[i], other[i])`, where `out` is the buffer of the operand that has the
/// output's shape: `other` walks its own layout when the shapes are equal (`broadcast` is
/// `None`), or its layout expanded to the `broadcast` shape.
#[inline(always)]
fn zip_in_place<E: Storable>(
    out: &mut [E],
    other: &FlexTensor,
    broadcast: Option<&Shape>,
    g: impl Fn(E, E) -> E + Sync,
) {
    let expanded;
    let (shape, layout) = match broadcast {
        Some(shape) => {
            expanded = other.layout().expand(shape);
            (shape, &expanded)
        }
        None => (other.shape(), other.layout()),
    };
    let values = other.storage::<E>();
    for_each_out_row(
        out,
        shape,
        [layout],
        #[inline(always)]
        |o, [p], [s]| zip_row_in_place(o, (values, p, s), &g),
    );
}

/// `out[i] = f(out[i], b[..])` for a row.
#[inline(always)]
fn zip_row_in_place<E: Copy>(
    out: &mut [E],
    (b, pb, sb): (&[E], usize, isize),
    f: &impl Fn(E, E) -> E,
) {
    match sb {
        1 => {
            let len = out.len();
            for (o, &y) in out.iter_mut().zip(&b[pb..pb + len]) {
                *o = f(*o, y);
            }
        }
        0 => {
            let y = b[pb];
            for o in out {
                *o = f(*o, y);
            }
        }
        _ => {
            let mut q = pb as isize;
            for o in out {
                *o = f(*o, b[q as usize]);
                q += sb;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_place_only_when_unique() {
        let a = FlexTensor::from_vec(vec![1.0f32, 2.0, 3.0], [3]);
        let keep = a.clone();
        let b = map_same(a, |v: f32| v * 10.0);
        assert_eq!(keep.to_vec::<f32>(), vec![1.0, 2.0, 3.0]);
        assert_eq!(b.to_vec::<f32>(), vec![10.0, 20.0, 30.0]);
        let ptr = Storable::as_slice(b.buffer()).map(|s: &[f32]| s.as_ptr());
        let c = map_same(b, |v: f32| v + 1.0);
        assert_eq!(
            ptr,
            Storable::as_slice(c.buffer()).map(|s: &[f32]| s.as_ptr())
        );
    }

    #[test]
    fn same_shape_zip_writes_into_the_unique_operand_through_the_others_strides() {
        let (rows, cols) = (5, 7);
        let a: Vec<f64> = (0..rows * cols).map(|i| i as f64 * 0.5).collect();
        let b: Vec<f64> = (0..rows * cols).map(|i| (i * 3) as f64).collect();
        let expected: Vec<f64> = (0..rows * cols)
            .map(|p| {
                let (i, j) = (p / cols, p % cols);
                a[p] - b[j * rows + i]
            })
            .collect();
        // A transposed `rhs` into a unique contiguous `lhs`, in place.
        let lhs = FlexTensor::from_vec(a.clone(), [rows, cols]);
        let lhs_ptr = Storable::as_slice(lhs.buffer()).map(|s: &[f64]| s.as_ptr());
        let rhs = FlexTensor::from_vec(b.clone(), [cols, rows]).transpose();
        let out = zip_same("test", lhs, rhs, |x: f64, y: f64| x - y);
        assert_eq!(out.shape().dims.to_vec(), vec![rows, cols]);
        assert_eq!(out.to_vec::<f64>(), expected);
        assert_eq!(
            lhs_ptr,
            Storable::as_slice(out.buffer()).map(|s: &[f64]| s.as_ptr())
        );
        // A shared `lhs`: the result goes into the unique `rhs`, operands kept in order.
        let lhs = FlexTensor::from_vec(a.clone(), [rows, cols]);
        let keep = lhs.clone();
        let rhs = FlexTensor::from_vec(b.clone(), [cols, rows]).transpose();
        let out = zip_same("test", lhs, rhs.to_contiguous(), |x: f64, y: f64| x - y);
        assert_eq!(out.to_vec::<f64>(), expected);
        assert_eq!(keep.to_vec::<f64>(), a);
        // Both shared: a new tensor.
        let rhs = FlexTensor::from_vec(b, [cols, rows]).transpose();
        let keep_rhs = rhs.clone();
        let out = zip_same("test", keep.clone(), rhs, |x: f64, y: f64| x - y);
        assert_eq!(out.to_vec::<f64>(), expected);
        assert_eq!(keep.to_vec::<f64>(), a);
        drop(keep_rhs);
    }

    #[test]
    fn large_broadcast_zip_matches_sequential() {
        let rows = 300;
        let cols = 257;
        let a: Vec<f64> = (0..rows * cols).map(|i| i as f64).collect();
        let b: Vec<f64> = (0..cols).map(|i| (i * 7) as f64).collect();
        let ta = FlexTensor::from_vec(a.clone(), [rows, cols]).transpose();
        let tb = FlexTensor::from_vec(b.clone(), [cols, 1]);
        let out = zip_into("test", &ta, &tb, |x: f64, y: f64| x - y);
        assert_eq!(out.shape().dims.to_vec(), vec![cols, rows]);
        let v = out.to_vec::<f64>();
        for j in 0..cols {
            for i in 0..rows {
                assert_eq!(v[j * rows + i], a[i * cols + j] - b[j]);
            }
        }
    }
}
