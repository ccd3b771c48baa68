//! Convolution layers over the functions of `burn_tensor::module`: weights follow PyTorch's
//! layouts, inputs are channels-first.

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
