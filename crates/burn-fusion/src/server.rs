//! The per-device server: the queues of the streams, which tensors they still use, and the
//! execution of a queue through its plan.

use crate::FusionBackend;
use crate::client::FusionStats;
use crate::ops::execute;
use crate::plan::{Fuser, Planner, Step};
use burn_ir::ExecutionContext;
use burn_ir::{OperationIr, TensorId, TensorStatus};
use std::collections::HashMap;

/// A stream: the operations recorded by one thread.
pub(crate) type StreamId = u64;

/// A queue this long runs even when nothing reads it, bounding the memory pending work holds.
pub(crate) const MAX_QUEUE: usize = 256;

pub(crate) struct Server<B: FusionBackend> {
    pub(crate) ctx: ExecutionContext<B>,
    queues: HashMap<StreamId, Vec<OperationIr>>,
    /// The streams whose queue uses each tensor.
    pending: HashMap<TensorId, Vec<StreamId>>,
    /// Tensors dropped by the user while a queue still used them.
    drops: Vec<TensorId>,
    planner: Planner<B>,
    pub(crate) stats: FusionStats,
}

impl<B: FusionBackend> Server<B> {
    pub(crate) fn new(device: B::Device, fusers: Vec<Box<dyn Fuser<B>>>) -> Self {
        Self {
            ctx: ExecutionContext::new(device),
            queues: HashMap::new(),
            pending: HashMap::new(),
            drops: Vec::new(),
            planner: Planner::new(fusers),
            stats: FusionStats::default(),
        }
    }

    /// Runs the queues of the other streams that use a tensor `op` reads, so that `op` sees
    /// their results (and does not overwrite a buffer they still read).
    fn sync_inputs(&mut self, stream: StreamId, op: &OperationIr) {
        let mut others = Vec::new();
        op.for_each_tensor(&mut |t| {
            if t.status != TensorStatus::NotInit
                && let Some(streams) = self.pending.get(&t.id)
            {
                others.extend(streams.iter().copied().filter(|&s| s != stream));
            }
        });
        for other in others {
            self.drain(other);
        }
    }

    /// Queues `op` on `stream`.
    pub(crate) fn register(&mut self, stream: StreamId, op: OperationIr) {
        self.sync_inputs(stream, &op);
        op.for_each_tensor(&mut |t| {
            let streams = self.pending.entry(t.id).or_default();
            if !streams.contains(&stream) {
                streams.push(stream);
            }
        });
        let queue = self.queues.entry(stream).or_default();
        queue.push(op);
        if queue.len() >= MAX_QUEUE {
            self.drain(stream);
        }
    }

    /// Runs `op` now, after everything it depends on; used for operations whose output shape
    /// is not known before they run.
    pub(crate) fn execute_now(&mut self, stream: StreamId, op: OperationIr) {
        self.sync_inputs(stream, &op);
        self.drain(stream);
        self.stats.single_ops += 1;
        execute(&op, &mut self.ctx, false);
    }

    /// Runs every queue that uses `id`.
    pub(crate) fn drain_tensor(&mut self, id: TensorId) {
        if let Some(streams) = self.pending.get(&id).cloned() {
            for stream in streams {
                self.drain(stream);
            }
        }
    }

    /// Runs every queue.
    pub(crate) fn drain_all(&mut self) {
        let streams: Vec<StreamId> = self.queues.keys().copied().collect();
        for stream in streams {
            self.drain(stream);
        }
    }

    /// Runs the queue of `stream` through its plan.
    pub(crate) fn drain(&mut self, stream: StreamId) {
        let ops = match self.queues.get_mut(&stream) {
            Some(queue) if !queue.is_empty() => std::mem::take(queue),
            _ => return,
        };
        for op in &ops {
            op.for_each_tensor(&mut |t| {
                if let Some(streams) = self.pending.get_mut(&t.id) {
                    streams.retain(|&s| s != stream);
                    if streams.is_empty() {
                        self.pending.remove(&t.id);
                    }
                }
            });
        }
        let plan = self.planner.plan(&ops);
        self.stats.plan_hits = self.planner.hits;
        self.stats.plan_misses = self.planner.misses;
        let mut ops = ops.into_iter();
        for step in plan.iter() {
            match step {
                Step::Single => {
                    let op = ops.next().expect("a plan covers its queue");
                    self.stats.single_ops += 1;
                    execute(&op, &mut self.ctx, true);
                }
                Step::Fused { len, execution } => {
                    let block: Vec<OperationIr> = ops.by_ref().take(*len).collect();
                    self.stats.fused_blocks += 1;
                    self.stats.fused_ops += block.len() as u64;
                    execution.execute(&block, &mut self.ctx);
                }
            }
        }
        let pending = &self.pending;
        let ctx = &mut self.ctx;
        self.drops.retain(|id| {
            let keep = pending.contains_key(id);
            if !keep {
                ctx.remove(*id);
            }
            keep
        });
    }

    /// Forgets a tensor the user dropped (once no queue uses it).
    pub(crate) fn drop_tensor(&mut self, id: TensorId) {
        if self.pending.contains_key(&id) {
            self.drops.push(id);
        } else {
            self.ctx.remove(id);
        }
    }
}
