//! Autodiff as a property of the device: `AutodiffDevice` wraps a catalog device with a
//! checkpointing strategy; tensors created on it route float ops to `Autodiff<B, C>`.

/// The checkpointing strategy of an autodiff device, chosen at run time and mapped to the
/// `Autodiff<B, C>` type parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CheckpointingStrategy {
    /// Keep every value backward steps need (`NoCheckpointing`).
    #[default]
    None,
    /// Recompute memory-bound results during backward (`BalancedCheckpointing`).
    Balanced,
}

/// The strategy shared by the float arguments of one op (`None` when none is tracked-
/// capable).
///
/// # Panics
/// When two arguments come from autodiff devices with different strategies.
pub fn merge_strategies(
    strategies: impl IntoIterator<Item = Option<CheckpointingStrategy>>,
) -> Option<CheckpointingStrategy> {
    let mut merged = None;
    for strategy in strategies.into_iter().flatten() {
        match merged {
            None => merged = Some(strategy),
            Some(previous) if previous != strategy => panic!(
                "autodiff: tensors of one operation come from autodiff devices with different \
                 checkpointing strategies ({previous:?} and {strategy:?}); create them on one device"
            ),
            Some(_) => {}
        }
    }
    merged
}

/// Runs `body` with `$S` bound to the checkpoint strategy type of `$strategy`.
#[cfg(feature = "autodiff")]
#[macro_export]
#[doc(hidden)]
macro_rules! with_checkpointing {
    ($strategy:expr, $S:ident => $body:expr) => {
        match $strategy {
            $crate::CheckpointingStrategy::None => {
                type $S = $crate::__private::NoCheckpointing;
                $body
            }
            $crate::CheckpointingStrategy::Balanced => {
                type $S = $crate::__private::BalancedCheckpointing;
                $body
            }
        }
    };
}
