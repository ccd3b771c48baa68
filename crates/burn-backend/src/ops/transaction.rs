//! Reading several tensors in one transaction.

use crate::Backend;
use crate::tensor::{BoolTensor, FloatTensor, IntTensor};
use burn_std::{ExecutionError, TensorData};
use core::future::Future;

/// The tensors a transaction reads, by kind.
#[derive(Debug, Clone)]
pub struct TransactionPrimitive<B: Backend> {
    /// Float tensors to read.
    pub read_floats: Vec<FloatTensor<B>>,
    /// Int tensors to read.
    pub read_ints: Vec<IntTensor<B>>,
    /// Bool tensors to read.
    pub read_bools: Vec<BoolTensor<B>>,
}

impl<B: Backend> Default for TransactionPrimitive<B> {
    fn default() -> Self {
        Self {
            read_floats: Vec::new(),
            read_ints: Vec::new(),
            read_bools: Vec::new(),
        }
    }
}

/// The values a transaction read, in the order the tensors were registered.
#[derive(Debug, Clone, Default)]
pub struct TransactionPrimitiveData {
    /// Float values.
    pub read_floats: Vec<TensorData>,
    /// Int values.
    pub read_ints: Vec<TensorData>,
    /// Bool values.
    pub read_bools: Vec<TensorData>,
}

/// Reading many tensors at once; an accelerator may batch the transfers.
pub trait TransactionOps<B: Backend> {
    /// Reads every tensor of `transaction`; by default one after the other.
    fn tr_execute(
        transaction: TransactionPrimitive<B>,
    ) -> impl Future<Output = Result<TransactionPrimitiveData, ExecutionError>> + Send {
        async move {
            let mut data = TransactionPrimitiveData::default();
            for tensor in transaction.read_floats {
                data.read_floats.push(B::float_into_data(tensor).await?);
            }
            for tensor in transaction.read_ints {
                data.read_ints.push(B::int_into_data(tensor).await?);
            }
            for tensor in transaction.read_bools {
                data.read_bools.push(B::bool_into_data(tensor).await?);
            }
            Ok(data)
        }
    }
}
