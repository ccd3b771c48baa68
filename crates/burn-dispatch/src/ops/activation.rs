//! Activations routed to the tensor's backend (so its fused versions are used).

use super::prelude::*;

type T = DispatchTensor;

impl ActivationOps<Self> for Dispatch {
    forward! {
        fn relu(tensor: T => float) -> T => float;
        fn relu_backward(output: T => float, grad: T => float) -> T => float;
        fn leaky_relu(tensor: T => float, negative_slope: Scalar => val) -> T => float;
        fn gelu(tensor: T => float) -> T => float;
        fn gelu_backward(x: T => float, grad: T => float) -> T => float;
        fn sigmoid(tensor: T => float) -> T => float;
        fn sigmoid_backward(output: T => float, grad: T => float) -> T => float;
        fn hard_sigmoid(tensor: T => float, alpha: Scalar => val, beta: Scalar => val) -> T => float;
        fn log_sigmoid(tensor: T => float) -> T => float;
        fn softmax(tensor: T => float, dim: usize => val) -> T => float;
        fn softmax_backward(output: T => float, grad: T => float, dim: usize => val) -> T => float;
        fn log_softmax(tensor: T => float, dim: usize => val) -> T => float;
        fn log_softmax_backward(output: T => float, grad: T => float, dim: usize => val) -> T => float;
    }
}
