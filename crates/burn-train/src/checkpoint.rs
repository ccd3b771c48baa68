//! Files a run writes in its artifact directory: checkpoints (weights as safetensors, the
//! optimizer and schedule state as JSON keyed by parameter path, so a fresh process with
//! new parameter ids can resume), the metric history (JSON) and the chart.

use crate::metric::MetricHistory;
use burn::module::{Module, ModuleVisitor, Param, ParamId};
use burn::tensor::Tensor;
use burn_optim::{OptimizerRecord, ParamStateRecord};
use burn_store::{ModuleSnapshot, SafetensorsStore};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the weights of `epoch`'s checkpoint go.
pub(crate) fn weights_path(dir: &Path, epoch: usize) -> PathBuf {
    dir.join("checkpoint")
        .join(format!("model-{epoch}.safetensors"))
}

/// Where the optimizer and schedule state of `epoch`'s checkpoint go.
pub(crate) fn state_path(dir: &Path, epoch: usize) -> PathBuf {
    dir.join("checkpoint").join(format!("state-{epoch}.json"))
}

/// Saves `model`'s weights at `path` (creating directories).
pub(crate) fn save_weights<M: Module>(model: &M, path: &Path) -> Result<(), String> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    model
        .save_into(&mut SafetensorsStore::from_file(path))
        .map_err(|e| format!("saving weights to {}: {e}", path.display()))
}

/// Loads the weights at `path` into `model`.
pub(crate) fn load_weights<M: Module>(model: &mut M, path: &Path) -> Result<(), String> {
    model
        .load_from(&mut SafetensorsStore::from_file(path))
        .map(|_| ())
        .map_err(|e| format!("loading weights from {}: {e}", path.display()))
}

/// The path (`layers.0.weight`) of every float parameter, by id.
fn param_paths<M: Module>(model: &M) -> BTreeMap<ParamId, String> {
    #[derive(Default)]
    struct Paths {
        stack: Vec<String>,
        found: BTreeMap<ParamId, String>,
    }
    impl ModuleVisitor for Paths {
        fn enter_module(&mut self, name: &str, _container_type: &str) {
            self.stack.push(name.to_string());
        }
        fn exit_module(&mut self, _name: &str, _container_type: &str) {
            self.stack.pop();
        }
        fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
            self.found.insert(param.id, self.stack.join("."));
        }
    }
    let mut paths = Paths::default();
    model.visit(&mut paths);
    paths.found
}

/// The training state of a checkpoint besides the weights.
#[derive(serde::Serialize, serde::Deserialize)]
struct TrainingState {
    /// The epoch the checkpoint closes.
    epoch: usize,
    /// The optimizer that wrote the state.
    optimizer: String,
    /// Per-parameter optimizer state, keyed by parameter path.
    params: BTreeMap<String, ParamStateRecord>,
    /// The learning-rate schedule's progress.
    scheduler: serde_json::Value,
}

/// Writes the optimizer and schedule state of `model`'s training at `path`.
pub(crate) fn save_state<M: Module, R: serde::Serialize>(
    model: &M,
    epoch: usize,
    optimizer: OptimizerRecord,
    scheduler: &R,
    path: &Path,
) -> Result<(), String> {
    let paths = param_paths(model);
    let params = optimizer
        .params
        .into_iter()
        .filter_map(|(id, state)| paths.get(&id).map(|p| (p.clone(), state)))
        .collect();
    let state = TrainingState {
        epoch,
        optimizer: optimizer.optimizer,
        params,
        scheduler: serde_json::to_value(scheduler).map_err(|e| e.to_string())?,
    };
    let json = serde_json::to_string(&state).map_err(|e| e.to_string())?;
    std::fs::write(path, json).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Reads the state at `path` for `model` (whose parameter ids may differ from the ones that
/// wrote it): the optimizer record keyed by `model`'s ids, and the schedule's record.
pub(crate) fn load_state<M: Module, R: serde::de::DeserializeOwned>(
    model: &M,
    path: &Path,
) -> Result<(OptimizerRecord, R), String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let state: TrainingState = serde_json::from_str(&text)
        .map_err(|e| format!("{} is not a training state: {e}", path.display()))?;
    let ids: BTreeMap<String, ParamId> = param_paths(model)
        .into_iter()
        .map(|(id, p)| (p, id))
        .collect();
    let mut params = BTreeMap::new();
    for (param_path, record) in state.params {
        let id = ids.get(&param_path).ok_or_else(|| {
            format!(
                "{}: the model has no parameter {param_path}",
                path.display()
            )
        })?;
        params.insert(*id, record);
    }
    let scheduler = serde_json::from_value(state.scheduler)
        .map_err(|e| format!("{}: the schedule state does not fit: {e}", path.display()))?;
    Ok((
        OptimizerRecord {
            optimizer: state.optimizer,
            params,
        },
        scheduler,
    ))
}

/// Writes the history as JSON at `path`.
pub(crate) fn save_history(history: &MetricHistory, path: &Path) -> Result<(), String> {
    std::fs::write(path, history.to_json()).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Reads the history at `path`.
pub(crate) fn load_history(path: &Path) -> Result<MetricHistory, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    MetricHistory::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
}
