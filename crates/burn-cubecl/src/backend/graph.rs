//! Graph capture on a device's stream through cubecl's graphs: the launches between
//! `graph_start_capture` and `graph_stop_capture` are recorded (CUDA graphs on the CUDA
//! runtime) and replayed as one submission. Runtimes without graphs (WGPU) refuse with
//! `ExecutionError::Unsupported`.

use crate::{CubeBackend, CubeDevice, execution_error};
use burn_backend::ExecutionError;

/// A launch sequence captured on a device's stream, replayed there against the buffers it
/// recorded.
#[derive(Clone, Debug)]
pub struct CubeGraph {
    graph: cubecl::client::Graph,
    device: CubeDevice,
}

impl CubeBackend {
    pub(crate) fn prepare_graph(device: &CubeDevice) -> Result<(), ExecutionError> {
        device.client().graph_prepare().map_err(execution_error)
    }

    pub(crate) fn start_graph(device: &CubeDevice) -> Result<(), ExecutionError> {
        device.client().start_capture().map_err(execution_error)
    }

    pub(crate) fn stop_graph(device: &CubeDevice) -> Result<CubeGraph, ExecutionError> {
        let graph = device.client().stop_capture().map_err(execution_error)?;
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
        unsafe { graph.graph.replay() }.map_err(execution_error)
    }
}
