//! `ExecutionError`: what a deferred execution reports when it fails.

use core::fmt;

/// An error reported by a device after it accepted work: a failed kernel, a lost device, an
/// unsupported operation found at run time. Returned by reads and `sync`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecutionError {
    /// Execution failed for the given reason.
    Generic {
        /// What went wrong.
        reason: String,
    },
    /// The operation is not supported by this backend or device.
    Unsupported {
        /// The operation that was asked for.
        operation: String,
        /// Why it cannot run here.
        reason: String,
    },
}

impl ExecutionError {
    /// A generic error with the given reason.
    pub fn generic(reason: impl Into<String>) -> Self {
        Self::Generic {
            reason: reason.into(),
        }
    }

    /// An "unsupported operation" error.
    pub fn unsupported(operation: impl Into<String>, reason: impl Into<String>) -> Self {
        Self::Unsupported {
            operation: operation.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for ExecutionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecutionError::Generic { reason } => write!(f, "execution failed: {reason}"),
            ExecutionError::Unsupported { operation, reason } => {
                write!(f, "{operation} is not supported: {reason}")
            }
        }
    }
}

impl std::error::Error for ExecutionError {}
