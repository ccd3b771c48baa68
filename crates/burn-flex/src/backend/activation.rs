//! `ActivationOps` for Flex: each activation is one fused element-wise pass (in place when the
//! input may be reused) instead of the default chain of tensor ops; softmax and log-softmax
//! one pass per row ([`crate::ops::softmax`]).

use super::{Flex, promote};
use crate::FlexTensor;
use crate::ops::map::{map_same, zip_same};
use crate::ops::softmax::{RowOp, rowwise};
use crate::ops::unary::erf_f64;
use burn_backend::ops::ActivationOps;
use burn_backend::{Element, Scalar};
use num_traits::{Float, One, Zero};

type T = FlexTensor;

/// The standard normal CDF `Φ(x)` in `f64`.
fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf_f64(x * core::f64::consts::FRAC_1_SQRT_2))
}

/// `1 / (1 + e^-x)` without overflow in either tail.
fn sigmoid<E: Float>(x: E) -> E {
    if x >= E::zero() {
        E::one() / (E::one() + (-x).exp())
    } else {
        let e = x.exp();
        e / (E::one() + e)
    }
}

impl ActivationOps<Flex> for Flex {
    fn relu(tensor: T) -> T {
        with_float!(tensor.dtype(), "relu", E => map_same(tensor, |x: E| if x <= E::zero() { E::zero() } else { x }))
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
        with_float!(tensor.dtype(), "gelu", E => map_same(tensor, |x: E| {
            let v = Element::to_f64(x);
            E::from_f64(v * normal_cdf(v))
        }))
    }
    fn gelu_backward(x: T, grad: T) -> T {
        let (x, grad) = promote(x, grad);
        with_float!(x.dtype(), "gelu_backward", E => zip_same("gelu_backward", x, grad, |x: E, g: E| {
            let v = Element::to_f64(x);
            let pdf = (-0.5 * v * v).exp() / (2.0 * core::f64::consts::PI).sqrt();
            E::from_f64(Element::to_f64(g) * (normal_cdf(v) + v * pdf))
        }))
    }
    fn sigmoid(tensor: T) -> T {
        with_float!(tensor.dtype(), "sigmoid", E => map_same(tensor, sigmoid::<E>))
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
