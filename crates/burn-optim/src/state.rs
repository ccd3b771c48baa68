//! `ParamState`: an optimizer's state for one parameter (named tensors and a step count).

use crate::erased::ErasedTensor;
use crate::record::ParamStateRecord;
use burn::tensor::{Device, Tensor, TensorData};
use std::collections::BTreeMap;

/// One state tensor: live on a device, or on the host as loaded from a record (moved to the
/// parameter's device when first used).
#[derive(Clone, Debug)]
enum Slot {
    Host(TensorData),
    Live(ErasedTensor),
}

/// The state an optimizer keeps for one parameter: named tensors (momentum buffers, moment
/// estimates…) and the number of updates applied to the parameter so far.
///
/// The [`OptimizerAdaptor`](crate::OptimizerAdaptor) places the state on the parameter's inner
/// device before each update ([`device`](Self::device)); tensors read with
/// [`take`](Self::take) or [`get`](Self::get) are moved there, so the state follows the
/// parameter when the module changes device.
#[derive(Clone, Debug, Default)]
pub struct ParamState {
    step: u64,
    device: Option<Device>,
    tensors: BTreeMap<String, Slot>,
}

impl ParamState {
    /// The number of updates applied to the parameter, counting the one in progress during
    /// [`SimpleOptimizer::step`](crate::SimpleOptimizer::step) (so `1` on the first update).
    pub fn step(&self) -> u64 {
        self.step
    }

    /// The device the state is used on: the parameter's inner device during an update.
    pub fn device(&self) -> Option<&Device> {
        self.device.as_ref()
    }

    /// The names of the state tensors, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tensors.keys().map(String::as_str)
    }

    /// Whether there is no state tensor.
    pub fn is_empty(&self) -> bool {
        self.tensors.is_empty()
    }

    /// Removes and returns the state tensor `name` (on [`device`](Self::device)); `None` when
    /// there is none yet. Taking, updating and [`set`](Self::set)ting back lets the update
    /// reuse the tensor's memory.
    ///
    /// # Panics
    /// If the tensor is not of rank `D`.
    pub fn take<const D: usize>(&mut self, name: &str) -> Option<Tensor<D>> {
        let slot = self.tensors.remove(name)?;
        Some(self.materialize(name, slot))
    }

    /// A copy of the state tensor `name` (on [`device`](Self::device)), if any.
    ///
    /// # Panics
    /// If the tensor is not of rank `D`.
    pub fn get<const D: usize>(&self, name: &str) -> Option<Tensor<D>> {
        let slot = self.tensors.get(name)?.clone();
        Some(self.materialize(name, slot))
    }

    /// Sets the state tensor `name`.
    pub fn set<const D: usize>(&mut self, name: &str, tensor: Tensor<D>) {
        self.tensors
            .insert(name.to_string(), Slot::Live(ErasedTensor::new(tensor)));
    }

    /// Starts an update on `device`: counts it and places the state there.
    pub(crate) fn begin_step(&mut self, device: &Device) {
        self.step += 1;
        self.device = Some(device.clone());
    }

    fn materialize<const D: usize>(&self, name: &str, slot: Slot) -> Tensor<D> {
        let what = format_args!("optimizer state `{name}`");
        match slot {
            Slot::Live(tensor) => {
                let tensor = match &self.device {
                    Some(device) if *device != tensor.device() => tensor.to_device(device),
                    _ => tensor,
                };
                tensor.into_rank(&what)
            }
            Slot::Host(data) => {
                let rank = data.shape.num_dims();
                assert_eq!(
                    rank, D,
                    "{what} has rank {rank} in the loaded record, not the requested rank {D}"
                );
                let device = self.device.as_ref().unwrap_or_else(|| {
                    panic!("{what} was loaded from a record and has no device to go to yet")
                });
                let dtype = data.dtype;
                Tensor::from_data(data, (device, dtype))
            }
        }
    }

    /// The state on the host, for saving.
    pub fn to_record(&self) -> ParamStateRecord {
        let tensors = self
            .tensors
            .iter()
            .map(|(name, slot)| {
                let data = match slot {
                    Slot::Host(data) => data.clone(),
                    Slot::Live(tensor) => tensor.to_data(),
                };
                (name.clone(), data)
            })
            .collect();
        ParamStateRecord {
            step: self.step,
            tensors,
        }
    }

    /// The state of a record; its tensors move to a device when first used.
    pub fn from_record(record: ParamStateRecord) -> Self {
        Self {
            step: record.step,
            device: None,
            tensors: record
                .tensors
                .into_iter()
                .map(|(name, data)| (name, Slot::Host(data)))
                .collect(),
        }
    }
}
