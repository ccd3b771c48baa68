//! Quantized operations: the contract's defaults until the quantization issue routes them.

use super::prelude::*;

impl QTensorOps<Self> for Dispatch {}
