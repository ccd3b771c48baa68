//! `ModuleOps` for the CubeCL backend: convolution, pooling and interpolation kernels. The
//! other module operations (conv1d/3d, embedding, attention, …) use the contract's defaults,
//! composed from these and the tensor operations.

use super::{CubeBackend, int_dtype};
use crate::{CubeTensor, kernel};
use burn_backend::ops::{MaxPool2dWithIndices, ModuleOps};
use burn_backend::{ConvOptions, ConvTransposeOptions, InterpolateOptions};

type T = CubeTensor;

impl ModuleOps<CubeBackend> for CubeBackend {
    delegate! {
        fn conv2d(x: T, weight: T, bias: Option<T>, options: ConvOptions<2>) -> T => kernel::conv2d(x, weight, bias, options);
        fn conv_transpose2d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<2>) -> T => kernel::conv_transpose2d(x, weight, bias, options);
        fn avg_pool2d(x: T, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], count_include_pad: bool, ceil_mode: bool) -> T
            => kernel::avg_pool2d(x, kernel_size, stride, padding, count_include_pad, ceil_mode);
        fn avg_pool2d_backward(x: T, grad: T, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], count_include_pad: bool, ceil_mode: bool) -> T
            => kernel::avg_pool2d_backward(x, grad, kernel_size, stride, padding, count_include_pad, ceil_mode);
        fn adaptive_avg_pool2d(x: T, output_size: [usize; 2]) -> T => kernel::adaptive_avg_pool2d(x, output_size);
        fn adaptive_avg_pool2d_backward(x: T, grad: T) -> T => kernel::adaptive_avg_pool2d_backward(x, grad);
        fn max_pool2d_with_indices_backward(x: T, grad: T, indices: T) -> T => kernel::max_pool2d_with_indices_backward(x, grad, indices);
        fn interpolate(x: T, output_size: [usize; 2], options: InterpolateOptions) -> T => kernel::interpolate(x, output_size, options);
        fn interpolate_backward(x: T, grad: T, output_size: [usize; 2], options: InterpolateOptions) -> T
            => kernel::interpolate_backward(x, grad, output_size, options);
    }

    fn max_pool2d_with_indices(
        x: T,
        kernel_size: [usize; 2],
        stride: [usize; 2],
        padding: [usize; 2],
        dilation: [usize; 2],
        ceil_mode: bool,
    ) -> MaxPool2dWithIndices<CubeBackend> {
        let index_dtype = int_dtype(&x);
        let (output, indices) = kernel::max_pool2d_with_indices(
            x,
            kernel_size,
            stride,
            padding,
            dilation,
            ceil_mode,
            index_dtype,
        );
        MaxPool2dWithIndices { output, indices }
    }
}
