//! `CapturedGraph`: a recording made replayable, and `CaptureError`.

use super::Capture;
use super::tensor::CaptureTensor;
use crate::{BackendTensor, Dispatch, DispatchDevice, DispatchTensor};
use burn_backend::ops::{BoolTensorOps, FloatTensorOps, IntTensorOps};
use burn_backend::{DType, Shape, TensorMetadata};
use burn_ir::{OperationIr, TensorId, TensorStatus};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// The kind of a tensor going into or out of a captured graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TensorKind {
    /// A float tensor (a quantized one is replayed dequantized).
    Float,
    /// An int tensor.
    Int,
    /// A bool tensor.
    Bool,
}

impl TensorKind {
    /// The kind of a tensor, from its dtype.
    pub fn of(tensor: &DispatchTensor) -> Self {
        Self::of_dtype(tensor.dtype())
    }

    pub(crate) fn of_dtype(dtype: DType) -> Self {
        if dtype.is_bool() {
            TensorKind::Bool
        } else if dtype.is_int() {
            TensorKind::Int
        } else {
            TensorKind::Float
        }
    }

    /// A recording tensor of this kind.
    pub(crate) fn wrap_capture(self, tensor: CaptureTensor) -> BackendTensor<Capture> {
        match self {
            TensorKind::Float => BackendTensor::Float(tensor),
            TensorKind::Int => BackendTensor::Int(tensor),
            TensorKind::Bool => BackendTensor::Bool(tensor),
        }
    }
}

/// `tensor` as a plain tensor of its kind: a quantized one dequantized, an autodiff one as
/// its values (constants of a graph are never tracked).
pub(crate) fn plain(tensor: DispatchTensor, kind: TensorKind) -> DispatchTensor {
    if kind != TensorKind::Float {
        return tensor;
    }
    Dispatch::plain_float(tensor)
}

/// Why a capture or a replay failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureError {
    /// The closure called an operation that cannot be recorded.
    Unsupported {
        /// The backend operation.
        operation: String,
        /// Why it cannot be recorded.
        reason: String,
    },
    /// `capture` was called on the device of a capture in progress, or `replay` was given a
    /// tensor of a capture in progress.
    Nested,
    /// The closure returned a tensor of another capture.
    ForeignOutput {
        /// The output's position.
        index: usize,
    },
    /// `replay` got another number of inputs than the graph was captured with.
    InputCount {
        /// The graph's number of inputs.
        expected: usize,
        /// The number given.
        got: usize,
    },
    /// A replay input differs in shape or dtype from the captured one.
    InputMismatch {
        /// The input's position.
        index: usize,
        /// The captured shape and dtype.
        expected: (Vec<usize>, DType),
        /// The given shape and dtype.
        got: (Vec<usize>, DType),
    },
    /// Replay inputs live on different devices.
    DeviceMismatch {
        /// The position of the first input on another device than input 0.
        index: usize,
    },
}

impl core::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CaptureError::Unsupported { operation, reason } => {
                write!(f, "capture: `{operation}` cannot be captured: {reason}")
            }
            CaptureError::Nested => write!(f, "capture: a capture cannot run inside another"),
            CaptureError::ForeignOutput { index } => {
                write!(f, "capture: output {index} is a tensor of another capture")
            }
            CaptureError::InputCount { expected, got } => write!(
                f,
                "replay: the graph takes {expected} inputs, {got} were given"
            ),
            CaptureError::InputMismatch {
                index,
                expected,
                got,
            } => write!(
                f,
                "replay: input {index} must be {:?} {:?} as captured, got {:?} {:?}",
                expected.0, expected.1, got.0, got.1
            ),
            CaptureError::DeviceMismatch { index } => {
                write!(f, "replay: input {index} is on another device than input 0")
            }
        }
    }
}

impl std::error::Error for CaptureError {}

/// Tensors of a graph by their id in it.
type Bound = Arc<Vec<(TensorId, DispatchTensor)>>;

/// A closure's operations recorded once, replayable with new inputs of the same shapes and
/// dtypes on any executing device (see `crate::capture`).
#[derive(Debug)]
pub struct CapturedGraph {
    /// Ids run from 0 to `num_ids - 1` (the replay keeps tensors in a vector by id).
    num_ids: usize,
    inputs: Vec<(TensorId, Shape, DType)>,
    outputs: Vec<TensorId>,
    ops: Vec<OperationIr>,
    constants: Vec<(TensorId, DispatchTensor)>,
    base: DispatchDevice,
    /// The constants moved to each device the graph replayed on.
    placed: Mutex<Vec<(DispatchDevice, Bound)>>,
}

impl CapturedGraph {
    /// The graph of `ops`: operations no output depends on removed, last uses marked so that
    /// the replay frees (or reuses) each intermediate buffer as soon as it can.
    pub(crate) fn new(
        inputs: Vec<(TensorId, Shape, DType)>,
        outputs: Vec<TensorId>,
        ops: Vec<OperationIr>,
        constants: Vec<(TensorId, DispatchTensor)>,
        base: DispatchDevice,
    ) -> Self {
        let ops = mark_last_uses(prune(ops, &outputs), &outputs, &constants);
        // Constants only dead operations read are not kept (nor moved to replay devices).
        let mut used: HashSet<TensorId> = outputs.iter().copied().collect();
        for op in &ops {
            op.for_each_tensor(&mut |t| {
                used.insert(t.id);
            });
        }
        let mut constants: Vec<_> = constants
            .into_iter()
            .filter(|(id, _)| used.contains(id))
            .collect();
        let (mut inputs, mut outputs, mut ops) = (inputs, outputs, ops);
        let num_ids = renumber(&mut inputs, &mut outputs, &mut ops, &mut constants);
        Self {
            num_ids,
            inputs,
            outputs,
            ops,
            constants,
            base,
            placed: Mutex::new(Vec::new()),
        }
    }

    /// The recorded operations, in execution order.
    pub fn operations(&self) -> &[OperationIr] {
        &self.ops
    }

    /// The number of inputs the graph takes.
    pub fn num_inputs(&self) -> usize {
        self.inputs.len()
    }

    /// The number of outputs the graph returns.
    pub fn num_outputs(&self) -> usize {
        self.outputs.len()
    }

    /// The number of constants (tensors from outside the closure, data made inside it).
    pub fn num_constants(&self) -> usize {
        self.constants.len()
    }

    /// Runs the graph on `inputs` (on one device, the shapes and dtypes of capture time) and
    /// returns its outputs, on the inputs' device (the capture's device when there are none).
    pub fn replay(&self, inputs: Vec<DispatchTensor>) -> Result<Vec<DispatchTensor>, CaptureError> {
        if inputs.len() != self.inputs.len() {
            return Err(CaptureError::InputCount {
                expected: self.inputs.len(),
                got: inputs.len(),
            });
        }
        let mut device = None;
        for (index, (tensor, (_, shape, dtype))) in inputs.iter().zip(&self.inputs).enumerate() {
            let (got_shape, got_dtype) = (tensor.shape(), tensor.dtype());
            let matches_dtype =
                got_dtype == *dtype || (matches!(got_dtype, DType::QFloat(_)) && dtype.is_float());
            if got_shape != *shape || !matches_dtype {
                return Err(CaptureError::InputMismatch {
                    index,
                    expected: (shape.to_vec(), *dtype),
                    got: (got_shape.to_vec(), got_dtype),
                });
            }
            if tensor.is_recording() {
                return Err(CaptureError::Nested);
            }
            let on = device_of(tensor);
            match &device {
                None => device = Some(on),
                Some(first) if *first != on => return Err(CaptureError::DeviceMismatch { index }),
                Some(first) if on.is_autodiff() && !first.is_autodiff() => device = Some(on),
                Some(_) => {}
            }
        }
        let device = device.unwrap_or_else(|| self.base.clone());
        let mut handles: Vec<(TensorId, DispatchTensor)> = self.constants_on(&device).to_vec();
        for (tensor, (id, _, _)) in inputs.into_iter().zip(&self.inputs) {
            // A quantized input is dequantized; a tracked one stays tracked.
            let tensor = if matches!(tensor.dtype(), DType::QFloat(_)) {
                Dispatch::plain_float(tensor)
            } else {
                tensor
            };
            handles.push((*id, tensor));
        }
        Ok(Dispatch::execute_ir(
            &self.ops,
            &device,
            handles,
            &self.outputs,
            self.num_ids,
        ))
    }

    /// The constants on `device` (moved there on the first replay on it).
    fn constants_on(&self, device: &DispatchDevice) -> Bound {
        let base = device.base().clone();
        let mut placed = self.placed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, constants)) = placed.iter().find(|(d, _)| *d == base) {
            return constants.clone();
        }
        let moved: Vec<(TensorId, DispatchTensor)> = self
            .constants
            .iter()
            .map(|(id, tensor)| {
                let tensor = tensor.clone();
                let moved = match TensorKind::of(&tensor) {
                    TensorKind::Float => Dispatch::float_to_device(tensor, &base),
                    TensorKind::Int => Dispatch::int_to_device(tensor, &base),
                    TensorKind::Bool => Dispatch::bool_to_device(tensor, &base),
                };
                (*id, moved)
            })
            .collect();
        let moved = Arc::new(moved);
        placed.push((base, moved.clone()));
        moved
    }
}

/// The device of a tensor (its autodiff device when it is a float of one).
fn device_of(tensor: &DispatchTensor) -> DispatchDevice {
    match TensorKind::of(tensor) {
        TensorKind::Float => Dispatch::float_device(tensor),
        TensorKind::Int => Dispatch::int_device(tensor),
        TensorKind::Bool => Dispatch::bool_device(tensor),
    }
}

/// The operations some output depends on, in order.
fn prune(ops: Vec<OperationIr>, outputs: &[TensorId]) -> Vec<OperationIr> {
    let mut live: HashSet<TensorId> = outputs.iter().copied().collect();
    let mut keep = vec![false; ops.len()];
    for (index, op) in ops.iter().enumerate().rev() {
        let mut produces_live = false;
        op.for_each_tensor(&mut |t| {
            if t.status == TensorStatus::NotInit && live.contains(&t.id) {
                produces_live = true;
            }
        });
        if produces_live {
            keep[index] = true;
            op.for_each_tensor(&mut |t| {
                if t.status != TensorStatus::NotInit {
                    live.insert(t.id);
                }
            });
        }
    }
    ops.into_iter()
        .zip(keep)
        .filter_map(|(op, keep)| keep.then_some(op))
        .collect()
}

/// Marks the last read of each intermediate or input `ReadWrite` (outputs and constants are
/// read-only to the end: the caller gets the first, every replay reuses the second).
fn mark_last_uses(
    mut ops: Vec<OperationIr>,
    outputs: &[TensorId],
    constants: &[(TensorId, DispatchTensor)],
) -> Vec<OperationIr> {
    let kept: HashSet<TensorId> = outputs
        .iter()
        .copied()
        .chain(constants.iter().map(|(id, _)| *id))
        .collect();
    let mut last: HashMap<TensorId, (usize, usize)> = HashMap::new();
    for (index, op) in ops.iter().enumerate() {
        let mut position = 0;
        op.for_each_tensor(&mut |t| {
            if t.status != TensorStatus::NotInit {
                last.insert(t.id, (index, position));
            }
            position += 1;
        });
    }
    for (index, op) in ops.iter_mut().enumerate() {
        let mut position = 0;
        op.for_each_tensor_mut(&mut |t| {
            if t.status != TensorStatus::NotInit
                && !kept.contains(&t.id)
                && last.get(&t.id) == Some(&(index, position))
            {
                t.status = TensorStatus::ReadWrite;
            }
            position += 1;
        });
    }
    ops
}

/// Renumbers every tensor id densely from 0 (inputs, constants, then outputs of operations in
/// order) and returns how many there are.
fn renumber(
    inputs: &mut [(TensorId, Shape, DType)],
    outputs: &mut [TensorId],
    ops: &mut [OperationIr],
    constants: &mut [(TensorId, DispatchTensor)],
) -> usize {
    let mut dense: HashMap<TensorId, TensorId> = HashMap::new();
    let mut assign = |id: &mut TensorId| {
        let next = TensorId(dense.len() as u64);
        *id = *dense.entry(*id).or_insert(next);
    };
    inputs.iter_mut().for_each(|(id, _, _)| assign(id));
    constants.iter_mut().for_each(|(id, _)| assign(id));
    for op in ops.iter_mut() {
        op.for_each_tensor_mut(&mut |t| assign(&mut t.id));
    }
    outputs.iter_mut().for_each(&mut assign);
    dense.len()
}
