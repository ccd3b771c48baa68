//! The ops traits. Each lists its required operations first, then the ones with default bodies.

mod activation;
mod bool;
pub mod conv_grad;
mod defaults;
mod float;
mod int;
mod module;
mod norm;
mod qtensor;
mod transaction;

pub use activation::ActivationOps;
pub use bool::BoolTensorOps;
#[allow(deprecated)]
pub use burn_std::PaddedConvOptions;
pub use burn_std::{
    AttentionModuleOptions, AvgPoolOptions, CausalAlignment, ConvOptions, ConvTransposeOptions,
    CoordinateTransformMode, CubicOptions, DeformConvOptions, GridSampleOptions,
    GridSamplePaddingMode, IndexingUpdateOp, InterpolateMode, InterpolateOptions, MaxPoolOptions,
    NearestRoundingMode, PadMode, UnfoldOptions,
};
pub use defaults::{attention_fallback, float_hypot_fallback};
pub use float::FloatTensorOps;
pub use int::IntTensorOps;
pub use module::{MaxPool1dWithIndices, MaxPool2dWithIndices, ModuleOps};
pub use norm::{
    BatchNormOutput, NormGrads, batch_norm_backward_fallback, batch_norm_fallback,
    check_batch_norm, check_group_norm, check_layer_norm, group_norm_backward_fallback,
    group_norm_fallback, layer_norm_backward_fallback, layer_norm_fallback,
};
pub use qtensor::{QTensorOps, dequantize_default, propagate, q_matmul_dequantized};
pub use transaction::{TransactionOps, TransactionPrimitive, TransactionPrimitiveData};
