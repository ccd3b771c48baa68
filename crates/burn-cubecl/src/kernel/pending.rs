#![allow(missing_docs, unused_variables)]
use crate::CubeTensor;
use burn_backend::{ConvOptions, ConvTransposeOptions, DType, InterpolateOptions};
type T = CubeTensor;
pub fn conv2d(x: T, weight: T, bias: Option<T>, options: ConvOptions<2>) -> T { todo!() }
pub fn conv_transpose2d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<2>) -> T { todo!() }
pub fn avg_pool2d(x: T, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], count_include_pad: bool, ceil_mode: bool) -> T { todo!() }
pub fn avg_pool2d_backward(x: T, grad: T, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], count_include_pad: bool, ceil_mode: bool) -> T { todo!() }
pub fn adaptive_avg_pool2d(x: T, output_size: [usize; 2]) -> T { todo!() }
pub fn adaptive_avg_pool2d_backward(x: T, grad: T) -> T { todo!() }
pub fn max_pool2d_with_indices(x: T, kernel_size: [usize; 2], stride: [usize; 2], padding: [usize; 2], dilation: [usize; 2], ceil_mode: bool, index_dtype: DType) -> (T, T) { todo!() }
pub fn max_pool2d_with_indices_backward(x: T, grad: T, indices: T) -> T { todo!() }
pub fn interpolate(x: T, output_size: [usize; 2], options: InterpolateOptions) -> T { todo!() }
pub fn interpolate_backward(x: T, grad: T, output_size: [usize; 2], options: InterpolateOptions) -> T { todo!() }
