//! Convolution layers over the functions of `burn_tensor::module`: weights follow PyTorch's
//! layouts, inputs are channels-first.

use crate::Initializer;
use burn::module::Param;
use burn::tensor::{Device, Tensor};

mod conv1d;
mod conv2d;
mod conv_transpose;

pub use conv_transpose::{
    ConvTranspose1d, ConvTranspose1dConfig, ConvTranspose2d, ConvTranspose2dConfig,
};
pub use conv1d::{Conv1d, Conv1dConfig};
pub use conv2d::{Conv2d, Conv2dConfig};

/// Panics unless both channel counts are positive multiples of `groups`.
pub(crate) fn check_groups(op: &str, channels: [usize; 2], groups: usize) {
    if groups == 0 || !channels[0].is_multiple_of(groups) || !channels[1].is_multiple_of(groups) {
        panic!(
            "{op}: both channel counts must be divisible by the number of groups, got channels {channels:?} and groups {groups}"
        );
    }
}

/// The parameters of a convolution: kernels `[rows, cols / groups, kernel…]` drawn with
/// `fan_in = cols / groups · Πkernel` and `fan_out = rows / groups · Πkernel`, and, when
/// `bias_len` is given, a bias of `[bias_len]` with the same fans. `[rows, cols]` is
/// `[channels_out, channels_in]` for a convolution and `[channels_in, channels_out]` for a
/// transposed one (PyTorch's layouts and fans).
pub(crate) fn init_kernels<const D: usize>(
    initializer: &Initializer,
    [rows, cols]: [usize; 2],
    groups: usize,
    kernel_size: &[usize],
    bias_len: Option<usize>,
    device: &Device,
) -> (Param<Tensor<D>>, Option<Param<Tensor<1>>>) {
    let taps = kernel_size.iter().product::<usize>();
    let fans = [cols / groups * taps, rows / groups * taps];
    let shape: Vec<usize> = [rows, cols / groups]
        .into_iter()
        .chain(kernel_size.iter().copied())
        .collect();
    initializer.init_weight_and_bias(shape, bias_len, fans, device)
}
