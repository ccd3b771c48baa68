//! `OptimizerRecord`: an optimizer's state on the host, serializable, for checkpoints.

use burn::module::ParamId;
use burn::tensor::TensorData;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The state of one parameter on the host: the number of updates applied and the named
/// state tensors (for example Adam's `moment_1` and `moment_2`), sorted by name.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ParamStateRecord {
    /// The number of updates applied to the parameter.
    pub step: u64,
    /// The state tensors by name. Serialized as dtype, shape and little-endian bytes (a hex
    /// string in human-readable formats such as JSON).
    #[serde(with = "crate::record_serde::named_tensors")]
    pub tensors: Vec<(String, TensorData)>,
}

impl ParamStateRecord {
    /// The state tensor `name`, if any.
    pub fn tensor(&self, name: &str) -> Option<&TensorData> {
        self.tensors
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, data)| data)
    }
}

/// An optimizer's state: which optimizer wrote it and the state of every parameter it has
/// updated, keyed by [`ParamId`]. Written by [`Optimizer::to_record`](crate::Optimizer) and
/// read by [`Optimizer::load_record`](crate::Optimizer); serializable with serde, so a
/// checkpoint can hold it next to the module's weights. Loading it into a fresh optimizer of
/// the same kind and config makes the next update identical to the saved optimizer's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OptimizerRecord {
    /// The optimizer that wrote the record (`"Sgd"`, `"Adam"`…); loading checks it.
    pub optimizer: String,
    /// The state of each parameter updated so far.
    pub params: BTreeMap<ParamId, ParamStateRecord>,
}

impl OptimizerRecord {
    /// The number of parameters with state.
    pub fn len(&self) -> usize {
        self.params.len()
    }

    /// Whether no parameter has state (no update was applied yet).
    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// The state of parameter `id`, if any.
    pub fn get(&self, id: ParamId) -> Option<&ParamStateRecord> {
        self.params.get(&id)
    }
}
