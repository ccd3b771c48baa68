//! Loading tensors into a module: check everything, build everything, then swap the values
//! in — so a load either succeeds entirely or leaves the module untouched.

mod build;
mod plan;
mod swap;

use crate::source::Source;
use crate::{ApplyResult, LoadOptions, StoreError};
use build::Builder;
use burn_core::module::Module;
use plan::Planner;
use std::collections::HashSet;
use swap::{Swapper, map_in_place};

/// Loads the tensors of `source` into `module` under `options`.
///
/// 1. Keys are remapped; every parameter is matched to a tensor and checked (kind, dtype,
///    shape), as are unused tensors when they are not allowed. Any problem is returned
///    before anything is built.
/// 2. Every new value is built on its parameter's device, in its parameter's dtype.
/// 3. The values are swapped into the module.
pub(crate) fn apply_source<M: Module>(
    module: &mut M,
    source: Source<'_>,
    options: &LoadOptions,
) -> Result<ApplyResult, StoreError> {
    let remapped = source.remap(options.remapper())?;

    let mut planner = Planner::new(&remapped);
    module.visit(&mut planner);
    let checked = planner.finish(options.allows_partial())?;

    let used: HashSet<&str> = checked.plans.iter().map(|p| p.key.as_str()).collect();
    let mut unused: Vec<String> = remapped
        .by_path
        .iter()
        .filter(|(path, _)| !used.contains(path.as_str()))
        .map(|(_, (key, _))| key.clone())
        .collect();
    unused.sort();
    if !unused.is_empty() && !options.allows_unused() {
        return Err(StoreError::UnusedKeys {
            file: remapped.file.clone(),
            keys: unused,
        });
    }

    let mut builder = Builder::new(&remapped, &checked.plans);
    module.visit(&mut builder);
    let mut swapper = Swapper::new(builder.built);
    map_in_place(module, &mut swapper);

    Ok(ApplyResult {
        applied: checked.plans.into_iter().map(|plan| plan.key).collect(),
        missing: checked.missing,
        unused,
    })
}
