//! Shared compositions used by the default op bodies.

use crate::tensor::{BoolTensor, FloatTensor};
use crate::{Backend, TensorMetadata, read_sync};
use burn_std::{AttentionModuleOptions, Shape, Slice, TensorData};

/// The slices keeping the first `k` positions along `dim` of a tensor of `shape` (the default
/// `topk` bodies narrow a descending sort with them).
pub(crate) fn first_along(dim: usize, k: usize, shape: &Shape) -> Vec<Slice> {
    let mut slices = vec![Slice::full(); shape.num_dims()];
    slices[dim] = Slice::new(0, Some(k as isize), 1);
    slices
}

/// Applies `f` to every value on the host (for rarely used math without a required op).
pub(crate) fn float_host_unary<B: Backend>(
    tensor: FloatTensor<B>,
    f: impl Fn(f64) -> f64,
) -> FloatTensor<B> {
    let device = B::float_device(&tensor);
    let data = read_sync(B::float_into_data(tensor))
        .unwrap_or_else(|e| panic!("reading a float tensor failed: {e}"));
    let dtype = data.dtype;
    let values: Vec<f64> = data.iter::<f64>().map(f).collect();
    B::float_from_data(
        TensorData::new(values, data.shape).convert_dtype(dtype),
        &device,
    )
}

/// The shape both operands of `op` broadcast to.
///
/// # Panics
/// If they do not broadcast.
fn broadcast_shape<T: TensorMetadata>(op: &str, lhs: &T, rhs: &T) -> Shape {
    lhs.shape().broadcast(&rhs.shape()).unwrap_or_else(|| {
        panic!(
            "{op}: cannot broadcast shapes {:?} and {:?}",
            lhs.shape(),
            rhs.shape()
        )
    })
}

/// Applies `f` pairwise on the host, broadcasting both operands first.
pub(crate) fn float_host_binary<B: Backend>(
    op: &str,
    lhs: FloatTensor<B>,
    rhs: FloatTensor<B>,
    f: impl Fn(f64, f64) -> f64,
) -> FloatTensor<B> {
    let shape = broadcast_shape(op, &lhs, &rhs);
    let device = B::float_device(&lhs);
    let read = |t: FloatTensor<B>| {
        read_sync(B::float_into_data(B::float_expand(t, shape.clone())))
            .unwrap_or_else(|e| panic!("reading a float tensor failed: {e}"))
    };
    let (a, b) = (read(lhs), read(rhs));
    let dtype = a.dtype;
    let values: Vec<f64> = a
        .iter::<f64>()
        .zip(b.iter::<f64>())
        .map(|(x, y)| f(x, y))
        .collect();
    B::float_from_data(TensorData::new(values, shape).convert_dtype(dtype), &device)
}

/// `hypot` from device operations (the contract's default body for `float_hypot`): the larger
/// magnitude `m` and the smaller `s` of each pair, `m * sqrt(1 + (s / m)²)` (with `m = 0` read
/// as 1, giving 0), infinities kept. Public so that a backend with a kernel can compare.
pub fn float_hypot_fallback<B: Backend>(
    lhs: FloatTensor<B>,
    rhs: FloatTensor<B>,
) -> FloatTensor<B> {
    let shape = broadcast_shape("float_hypot", &lhs, &rhs);
    let a = B::float_abs(B::float_expand(lhs, shape.clone()));
    let b = B::float_abs(B::float_expand(rhs, shape));
    let a_smaller = B::float_lower(a.clone(), b.clone());
    let large = B::float_mask_where(a.clone(), a_smaller.clone(), b.clone());
    let small = B::float_mask_where(b.clone(), a_smaller, a.clone());
    let large_is_zero = B::float_equal_elem(large.clone(), 0.0.into());
    let divisor = B::float_mask_fill(large.clone(), large_is_zero, 1.0.into());
    let ratio = B::float_div(small, divisor);
    let root = B::float_sqrt(B::float_add_scalar(
        B::float_mul(ratio.clone(), ratio),
        1.0.into(),
    ));
    let out = B::float_mul(large, root);
    let infinite = B::bool_or(B::float_is_inf(a), B::float_is_inf(b));
    B::float_mask_fill(out, infinite, f64::INFINITY.into())
}

/// Concatenation by writing each input into its slot of an empty output.
pub(crate) fn cat_with_slice_assign<T: TensorMetadata>(
    tensors: Vec<T>,
    dim: usize,
    empty: impl FnOnce(Shape) -> T,
    slice_assign: impl Fn(T, &[Slice], T) -> T,
) -> T {
    let mut shape = tensors[0].shape();
    shape[dim] = tensors.iter().map(|t| t.shape()[dim]).sum();
    let rank = shape.num_dims();
    let mut output = empty(shape);
    let mut start = 0;
    for tensor in tensors {
        let len = tensor.shape()[dim];
        let mut slices = vec![Slice::full(); rank];
        slices[dim] = Slice::new(start as isize, Some((start + len) as isize), 1);
        output = slice_assign(output, &slices, tensor);
        start += len;
    }
    output
}

/// Stable argsort along `dim` on the host, comparing in the data's own type (so 64-bit
/// integers past 2^53 keep their order); NaN last when ascending, first when descending.
pub(crate) fn argsort_host(data: &TensorData, dim: usize, descending: bool) -> TensorData {
    burn_std::with_dtype!(data.dtype, E => {
        let values = data.to_vec::<E>().expect("the data's own dtype");
        argsort_values(&values, &data.shape, dim, descending)
    })
}

fn argsort_values<E: PartialOrd + Copy>(
    values: &[E],
    shape: &Shape,
    dim: usize,
    descending: bool,
) -> TensorData {
    let size = shape[dim];
    let inner: usize = shape.dims[dim + 1..].iter().product();
    let outer: usize = shape.dims[..dim].iter().product();
    let is_nan = |x: E| x.partial_cmp(&x).is_none();
    let mut out = vec![0i64; values.len()];
    let mut order: Vec<usize> = Vec::with_capacity(size);
    for o in 0..outer {
        for i in 0..inner {
            let at = |k: usize| values[(o * size + k) * inner + i];
            order.clear();
            order.extend(0..size);
            order.sort_by(|&a, &b| {
                let (x, y) = (at(a), at(b));
                let ord = x
                    .partial_cmp(&y)
                    .unwrap_or_else(|| is_nan(x).cmp(&is_nan(y)));
                if descending { ord.reverse() } else { ord }
            });
            for (k, &src) in order.iter().enumerate() {
                out[(o * size + k) * inner + i] = src as i64;
            }
        }
    }
    TensorData::new(out, shape.clone())
}

/// The row-major coordinates of the non-zero values, shape `[count, rank]`.
pub(crate) fn argwhere_host(data: &TensorData) -> TensorData {
    let dims = &data.shape.dims;
    let rank = dims.len();
    let strides = data.shape.contiguous_strides();
    let mut count = 0;
    let mut exact = Vec::new();
    for (flat, value) in data.iter::<bool>().enumerate() {
        if value {
            count += 1;
            for (d, stride) in strides.iter().enumerate() {
                exact.push(((flat / stride) % dims[d]) as i64);
            }
        }
    }
    TensorData::new(exact, [count, rank])
}

/// Attention composed from matmul and a numerically stable softmax (any rank); a row with every
/// key masked gives zeros. Scores are `softcap(q·kᵀ·scale)`, masked (`mask`, causal) to -∞, then
/// `attn_bias` is added before the softmax. Rank-4 inputs may have fewer key/value heads than
/// query heads (grouped-query attention: query head `h` reads key/value head
/// `h / (heads / kv_heads)`). The default body of `ModuleOps::attention`, public so that a
/// backend with a fused kernel for some shapes can fall back to it for the others.
pub fn attention_fallback<B: Backend>(
    query: FloatTensor<B>,
    key: FloatTensor<B>,
    value: FloatTensor<B>,
    mask: Option<BoolTensor<B>>,
    attn_bias: Option<FloatTensor<B>>,
    options: AttentionModuleOptions,
) -> FloatTensor<B> {
    let q_shape = query.shape();
    let rank = q_shape.num_dims();
    let head_dim = q_shape[rank - 1];
    let (key, value) = match rank {
        4 => (
            repeat_kv_heads::<B>(key, q_shape[1]),
            repeat_kv_heads::<B>(value, q_shape[1]),
        ),
        _ => (key, value),
    };
    let scale = options.scale.unwrap_or(1.0 / (head_dim as f64).sqrt());
    let mut scores = B::float_mul_scalar(
        B::float_matmul(query, B::float_transpose(key)),
        scale.into(),
    );
    if let Some(cap) = options.softcap {
        scores = B::float_mul_scalar(
            B::float_tanh(B::float_div_scalar(scores, cap.into())),
            cap.into(),
        );
    }
    let score_shape = scores.shape();
    let device = B::float_device(&scores);
    if options.is_causal {
        let (lq, lk) = (score_shape[rank - 2], score_shape[rank - 1]);
        // Key j is hidden from query i when j > i + offset.
        let offset = options.causal_alignment.offset(lq, lk);
        let values: Vec<bool> = (0..lq * lk)
            .map(|i| (i % lk) as i64 > (i / lk) as i64 + offset)
            .collect();
        let causal = B::bool_from_data(TensorData::new(values, [lq, lk]), &device);
        let causal = B::bool_expand(causal, score_shape.clone());
        scores = B::float_mask_fill(scores, causal, f64::NEG_INFINITY.into());
    }
    if let Some(mask) = mask {
        let mask = B::bool_expand(mask, score_shape.clone());
        scores = B::float_mask_fill(scores, mask, f64::NEG_INFINITY.into());
    }
    if let Some(bias) = attn_bias {
        scores = B::float_add(scores, bias);
    }
    let last = rank - 1;
    let max = B::float_max_dim(scores.clone(), last);
    let all_masked = B::float_equal_elem(max.clone(), f64::NEG_INFINITY.into());
    let max = B::float_mask_fill(max, all_masked, 0.0.into());
    let exp = B::float_exp(B::float_sub(scores, max));
    let sum = B::float_sum_dim(exp.clone(), last);
    let empty = B::float_equal_elem(sum.clone(), 0.0.into());
    let sum = B::float_mask_fill(sum, empty, 1.0.into());
    B::float_matmul(B::float_div(exp, sum), value)
}

/// `x [batch, kv_heads, seq, dim]` with each head repeated to make `heads` heads (head `h` of
/// the result is head `h / (heads / kv_heads)` of `x`); `x` itself when the counts agree.
fn repeat_kv_heads<B: Backend>(x: FloatTensor<B>, heads: usize) -> FloatTensor<B> {
    let shape = x.shape();
    let [batch, kv_heads, seq, dim] = [shape[0], shape[1], shape[2], shape[3]];
    if kv_heads == heads || kv_heads == 0 || !heads.is_multiple_of(kv_heads) {
        return x;
    }
    let groups = heads / kv_heads;
    let x = B::float_reshape(x, Shape::from([batch, kv_heads, 1, seq, dim]));
    let x = B::float_expand(x, Shape::from([batch, kv_heads, groups, seq, dim]));
    B::float_reshape(x, Shape::from([batch, heads, seq, dim]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_argsort_orders_large_integers_and_nans() {
        // 2^53 + 1 and 2^53 are equal as f64; their own type tells them apart.
        let big = (1i64 << 53) + 1;
        let data = TensorData::new(vec![big, 1 << 53, 3], [3]);
        let order = argsort_host(&data, 0, false).to_vec::<i64>().unwrap();
        assert_eq!(order, vec![2, 1, 0]);
        // torch.argsort(torch.tensor([nan, 1., 0.]), stable=True) -> [2, 1, 0]
        let data = TensorData::new(vec![f32::NAN, 1.0, 0.0], [3]);
        assert_eq!(
            argsort_host(&data, 0, false).to_vec::<i64>().unwrap(),
            vec![2, 1, 0]
        );
        assert_eq!(
            argsort_host(&data, 0, true).to_vec::<i64>().unwrap(),
            vec![0, 1, 2]
        );
    }
}
