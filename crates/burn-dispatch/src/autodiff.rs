//! Autodiff as a property of the device: `AutodiffDevice` wraps a catalog device with a
//! checkpointing strategy; tensors created on it route float ops to `Autodiff<B, C>`.

/// The checkpointing strategy of an autodiff device, chosen at run time and mapped to the
/// `Autodiff<B, C>` type parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum GradientCheckpointingStrategy {
    /// Recompute memory-bound results during backward (`BalancedCheckpointing`).
    Balanced,
    /// Keep every value backward steps need (`NoCheckpointing`).
    #[default]
    Disabled,
}

/// The strategy an op runs under: that of its first float argument from an autodiff device
/// (`None` when there is none). Graphs do not depend on the strategy, so arguments recorded
/// under different strategies (a checkpointed activation and an optimizer-updated leaf) mix
/// freely; only how this op's own values are kept follows the chosen one.
pub fn merge_strategies(
    strategies: impl IntoIterator<Item = Option<GradientCheckpointingStrategy>>,
) -> Option<GradientCheckpointingStrategy> {
    strategies.into_iter().flatten().next()
}

/// Runs `body` with `$S` bound to the checkpoint strategy type of `$strategy`.
#[cfg(feature = "autodiff")]
#[macro_export]
#[doc(hidden)]
macro_rules! with_checkpointing {
    ($strategy:expr, $S:ident => $body:expr) => {
        match $strategy {
            $crate::GradientCheckpointingStrategy::Disabled => {
                type $S = $crate::__private::NoCheckpointing;
                $body
            }
            $crate::GradientCheckpointingStrategy::Balanced => {
                type $S = $crate::__private::BalancedCheckpointing;
                $body
            }
        }
    };
}
