//! `ModuleOps` for Flex: thin adapters from tensors to the slice kernels of `crate::kernels`.

use super::{Flex, float_like, int_dtype};
use crate::FlexTensor;
use crate::element::FloatElement;
use crate::kernels::{
    adaptive_pool, attention as attn, avg_pool, batch_norm as bn, conv, conv_backward,
    conv_transpose, embedding as emb, group_norm as gn, interpolate as interp, layer_norm as ln,
    pool,
};
use crate::ops::{creation, index::index_values, reduce};
use crate::tensor::Storable;
use burn_backend::ops::{
    BatchNormOutput, MaxPool1dWithIndices, MaxPool2dWithIndices, ModuleOps, NormGrads,
    check_batch_norm, check_group_norm, check_layer_norm,
};
use burn_backend::{
    AttentionModuleOptions, ConvOptions, ConvTransposeOptions, DType, InterpolateOptions,
};

type T = FlexTensor;

/// The shape of `t` as an array of rank `N`; panics naming `op` otherwise.
fn dims<const N: usize>(op: &str, what: &str, t: &T) -> [usize; N] {
    t.shape().dims.as_slice().try_into().unwrap_or_else(|_| {
        panic!(
            "{op}: expected {what} of rank {N}, got shape {:?}",
            t.shape()
        )
    })
}

/// The values of `t` (converted to `E`'s dtype when needed), row-major: the tensor's own when it
/// is contiguous, else a copy held as a tensor, so that its buffer goes back to the pool when
/// the kernel is done (a strided view such as the broadcast gradient of a sum is copied on every
/// backward step).
fn values<E: FloatElement + Storable>(t: &T) -> Values<E> {
    let tensor = if t.dtype() == E::DTYPE {
        t.clone()
    } else {
        creation::cast(t.clone(), E::DTYPE)
    };
    Values {
        tensor: tensor.to_contiguous(),
        element: std::marker::PhantomData,
    }
}

/// A contiguous tensor seen as its slice of `E` (see [`values`]).
struct Values<E> {
    tensor: FlexTensor,
    element: std::marker::PhantomData<E>,
}

impl<E: Storable> std::ops::Deref for Values<E> {
    type Target = [E];
    fn deref(&self) -> &[E] {
        let range = self
            .tensor
            .layout()
            .contiguous_range()
            .expect("`values` holds a contiguous tensor");
        &self.tensor.storage::<E>()[range]
    }
}

/// Indices from a kernel (as `i64`) in the device's int dtype.
fn indices(values: Vec<i64>, shape: Vec<usize>) -> T {
    let t = FlexTensor::from_vec(values, shape);
    let dtype = int_dtype();
    if dtype == DType::I64 {
        t
    } else {
        creation::cast(t, dtype)
    }
}

/// `ModuleOps` adapters of one shape for several convolutions: the forward passes
/// (`x, weight, bias, options`) and the weight gradients (`x, weight, output_grad, options`),
/// each calling its slice kernel in `crate::kernels` with the tensors' values and shapes.
macro_rules! conv_adapters {
    (forward: $($name:ident($Options:ident<$d:literal>) => $kernel:path),+) => {$(
        fn $name(x: T, weight: T, bias: Option<T>, options: $Options<$d>) -> T {
            let op = stringify!($name);
            let (xs, ws) = (dims(op, "x", &x), dims(op, "weight", &weight));
            with_float!(x.dtype(), op, E => {
                let bias = bias.as_ref().map(values::<E>);
                let (out, shape) = $kernel(
                    &values::<E>(&x), xs, &values::<E>(&weight), ws, bias.as_deref(), options,
                );
                FlexTensor::from_vec(out, shape)
            })
        }
    )+};
    (weight_backward: $($name:ident($Options:ident<$d:literal>) => $kernel:path),+) => {$(
        fn $name(x: T, weight: T, output_grad: T, options: $Options<$d>) -> T {
            let op = stringify!($name);
            let (xs, ws) = (dims(op, "x", &x), dims(op, "weight", &weight));
            with_float!(output_grad.dtype(), op, E => {
                let grad = $kernel(
                    &values::<E>(&x), xs, &values::<E>(&output_grad), ws, options,
                );
                FlexTensor::from_vec(grad, ws)
            })
        }
    )+};
}

impl ModuleOps<Flex> for Flex {
    conv_adapters!(forward:
        conv1d(ConvOptions<1>) => conv::conv1d,
        conv2d(ConvOptions<2>) => conv::conv2d,
        conv_transpose1d(ConvTransposeOptions<1>) => conv_transpose::conv_transpose1d,
        conv_transpose2d(ConvTransposeOptions<2>) => conv_transpose::conv_transpose2d
    );
    conv_adapters!(weight_backward:
        conv2d_weight_backward(ConvOptions<2>) => conv_backward::conv2d_weight_backward,
        conv_transpose2d_weight_backward(ConvTransposeOptions<2>)
            => conv_backward::conv_transpose2d_weight_backward
    );
    fn conv2d_x_backward(x: T, weight: T, output_grad: T, options: ConvOptions<2>) -> T {
        let op = "conv2d_x_backward";
        let (xs, ws) = (dims(op, "x", &x), dims(op, "weight", &weight));
        with_float!(output_grad.dtype(), op, E => {
            let grad = conv_backward::conv2d_input_backward(
                &values::<E>(&output_grad), &values::<E>(&weight), ws, xs, options,
            );
            FlexTensor::from_vec(grad, xs)
        })
    }
    fn conv_bias_backward(output_grad: T) -> T {
        let shape = output_grad.shape().clone();
        with_float!(output_grad.dtype(), "conv_bias_backward", E => {
            let grad = conv_backward::conv_bias_backward(&values::<E>(&output_grad), &shape.dims);
            FlexTensor::from_vec(grad, [shape[1]])
        })
    }
    fn avg_pool2d(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let xs = dims("avg_pool2d", "x", &x);
        with_float!(x.dtype(), "avg_pool2d", E => {
            let (out, shape) = avg_pool::avg_pool2d(
                &values::<E>(&x),
                xs,
                kernel_size,
                stride,
                padding,
                count_include_pad,
                ceil_mode,
            );
            FlexTensor::from_vec(out, shape)
        })
    }
    fn avg_pool2d_backward(
        x: T,
        grad: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let xs = dims("avg_pool2d_backward", "x", &x);
        with_float!(x.dtype(), "avg_pool2d_backward", E => {
            let out = avg_pool::avg_pool2d_backward(
                &values::<E>(&grad),
                xs,
                kernel_size,
                stride,
                padding,
                count_include_pad,
                ceil_mode,
            );
            FlexTensor::from_vec(out, xs)
        })
    }
    fn adaptive_avg_pool2d(x: T, output_size: [usize; 2]) -> T {
        let xs = dims("adaptive_avg_pool2d", "x", &x);
        if output_size == [1, 1] && xs[2] * xs[3] > 0 {
            // Global average pooling (a network's head): the vectorized mean of each plane.
            let [b, c, h, w] = xs;
            return reduce::mean_dim(x.reshape([b, c, h * w]), 2).reshape([b, c, 1, 1]);
        }
        with_float!(x.dtype(), "adaptive_avg_pool2d", E => {
            let (out, shape) = adaptive_pool::adaptive_avg_pool2d(
                &values::<E>(&x),
                xs,
                output_size,
            );
            FlexTensor::from_vec(out, shape)
        })
    }
    fn adaptive_avg_pool2d_backward(x: T, grad: T) -> T {
        let op = "adaptive_avg_pool2d_backward";
        let (xs, gs): ([usize; 4], [usize; 4]) = (dims(op, "x", &x), dims(op, "grad", &grad));
        with_float!(x.dtype(), op, E => {
            let out = adaptive_pool::adaptive_avg_pool2d_backward(
                &values::<E>(&grad),
                xs,
                [gs[2], gs[3]],
            );
            FlexTensor::from_vec(out, xs)
        })
    }
    fn max_pool2d_with_indices(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> MaxPool2dWithIndices<Flex> {
        let xs = dims("max_pool2d_with_indices", "x", &x);
        with_float!(x.dtype(), "max_pool2d_with_indices", E => {
            let (out, idx, shape) = pool::max_pool2d(
                &values::<E>(&x),
                xs,
                kernel_size,
                stride,
                padding,
                dilation,
                ceil_mode,
            );
            MaxPool2dWithIndices {
                output: FlexTensor::from_vec(out, shape),
                indices: indices(idx, shape.to_vec()),
            }
        })
    }
    fn max_pool2d_with_indices_backward(x: T, grad: T, indices: T) -> T {
        let op = "max_pool2d_with_indices_backward";
        let xs = dims(op, "x", &x);
        let idx = index_values(op, &indices);
        with_float!(x.dtype(), op, E => {
            let out = pool::max_pool2d_backward(&values::<E>(&grad), &idx, xs);
            FlexTensor::from_vec(out, xs)
        })
    }
    fn interpolate(x: T, output_size: [usize; 2], options: InterpolateOptions) -> T {
        let xs = dims("interpolate", "x", &x);
        with_float!(x.dtype(), "interpolate", E => {
            let (out, shape) = interp::interpolate(&values::<E>(&x), xs, output_size, options);
            FlexTensor::from_vec(out, shape)
        })
    }
    fn interpolate_backward(
        x: T,
        grad: T,
        output_size: [usize; 2],
        options: InterpolateOptions,
    ) -> T {
        let xs = dims("interpolate_backward", "x", &x);
        with_float!(x.dtype(), "interpolate_backward", E => {
            let out = interp::interpolate_backward(&values::<E>(&grad), xs, output_size, options);
            FlexTensor::from_vec(out, xs)
        })
    }

    // ---- overrides of default bodies --------------------------------------------------------

    fn embedding(weights: T, indices: T) -> T {
        let ws = dims("embedding", "weights", &weights);
        let mut shape = indices.shape().dims.clone();
        shape.push(ws[1]);
        let op = "embedding";
        with_float!(weights.dtype(), op, E => with_int!(indices.dtype(), op, I => {
            let out = emb::embedding(&weights.values::<E>(), ws, &indices.values::<I>());
            FlexTensor::from_vec(out, shape)
        }))
    }
    fn embedding_backward(weights: T, output_grad: T, indices: T) -> T {
        let ws = dims("embedding_backward", "weights", &weights);
        let op = "embedding_backward";
        with_float!(weights.dtype(), op, E => with_int!(indices.dtype(), op, I => {
            let out = emb::embedding_backward(
                &values::<E>(&output_grad),
                &indices.values::<I>(),
                ws,
            );
            FlexTensor::from_vec(out, ws)
        }))
    }
    fn max_pool1d_with_indices(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> MaxPool1dWithIndices<Flex> {
        let xs = dims("max_pool1d_with_indices", "x", &x);
        with_float!(x.dtype(), "max_pool1d_with_indices", E => {
            let (out, idx, shape) = pool::max_pool1d(
                &values::<E>(&x),
                xs,
                kernel_size,
                stride,
                padding,
                dilation,
                ceil_mode,
            );
            MaxPool1dWithIndices {
                output: FlexTensor::from_vec(out, shape),
                indices: indices(idx, shape.to_vec()),
            }
        })
    }
    fn avg_pool1d(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        count_include_pad: bool,
        ceil_mode: bool,
    ) -> T {
        let xs = dims("avg_pool1d", "x", &x);
        with_float!(x.dtype(), "avg_pool1d", E => {
            let (out, shape) = avg_pool::avg_pool1d(
                &values::<E>(&x),
                xs,
                kernel_size,
                stride,
                padding,
                count_include_pad,
                ceil_mode,
            );
            FlexTensor::from_vec(out, shape)
        })
    }
    fn adaptive_avg_pool1d(x: T, output_size: usize) -> T {
        let xs = dims("adaptive_avg_pool1d", "x", &x);
        with_float!(x.dtype(), "adaptive_avg_pool1d", E => {
            let (out, shape) = adaptive_pool::adaptive_avg_pool1d(
                &values::<E>(&x),
                xs,
                output_size,
            );
            FlexTensor::from_vec(out, shape)
        })
    }
    fn attention(
        query: T,
        key: T,
        value: T,
        mask: Option<T>,
        attn_bias: Option<T>,
        options: AttentionModuleOptions,
    ) -> T {
        // The fused kernel takes rank-4 inputs; other ranks use the contract's composition.
        let fused = query.rank() == 4 && key.rank() == 4 && value.rank() == 4;
        if !fused {
            return burn_backend::ops::attention_fallback::<Flex>(
                query, key, value, mask, attn_bias, options,
            );
        }
        let op = "attention";
        let (qs, ks, vs) = (
            dims(op, "query", &query),
            dims(op, "key", &key),
            dims(op, "value", &value),
        );
        let scores = [qs[0], qs[1], qs[2], ks[2]];
        let mask = mask.map(|m| m.expand(scores.to_vec()).to_vec::<bool>());
        let key = float_like(key, query.dtype());
        let value = float_like(value, query.dtype());
        let bias = attn_bias.map(|b| float_like(b, query.dtype()).expand(scores.to_vec()));
        with_float!(query.dtype(), op, E => {
            let bias = bias.as_ref().map(|b| b.to_vec::<E>());
            let (out, shape) = attn::attention(
                &values::<E>(&query), qs, &values::<E>(&key), ks, &values::<E>(&value), vs,
                mask.as_deref(), bias.as_deref(), options,
            );
            FlexTensor::from_vec(out, shape)
        })
    }
    fn layer_norm(x: T, gamma: T, beta: Option<T>, epsilon: f64) -> T {
        if !row_kernel_applies(&x, &gamma, beta.as_ref()) {
            return burn_backend::ops::layer_norm_fallback::<Flex>(x, gamma, beta, epsilon);
        }
        let d = check_layer_norm::<Flex>("layer_norm", &x, &gamma);
        let shape = x.shape().clone();
        with_float!(x.dtype(), "layer_norm", E => {
            let beta = beta.as_ref().map(values::<E>);
            let out = ln::layer_norm(
                &values::<E>(&x), d, &values::<E>(&gamma), beta.as_deref(), epsilon,
            );
            FlexTensor::from_aligned(out, shape)
        })
    }
    fn layer_norm_backward(x: T, gamma: T, grad: T, epsilon: f64) -> NormGrads<Flex> {
        if !row_kernel_applies(&x, &gamma, Some(&grad)) || grad.shape() != x.shape() {
            return burn_backend::ops::layer_norm_backward_fallback::<Flex>(
                x, gamma, grad, epsilon,
            );
        }
        let d = check_layer_norm::<Flex>("layer_norm_backward", &x, &gamma);
        let shape = x.shape().clone();
        with_float!(x.dtype(), "layer_norm_backward", E => {
            let (dx, dg, db) = ln::layer_norm_backward(
                &values::<E>(&x), d, &values::<E>(&gamma), &values::<E>(&grad), epsilon,
            );
            norm_grads(dx, dg, db, shape, d)
        })
    }
    fn batch_norm(x: T, gamma: T, beta: T, epsilon: f64) -> BatchNormOutput<Flex> {
        if !row_kernel_applies(&x, &gamma, Some(&beta)) {
            return burn_backend::ops::batch_norm_fallback::<Flex>(x, gamma, beta, epsilon);
        }
        let dims = check_batch_norm::<Flex>("batch_norm", &x, &gamma);
        let [_, c, _] = dims;
        let shape = x.shape().clone();
        with_float!(x.dtype(), "batch_norm", E => {
            let (out, mean, var) = bn::batch_norm(
                &values::<E>(&x), dims, &values::<E>(&gamma), &values::<E>(&beta), epsilon,
            );
            BatchNormOutput {
                output: FlexTensor::from_vec(out, shape),
                mean: FlexTensor::from_vec(mean, [c]),
                var: FlexTensor::from_vec(var, [c]),
            }
        })
    }
    fn batch_norm_backward(x: T, gamma: T, grad: T, epsilon: f64) -> NormGrads<Flex> {
        if !row_kernel_applies(&x, &gamma, Some(&grad)) || grad.shape() != x.shape() {
            return burn_backend::ops::batch_norm_backward_fallback::<Flex>(
                x, gamma, grad, epsilon,
            );
        }
        let dims = check_batch_norm::<Flex>("batch_norm_backward", &x, &gamma);
        let [_, c, _] = dims;
        let shape = x.shape().clone();
        with_float!(x.dtype(), "batch_norm_backward", E => {
            let (dx, dg, db) = bn::batch_norm_backward(
                &values::<E>(&x), dims, &values::<E>(&gamma), &values::<E>(&grad), epsilon,
            );
            norm_grads(dx, dg, db, shape, c)
        })
    }
    fn group_norm(x: T, gamma: T, beta: T, groups: usize, epsilon: f64) -> T {
        if !row_kernel_applies(&x, &gamma, Some(&beta)) {
            return burn_backend::ops::group_norm_fallback::<Flex>(x, gamma, beta, groups, epsilon);
        }
        let dims = check_group_norm::<Flex>("group_norm", &x, &gamma, groups);
        let shape = x.shape().clone();
        with_float!(x.dtype(), "group_norm", E => {
            let out = gn::group_norm(
                &values::<E>(&x), dims, groups, &values::<E>(&gamma), &values::<E>(&beta), epsilon,
            );
            FlexTensor::from_aligned(out, shape)
        })
    }
    fn group_norm_backward(
        x: T,
        gamma: T,
        grad: T,
        groups: usize,
        epsilon: f64,
    ) -> NormGrads<Flex> {
        if !row_kernel_applies(&x, &gamma, Some(&grad)) || grad.shape() != x.shape() {
            return burn_backend::ops::group_norm_backward_fallback::<Flex>(
                x, gamma, grad, groups, epsilon,
            );
        }
        let dims = check_group_norm::<Flex>("group_norm_backward", &x, &gamma, groups);
        let [_, c, _] = dims;
        let shape = x.shape().clone();
        with_float!(x.dtype(), "group_norm_backward", E => {
            let (dx, dg, db) = gn::group_norm_backward(
                &values::<E>(&x), dims, groups, &values::<E>(&gamma), &values::<E>(&grad), epsilon,
            );
            norm_grads(dx, dg, db, shape, c)
        })
    }
}

/// The gradients of a normalization from its kernel's vectors: the input's of `shape`, the
/// scale's and shift's of `params` values.
fn norm_grads<E: Storable>(
    dx: Vec<E>,
    dg: Vec<E>,
    db: Vec<E>,
    shape: burn_backend::Shape,
    params: usize,
) -> NormGrads<Flex> {
    NormGrads {
        x_grad: FlexTensor::from_vec(dx, shape),
        gamma_grad: FlexTensor::from_vec(dg, [params]),
        beta_grad: FlexTensor::from_vec(db, [params]),
    }
}

/// Whether the normalization kernels take these operands: `f32` or `f64`,
/// all of one dtype, not empty. Half floats use the composition (its statistics in the element
/// type, as the other backends compute them).
fn row_kernel_applies(x: &T, gamma: &T, other: Option<&T>) -> bool {
    matches!(x.dtype(), DType::F32 | DType::F64)
        && gamma.dtype() == x.dtype()
        && other.is_none_or(|t| t.dtype() == x.dtype())
        && x.shape().num_elements() > 0
}

#[cfg(test)]
mod tests {
    use super::super::FlexDevice;
    use super::*;
    use burn_backend::ops::{FloatTensorOps, IntTensorOps};
    use burn_backend::{Distribution, FloatDType, IntDType, Shape, TensorData};

    fn rand(shape: [usize; 4]) -> T {
        let _guard = crate::ops::random::seeded();
        Flex::float_random(
            Shape::new(shape),
            Distribution::Default,
            &FlexDevice,
            FloatDType::F64,
        )
    }

    fn assert_close(a: &T, b: &T) {
        let (a, b) = (a.to_vec::<f64>(), b.to_vec::<f64>());
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() < 1e-9, "{x} vs {y}");
        }
    }

    #[test]
    fn fused_attention_matches_composition() {
        let (q, k, v) = (rand([2, 2, 3, 4]), rand([2, 2, 3, 4]), rand([2, 2, 3, 5]));
        let hidden = FlexTensor::from_vec(
            vec![false, true, false, false, false, true, false, false, false],
            [3, 3],
        );
        // Fewer queries than keys: the causal mask is aligned to the bottom-right corner.
        let (q2, k2, v2) = (rand([1, 2, 2, 4]), rand([1, 2, 3, 4]), rand([1, 2, 3, 5]));
        let options = AttentionModuleOptions {
            is_causal: true,
            ..Default::default()
        };
        let fused = Flex::attention(q2.clone(), k2.clone(), v2.clone(), None, None, options);
        let composed =
            burn_backend::ops::attention_fallback::<Flex>(q2, k2, v2, None, None, options);
        assert_close(&fused, &composed);
        for is_causal in [false, true] {
            let options = AttentionModuleOptions {
                is_causal,
                ..Default::default()
            };
            let mask = Some(hidden.clone().unsqueeze(0).unsqueeze(0));
            let fused =
                Flex::attention(q.clone(), k.clone(), v.clone(), mask.clone(), None, options);
            let composed = burn_backend::ops::attention_fallback::<Flex>(
                q.clone(),
                k.clone(),
                v.clone(),
                mask,
                None,
                options,
            );
            assert_eq!(fused.shape().dims.to_vec(), vec![2, 2, 3, 5]);
            assert_close(&fused, &composed);
        }
    }

    #[test]
    fn conv_pool_and_embedding_smoke() {
        let x = Flex::float_from_data(
            TensorData::new((0..16).map(|i| i as f32).collect::<Vec<_>>(), [1, 1, 4, 4]),
            &FlexDevice,
        );
        let w = Flex::float_from_data(TensorData::new(vec![1.0f32; 4], [1, 1, 2, 2]), &FlexDevice);
        let y = Flex::conv2d(
            x.clone(),
            w,
            None,
            ConvOptions::new([2, 2], [0, 0], [1, 1], 1),
        );
        assert_eq!(y.to_vec::<f32>(), vec![10.0, 18.0, 42.0, 50.0]);
        let p = Flex::max_pool2d_with_indices(x.clone(), [2, 2], [2, 2], [0, 0], [1, 1], false);
        assert_eq!(p.output.to_vec::<f32>(), vec![5.0, 7.0, 13.0, 15.0]);
        assert_eq!(
            Flex::int_cast(p.indices, IntDType::I64).to_vec::<i64>(),
            vec![5, 7, 13, 15]
        );
        let a = Flex::avg_pool2d(x, [2, 2], [2, 2], [0, 0], true, false);
        assert_eq!(a.to_vec::<f32>(), vec![2.5, 4.5, 10.5, 12.5]);
        let weights = Flex::float_from_data(
            TensorData::from([[1.0f32, 2.0], [3.0, 4.0], [5.0, 6.0]]),
            &FlexDevice,
        );
        let idx = Flex::int_from_data(TensorData::from([[2i64, 0]]), &FlexDevice);
        let e = Flex::embedding(weights.clone(), idx.clone());
        assert_eq!(e.shape().dims.to_vec(), vec![1, 2, 2]);
        assert_eq!(e.to_vec::<f32>(), vec![5.0, 6.0, 1.0, 2.0]);
        let g = Flex::embedding_backward(weights, e, idx);
        assert_eq!(g.to_vec::<f32>(), vec![1.0, 2.0, 0.0, 0.0, 5.0, 6.0]);
    }
}
