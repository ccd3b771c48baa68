//! `ActivationOps` for Flex: each activation is one fused element-wise pass (in place when the
//! input may be reused) instead of the default chain of tensor ops; softmax and log-softmax
//! one pass per row ([`crate::ops::softmax`]).

use super::{Flex, promote};
use crate::FlexTensor;
use crate::element::FloatElement;
use crate::fuse::{self, Unary};
use crate::ops::map::{map_same, zip_same};
use crate::ops::softmax::{RowOp, rowwise};
use burn_backend::Scalar;
use burn_backend::ops::ActivationOps;
use num_traits::{Float, One, Zero};

type T = FlexTensor;

impl ActivationOps<Flex> for Flex {
    fn relu(tensor: T) -> T {
        // Deferred like the other element-wise ops, so `relu(x·w + b)` adds the bias and clamps
        // in one pass.
        fuse::unary(Unary::Relu, tensor).unwrap_or_else(|tensor| {
            with_float!(tensor.dtype(), "relu", E => map_same(tensor, |x: E| if x <= E::zero() { E::zero() } else { x }))
        })
    }
    fn relu_backward(output: T, grad: T) -> T {
        let (output, grad) = promote(output, grad);
        with_float!(grad.dtype(), "relu_backward", E => {
            zip_same("relu_backward", grad, output, |g: E, o: E| if o <= E::zero() { E::zero() } else { g })
        })
    }
    fn leaky_relu(tensor: T, negative_slope: Scalar) -> T {
        with_float!(tensor.dtype(), "leaky_relu", E => {
            let slope: E = negative_slope.elem();
            map_same(tensor, move |x: E| if x < E::zero() { x * slope } else { x })
        })
    }
    fn gelu(tensor: T) -> T {
        with_float!(tensor.dtype(), "gelu", E => map_same(tensor, E::gelu_vectorizable))
    }
    fn gelu_backward(x: T, grad: T) -> T {
        let (x, grad) = promote(x, grad);
        with_float!(x.dtype(), "gelu_backward", E => zip_same("gelu_backward", x, grad, |x: E, g: E| {
            g * x.gelu_derivative_vectorizable()
        }))
    }
    fn sigmoid(tensor: T) -> T {
        with_float!(tensor.dtype(), "sigmoid", E => map_same(tensor, E::sigmoid_vectorizable))
    }
    fn sigmoid_backward(output: T, grad: T) -> T {
        let (output, grad) = promote(output, grad);
        with_float!(grad.dtype(), "sigmoid_backward", E => {
            zip_same("sigmoid_backward", grad, output, |g: E, s: E| g * s * (E::one() - s))
        })
    }
    fn hard_sigmoid(tensor: T, alpha: Scalar, beta: Scalar) -> T {
        with_float!(tensor.dtype(), "hard_sigmoid", E => {
            let (a, b): (E, E) = (alpha.elem(), beta.elem());
            map_same(tensor, move |x: E| {
                let y = a * x + b;
                if y < E::zero() { E::zero() } else if y > E::one() { E::one() } else { y }
            })
        })
    }
    fn log_sigmoid(tensor: T) -> T {
        with_float!(tensor.dtype(), "log_sigmoid", E => map_same(tensor, |x: E| {
            let neg = if -x > E::zero() { -x } else { E::zero() };
            -(neg + (-x.abs()).exp().ln_1p())
        }))
    }
    fn softmax(tensor: T, dim: usize) -> T {
        rowwise(RowOp::Softmax, vec![tensor], dim)
    }
    fn softmax_backward(output: T, grad: T, dim: usize) -> T {
        let (output, grad) = promote(output, grad);
        rowwise(RowOp::SoftmaxBackward, vec![output, grad], dim)
    }
    fn log_softmax(tensor: T, dim: usize) -> T {
        rowwise(RowOp::LogSoftmax, vec![tensor], dim)
    }
    fn log_softmax_backward(output: T, grad: T, dim: usize) -> T {
        let (output, grad) = promote(output, grad);
        rowwise(RowOp::LogSoftmaxBackward, vec![output, grad], dim)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn_backend::TensorData;
    use burn_backend::ops::FloatTensorOps;

    fn run(f: fn(T) -> T, input: &[f64]) -> Vec<f64> {
        let t = Flex::float_from_data(
            TensorData::new(input.to_vec(), [input.len()]),
            &super::super::FlexDevice,
        );
        f(t).to_vec::<f64>()
    }

    /// `f` on `xs` as `f32` and as `f64`, compared within `ulps` of the `f64` result (the `f32`
    /// spacing at the result, or at `floor` where the result is smaller).
    fn f32_matches_f64(name: &str, f: fn(T) -> T, xs: &[f64], ulps: f64, floor: f64) {
        let wide = run(f, xs);
        let narrow = Flex::float_from_data(
            TensorData::new(xs.iter().map(|&x| x as f32).collect::<Vec<_>>(), [xs.len()]),
            &super::super::FlexDevice,
        );
        let narrow = f(narrow).to_vec::<f32>();
        for ((x, w), n) in xs.iter().zip(&wide).zip(&narrow) {
            let spacing = (w.abs().max(floor) * f32::EPSILON as f64).max(f32::MIN_POSITIVE as f64);
            assert!(
                (*n as f64 - w).abs() <= ulps * spacing,
                "{name}({x}): f32 {n}, f64 {w}"
            );
        }
    }

    #[test]
    fn f32_activations_are_within_a_few_ulps_of_f64() {
        // Exactly representable in f32, across both tails.
        let xs: Vec<f64> = (-3300..2300).map(|i| i as f64 / 256.0).collect();
        f32_matches_f64("gelu", Flex::gelu, &xs, 5.0, 0.0);
        f32_matches_f64("sigmoid", Flex::sigmoid, &xs, 3.0, 0.0);
        let grad = |x: T| {
            let ones = Flex::float_from_data(
                TensorData::new(vec![1.0f64; x.num_elements()], x.shape().clone()),
                &super::super::FlexDevice,
            );
            let ones = crate::ops::creation::cast(ones, x.dtype());
            Flex::gelu_backward(x, ones)
        };
        // Φ(x) + x·φ(x) cancels near its zero (x ≈ -0.75): errors there are relative to the
        // terms' size, about 0.25.
        f32_matches_f64("gelu_backward", grad, &xs, 6.0, 0.25);
    }

    #[test]
    fn activations_match_reference() {
        let xs = [-30.0f64, -1.5, -0.0, 0.5, 2.0, 40.0];
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
        let sig: Vec<f64> = xs.iter().map(|x: &f64| 1.0 / (1.0 + (-x).exp())).collect();
        assert!(close(&run(Flex::sigmoid, &xs), &sig));
        let ls: Vec<f64> = sig.iter().map(|s| s.ln()).collect();
        assert!(close(&run(Flex::log_sigmoid, &xs), &ls));
        assert_eq!(run(Flex::relu, &xs), vec![0.0, 0.0, 0.0, 0.5, 2.0, 40.0]);
        let gelu = run(Flex::gelu, &[1.0]);
        assert!((gelu[0] - 0.8413447460685429).abs() < 1e-12);
        let out = Flex::float_from_data(TensorData::from([0.0f32, 2.0]), &super::super::FlexDevice);
        let grad =
            Flex::float_from_data(TensorData::from([5.0f32, 5.0]), &super::super::FlexDevice);
        assert_eq!(
            Flex::relu_backward(out, grad).to_vec::<f32>(),
            vec![0.0, 5.0]
        );
    }
}
