//! Module operations routed to the input's backend.

use super::prelude::*;

type T = DispatchTensor;

impl ModuleOps<Self> for Dispatch {
    fn max_pool2d_with_indices(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> MaxPool2dWithIndices<Self> {
        dispatch!(&x, E, B => {
            #[cfg(feature = "autodiff")]
            if let Some(strategy) = x.checkpointing() {
                return crate::with_checkpointing!(strategy, S => {
                    type A = crate::__private::Autodiff<B, S>;
                    let out = A::max_pool2d_with_indices(E::autodiff(x), kernel_size, stride, padding, dilation, ceil_mode);
                    MaxPool2dWithIndices { output: E::wrap_autodiff(out.output, strategy), indices: E::wrap_int(out.indices) }
                });
            }
            let out = B::max_pool2d_with_indices(E::float(x), kernel_size, stride, padding, dilation, ceil_mode);
            MaxPool2dWithIndices { output: E::wrap_float(out.output), indices: E::wrap_int(out.indices) }
        })
    }
    fn max_pool1d_with_indices(
        x: T,
        kernel_size: usize,
        stride: usize,
        padding: usize,
        dilation: usize,
        ceil_mode: bool,
    ) -> MaxPool1dWithIndices<Self> {
        dispatch!(&x, E, B => {
            #[cfg(feature = "autodiff")]
            if let Some(strategy) = x.checkpointing() {
                return crate::with_checkpointing!(strategy, S => {
                    type A = crate::__private::Autodiff<B, S>;
                    let out = A::max_pool1d_with_indices(E::autodiff(x), kernel_size, stride, padding, dilation, ceil_mode);
                    MaxPool1dWithIndices { output: E::wrap_autodiff(out.output, strategy), indices: E::wrap_int(out.indices) }
                });
            }
            let out = B::max_pool1d_with_indices(E::float(x), kernel_size, stride, padding, dilation, ceil_mode);
            MaxPool1dWithIndices { output: E::wrap_float(out.output), indices: E::wrap_int(out.indices) }
        })
    }

    forward! {
        fn conv2d(x: T => float, weight: T => float, bias: Option<T> => opt_float, options: ConvOptions<2> => val) -> T => float;
        fn conv1d(x: T => float, weight: T => float, bias: Option<T> => opt_float, options: ConvOptions<1> => val) -> T => float;
        fn conv_transpose2d(x: T => float, weight: T => float, bias: Option<T> => opt_float, options: ConvTransposeOptions<2> => val) -> T => float;
        fn conv_transpose1d(x: T => float, weight: T => float, bias: Option<T> => opt_float, options: ConvTransposeOptions<1> => val) -> T => float;
        fn avg_pool2d(x: T => float, kernel_size: [usize; 2] => val, stride: [usize; 2] => val, padding: [usize; 2] => val, count_include_pad: bool => val, ceil_mode: bool => val) -> T => float;
        fn avg_pool2d_backward(x: T => float, grad: T => float, kernel_size: [usize; 2] => val, stride: [usize; 2] => val, padding: [usize; 2] => val, count_include_pad: bool => val, ceil_mode: bool => val) -> T => float;
        fn avg_pool1d(x: T => float, kernel_size: usize => val, stride: usize => val, padding: usize => val, count_include_pad: bool => val, ceil_mode: bool => val) -> T => float;
        fn adaptive_avg_pool2d(x: T => float, output_size: [usize; 2] => val) -> T => float;
        fn adaptive_avg_pool2d_backward(x: T => float, grad: T => float) -> T => float;
        fn adaptive_avg_pool1d(x: T => float, output_size: usize => val) -> T => float;
        fn max_pool2d(x: T => float, kernel_size: [usize; 2] => val, stride: [usize; 2] => val, padding: [usize; 2] => val, dilation: [usize; 2] => val, ceil_mode: bool => val) -> T => float;
        fn max_pool1d(x: T => float, kernel_size: usize => val, stride: usize => val, padding: usize => val, dilation: usize => val, ceil_mode: bool => val) -> T => float;
        fn max_pool2d_with_indices_backward(x: T => float, grad: T => float, indices: T => int) -> T => float;
        fn interpolate(x: T => float, output_size: [usize; 2] => val, options: InterpolateOptions => val) -> T => float;
        fn interpolate_backward(x: T => float, grad: T => float, output_size: [usize; 2] => val, options: InterpolateOptions => val) -> T => float;
        fn conv2d_x_backward(x: T => float, weight: T => float, output_grad: T => float, options: ConvOptions<2> => val) -> T => float;
        fn conv2d_weight_backward(x: T => float, weight: T => float, output_grad: T => float, options: ConvOptions<2> => val) -> T => float;
        fn conv_bias_backward(output_grad: T => float) -> T => float;
        fn conv_transpose2d_x_backward(weight: T => float, output_grad: T => float, options: ConvTransposeOptions<2> => val) -> T => float;
        fn conv_transpose2d_weight_backward(x: T => float, weight: T => float, output_grad: T => float, options: ConvTransposeOptions<2> => val) -> T => float;
        fn embedding(weights: T => float, indices: T => int) -> T => float;
        fn embedding_backward(weights: T => float, output_grad: T => float, indices: T => int) -> T => float;
        fn attention(query: T => float, key: T => float, value: T => float, mask: Option<T> => opt_bool, options: AttentionModuleOptions => val) -> T => float;
        fn layer_norm(x: T => float, gamma: T => float, beta: Option<T> => opt_float, epsilon: f64 => val) -> T => float;
        fn layer_norm_backward(x: T => float, gamma: T => float, grad: T => float, epsilon: f64 => val) -> burn_backend::ops::NormGrads<Self> => norm_grads;
        fn batch_norm(x: T => float, gamma: T => float, beta: T => float, epsilon: f64 => val) -> burn_backend::ops::BatchNormOutput<Self> => batch_norm_output;
        fn batch_norm_backward(x: T => float, gamma: T => float, grad: T => float, epsilon: f64 => val) -> burn_backend::ops::NormGrads<Self> => norm_grads;
        fn group_norm(x: T => float, gamma: T => float, beta: T => float, groups: usize => val, epsilon: f64 => val) -> T => float;
        fn group_norm_backward(x: T => float, gamma: T => float, grad: T => float, groups: usize => val, epsilon: f64 => val) -> burn_backend::ops::NormGrads<Self> => norm_grads;
    }
}
