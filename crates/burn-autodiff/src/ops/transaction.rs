//! `TransactionOps` for `Autodiff<B, C>`: the transaction runs on `B`, floats unwrapped.

use crate::checkpoint::strategy::CheckpointStrategy;
use crate::{Autodiff, AutodiffTensor};
use burn_backend::ops::{TransactionOps, TransactionPrimitive, TransactionPrimitiveData};
use burn_backend::{Backend, ExecutionError};
use core::future::Future;

impl<B: Backend, C: CheckpointStrategy> TransactionOps<Self> for Autodiff<B, C> {
    fn tr_execute(
        transaction: TransactionPrimitive<Self>,
    ) -> impl Future<Output = Result<TransactionPrimitiveData, ExecutionError>> + Send {
        // Unwrapped before the future is made, so that it holds no graph nodes.
        let inner = TransactionPrimitive::<B> {
            read_floats: transaction
                .read_floats
                .into_iter()
                .map(AutodiffTensor::into_primitive)
                .collect(),
            read_ints: transaction.read_ints,
            read_bools: transaction.read_bools,
        };
        async move { B::tr_execute(inner).await }
    }
}
