//! The relative form of a sequence of operations: tensor ids renumbered by first appearance,
//! scalar values left out. Two sequences with the same key can run with the same fusion plan
//! (a training step repeated with fresh tensors and a new learning rate has the same key).

use crate::operation::OperationIr;
use crate::tensor::{TensorId, TensorStatus};
use burn_backend::{DType, Shape};
use std::collections::HashMap;

/// One element of a [`RelativeKey`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Item {
    /// The start of an operation (its backend method).
    Op(&'static str),
    /// A tensor use: relative id, shape, dtype, status.
    Tensor(u32, Shape, DType, TensorStatus),
}

/// The key of a fusion plan: what a sequence of operations does, independent of which tensors
/// it does it to and of its scalar values.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct RelativeKey {
    items: Vec<Item>,
}

/// The relative key of `ops`.
pub fn relative_key(ops: &[OperationIr]) -> RelativeKey {
    let mut ids: HashMap<TensorId, u32> = HashMap::new();
    let mut items = Vec::with_capacity(ops.len() * 4);
    for op in ops {
        items.push(Item::Op(op.name()));
        op.for_each_tensor(&mut |t| {
            let next = ids.len() as u32;
            let id = *ids.entry(t.id).or_insert(next);
            items.push(Item::Tensor(id, t.shape.clone(), t.dtype, t.status));
        });
    }
    RelativeKey { items }
}
