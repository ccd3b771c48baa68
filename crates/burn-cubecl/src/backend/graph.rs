//! Graph capture on a device's stream through cubecl's graphs: the launches between
//! `graph_start_capture` and `graph_stop_capture` are recorded (CUDA graphs on the CUDA
//! runtime) and replayed as one submission. Runtimes without graphs (CubeCL's CPU runtime keeps
//! cubecl's default, which refuses every capture) answer `ExecutionError::Unsupported`.

use crate::{CubeBackend, CubeDevice, execution_error};
use burn_backend::ExecutionError;
use cubecl::server::ServerError;

/// The error of a graph call `op`: `Unsupported` when the runtime has no graph capture at all
/// (cubecl's default answer, `ServerError::graph_capture_unsupported`, a generic error that
/// only its reason tells apart), else as every other execution error.
fn graph_error(op: &str, err: ServerError) -> ExecutionError {
    let reason = |e: &ServerError| match e {
        ServerError::Generic { reason, .. } => Some(reason.clone()),
        _ => None,
    };
    let unsupported = reason(&ServerError::graph_capture_unsupported());
    if unsupported.is_some() && reason(&err) == unsupported {
        ExecutionError::unsupported(op, "this runtime has no graph capture")
    } else {
        execution_error(err)
    }
}

/// A launch sequence captured on a device's stream, replayed there against the buffers it
/// recorded.
#[derive(Clone, Debug)]
pub struct CubeGraph {
    graph: cubecl::client::Graph,
    device: CubeDevice,
}

impl CubeBackend {
    pub(crate) fn prepare_graph(device: &CubeDevice) -> Result<(), ExecutionError> {
        let prepared = device.client().graph_prepare();
        prepared.map_err(|err| graph_error("graph_prepare", err))
    }

    pub(crate) fn start_graph(device: &CubeDevice) -> Result<(), ExecutionError> {
        let started = device.client().start_capture();
        started.map_err(|err| graph_error("graph_start_capture", err))
    }

    pub(crate) fn stop_graph(device: &CubeDevice) -> Result<CubeGraph, ExecutionError> {
        let stopped = device.client().stop_capture();
        let graph = stopped.map_err(|err| graph_error("graph_stop_capture", err))?;
        Ok(CubeGraph {
            graph,
            device: device.clone(),
        })
    }

    /// # Safety
    /// See `Backend::graph_replay`.
    pub(crate) unsafe fn replay_graph(
        device: &CubeDevice,
        graph: &CubeGraph,
    ) -> Result<(), ExecutionError> {
        if graph.device != *device {
            return Err(ExecutionError::unsupported(
                "graph_replay",
                format!(
                    "the graph was captured on {:?} and replays only there, not on {device:?}",
                    graph.device
                ),
            ));
        }
        // SAFETY: the caller keeps every recorded buffer alive and unshared (the contract of
        // `Backend::graph_replay`, forwarded as is).
        unsafe { graph.graph.replay() }.map_err(|err| graph_error("graph_replay", err))
    }
}

#[cfg(test)]
mod tests {
    use super::graph_error;
    use burn_backend::ExecutionError;
    use cubecl::server::ServerError;

    #[test]
    fn a_runtime_without_graphs_is_unsupported_and_other_failures_are_not() {
        let err = graph_error(
            "graph_start_capture",
            ServerError::graph_capture_unsupported(),
        );
        assert!(matches!(err, ExecutionError::Unsupported { .. }), "{err:?}");
        let err = graph_error("graph_start_capture", ServerError::TornDown);
        assert!(matches!(err, ExecutionError::Generic { .. }), "{err:?}");
        let err = graph_error(
            "graph_start_capture",
            ServerError::graph_state("a second overlapping capture"),
        );
        assert!(matches!(err, ExecutionError::Generic { .. }), "{err:?}");
    }
}
