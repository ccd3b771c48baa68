//! Checkpoint strategies: what a backward step keeps from the forward pass.

/// Chooses, per operation, whether its result is kept for the backward pass or recomputed
/// from its inputs when the backward pass needs it.
pub trait CheckpointStrategy:
    Clone + Copy + core::fmt::Debug + Default + Send + Sync + 'static
{
    /// Whether the results of memory-bound operations (element-wise maps, layout changes)
    /// are recomputed during the backward pass instead of kept alive from the forward pass.
    fn recomputes_memory_bound() -> bool;
}

/// Keeps every value a backward step needs (fastest backward, most memory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoCheckpointing;

impl CheckpointStrategy for NoCheckpointing {
    fn recomputes_memory_bound() -> bool {
        false
    }
}

/// Keeps the results of compute-bound operations (matmul, convolution, reductions, leaves)
/// and recomputes memory-bound ones from them during the backward pass: activation memory of
/// element-wise chains is not held between the forward and the backward pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BalancedCheckpointing;

impl CheckpointStrategy for BalancedCheckpointing {
    fn recomputes_memory_bound() -> bool {
        true
    }
}
