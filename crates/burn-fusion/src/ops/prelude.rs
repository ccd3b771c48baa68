//! What the generated methods name: the types of the operation tables and the recording
//! machinery.

pub(crate) use crate::client::FusionClient;
pub(crate) use crate::tensor::FusionTensor;
pub(crate) use crate::{Fusion, FusionBackend};
pub(crate) use burn_backend::ops::*;
pub(crate) use burn_backend::{
    BoolStore, ConvOptions, ConvTransposeOptions, DType, Distribution, FloatDType,
    IndexingUpdateOp, IntDType, InterpolateOptions, Scalar, Shape, Slice, get_device_settings,
};
pub(crate) use burn_ir::{
    ActivationOperationIr, BoolOperationIr, FloatOperationIr, IntOperationIr, ModuleOperationIr,
    RuleCtx, TensorIr, rules,
};
pub(crate) use core::ops::Range;
pub(crate) use std::sync::Arc;
