//! The module operations (convolution, pooling, interpolation) and activations.

/// Hands the module operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! module_operations {
    ($callback:ident) => {
        $crate::module_operations!(@table $callback, [
                Embedding = embedding(weights: F, indices: I) -> F => |c| rules::embedding(c, &weights, &indices);
                EmbeddingBackward = embedding_backward(weights: F, output_grad: F, indices: I) -> F
                    => |c| rules::same(c, &weights);
                MaxPool2d = max_pool2d(x: F, kernel_size: Val[[usize; 2]], stride: Val[[usize; 2]], padding: Val[[usize; 2]],
                    dilation: Val[[usize; 2]], ceil_mode: Val[bool]) -> F
                    => |c| rules::pool2d(c, &x, kernel_size, stride, padding, dilation, ceil_mode);
                MaxPool1d = max_pool1d(x: F, kernel_size: Val[usize], stride: Val[usize], padding: Val[usize],
                    dilation: Val[usize], ceil_mode: Val[bool]) -> F
                    => |c| rules::pool1d(c, &x, kernel_size, stride, padding, dilation, ceil_mode);
                AvgPool1d = avg_pool1d(x: F, kernel_size: Val[usize], stride: Val[usize], padding: Val[usize],
                    count_include_pad: Val[bool], ceil_mode: Val[bool]) -> F
                    => |c| rules::pool1d(c, &x, kernel_size, stride, padding, 1, ceil_mode);
                AdaptiveAvgPool1d = adaptive_avg_pool1d(x: F, output_size: Val[usize]) -> F
                    => |c| rules::spatial1d(c, &x, output_size);
                Conv1d = conv1d(x: F, weight: F, bias: OptF, options: Val[ConvOptions<1>]) -> F
                    => |c| rules::conv1d(c, &x, &weight, &options);
                ConvTranspose1d = conv_transpose1d(x: F, weight: F, bias: OptF, options: Val[ConvTransposeOptions<1>]) -> F
                    => |c| rules::conv_transpose1d(c, &x, &weight, &options);
                ConvBiasBackward = conv_bias_backward(output_grad: F) -> F => |c| rules::channels(c, &output_grad);
                ConvTranspose2dXBackward = conv_transpose2d_x_backward(weight: F, output_grad: F, options: Val[ConvTransposeOptions<2>]) -> F
                    => |c| rules::conv_transpose2d_x_grad(c, &weight, &output_grad, &options);
                ConvTranspose2dWeightBackward = conv_transpose2d_weight_backward(x: F, weight: F, output_grad: F,
                    options: Val[ConvTransposeOptions<2>]) -> F
                    => |c| rules::same(c, &weight);
                Attention = attention(query: F, key: F, value: F, mask: OptB, attn_bias: OptF, options: Val[AttentionModuleOptions]) -> F
                    => |c| rules::attention(c, &query, &value);
                LayerNorm = layer_norm(x: F, gamma: F, beta: OptF, epsilon: Val[f64]) -> F => |c| rules::same(c, &x);
                GroupNorm = group_norm(x: F, gamma: F, beta: F, groups: Val[usize], epsilon: Val[f64]) -> F
                    => |c| rules::same(c, &x);
        ]);
    };
    ($callback:ident, decomposed) => {
        $crate::module_operations!(@table $callback, []);
    };
    (@table $callback:ident, [$($composite:tt)*]) => {
        $callback! {
            ModuleOperationIr, ModuleOps, "module";
            lazy {
                Conv2d = conv2d(x: F, weight: F, bias: OptF, options: Val[ConvOptions<2>]) -> F
                    => |c| rules::conv2d(c, &x, &weight, &options);
                ConvTranspose2d = conv_transpose2d(x: F, weight: F, bias: OptF, options: Val[ConvTransposeOptions<2>]) -> F
                    => |c| rules::conv_transpose2d(c, &x, &weight, &options);
                AvgPool2d = avg_pool2d(x: F, kernel_size: Val[[usize; 2]], stride: Val[[usize; 2]], padding: Val[[usize; 2]],
                    count_include_pad: Val[bool], ceil_mode: Val[bool]) -> F
                    => |c| rules::pool2d(c, &x, kernel_size, stride, padding, [1, 1], ceil_mode);
                AvgPool2dBackward = avg_pool2d_backward(x: F, grad: F, kernel_size: Val[[usize; 2]], stride: Val[[usize; 2]],
                    padding: Val[[usize; 2]], count_include_pad: Val[bool], ceil_mode: Val[bool]) -> F
                    => |c| rules::same(c, &x);
                AdaptiveAvgPool2d = adaptive_avg_pool2d(x: F, output_size: Val[[usize; 2]]) -> F
                    => |c| rules::spatial(c, &x, output_size);
                AdaptiveAvgPool2dBackward = adaptive_avg_pool2d_backward(x: F, grad: F) -> F => |c| rules::same(c, &x);
                MaxPool2dWithIndicesBackward = max_pool2d_with_indices_backward(x: F, grad: F, indices: I) -> F
                    => |c| rules::same(c, &x);
                Interpolate = interpolate(x: F, output_size: Val[[usize; 2]], options: Val[InterpolateOptions]) -> F
                    => |c| rules::spatial(c, &x, output_size);
                InterpolateBackward = interpolate_backward(x: F, grad: F, output_size: Val[[usize; 2]],
                    options: Val[InterpolateOptions]) -> F
                    => |c| rules::same(c, &x);
                Conv2dXBackward = conv2d_x_backward(x: F, weight: F, output_grad: F, options: Val[ConvOptions<2>]) -> F
                    => |c| rules::same(c, &x);
                Conv2dWeightBackward = conv2d_weight_backward(x: F, weight: F, output_grad: F, options: Val[ConvOptions<2>]) -> F
                    => |c| rules::same(c, &weight);
                $($composite)*
            }
            eager {}
        }
    };
}

/// Hands the activation operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! activation_operations {
    ($callback:ident) => {
        $crate::activation_operations!(@table $callback, [
                LeakyRelu = leaky_relu(tensor: F, negative_slope: Val[Scalar]) -> F => |c| rules::same(c, &tensor);
                HardSigmoid = hard_sigmoid(tensor: F, alpha: Val[Scalar], beta: Val[Scalar]) -> F => |c| rules::same(c, &tensor);
                LogSigmoid = log_sigmoid(tensor: F) -> F => |c| rules::same(c, &tensor);
                Softmax = softmax(tensor: F, dim: Val[usize]) -> F => |c| rules::same(c, &tensor);
                SoftmaxBackward = softmax_backward(output: F, grad: F, dim: Val[usize]) -> F => |c| rules::same(c, &grad);
                LogSoftmax = log_softmax(tensor: F, dim: Val[usize]) -> F => |c| rules::same(c, &tensor);
                LogSoftmaxBackward = log_softmax_backward(output: F, grad: F, dim: Val[usize]) -> F => |c| rules::same(c, &grad);
        ]);
    };
    ($callback:ident, decomposed) => {
        $crate::activation_operations!(@table $callback, []);
    };
    (@table $callback:ident, [$($composite:tt)*]) => {
        $callback! {
            ActivationOperationIr, ActivationOps, "activation";
            lazy {
                Relu = relu(tensor: F) -> F => |c| rules::same(c, &tensor);
                ReluBackward = relu_backward(output: F, grad: F) -> F => |c| rules::same(c, &grad);
                Sigmoid = sigmoid(tensor: F) -> F => |c| rules::same(c, &tensor);
                SigmoidBackward = sigmoid_backward(output: F, grad: F) -> F => |c| rules::same(c, &grad);
                Gelu = gelu(tensor: F) -> F => |c| rules::same(c, &tensor);
                GeluBackward = gelu_backward(x: F, grad: F) -> F => |c| rules::same(c, &grad);
                $($composite)*
            }
            eager {}
        }
    };
}
