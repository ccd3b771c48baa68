//! The module operations (convolution, pooling, interpolation) and activations.

/// Hands the module operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! module_operations {
    ($callback:ident) => {
        $callback! {
            ModuleOperationIr, ModuleOps, "module";
            lazy {
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
            }
            eager {
                Conv2d = conv2d(x: F, weight: F, bias: OptF, options: Val[ConvOptions<2>]) -> F;
                ConvTranspose2d = conv_transpose2d(x: F, weight: F, bias: OptF, options: Val[ConvTransposeOptions<2>]) -> F;
                AvgPool2d = avg_pool2d(x: F, kernel_size: Val[[usize; 2]], stride: Val[[usize; 2]], padding: Val[[usize; 2]],
                    count_include_pad: Val[bool], ceil_mode: Val[bool]) -> F;
            }
        }
    };
}

/// Hands the activation operation table to `$callback` (see the [module docs](super)).
#[macro_export]
macro_rules! activation_operations {
    ($callback:ident) => {
        $callback! {
            ActivationOperationIr, ActivationOps, "activation";
            lazy {
                Relu = relu(tensor: F) -> F => |c| rules::same(c, &tensor);
                ReluBackward = relu_backward(output: F, grad: F) -> F => |c| rules::same(c, &grad);
                Sigmoid = sigmoid(tensor: F) -> F => |c| rules::same(c, &tensor);
                SigmoidBackward = sigmoid_backward(output: F, grad: F) -> F => |c| rules::same(c, &grad);
                Gelu = gelu(tensor: F) -> F => |c| rules::same(c, &tensor);
                GeluBackward = gelu_backward(x: F, grad: F) -> F => |c| rules::same(c, &grad);
            }
            eager {}
        }
    };
}
