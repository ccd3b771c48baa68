//! [`Transaction`]: reading several tensors back to the host in one go.

use crate::Tensor;
use crate::kind::{self, Kind};
use burn_backend::ops::{TransactionOps, TransactionPrimitive};
use burn_backend::{ExecutionError, TensorData, read_sync};
use burn_dispatch::Dispatch;

/// Several tensors read back together: an accelerator can batch the transfers and wait once.
/// The values come back in the order the tensors were registered.
///
/// ```
/// use burn_tensor::{Device, Int, Tensor, Transaction};
/// let device = Device::default();
/// let x = Tensor::<1>::from_floats([1.0, 2.0], &device);
/// let n = Tensor::<1, Int>::from_ints([3, 4], &device);
/// let [xs, ns] = Transaction::default()
///     .register(x)
///     .register(n)
///     .execute()
///     .try_into()
///     .unwrap();
/// assert_eq!(xs.to_vec::<f32>().unwrap(), [1.0, 2.0]);
/// assert_eq!(ns.to_vec::<i64>().unwrap(), [3, 4]);
/// ```
#[derive(Default)]
pub struct Transaction {
    tensors: TransactionPrimitive<Dispatch>,
    order: Vec<Kind>,
}

impl Transaction {
    /// Adds `tensor` to the tensors read.
    pub fn register<const D: usize, K: kind::Transaction>(mut self, tensor: Tensor<D, K>) -> Self {
        let primitive = tensor.into_primitive();
        match K::KIND {
            Kind::Float => self.tensors.read_floats.push(primitive),
            Kind::Int => self.tensors.read_ints.push(primitive),
            Kind::Bool => self.tensors.read_bools.push(primitive),
        }
        self.order.push(K::KIND);
        self
    }

    /// Reads every registered tensor, waiting for them; panics when a read fails (see
    /// [`try_execute`](Self::try_execute)).
    pub fn execute(self) -> Vec<TensorData> {
        self.try_execute()
            .unwrap_or_else(|err| panic!("Transaction::execute: a read failed: {err}"))
    }

    /// Reads every registered tensor, waiting for them, or says why a read failed.
    pub fn try_execute(self) -> Result<Vec<TensorData>, ExecutionError> {
        read_sync(self.execute_async())
    }

    /// Reads every registered tensor asynchronously.
    pub async fn execute_async(self) -> Result<Vec<TensorData>, ExecutionError> {
        let read = Dispatch::tr_execute(self.tensors).await?;
        let mut floats = read.read_floats.into_iter();
        let mut ints = read.read_ints.into_iter();
        let mut bools = read.read_bools.into_iter();
        let values = self
            .order
            .into_iter()
            .map(|kind| match kind {
                Kind::Float => floats.next(),
                Kind::Int => ints.next(),
                Kind::Bool => bools.next(),
            })
            .collect::<Option<Vec<_>>>();
        values.ok_or_else(|| ExecutionError::Generic {
            reason: "Transaction: the backend returned fewer values than tensors registered"
                .to_string(),
        })
    }
}
