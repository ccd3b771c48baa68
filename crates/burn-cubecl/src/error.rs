//! Mapping CubeCL's deferred errors to the contract's `ExecutionError`.

use burn_backend::ExecutionError;
use cubecl::server::ServerError;

/// The execution error a failed read, launch or sync reports.
///
/// A kernel the device refused before running it (a compilation error such as an unsupported
/// type, too many resources) is [`ExecutionError::Unsupported`]; anything else (out of memory,
/// a lost device, a failed write upstream) is [`ExecutionError::Generic`]. CubeCL's message,
/// which names the failed kernel or the device fault, is kept without its backtrace.
pub fn execution_error(err: ServerError) -> ExecutionError {
    let message = err.to_string();
    let reason = match message.find("\nBacktrace:") {
        Some(end) => message[..end].to_string(),
        None => message,
    };
    if err.is_refusal() {
        ExecutionError::unsupported("kernel launch", reason)
    } else {
        ExecutionError::generic(reason)
    }
}

#[cfg(test)]
mod tests {
    use super::execution_error;
    use burn_backend::ExecutionError;
    use cubecl::server::ServerError;

    #[test]
    fn failures_that_are_not_refusals_are_generic() {
        match execution_error(ServerError::TornDown) {
            ExecutionError::Generic { reason } => {
                assert!(reason.contains("torn down"), "{reason}");
            }
            other => panic!("expected a generic error, got {other:?}"),
        }
    }
}
