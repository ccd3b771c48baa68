//! Files a run writes in its artifact directory: weights (safetensors), the metric history
//! (JSON) and the chart.

use crate::metric::MetricHistory;
use burn::module::Module;
use burn_store::{ModuleSnapshot, SafetensorsStore};
use std::path::{Path, PathBuf};

/// Where the weights of `epoch`'s checkpoint go.
pub(crate) fn checkpoint_path(dir: &Path, epoch: usize) -> PathBuf {
    dir.join("checkpoint")
        .join(format!("model-{epoch}.safetensors"))
}

/// Saves `model`'s weights at `path` (creating directories).
pub(crate) fn save_weights<M: Module>(model: &M, path: &Path) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    let mut store = SafetensorsStore::from_file(path);
    model
        .save_into(&mut store)
        .map_err(|e| format!("saving weights to {}: {e}", path.display()))
}

/// Writes the history as JSON at `path`.
pub(crate) fn save_history(history: &MetricHistory, path: &Path) -> Result<(), String> {
    std::fs::write(path, history.to_json()).map_err(|e| format!("writing {}: {e}", path.display()))
}
