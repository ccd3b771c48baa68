//! Planning a queue: which runs of operations a backend fuser takes, which run alone; the plan
//! of each queue is cached under the queue's relative key.

use crate::FusionBackend;
use burn_ir::ExecutionContext;
use burn_ir::{OperationIr, RelativeKey, relative_key};
use std::collections::HashMap;
use std::sync::Arc;

/// Finds runs of operations a backend can execute together. One fuser per kind of fusion
/// (element-wise chains, a reduction with its epilogue…), offered operations in queue order.
pub trait Fuser<B: FusionBackend>: Send {
    /// Offers the next operation: `true` when the run so far plus `op` can still be fused (the
    /// fuser then includes it), `false` when the run ends before `op`.
    fn accept(&mut self, op: &OperationIr) -> bool;
    /// The execution of the operations accepted since the last [`Fuser::reset`], or `None`
    /// when fusing them would not pay (a run of one operation, say).
    fn build(&self) -> Option<Arc<dyn FusedExecution<B>>>;
    /// Forgets the run, ready for a new one.
    fn reset(&mut self);
}

/// A fused run of operations, built once per relative key and executed for every queue with
/// that key: it reads the ids, scalars and statuses of this queue's `ops`.
pub trait FusedExecution<B: FusionBackend>: Send + Sync {
    /// Runs `ops` (with the relative key the execution was built for), taking their inputs
    /// from `ctx` and leaving the outputs still used after the run in it.
    fn execute(&self, ops: &[OperationIr], ctx: &mut ExecutionContext<B>);
}

/// One step of a plan.
#[derive(Clone)]
pub(crate) enum Step<B: FusionBackend> {
    /// The next operation, through the executing backend.
    Single,
    /// The next `len` operations as one fused execution.
    Fused {
        len: usize,
        execution: Arc<dyn FusedExecution<B>>,
    },
}

/// The planner of one device: its fusers and the plans it made.
pub(crate) struct Planner<B: FusionBackend> {
    fusers: Vec<Box<dyn Fuser<B>>>,
    cache: HashMap<RelativeKey, Arc<Vec<Step<B>>>>,
    pub(crate) hits: u64,
    pub(crate) misses: u64,
}

impl<B: FusionBackend> Planner<B> {
    pub(crate) fn new(fusers: Vec<Box<dyn Fuser<B>>>) -> Self {
        Self {
            fusers,
            cache: HashMap::new(),
            hits: 0,
            misses: 0,
        }
    }

    /// The plan of `ops`: from the cache, or searched and stored.
    pub(crate) fn plan(&mut self, ops: &[OperationIr]) -> Arc<Vec<Step<B>>> {
        if self.fusers.is_empty() {
            return Arc::new(vec![Step::Single; ops.len()]);
        }
        let key = relative_key(ops);
        if let Some(plan) = self.cache.get(&key) {
            self.hits += 1;
            return plan.clone();
        }
        self.misses += 1;
        let plan = Arc::new(self.search(ops));
        self.cache.insert(key, plan.clone());
        plan
    }

    /// Greedy search: at each position, the longest run any fuser takes (at least two
    /// operations), else the operation alone.
    fn search(&mut self, ops: &[OperationIr]) -> Vec<Step<B>> {
        let mut steps = Vec::new();
        let mut start = 0;
        while start < ops.len() {
            let mut best: Option<(usize, Arc<dyn FusedExecution<B>>)> = None;
            for fuser in self.fusers.iter_mut() {
                fuser.reset();
                let len = ops[start..]
                    .iter()
                    .take_while(|op| fuser.accept(op))
                    .count();
                if len >= 2
                    && best.as_ref().is_none_or(|(l, _)| len > *l)
                    && let Some(execution) = fuser.build()
                {
                    best = Some((len, execution));
                }
                fuser.reset();
            }
            match best {
                Some((len, execution)) => {
                    steps.push(Step::Fused { len, execution });
                    start += len;
                }
                None => {
                    steps.push(Step::Single);
                    start += 1;
                }
            }
        }
        steps
    }
}
