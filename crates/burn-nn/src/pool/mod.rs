//! Pooling layers over the functions of `burn_tensor::module` (channels-first inputs).

mod adaptive;
mod avg;
mod max;

pub use adaptive::{
    AdaptiveAvgPool1d, AdaptiveAvgPool1dConfig, AdaptiveAvgPool2d, AdaptiveAvgPool2dConfig,
};
pub use avg::{AvgPool1d, AvgPool1dConfig, AvgPool2d, AvgPool2dConfig};
pub use max::{MaxPool1d, MaxPool1dConfig, MaxPool2d, MaxPool2dConfig};
