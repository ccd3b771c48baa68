#![allow(missing_docs, unused_variables)]
use crate::CubeTensor;
use burn_backend::{
    ConvOptions, ConvTransposeOptions, DType, IndexingUpdateOp, InterpolateOptions, Scalar, Slice,
};
type T = CubeTensor;
pub fn gather(dim: usize, tensor: T, indices: T) -> T {
    todo!()
}
pub fn scatter(dim: usize, tensor: T, indices: T, values: T, update: IndexingUpdateOp) -> T {
    todo!()
}
pub fn select(tensor: T, dim: usize, indices: T) -> T {
    todo!()
}
pub fn select_add(tensor: T, dim: usize, indices: T, values: T, update: IndexingUpdateOp) -> T {
    todo!()
}
pub fn mask_where(tensor: T, mask: T, value: T) -> T {
    todo!()
}
pub fn mask_fill(tensor: T, mask: T, value: Scalar) -> T {
    todo!()
}
pub fn slice(tensor: T, slices: &[Slice]) -> T {
    todo!()
}
pub fn slice_assign(tensor: T, slices: &[Slice], value: T) -> T {
    todo!()
}
pub fn flip(tensor: T, axes: &[usize]) -> T {
    todo!()
}
pub fn conv2d(x: T, weight: T, bias: Option<T>, options: ConvOptions<2>) -> T {
    todo!()
}
pub fn conv_transpose2d(x: T, weight: T, bias: Option<T>, options: ConvTransposeOptions<2>) -> T {
    todo!()
}
pub fn avg_pool2d(
    x: T,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> T {
    todo!()
}
pub fn avg_pool2d_backward(
    x: T,
    grad: T,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    count_include_pad: bool,
    ceil_mode: bool,
) -> T {
    todo!()
}
pub fn adaptive_avg_pool2d(x: T, output_size: [usize; 2]) -> T {
    todo!()
}
pub fn adaptive_avg_pool2d_backward(x: T, grad: T) -> T {
    todo!()
}
pub fn max_pool2d_with_indices(
    x: T,
    kernel_size: [usize; 2],
    stride: [usize; 2],
    padding: [usize; 2],
    dilation: [usize; 2],
    ceil_mode: bool,
    index_dtype: DType,
) -> (T, T) {
    todo!()
}
pub fn max_pool2d_with_indices_backward(x: T, grad: T, indices: T) -> T {
    todo!()
}
pub fn interpolate(x: T, output_size: [usize; 2], options: InterpolateOptions) -> T {
    todo!()
}
pub fn interpolate_backward(
    x: T,
    grad: T,
    output_size: [usize; 2],
    options: InterpolateOptions,
) -> T {
    todo!()
}
#[derive(Clone, Copy, Debug)]
pub enum ScanOp {
    Sum,
    Prod,
    Max,
    Min,
}
pub fn scan(op: ScanOp, tensor: T, dim: usize) -> T {
    todo!()
}
#[derive(Clone, Copy, Debug)]
pub enum BitwiseOp {
    And,
    Or,
    Xor,
    LeftShift,
    RightShift,
}
pub fn bitwise(op: BitwiseOp, lhs: T, rhs: T) -> T {
    todo!()
}
pub fn bitwise_scalar(op: BitwiseOp, lhs: T, rhs: Scalar) -> T {
    todo!()
}
pub fn bitwise_not(tensor: T) -> T {
    todo!()
}
pub fn int_powi(lhs: T, rhs: T) -> T {
    todo!()
}
pub fn int_abs(tensor: T) -> T {
    todo!()
}
pub fn bool_not(tensor: T) -> T {
    todo!()
}
pub fn bool_and(lhs: T, rhs: T) -> T {
    todo!()
}
pub fn bool_or(lhs: T, rhs: T) -> T {
    todo!()
}
pub fn int_matmul(lhs: T, rhs: T) -> T {
    todo!()
}
